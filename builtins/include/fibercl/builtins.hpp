// The OpenCL C builtin library, embedded as an archive of bitcode bundles (layout in
// fibercl/builtins_archive.h; built by builtins/CMakeLists.txt).
#pragma once
#include <cstddef>

namespace fibercl::builtins {
const unsigned char *archive();
size_t archiveSize();
} // namespace fibercl::builtins

// The OpenCL C builtin library, embedded as an archive of bitcode bundles (layout in
// fibercl/builtins_archive.h; built by builtins/CMakeLists.txt).
#pragma once
#include <cstddef>
#include <vector>

namespace fibercl::builtins {
const unsigned char *archive();
size_t archiveSize();

// OpenCL C headers every program may include (<fibercl/primitives.h>, ...), as
// include name and NUL-terminated text (builtins/primitives, embedded at build time).
struct ServedHeader {
  const char *includeName;
  const char *text;
};
std::vector<ServedHeader> servedHeaders();
} // namespace fibercl::builtins

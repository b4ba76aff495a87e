// The OpenCL C builtin library as embedded LLVM bitcode (see builtins/CMakeLists.txt).
#pragma once
#include <cstddef>

namespace fibercl::builtins {
const unsigned char *bitcode();
size_t bitcodeSize();
} // namespace fibercl::builtins

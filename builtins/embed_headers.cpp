// Embeds the OpenCL C headers FiberCL serves to every program (builtins/primitives),
// each followed by a NUL byte. The paths come from builtins/CMakeLists.txt.
#include "fibercl/builtins.hpp"

#define FCL_EMBED_HEADER(sym, path)                                                    \
  __asm__(".section .rodata\n"                                                         \
          ".globl " #sym "_begin\n.hidden " #sym "_begin\n" #sym "_begin:\n"           \
          ".incbin \"" path "\"\n"                                                     \
          ".byte 0\n"                                                                  \
          ".previous\n");                                                              \
  extern "C" const char sym##_begin[];

FCL_EMBED_HEADER(fibercl_primitives_h, FIBERCL_PRIMITIVES_DIR "/fibercl/primitives.h")
FCL_EMBED_HEADER(fibercl_cooperative_h, FIBERCL_PRIMITIVES_DIR "/fibercl/cooperative.h")

namespace fibercl::builtins {
std::vector<ServedHeader> servedHeaders() {
  return {{"fibercl/primitives.h", fibercl_primitives_h_begin},
          {"fibercl/cooperative.h", fibercl_cooperative_h_begin}};
}
} // namespace fibercl::builtins

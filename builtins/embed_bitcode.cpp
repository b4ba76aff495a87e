// Embeds the builtins bitcode (built by clang-19 from builtins/lib/*.cl) in the library.
#include "fibercl/builtins.hpp"

__asm__(".section .rodata\n"
        ".balign 16\n"
        ".globl fibercl_builtins_bc_begin\n.hidden fibercl_builtins_bc_begin\nfibercl_builtins_bc_begin:\n"
        ".incbin \"" FIBERCL_BUILTINS_BC "\"\n"
        ".globl fibercl_builtins_bc_end\n.hidden fibercl_builtins_bc_end\nfibercl_builtins_bc_end:\n"
        ".previous\n");

extern "C" const unsigned char fibercl_builtins_bc_begin[];
extern "C" const unsigned char fibercl_builtins_bc_end[];

namespace fibercl::builtins {
const unsigned char *bitcode() { return fibercl_builtins_bc_begin; }
size_t bitcodeSize() { return size_t(fibercl_builtins_bc_end - fibercl_builtins_bc_begin); }
} // namespace fibercl::builtins

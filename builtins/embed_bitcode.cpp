// Embeds the builtins archive (bitcode bundles split from builtins/lib/*.cl, see
// builtins/CMakeLists.txt) in the library.
#include "fibercl/builtins.hpp"

__asm__(".section .rodata\n"
        ".balign 16\n"
        ".globl fibercl_builtins_archive_begin\n.hidden fibercl_builtins_archive_begin\n"
        "fibercl_builtins_archive_begin:\n"
        ".incbin \"" FIBERCL_BUILTINS_ARCHIVE "\"\n"
        ".globl fibercl_builtins_archive_end\n.hidden fibercl_builtins_archive_end\n"
        "fibercl_builtins_archive_end:\n"
        ".previous\n");

extern "C" const unsigned char fibercl_builtins_archive_begin[];
extern "C" const unsigned char fibercl_builtins_archive_end[];

namespace fibercl::builtins {
const unsigned char *archive() { return fibercl_builtins_archive_begin; }
size_t archiveSize() {
  return size_t(fibercl_builtins_archive_end - fibercl_builtins_archive_begin);
}
} // namespace fibercl::builtins

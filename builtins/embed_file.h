// FCL_EMBED_FILE(sym, path): the bytes of the file at `path` (read by the assembler at
// build time) in the library's read-only data, from sym_begin to sym_end, followed by
// a NUL byte (so a text file is also a C string).
#pragma once

#define FCL_EMBED_FILE(sym, path)                                                                  \
  __asm__(".section .rodata\n"                                                                     \
          ".balign 16\n"                                                                           \
          ".globl " #sym "_begin\n.hidden " #sym "_begin\n" #sym "_begin:\n"                       \
          ".incbin \"" path "\"\n"                                                                 \
          ".globl " #sym "_end\n.hidden " #sym "_end\n" #sym "_end:\n"                             \
          ".byte 0\n"                                                                              \
          ".previous\n");                                                                          \
  extern "C" const unsigned char sym##_begin[];                                                    \
  extern "C" const unsigned char sym##_end[];

/* The layout of the builtins archive (builtins/tools/split_library.cpp writes it,
 * compiler/src/builtins_linker.cpp reads it). The library is split into bundles, one
 * per OpenCL C function name (every overload of `sin` in one bundle), so that a
 * build reads only the bundles its program calls rather than the declarations of all
 * ~11000 functions (that alone was ~45 ms of every build).
 *
 * All integers are little-endian uint32; offsets count from the archive's start.
 *
 *   header   magic "FCLBA001", bundle_count, symbol_count
 *   bundles  bundle_count x { offset, size }           LLVM bitcode, 4-byte aligned
 *   symbols  symbol_count x { name_offset, name_size, bundle }, sorted by name (bytes)
 *   names    the symbol names, not NUL-terminated
 *   then the bitcode of each bundle
 */
#ifndef FIBERCL_BUILTINS_ARCHIVE_H
#define FIBERCL_BUILTINS_ARCHIVE_H

#define FIBERCL_BUILTINS_ARCHIVE_MAGIC "FCLBA001"
#define FIBERCL_BUILTINS_ARCHIVE_MAGIC_SIZE 8
#define FIBERCL_BUILTINS_ARCHIVE_HEADER_SIZE 16 /* magic + two counts */
#define FIBERCL_BUILTINS_ARCHIVE_BUNDLE_ENTRY_SIZE 8
#define FIBERCL_BUILTINS_ARCHIVE_SYMBOL_ENTRY_SIZE 12

#endif

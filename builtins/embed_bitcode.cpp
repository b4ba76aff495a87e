// Embeds the builtins archive (bitcode bundles split from builtins/lib/*.cl, see
// builtins/CMakeLists.txt) in the library.
#include "fibercl/builtins.hpp"

#include "embed_file.h"

FCL_EMBED_FILE(fibercl_builtins_archive, FIBERCL_BUILTINS_ARCHIVE)

namespace fibercl::builtins {
const unsigned char *archive() { return fibercl_builtins_archive_begin; }
size_t archiveSize() {
  return size_t(fibercl_builtins_archive_end - fibercl_builtins_archive_begin);
}
} // namespace fibercl::builtins

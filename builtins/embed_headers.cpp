// Embeds the OpenCL C headers FiberCL serves to every program (builtins/primitives).
// The paths come from builtins/CMakeLists.txt.
#include "fibercl/builtins.hpp"

#include "embed_file.h"

FCL_EMBED_FILE(fibercl_primitives_h, FIBERCL_PRIMITIVES_DIR "/fibercl/primitives.h")
FCL_EMBED_FILE(fibercl_cooperative_h, FIBERCL_PRIMITIVES_DIR "/fibercl/cooperative.h")

namespace fibercl::builtins {
std::vector<ServedHeader> servedHeaders() {
  return {{"fibercl/primitives.h", reinterpret_cast<const char *>(fibercl_primitives_h_begin)},
          {"fibercl/cooperative.h", reinterpret_cast<const char *>(fibercl_cooperative_h_begin)}};
}
} // namespace fibercl::builtins

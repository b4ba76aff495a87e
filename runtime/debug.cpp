// FIBERCL_DEBUG channels (parsed in fibercl/compiler/debug.hpp), the diagnostic stream, and
// error code names.
#include "runtime/debug.hpp"
#include "runtime/error.hpp"

#include "fibercl/compiler/debug.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace fibercl::runtime {

bool debugEnabled(std::string_view channel) {
  return compiler::debugChannel(std::string(channel).c_str());
}

void debugLog(std::string_view channel, std::string_view message) {
  std::fprintf(stderr, "[fibercl %.*s] %.*s\n", int(channel.size()), channel.data(),
               int(message.size()), message.data());
}

const char *errorName(cl_int code) {
  switch (code) {
#define FCL_ERROR(code)                                                                            \
  case code:                                                                                       \
    return #code;
#include "fibercl/error_codes.def"
  default:
    return "CL_<unknown error>";
  }
}

} // namespace fibercl::runtime

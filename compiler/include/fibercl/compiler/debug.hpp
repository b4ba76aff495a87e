// FIBERCL_DEBUG=<comma-separated channels>: the one switch for diagnostics, parsed
// here for the compiler and the runtime alike. Read at each call: tests and tools
// change it while the process runs (it is only asked on diagnostic paths).
#pragma once

#include <cstdlib>
#include <cstring>

namespace fibercl::compiler {

inline bool debugChannel(const char *channel) {
  const char *env = std::getenv("FIBERCL_DEBUG");
  if (!env)
    return false;
  size_t n = std::strlen(channel);
  for (const char *p = env; *p;) {
    const char *end = std::strchr(p, ',');
    size_t len = end ? size_t(end - p) : std::strlen(p);
    if ((len == n && std::strncmp(p, channel, n) == 0) || (len == 3 && !std::strncmp(p, "all", 3)))
      return true;
    if (!end)
      break;
    p = end + 1;
  }
  return false;
}

} // namespace fibercl::compiler

// On-disk cache of executable binaries built from source, keyed by a hash of
// everything that affects the code: FiberCL's build, the builtins library, the host
// CPU, the options and the source.
//
// FIBERCL_CACHE_DIR picks the directory (default $XDG_CACHE_HOME/fibercl or
// ~/.cache/fibercl); FIBERCL_CACHE=0 turns the cache off; FIBERCL_CACHE_MAX_MB bounds
// its size (disk_cache_trim.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace fibercl::compiler {

std::string cacheKey(const std::string &source, const std::string &options);

// An executable binary and the build log (warnings) that came with it.
struct CachedBuild {
  std::vector<uint8_t> binary;
  std::string log;
};

std::optional<CachedBuild> cacheLoad(const std::string &key);
void cacheStore(const std::string &key, const CachedBuild &entry);

} // namespace fibercl::compiler

// On-disk cache of binaries -- executables built from source, compiled objects,
// linked executables and libraries -- keyed by a hash of everything that affects the
// code: FiberCL's build, the builtins library, the host CPU, the options and the
// inputs (source and headers, or the linked binaries).
//
// FIBERCL_CACHE_DIR picks the directory (default $XDG_CACHE_HOME/fibercl or
// ~/.cache/fibercl); FIBERCL_CACHE=0 turns the cache off; FIBERCL_CACHE_MAX_MB bounds
// its size (disk_cache_trim.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace fibercl::compiler {

// Environment variables that change what the compiler produces (FIBERCL_BARRIERS), as
// part of every cache key.
std::string environmentKey();
std::string cacheKey(const std::string &source, const std::string &options);

// A binary (any kind; the caller checks it is the one it wants) and the build log
// (warnings) that came with it.
struct CachedBuild {
  std::vector<uint8_t> binary;
  std::string log;
};

std::optional<CachedBuild> cacheLoad(const std::string &key);
void cacheStore(const std::string &key, const CachedBuild &entry);

} // namespace fibercl::compiler

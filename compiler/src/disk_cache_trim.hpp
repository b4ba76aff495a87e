// Keeps the on-disk build cache under its size limit: FIBERCL_CACHE_MAX_MB (default
// 512; 0 = no limit). Entries are evicted least recently used first (a cache hit
// refreshes its entry's time), down to three quarters of the limit, so that a
// conformance run building thousands of programs does not fill the disk.
#pragma once

#include <cstdint>
#include <string>

namespace fibercl::compiler {

// Called after each entry stored in `dir` (`bytes` long): on this process's first
// store, then after every limit/16 bytes it stores, checks the directory's size.
void noteCacheStore(const std::string &dir, uint64_t bytes);

// Marks the entry file `path` as just used.
void touchCacheEntry(const std::string &path);

} // namespace fibercl::compiler

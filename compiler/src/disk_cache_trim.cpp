// Size limit of the on-disk build cache (disk_cache_trim.hpp).
#include "disk_cache_trim.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <vector>

namespace fibercl::compiler {
namespace {

uint64_t cacheSizeLimit() {
  const char *env = std::getenv("FIBERCL_CACHE_MAX_MB");
  uint64_t mb = 512;
  if (env && *env) {
    char *end = nullptr;
    unsigned long long v = std::strtoull(env, &end, 10);
    if (end && *end == '\0')
      mb = v;
  }
  return mb << 20;
}

// An entry is <key>.log + <key>.bin; its age is the newer of the two times.
struct Entry {
  uint64_t bytes = 0;
  int64_t time = 0;
  std::vector<std::string> files;
};

void trimCacheDirectory(const std::string &dir, uint64_t limit) {
  DIR *d = opendir(dir.c_str());
  if (!d)
    return;
  std::map<std::string, Entry> entries;
  uint64_t total = 0;
  while (dirent *e = readdir(d)) {
    std::string name = e->d_name;
    size_t dot = name.rfind('.');
    if (dot == std::string::npos ||
        (name.compare(dot, 4, ".bin") && name.compare(dot, 4, ".log")) || dot + 4 != name.size())
      continue; // not an entry (".", "..", files being written)
    std::string path = dir + "/" + name;
    struct stat st;
    if (stat(path.c_str(), &st) != 0)
      continue;
    Entry &entry = entries[name.substr(0, dot)];
    entry.bytes += uint64_t(st.st_size);
    entry.time =
        std::max<int64_t>(entry.time, int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec);
    entry.files.push_back(path);
    total += uint64_t(st.st_size);
  }
  closedir(d);
  if (total <= limit)
    return;
  std::vector<const Entry *> byAge;
  for (const auto &[key, entry] : entries)
    byAge.push_back(&entry);
  std::sort(byAge.begin(), byAge.end(),
            [](const Entry *a, const Entry *b) { return a->time < b->time; });
  uint64_t target = limit / 4 * 3;
  for (const Entry *entry : byAge) {
    if (total <= target)
      break;
    for (const std::string &file : entry->files)
      std::remove(file.c_str()); // another process may have removed it already
    total -= std::min(total, entry->bytes);
  }
}

} // namespace

void noteCacheStore(const std::string &dir, uint64_t bytes) {
  static std::mutex mutex;
  static bool checked = false;
  static uint64_t sinceCheck = 0;
  uint64_t limit = cacheSizeLimit();
  if (limit == 0)
    return;
  {
    std::lock_guard<std::mutex> lock(mutex);
    sinceCheck += bytes;
    if (checked && sinceCheck < limit / 16)
      return;
    checked = true;
    sinceCheck = 0;
  }
  trimCacheDirectory(dir, limit);
}

void touchCacheEntry(const std::string &path) {
  utimensat(AT_FDCWD, path.c_str(), nullptr, 0); // best effort: a read-only cache stays
}

} // namespace fibercl::compiler

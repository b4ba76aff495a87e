// FIBERCL_DUMP_SOURCES (source_dump.hpp).
#include "runtime/source_dump.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <unistd.h>

namespace fibercl::runtime {
namespace {

uint64_t fnv1a(const std::string &s, uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : s)
    h = (h ^ c) * 1099511628211ull;
  return h;
}

// Writes `text` to `path` through a temporary file, so that a reader never sees half.
void writeWhole(const std::string &path, const std::string &text) {
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    if (!out)
      return;
  }
  std::rename(tmp.c_str(), path.c_str());
}

} // namespace

void dumpSource(const std::string &source, const std::string &options) {
  const char *dir = std::getenv("FIBERCL_DUMP_SOURCES");
  if (!dir || !*dir)
    return;
  char name[17];
  std::snprintf(name, sizeof name, "%016llx",
                static_cast<unsigned long long>(fnv1a(options, fnv1a(source) ^ 0x9e37)));
  std::string base = std::string(dir) + "/" + name;
  writeWhole(base + ".options", options + "\n");
  writeWhole(base + ".cl", source);
}

} // namespace fibercl::runtime

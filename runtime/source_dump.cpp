// FIBERCL_DUMP_SOURCES (source_dump.hpp).
#include "runtime/source_dump.hpp"

#include "fibercl/compiler/compiler.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
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

// An include name the application chose must not write outside the header folder.
bool safeIncludeName(const std::string &name) {
  if (name.empty() || name.front() == '/')
    return false;
  for (const auto &part : std::filesystem::path(name))
    if (part == "..")
      return false;
  return true;
}

} // namespace

void dumpSource(Capture how, const std::string &source, const std::string &options,
                const std::vector<compiler::Header> &headers) {
  const char *dir = std::getenv("FIBERCL_DUMP_SOURCES");
  if (!dir || !*dir)
    return;
  uint64_t hash = fnv1a(options, fnv1a(source) ^ 0x9e37) + (how == Capture::Compile);
  for (const compiler::Header &h : headers)
    hash = fnv1a(h.source, fnv1a(h.includeName, hash) ^ 0x51);
  char name[17];
  std::snprintf(name, sizeof name, "%016llx", static_cast<unsigned long long>(hash));
  std::string base = std::string(dir) + "/" + name;
  // Headers first: the .cl file is what marks a capture complete.
  for (const compiler::Header &h : headers) {
    if (!safeIncludeName(h.includeName))
      continue;
    std::filesystem::path path = base + ".headers/" + h.includeName;
    std::error_code ignored;
    std::filesystem::create_directories(path.parent_path(), ignored);
    writeWhole(path.string(), h.source);
  }
  if (how == Capture::Compile)
    writeWhole(base + ".compile", "");
  writeWhole(base + ".options", options + "\n");
  writeWhole(base + ".cl", source);
}

} // namespace fibercl::runtime

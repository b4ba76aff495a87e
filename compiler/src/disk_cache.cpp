// On-disk cache of executable binaries (disk_cache.hpp). Entries are written to a
// temporary file and renamed, so concurrent processes never read a partial entry.
#include "disk_cache.hpp"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/SHA256.h>
#include <llvm/Support/xxhash.h>

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sys/stat.h>
#include <unistd.h>

#include "binary_format.hpp"
#include "fibercl/builtins.hpp"
#include "host_target.hpp"

namespace fibercl::compiler {
namespace {

// Identifies the compiler that produced an entry: a hash of the shared object this
// code is linked into (libfibercl.so, or the test executable), so that any rebuild
// that changes the code invalidates the cache -- not only one that recompiles this
// file. Falls back to this file's compile time if the object cannot be read.
std::string compilerIdentity() {
  static const std::string id = [] {
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&compilerIdentity), &info) && info.dli_fname) {
      std::ifstream in(info.dli_fname, std::ios::binary);
      std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (in.good() || in.eof())
        if (!bytes.empty())
          return std::to_string(llvm::xxh3_64bits(
              llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(bytes.data()),
                                      bytes.size())));
    }
    return std::string(__DATE__ " " __TIME__);
  }();
  return id;
}

std::string cacheDirectory() {
  const char *enabled = std::getenv("FIBERCL_CACHE");
  if (enabled && std::string(enabled) == "0")
    return {};
  if (const char *dir = std::getenv("FIBERCL_CACHE_DIR"))
    return dir;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"))
    return std::string(xdg) + "/fibercl";
  if (const char *home = std::getenv("HOME"))
    return std::string(home) + "/.cache/fibercl";
  return {};
}

bool makeDirectories(const std::string &path) {
  for (size_t pos = 1; pos != std::string::npos;) {
    pos = path.find('/', pos + 1);
    std::string prefix = path.substr(0, pos);
    if (mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST)
      return false;
  }
  return true;
}

} // namespace

std::string cacheKey(const std::string &source, const std::string &options) {
  static const uint64_t builtinsHash = llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(
      builtins::bitcode(), builtins::bitcodeSize()));
  llvm::SHA256 sha;
  auto add = [&](llvm::StringRef s) {
    uint64_t n = s.size();
    sha.update(llvm::StringRef(reinterpret_cast<const char *>(&n), sizeof n));
    sha.update(s);
  };
  add(compilerIdentity());
  add(std::to_string(builtinsHash));
  add(hostTargetKey());
  add(options);
  add(source);
  return llvm::toHex(sha.final(), /*LowerCase=*/true);
}

namespace {

std::optional<std::string> readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

bool writeFileAtomically(const std::string &path, const char *data, size_t size) {
  std::string temp = path + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(temp, std::ios::binary);
    out.write(data, std::streamsize(size));
    if (!out) {
      std::remove(temp.c_str());
      return false;
    }
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    std::remove(temp.c_str());
    return false;
  }
  return true;
}

} // namespace

std::optional<CachedBuild> cacheLoad(const std::string &key) {
  std::string dir = cacheDirectory();
  if (dir.empty())
    return std::nullopt;
  auto log = readFile(dir + "/" + key + ".log"); // written first, so present if .bin is
  auto bin = readFile(dir + "/" + key + ".bin");
  if (!log || !bin)
    return std::nullopt;
  CachedBuild entry{std::vector<uint8_t>(bin->begin(), bin->end()), *log};
  DecodedBinary decoded;
  if (!decodeBinary(entry.binary.data(), entry.binary.size(), decoded) ||
      decoded.kind != BinaryKind::Executable)
    return std::nullopt; // damaged entry: rebuild (and overwrite it)
  return entry;
}

void cacheStore(const std::string &key, const CachedBuild &entry) {
  std::string dir = cacheDirectory();
  if (dir.empty() || !makeDirectories(dir))
    return;
  std::string base = dir + "/" + key;
  if (writeFileAtomically(base + ".log", entry.log.data(), entry.log.size()))
    writeFileAtomically(base + ".bin", reinterpret_cast<const char *>(entry.binary.data()),
                        entry.binary.size());
}

} // namespace fibercl::compiler

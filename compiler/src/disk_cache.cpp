// On-disk cache of executable binaries (disk_cache.hpp). Entries are written to a
// temporary file and renamed, so concurrent processes never read a partial entry.
#include "disk_cache.hpp"
#include "checks.hpp"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SHA256.h>
#include <llvm/Support/xxhash.h>

#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sys/stat.h>
#include <unistd.h>

#include "binary_format.hpp"
#include "disk_cache_trim.hpp"
#include "fibercl/builtins.hpp"
#include "host_target.hpp"
#include "kernel_metadata.hpp"

namespace fibercl::compiler {
namespace {

// The GNU build ID of the loaded object that contains `address` (the linker's hash of
// its contents), or "" if it has none.
std::string buildIdOf(const void *address) {
  struct Search {
    uintptr_t address;
    std::string id;
  } search{reinterpret_cast<uintptr_t>(address), {}};
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *data) {
        auto *s = static_cast<Search *>(data);
        bool contains = false;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr) &ph = info->dlpi_phdr[i];
          uintptr_t start = info->dlpi_addr + ph.p_vaddr;
          contains |=
              ph.p_type == PT_LOAD && s->address >= start && s->address < start + ph.p_memsz;
        }
        if (!contains)
          return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr) &ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_NOTE)
            continue;
          auto *p = reinterpret_cast<const char *>(info->dlpi_addr + ph.p_vaddr);
          const char *end = p + ph.p_memsz;
          while (p + sizeof(ElfW(Nhdr)) <= end) {
            auto *note = reinterpret_cast<const ElfW(Nhdr) *>(p);
            const char *name = p + sizeof(ElfW(Nhdr));
            const char *desc = name + ((note->n_namesz + 3) & ~3u);
            if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 &&
                std::memcmp(name, "GNU", 4) == 0 && desc + note->n_descsz <= end) {
              s->id = llvm::toHex(llvm::StringRef(desc, note->n_descsz));
              return 1;
            }
            p = desc + ((note->n_descsz + 3) & ~3u);
          }
        }
        return 1;
      },
      &search);
  return search.id;
}

// Identifies the compiler that produced an entry: the build ID of the shared object
// this code is linked into (libfibercl.so, or a test executable), else a hash of its
// file, so that any rebuild that changes the code invalidates the cache -- not only
// one that recompiles this file. Falls back to this file's compile time.
std::string compilerIdentity() {
  static const std::string id = [] {
    std::string buildId = buildIdOf(reinterpret_cast<void *>(&compilerIdentity));
    if (!buildId.empty())
      return buildId;
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&compilerIdentity), &info) && info.dli_fname)
      if (auto file = llvm::MemoryBuffer::getFile(info.dli_fname))
        return std::to_string(llvm::xxh3_64bits(
            llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>((*file)->getBufferStart()),
                                    (*file)->getBufferSize())));
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

std::string environmentKey() {
  const char *barriers = std::getenv("FIBERCL_BARRIERS");
  return std::string("FIBERCL_BARRIERS=") + (barriers ? barriers : "") +
         " sub-groups=" + std::to_string(defaultSubGroupSize()) + checksKey();
}

std::string cacheKey(const std::string &source, const std::string &options) {
  static const uint64_t builtinsHash =
      llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(builtins::archive(), builtins::archiveSize()));
  llvm::SHA256 sha;
  auto add = [&](llvm::StringRef s) {
    uint64_t n = s.size();
    sha.update(llvm::StringRef(reinterpret_cast<const char *>(&n), sizeof n));
    sha.update(s);
  };
  add(compilerIdentity());
  add(std::to_string(builtinsHash));
  add(hostTargetKey());
  add(environmentKey());
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
  if (!decodeBinary(entry.binary.data(), entry.binary.size(), decoded))
    return std::nullopt; // damaged entry: rebuild (and overwrite it)
  touchCacheEntry(dir + "/" + key + ".bin");
  return entry;
}

void cacheStore(const std::string &key, const CachedBuild &entry) {
  std::string dir = cacheDirectory();
  if (dir.empty() || !makeDirectories(dir))
    return;
  std::string base = dir + "/" + key;
  if (writeFileAtomically(base + ".log", entry.log.data(), entry.log.size()) &&
      writeFileAtomically(base + ".bin", reinterpret_cast<const char *>(entry.binary.data()),
                          entry.binary.size()))
    noteCacheStore(dir, entry.log.size() + entry.binary.size());
}

} // namespace fibercl::compiler

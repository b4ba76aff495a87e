// Builtins linking (builtins_linker.hpp).
#include "builtins_linker.hpp"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/MemoryBuffer.h>

#include <cstring>
#include <optional>
#include <set>
#include <unordered_set>

#include "fibercl/builtins.hpp"
#include "fibercl/builtins_archive.h"

namespace fibercl::compiler {
namespace {

uint32_t read32(const unsigned char *p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

// A view of the embedded archive; bounds are checked once, when it is opened.
class Archive {
public:
  static const Archive *embedded() {
    static const std::optional<Archive> archive =
        open(builtins::archive(), builtins::archiveSize());
    return archive ? &*archive : nullptr;
  }

  // The bundle defining `symbol`, if any (binary search of the sorted index).
  std::optional<uint32_t> bundleOf(llvm::StringRef symbol) const {
    uint32_t low = 0, high = symbolCount_;
    while (low < high) {
      uint32_t mid = low + (high - low) / 2;
      int order = symbolName(mid).compare(symbol);
      if (order == 0)
        return read32(symbolEntry(mid) + 8);
      if (order < 0)
        low = mid + 1;
      else
        high = mid;
    }
    return std::nullopt;
  }

  llvm::StringRef bundle(uint32_t index) const {
    const unsigned char *entry = bundleEntry(index);
    return {reinterpret_cast<const char *>(bytes_ + read32(entry)), read32(entry + 4)};
  }

private:
  static std::optional<Archive> open(const unsigned char *bytes, size_t size) {
    Archive a;
    a.bytes_ = bytes;
    if (size < FIBERCL_BUILTINS_ARCHIVE_HEADER_SIZE ||
        std::memcmp(bytes, FIBERCL_BUILTINS_ARCHIVE_MAGIC, FIBERCL_BUILTINS_ARCHIVE_MAGIC_SIZE))
      return std::nullopt;
    a.bundleCount_ = read32(bytes + 8);
    a.symbolCount_ = read32(bytes + 12);
    a.symbols_ = FIBERCL_BUILTINS_ARCHIVE_HEADER_SIZE +
                 size_t(a.bundleCount_) * FIBERCL_BUILTINS_ARCHIVE_BUNDLE_ENTRY_SIZE;
    if (a.symbols_ + size_t(a.symbolCount_) * FIBERCL_BUILTINS_ARCHIVE_SYMBOL_ENTRY_SIZE > size)
      return std::nullopt;
    for (uint32_t i = 0; i < a.bundleCount_; ++i) {
      const unsigned char *e = a.bundleEntry(i);
      if (size_t(read32(e)) + read32(e + 4) > size)
        return std::nullopt;
    }
    for (uint32_t i = 0; i < a.symbolCount_; ++i) {
      const unsigned char *e = a.symbolEntry(i);
      if (size_t(read32(e)) + read32(e + 4) > size || read32(e + 8) >= a.bundleCount_)
        return std::nullopt;
    }
    return a;
  }

  const unsigned char *bundleEntry(uint32_t i) const {
    return bytes_ + FIBERCL_BUILTINS_ARCHIVE_HEADER_SIZE +
           size_t(i) * FIBERCL_BUILTINS_ARCHIVE_BUNDLE_ENTRY_SIZE;
  }
  const unsigned char *symbolEntry(uint32_t i) const {
    return bytes_ + symbols_ + size_t(i) * FIBERCL_BUILTINS_ARCHIVE_SYMBOL_ENTRY_SIZE;
  }
  llvm::StringRef symbolName(uint32_t i) const {
    const unsigned char *e = symbolEntry(i);
    return {reinterpret_cast<const char *>(bytes_ + read32(e)), read32(e + 4)};
  }

  const unsigned char *bytes_ = nullptr;
  uint32_t bundleCount_ = 0, symbolCount_ = 0;
  size_t symbols_ = 0;
};

} // namespace

bool linkBuiltins(llvm::Module &m, std::string &log) {
  const Archive *archive = Archive::embedded();
  if (!archive) {
    log += "internal error: the embedded builtins archive is corrupt\n";
    return false;
  }
  // Linked bundles declare what they call from other bundles: repeat until no
  // declaration is left that the archive defines.
  std::unordered_set<std::string> requested;
  for (;;) {
    std::set<uint32_t> bundles;
    for (const llvm::Function &f : m) {
      if (!f.isDeclaration() || f.isIntrinsic())
        continue;
      std::optional<uint32_t> bundle = archive->bundleOf(f.getName());
      if (!bundle)
        continue;
      if (!requested.insert(f.getName().str()).second) {
        log += "internal error: the builtins archive does not define '" + f.getName().str() + "'\n";
        return false;
      }
      bundles.insert(*bundle);
    }
    if (bundles.empty())
      return true;
    for (uint32_t index : bundles) {
      auto lazy = llvm::getOwningLazyBitcodeModule(
          llvm::MemoryBuffer::getMemBuffer(archive->bundle(index), "fibercl-builtins", false),
          m.getContext());
      if (!lazy) {
        log += "internal error: cannot read the builtins library: " +
               llvm::toString(lazy.takeError()) + "\n";
        return false;
      }
      (*lazy)->setDataLayout(m.getDataLayout());
      (*lazy)->setTargetTriple(m.getTargetTriple());
      if (llvm::Linker::linkModules(m, std::move(*lazy), llvm::Linker::LinkOnlyNeeded)) {
        log += "internal error: cannot link the builtins library\n";
        return false;
      }
    }
  }
}

} // namespace fibercl::compiler

// Encoding and decoding of FiberCL program binaries (layout in binary_format.hpp).
#include "binary_format.hpp"

#include <cstring>

#include <llvm/Config/llvm-config.h>

namespace fibercl::compiler {
namespace {

constexpr char kMagic[8] = {'F', 'I', 'B', 'E', 'R', 'C', 'L', '\0'};
// 4: yields/mayBlock flags, waiting sites; 5: cooperative, site functions; 6: barrier
// regions; 7: small-code-model objects; 8: yield points skip a null yield state (older
// code would dereference it: unscheduled launches now pass none); 9: sub-group sizes
// and sub-group barrier sites.
constexpr uint32_t kFormatVersion = 14;
constexpr uint32_t kLLVMMajor = LLVM_VERSION_MAJOR;

class Writer {
public:
  std::vector<uint8_t> bytes;
  void raw(const void *p, size_t n) {
    auto *b = static_cast<const uint8_t *>(p);
    bytes.insert(bytes.end(), b, b + n);
  }
  void u32(uint32_t v) { raw(&v, 4); }
  void u64(uint64_t v) { raw(&v, 8); }
  void str(const std::string &s) {
    u64(s.size());
    raw(s.data(), s.size());
  }
};

class Reader {
public:
  Reader(const uint8_t *p, size_t n) : p_(p), end_(p + n) {}
  bool ok = true;
  bool raw(void *out, size_t n) {
    if (!ok || size_t(end_ - p_) < n)
      return ok = false;
    std::memcpy(out, p_, n);
    p_ += n;
    return true;
  }
  uint32_t u32() {
    uint32_t v = 0;
    raw(&v, 4);
    return v;
  }
  uint64_t u64() {
    uint64_t v = 0;
    raw(&v, 8);
    return v;
  }
  std::string str() {
    uint64_t n = u64();
    if (!ok || uint64_t(end_ - p_) < n) {
      ok = false;
      return {};
    }
    std::string s(reinterpret_cast<const char *>(p_), n);
    p_ += n;
    return s;
  }

private:
  const uint8_t *p_;
  const uint8_t *end_;
};

void writeKernel(Writer &w, const KernelInfo &k) {
  w.str(k.name);
  w.str(k.attributes);
  for (uint64_t v : k.reqdWorkGroupSize)
    w.u64(v);
  w.u64(k.staticLocalSize);
  w.u64(k.privateMemSize);
  w.u32(k.usesBarriers);
  w.u32(k.barrierRegions);
  w.u32(k.usesPrintf);
  w.u32(uint32_t(k.yields) | uint32_t(k.mayBlock) << 1 | uint32_t(k.cooperative) << 2 |
        uint32_t(k.subGroupVectors) << 3 | uint32_t(k.boundsChecked) << 4 |
        uint32_t(k.uninitChecked) << 5 | uint32_t(k.racesChecked) << 6 |
        uint32_t(k.weakMemory) << 7);
  w.u64(k.raceReadOnlyArgs);
  w.u64(k.raceOwnOffsetArgs);
  w.u32(k.subGroupSize);
  w.u32(k.requiredSubGroupSize);
  w.u32(uint32_t(k.sites.size()));
  for (const auto &site : k.sites) {
    w.u32(site.id);
    w.u32(uint32_t(site.kind) | uint32_t(site.waiting) << 8);
    w.u32(site.line);
    w.str(site.file);
    w.str(site.function);
    w.str(site.progress);
    w.str(site.object);
    w.u64(site.objectBytes);
  }
  w.u32(uint32_t(k.args.size()));
  for (const auto &a : k.args) {
    w.u32(uint32_t(a.kind));
    w.u32(a.size);
    w.u32(a.addressQualifier);
    w.u32(a.accessQualifier);
    w.u64(a.typeQualifier);
    w.str(a.typeName);
    w.str(a.name);
  }
}

KernelInfo readKernel(Reader &r) {
  KernelInfo k;
  k.name = r.str();
  k.attributes = r.str();
  for (uint64_t &v : k.reqdWorkGroupSize)
    v = r.u64();
  k.staticLocalSize = r.u64();
  k.privateMemSize = r.u64();
  k.usesBarriers = r.u32() != 0;
  k.barrierRegions = r.u32() != 0;
  k.usesPrintf = r.u32() != 0;
  uint32_t scheduling = r.u32();
  k.yields = scheduling & 1;
  k.mayBlock = scheduling & 2;
  k.cooperative = scheduling & 4;
  k.subGroupVectors = scheduling & 8;
  k.boundsChecked = scheduling & 16;
  k.uninitChecked = scheduling & 32;
  k.racesChecked = scheduling & 64;
  k.weakMemory = scheduling & 128;
  k.raceReadOnlyArgs = r.u64();
  k.raceOwnOffsetArgs = r.u64();
  k.subGroupSize = r.u32();
  k.requiredSubGroupSize = r.u32();
  uint32_t sites = r.u32();
  for (uint32_t i = 0; i < sites && r.ok; ++i) {
    SiteInfo site;
    site.id = r.u32();
    uint32_t kind = r.u32();
    if ((kind & 0xff) > uint32_t(SiteInfo::kLastKind) || kind >> 9)
      r.ok = false;
    site.kind = SiteInfo::Kind(kind & 0xff);
    site.waiting = kind >> 8;
    site.line = r.u32();
    site.file = r.str();
    site.function = r.str();
    site.progress = r.str();
    site.object = r.str();
    site.objectBytes = r.u64();
    k.sites.push_back(std::move(site));
  }
  uint32_t n = r.u32();
  for (uint32_t i = 0; i < n && r.ok; ++i) {
    KernelArg a;
    uint32_t kind = r.u32();
    if (kind > uint32_t(ArgKind::Queue))
      r.ok = false;
    a.kind = ArgKind(kind);
    a.size = r.u32();
    a.addressQualifier = r.u32();
    a.accessQualifier = r.u32();
    a.typeQualifier = r.u64();
    a.typeName = r.str();
    a.name = r.str();
    k.args.push_back(std::move(a));
  }
  return k;
}

} // namespace

uint32_t binaryFormatVersion() { return kFormatVersion; }

Binary encodeBinary(BinaryKind kind, const std::vector<KernelInfo> &kernels,
                    const std::string &bitcode, const std::string &target,
                    const std::string &object) {
  Writer w;
  w.raw(kMagic, sizeof kMagic);
  w.u32(kFormatVersion);
  w.u32(uint32_t(kind));
  w.u32(kLLVMMajor);
  w.u32(uint32_t(kernels.size()));
  for (const auto &k : kernels)
    writeKernel(w, k);
  w.str(bitcode);
  w.str(target);
  w.str(object);
  return Binary{kind, std::move(w.bytes)};
}

bool decodeBinary(const uint8_t *bytes, size_t size, DecodedBinary &out) {
  if (!bytes || size < sizeof kMagic || std::memcmp(bytes, kMagic, sizeof kMagic) != 0)
    return false;
  Reader r(bytes + sizeof kMagic, size - sizeof kMagic);
  if (r.u32() != kFormatVersion)
    return false;
  uint32_t kind = r.u32();
  if (kind < uint32_t(BinaryKind::CompiledObject) || kind > uint32_t(BinaryKind::Executable))
    return false;
  if (r.u32() != kLLVMMajor)
    return false;
  out.kind = BinaryKind(kind);
  uint32_t nk = r.u32();
  for (uint32_t i = 0; i < nk && r.ok; ++i)
    out.kernels.push_back(readKernel(r));
  out.bitcode = r.str();
  out.target = r.str();
  out.object = r.str();
  return r.ok && !out.bitcode.empty();
}

} // namespace fibercl::compiler

// cl_kernel: argument state and the argument snapshot taken at enqueue time.
#include "runtime/kernel.hpp"
#include "runtime/context.hpp"
#include "runtime/error.hpp"
#include "runtime/memory.hpp"
#include "runtime/program.hpp"
#include "runtime/svm.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace fibercl::runtime {

namespace {
constexpr size_t kLocalAlign = 128;
constexpr size_t alignUp(size_t v, size_t a) { return (v + a - 1) / a * a; }
} // namespace

Kernel::Kernel(Program &program, std::shared_ptr<const Program::Built> built,
               const compiler::KernelInfo &info, fcl_work_group_fn entry)
    : program_(program), built_(std::move(built)), info_(&info), entry_(entry),
      vectorEntry_(info.subGroupVectors ? built_->entry(info.name + ".sgvec") : nullptr),
      args_(info.args.size()) {
  computeLayout();
}

Kernel::Kernel(const Kernel &other)
    : Object(), program_(other.program_), built_(other.built_), info_(other.info_),
      entry_(other.entry_), vectorEntry_(other.vectorEntry_), args_(other.args_),
      offsets_(other.offsets_), values_(other.values_) {
  program_->kernelAttached();
}

Kernel::~Kernel() { program_->kernelDetached(); }

fcl_work_group_fn Kernel::specialisedEntry(const uint64_t localSize[3], bool vectorCopy) const {
  return built_->executable ? built_->executable->specialisedEntry(
                                  vectorCopy ? name() + ".sgvec" : name(), localSize)
                            : nullptr;
}

void Kernel::computeLayout() {
  size_t off = 0;
  offsets_.resize(info_->args.size());
  for (size_t i = 0; i < info_->args.size(); ++i) {
    offsets_[i] = off;
    off += alignUp(std::max<size_t>(info_->args[i].size, 8), 16);
  }
  values_.assign(off, 0);
}

void Kernel::setValue(cl_uint index, const void *value, size_t size) {
  std::memcpy(&values_[offsets_[index]], value, size);
  args_[index].mem = nullptr;
  args_[index].set = true;
}

void Kernel::setMem(cl_uint index, Mem *mem) {
  args_[index].mem = mem;
  args_[index].memSerial = mem ? mem->serial() : 0;
  args_[index].address = 0;
  args_[index].set = true;
}

void Kernel::setAddress(cl_uint index, const void *address) {
  args_[index].mem = nullptr;
  args_[index].address = reinterpret_cast<uint64_t>(address);
  args_[index].set = true;
}

void Kernel::setLocal(cl_uint index, size_t size) {
  args_[index].localSize = size;
  args_[index].set = true;
}

bool Kernel::allArgsSet() const {
  for (const auto &a : args_)
    if (!a.set)
      return false;
  return true;
}

uint64_t Kernel::localMemSize() const {
  uint64_t total = info_->staticLocalSize;
  for (size_t i = 0; i < args_.size(); ++i)
    if (info_->args[i].kind == compiler::ArgKind::LocalPointer)
      total = alignUp(total, kLocalAlign) + args_[i].localSize;
  return total;
}

Kernel::Snapshot Kernel::snapshot() const {
  Snapshot s;
  size_t n = args_.size();
  size_t pointers = alignUp(n * sizeof(void *), 16);
  s.storage.reset(new unsigned char[pointers + values_.size() + 16]);
  s.args = reinterpret_cast<void **>(s.storage.get());
  unsigned char *values = s.storage.get() + pointers;
  if (!values_.empty())
    std::memcpy(values, values_.data(), values_.size());
  uint64_t local = info_->staticLocalSize;
  for (size_t i = 0; i < n; ++i) {
    unsigned char *slot = values + offsets_[i];
    s.args[i] = slot;
    switch (info_->args[i].kind) {
    case compiler::ArgKind::GlobalPointer:
    case compiler::ArgKind::ConstantPointer:
    case compiler::ArgKind::Image:
    case compiler::ArgKind::Pipe: {
      uint64_t addr = args_[i].address;
      if (args_[i].mem) {
        Ref<Mem> m = Mem::lookUp(args_[i].mem, args_[i].memSerial);
        if (!m)
          throw Error(CL_INVALID_KERNEL_ARGS,
                      ("argument " + std::to_string(i) + "'s memory object was released").c_str());
        addr = m->kernelAddress();
        s.mems.push_back(std::move(m));
      }
      std::memcpy(slot, &addr, sizeof addr);
      break;
    }
    case compiler::ArgKind::LocalPointer: {
      local = alignUp(local, kLocalAlign);
      uint64_t offset = local;
      std::memcpy(slot, &offset, sizeof offset);
      local += args_[i].localSize;
      break;
    }
    default:
      break;
    }
  }
  s.localMemSize = local;
  if (info_->boundsChecked || info_->racesChecked)
    s.bounds = checkBounds(s);
  return s;
}

// What a checked kernel's accesses are checked against (kernel_abi.h's
// fcl_check_bounds): offsets from the pointer the kernel gets.
std::vector<fcl_check_bounds> Kernel::checkBounds(const Snapshot &s) const {
  constexpr uint64_t kAnywhere = uint64_t(1) << 62; // unknown: never reported
  std::vector<fcl_check_bounds> bounds(args_.size(), fcl_check_bounds{0, 0, 0});
  size_t memIndex = 0;
  for (size_t i = 0; i < args_.size(); ++i) {
    fcl_check_bounds &b = bounds[i];
    switch (info_->args[i].kind) {
    case compiler::ArgKind::GlobalPointer:
    case compiler::ArgKind::ConstantPointer: {
      if (args_[i].mem) {
        const Mem &m = *s.mems[memIndex++];
        b.hi = m.size();
        if (m.flags() & CL_MEM_READ_ONLY)
          b.flags |= FCL_CHECK_NO_WRITE;
        if (m.flags() & CL_MEM_WRITE_ONLY)
          b.flags |= FCL_CHECK_NO_READ;
      } else if (args_[i].address) { // an SVM pointer: its allocation, or anywhere
        auto [start, size] =
            program_->context().svm().extentOf(reinterpret_cast<const void *>(args_[i].address));
        int64_t lo = start ? int64_t(reinterpret_cast<uintptr_t>(start) - args_[i].address)
                           : -int64_t(kAnywhere);
        b.lo = uint64_t(lo);
        b.hi = start ? uint64_t(lo + int64_t(size)) : kAnywhere;
      } // NULL: nothing may be accessed
      break;
    }
    case compiler::ArgKind::Image: // the builtins' own descriptors: not the kernel's to get wrong
    case compiler::ArgKind::Pipe:
      if (args_[i].mem)
        ++memIndex;
      b.lo = uint64_t(-int64_t(kAnywhere));
      b.hi = kAnywhere;
      break;
    case compiler::ArgKind::LocalPointer:
      b.hi = args_[i].localSize;
      break;
    default:
      break;
    }
  }
  markRaceFree(s, bounds);
  return bounds;
}

// FIBERCL_CHECK=races: an argument the kernel only reads, or accesses at an offset of
// each work-item's own, is race-free when no other argument reaches its bytes (two the
// kernel only reads may overlap). Not knowing where an argument reaches (an SVM pointer
// outside any allocation) rules out every other.
void Kernel::markRaceFree(const Snapshot &s, std::vector<fcl_check_bounds> &bounds) const {
  uint64_t readOnly = info_->raceReadOnlyArgs, candidates = readOnly | info_->raceOwnOffsetArgs;
  if (!info_->racesChecked || candidates == 0)
    return;
  constexpr uint64_t kAnywhere = uint64_t(1) << 62;
  struct Range {
    uint64_t start = 0, end = 0; // empty: a NULL argument
    bool known = true;
  };
  std::vector<Range> ranges(args_.size());
  size_t memIndex = 0;
  for (size_t i = 0; i < args_.size(); ++i) {
    compiler::ArgKind kind = info_->args[i].kind;
    bool pointer =
        kind == compiler::ArgKind::GlobalPointer || kind == compiler::ArgKind::ConstantPointer;
    if ((pointer || kind == compiler::ArgKind::Image || kind == compiler::ArgKind::Pipe) &&
        args_[i].mem)
      ++memIndex;
    if (!pointer)
      continue;
    uint64_t base = args_[i].mem ? s.mems[memIndex - 1]->kernelAddress() : args_[i].address;
    const fcl_check_bounds &b = bounds[i];
    if (b.hi == kAnywhere)
      ranges[i].known = false;
    else if (args_[i].mem || args_[i].address)
      ranges[i] = {base + b.lo, base + b.hi, true};
  }
  for (size_t i = 0; i < args_.size() && i < 64; ++i) {
    if (!(candidates >> i & 1) || !ranges[i].known)
      continue;
    bool apart = true;
    for (size_t j = 0; j < args_.size() && apart; ++j) {
      if (j == i || (!ranges[j].known ? false : ranges[j].start == ranges[j].end))
        continue;
      bool bothRead = j < 64 && (readOnly >> i & 1) && (readOnly >> j & 1);
      bool overlap =
          !ranges[j].known || (ranges[i].start < ranges[j].end && ranges[j].start < ranges[i].end);
      apart = !overlap || bothRead;
    }
    if (apart)
      bounds[i].flags |= FCL_CHECK_RACE_FREE;
  }
}

} // namespace fibercl::runtime

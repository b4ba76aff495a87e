// FIBERCL_CHECK=weak (weak_memory.hpp; the compiler's WeakMemoryPass makes the calls).
//
// A work-group is one thread of the memory model: its work-items share its store buffer
// and see their own buffered stores (WEAK_LOAD reads memory, then the buffer over it, in
// order). Other groups see memory only. The buffer drains
//   - fully: at a release of device scope (atomic or fence), a barrier, a waiting loop's
//     yield (another group may wait for these stores) and the group's end;
//   - fully too before an atomic on an address it has buffered a store to (coherence);
//   - one entry drawn at random, with the stores before it to the same bytes, after each
//     store with probability 1/2, and the oldest when 64 are waiting.
// So two stores become visible in either order, and a message passed without a release
// (or with a relaxed one) can be seen before its data. After a store, and at its end
// before the last drain, the group may also give its worker to another (a yielding
// launch: the scheduler is asked), which then sees memory with part of the group's
// stores: with FIBERCL_SEED the run is reproducible.
#include "runtime/exec/weak_memory.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "fibercl/kernel_abi.h"
#include "runtime/exec/host_abi.hpp"
#include "runtime/exec/runner.hpp"
#include "runtime/exec/yield_launch.hpp"

namespace fibercl::exec {

struct WeakBuffer {
  struct Entry {
    uint64_t address, bytes, at; // `at`: its bytes in `data`
  };
  std::vector<Entry> entries;
  std::vector<uint8_t> data;
  uint64_t state = 1;
  uint64_t localMem = 0, localBytes = 0;

  uint64_t draw() { // splitmix64
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  static bool overlap(const Entry &e, uint64_t address, uint64_t bytes) {
    return e.address < address + bytes && address < e.address + e.bytes;
  }
  void write(const Entry &e) {
    std::memcpy(reinterpret_cast<void *>(e.address), data.data() + e.at, e.bytes);
  }
  void drainAll() {
    for (const Entry &e : entries)
      write(e);
    entries.clear();
    data.clear();
  }
  // Entry i reaches memory, after the earlier entries it overlaps.
  void drain(size_t i) {
    const Entry chosen = entries[i];
    std::vector<Entry> kept;
    kept.reserve(entries.size());
    for (size_t k = 0; k < entries.size(); ++k) {
      if (k <= i && overlap(entries[k], chosen.address, chosen.bytes))
        write(entries[k]);
      else
        kept.push_back(entries[k]);
    }
    entries.swap(kept);
    if (entries.empty())
      data.clear();
  }
  // Before an atomic on [address, address + bytes): if the group buffered a store
  // there, all its stores reach memory (in order: simple, and coherent).
  void drainRange(uint64_t address, uint64_t bytes) {
    for (const Entry &e : entries)
      if (overlap(e, address, bytes)) {
        drainAll();
        return;
      }
  }
  bool local(uint64_t address) const { return address - localMem < localBytes; }
};

namespace {

// With stores still buffered, in a yielding launch: another group may look now. The
// scheduler is asked up to four times to switch (it moves a progressing group aside at
// one decision in four).
void offerWindow(fcl_group_ctx *ctx, uint32_t site) noexcept {
  auto &g = *reinterpret_cast<GroupState *>(ctx->runtime);
  if (!g.yieldGroup || !g.weak || g.weak->entries.empty())
    return;
  for (int ask = 0; ask < 4; ++ask) {
    const auto *local = g.yieldGroup->local; // (a resumed group may be on another worker)
    const uint64_t switches = local->tally.switches;
    __fibercl_host_yield(ctx, site);
    if (g.yieldGroup->local != local || local->tally.switches != switches)
      break;
  }
}

// The buffer of the group running `ctx`, or null.
WeakBuffer *bufferOf(fcl_group_ctx *ctx) noexcept {
  return reinterpret_cast<GroupState *>(ctx->runtime)->weak.get();
}

} // namespace

void startWeakMemory(GroupState &g, uint64_t gid, uint64_t seed, uint64_t localBytes) noexcept {
  try {
    if (!g.weak)
      g.weak = std::make_shared<WeakBuffer>();
    WeakBuffer &w = *g.weak;
    w.entries.clear();
    w.data.clear();
    w.state = seed * 0x2545F4914F6CDD1Dull + gid + 1;
    w.localMem = g.ctx ? g.ctx->local_mem : 0;
    w.localBytes = localBytes;
  } catch (...) {
    g.weak.reset(); // no memory: this group's stores go straight to memory
  }
}

void drainWeakMemory(GroupState &g) noexcept {
  if (g.weak)
    g.weak->drainAll();
}

void endWeakMemory(fcl_group_ctx *ctx) noexcept {
  offerWindow(ctx, 0); // the group's last stores, not yet seen: a last chance to look
  drainWeakMemory(*reinterpret_cast<GroupState *>(ctx->runtime));
}

} // namespace fibercl::exec

using fibercl::exec::bufferOf;
using fibercl::exec::offerWindow;
using fibercl::exec::WeakBuffer;

extern "C" void __fibercl_host_weak_load(fcl_group_ctx *ctx, fcl_u64 address, fcl_u64 bytes,
                                         void *to) noexcept {
  std::memcpy(to, reinterpret_cast<const void *>(address), bytes);
  WeakBuffer *w = bufferOf(ctx);
  if (!w)
    return;
  for (const WeakBuffer::Entry &e : w->entries) // its own stores, newest last
    if (WeakBuffer::overlap(e, address, bytes)) {
      uint64_t from = std::max(e.address, address),
               end = std::min(e.address + e.bytes, address + bytes);
      std::memcpy(static_cast<uint8_t *>(to) + (from - address),
                  w->data.data() + e.at + (from - e.address), end - from);
    }
}

extern "C" fcl_u64 __fibercl_host_weak_load_value(fcl_group_ctx *ctx, fcl_u64 address,
                                                  fcl_u64 bytes) noexcept {
  fcl_u64 v = 0;
  __fibercl_host_weak_load(ctx, address, bytes > 8 ? 8 : bytes, &v);
  return v;
}

extern "C" void __fibercl_host_weak_store(fcl_group_ctx *ctx, fcl_u64 address, fcl_u64 bytes,
                                          const void *from, fcl_u32 site) noexcept {
  WeakBuffer *w = bufferOf(ctx);
  if (ctx->yield_state) // a store is progress (the yield points' analysis saw it)
    ++reinterpret_cast<fcl_yield_state *>(ctx->yield_state)->progress;
  try {
    if (!w || w->local(address))
      throw 0;
    w->entries.push_back({address, bytes, w->data.size()});
    w->data.insert(w->data.end(), static_cast<const uint8_t *>(from),
                   static_cast<const uint8_t *>(from) + bytes);
  } catch (...) { // not buffered: straight to memory
    std::memcpy(reinterpret_cast<void *>(address), from, bytes);
    return;
  }
  if (w->draw() % 2 == 0)
    w->drain(w->draw() % w->entries.size());
  if (w->entries.size() > 64)
    w->drain(0);
  offerWindow(ctx, site);
}

extern "C" void __fibercl_host_weak_sync(fcl_group_ctx *ctx, fcl_u64 address, fcl_u64 bytes,
                                         fcl_u32 how) noexcept {
  WeakBuffer *w = bufferOf(ctx);
  if (!w || w->entries.empty())
    return;
  if (how & FCL_RACE_RELEASE)
    w->drainAll();
  else
    w->drainRange(address, bytes);
}

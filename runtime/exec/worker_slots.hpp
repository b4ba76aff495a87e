// Counters kept per worker slot, each slot on its own cache line, summed when read: the
// workers of a launch count events without sharing a line on their hot paths, and the
// rare reader pays for the sum (the progress clock's epoch, migration's resident
// groups). Workers beyond kSlots share slots, still correctly (atomic adds).
#pragma once

#include <atomic>
#include <cstdint>

namespace fibercl::exec {

class WorkerSlots {
public:
  void add(unsigned worker, int64_t delta,
           std::memory_order order = std::memory_order_relaxed) noexcept {
    slots_[worker % kSlots].v.fetch_add(delta, order);
  }
  int64_t sum(std::memory_order order = std::memory_order_relaxed) const noexcept {
    int64_t total = 0;
    for (const Slot &slot : slots_)
      total += slot.v.load(order);
    return total;
  }

private:
  struct alignas(64) Slot {
    std::atomic<int64_t> v{0};
  };
  static constexpr unsigned kSlots = 16;
  Slot slots_[kSlots];
};

} // namespace fibercl::exec

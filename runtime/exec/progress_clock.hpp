// The progress clock of a yielding launch: progress events (a group admitted,
// finished, or found progressing at a yield point) counted per worker slot -- no
// shared cache line on the admission, finish and yield paths -- whose sum, the epoch,
// changes iff any event happened; the launch's own time; and the parallel watchdog's
// note of how long the epoch has stood still. Deadlock detection reads it.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "runtime/exec/worker_slots.hpp"

namespace fibercl::exec {

class ProgressClock {
public:
  ProgressClock() : start_(std::chrono::steady_clock::now()) {}
  ProgressClock(const ProgressClock &) = delete;
  ProgressClock &operator=(const ProgressClock &) = delete;

  void event(unsigned worker) noexcept { epochs_.add(worker, 1, std::memory_order_acq_rel); }
  uint64_t epoch() const noexcept { return uint64_t(epochs_.sum(std::memory_order_acquire)); }
  // Nanoseconds since the launch began.
  int64_t nowNs() const noexcept {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                                start_)
        .count();
  }
  // The watchdog's look (no clock reads on hot paths: it notes when it first saw the
  // current epoch): how long the epoch has stood still, or -1 if it changed since the
  // last look.
  int64_t stillFor() noexcept {
    uint64_t ep = epoch();
    int64_t now = nowNs();
    if (watchEpoch_.load(std::memory_order_relaxed) != ep) {
      watchEpoch_.store(ep, std::memory_order_relaxed);
      watchSinceNs_.store(now, std::memory_order_relaxed);
      return -1;
    }
    return now - watchSinceNs_.load(std::memory_order_relaxed);
  }

  // Parallel mode: the watchdog asks groups for failed-await checks (fcl_yield_state::
  // checking) once no progress has been seen for a quarter of the deadlock timeout.
  std::atomic<bool> checking{false};

private:
  WorkerSlots epochs_;
  std::atomic<uint64_t> watchEpoch_{~0ull}; // the epoch the watchdog last saw
  std::atomic<int64_t> watchSinceNs_{0};    // ... and since when
  std::chrono::steady_clock::time_point start_;
};

} // namespace fibercl::exec

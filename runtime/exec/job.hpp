// A command handed to the executor: an NDRange (units = work-groups, taken in chunks)
// or a host function (one unit). Runners take chunks with one atomic add; the runner
// that completes the last unit reports the job's status.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>

#include "runtime/exec/executor.hpp"

namespace fibercl::exec {

struct YieldShared;

constexpr int32_t kComplete = 0;
constexpr int32_t kOutOfResources = -5;  // CL_OUT_OF_RESOURCES
constexpr int32_t kOutOfHostMemory = -6; // CL_OUT_OF_HOST_MEMORY

struct Job {
  bool isHost = false;
  NDRange range; // NDRange jobs
  uint64_t numGroups[3] = {1, 1, 1};
  std::function<int32_t()> host; // host jobs
  Done done;
  std::shared_ptr<YieldShared> yield; // NDRange with mayYield (yield_launch.hpp)

  uint64_t total = 1; // units
  uint64_t chunk = 1; // units per grab
  std::atomic<uint64_t> next{0};
  std::atomic<uint64_t> completed{0};
  std::atomic<int32_t> status{kComplete};
  std::atomic<bool> begun{false};
  uint64_t serial = 0;             // NDRange jobs: unique in the process (Runner::launch)
  std::atomic<int64_t> beganNs{0}; // steady clock, when begun (the kernel time limit)

  // NDRange::started, once. Moved out first: what it holds (a reference to the
  // command's event) is let go right after the call, on this runner's thread.
  void begin() {
    if (isHost || begun.load(std::memory_order_acquire) ||
        begun.exchange(true, std::memory_order_acq_rel))
      return;
    beganNs.store(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count(),
                  std::memory_order_release);
    std::function<void()> started = std::move(range.started);
    if (started)
      started();
  }

  bool exhausted() const { return next.load(std::memory_order_relaxed) >= total; }

  // Records the first failure and withdraws the units nobody has taken yet.
  // Returns how many units were withdrawn (the caller completes them).
  uint64_t fail(int32_t code) {
    int32_t expected = kComplete;
    status.compare_exchange_strong(expected, code, std::memory_order_acq_rel);
    uint64_t old = next.exchange(total, std::memory_order_acq_rel);
    return old < total ? total - old : 0;
  }
};

} // namespace fibercl::exec

// Moving suspended groups of a yielding launch between workers, so a launch whose
// groups wait for each other runs on every core (issue 30). Without it a group stays
// on the worker that admitted it, and the first wave -- every group of an unbounded
// launch of up to 1024 groups -- is admitted by one worker (the GPU-like start's
// lockstep ring must be on one thread).
//
// Stealing by request: a worker that cannot admit a group (all started, or the bound
// reached) and has fewer groups than its share (resident groups / workers in the
// launch) asks; at a decision a worker with more than its share hands over one
// suspended group with work to do (not started, or long stretches on the worker: see
// kWorthMovingTicks) through a small shared list, and the asking worker adopts it --
// the group's worker, runner, stacks and scheduling view become the adopter's, and it
// resumes there (a suspended fiber may be resumed by any thread; the list's lock
// orders the two threads' accesses to it).
//
// Scaling: each worker keeps its own groups (its LocalSched) and admits from the
// launch's group set with one atomic increment; nothing is shared on the hot path but
// two relaxed loads per decision; the list and its lock are touched only when a group
// moves. A request moves one group and is served by whichever worker holds more than
// its share, so workers above their share give in parallel and an idle worker reaches
// its share after as many requests as groups it lacks. What does not scale yet: the
// first wave is admitted by one worker (the lockstep ring), so on W workers the wave
// spreads by W - 1 workers asking, one group at a time.
//
// When: in parallel mode, under the fair policy, after the GPU-like start (discovery
// and the occupancy measures see the start they always saw) and the launch's first
// 50 us, for launches that are not cooperative. Seeded runs stay on one worker (deterministic);
// under the unfair policy a group keeps its worker, as on a GPU, so that the starvation it models
// stays visible.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#include "runtime/exec/worker_slots.hpp"

namespace fibercl::exec {

struct LocalSched;
struct Runner;
struct YieldGroup;
struct YieldShared;

class GroupMigration {
public:
  // Whether groups of this launch may move at all (see above). Groups move only
  // kDelayNs after the launch began (its progress clock).
  void enable(bool on) noexcept { enabled_ = on; }
  bool enabled() const noexcept { return enabled_; }

  // A group was admitted / finished on `worker`. Counted per worker (a counter both
  // workers incremented at every admission was a third of admitGroup's time), summed
  // only when groups may move.
  void admitted(unsigned worker) noexcept {
    if (enabled_)
      resident_.add(worker, 1);
  }
  void finished(unsigned worker) noexcept {
    if (enabled_)
      resident_.add(worker, -1);
  }

  // At a worker's decision, after the start: gives groups away if others asked and
  // this worker has more than its share; then asks for one if it has fewer, and adopts
  // one if any is on its way. Returns an adopted group, or null.
  YieldGroup *balance(Runner &r, YieldShared &sh, LocalSched &L) noexcept;

  // Should a worker with no group of its own stay in the launch, waiting for one?
  // (Some worker holds two or more groups, or one is on its way.)
  bool worthWaiting(const YieldShared &sh) const noexcept;
  // The worker leaves the launch: withdraws its request.
  void leave(LocalSched &L) noexcept;

  // `y` gets its worker / gives it away: how long it ran (is it worth moving?).
  void resumed(YieldGroup &y) const noexcept;
  void suspended(YieldGroup &y) const noexcept;

  // A cheap clock for how long groups run between switches: the time-stamp counter
  // where there is one (at least 1 GHz on any x86-64 this runs on: kWorthMovingTicks is
  // at most 10 us), else the steady clock in nanoseconds.
  static int64_t ticks() noexcept {
#if defined(__x86_64__)
    return int64_t(__builtin_ia32_rdtsc());
#else
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
#endif
  }
  // A suspended group is worth moving if it has not started, or ran at least this long
  // (ticks()) before two of its suspensions (one long stretch may be the thread's
  // preemption) with at most kRecentStretches short ones since the last: a group that
  // only waits runs no sooner elsewhere. Not two long ones in a row: a persistent
  // kernel's groups work for a long stretch, then pass a barrier's decisions in short
  // ones (label sweeps: 1 long, 3 short), and were never moved.
  static constexpr int64_t kWorthMovingTicks = 10'000;
  static constexpr uint32_t kRecentStretches = 8;

  // The launch was abandoned: releases the groups on their way; returns how many.
  uint64_t dropMoving(Runner &r, YieldShared &sh, LocalSched &L) noexcept;

private:
  void give(YieldShared &sh, LocalSched &L) noexcept;
  YieldGroup *adopt(Runner &r, LocalSched &L) noexcept;

  // A launch that ends within this time never moves a group: moving costs more than
  // it gives there (an inter-group barrier of 64 one-item groups, ~20 us a launch on
  // one worker, took 0.15-0.3 ms when its groups were spread over two).
  static constexpr int64_t kDelayNs = 50'000;

  bool enabled_ = false;
  std::atomic<bool> open_{false}; // kDelayNs have passed
  WorkerSlots resident_;          // admitted minus finished (a group may finish elsewhere)
  uint64_t resident() const noexcept;
  std::atomic<int> asking_{0}; // requests not served yet
  std::atomic<size_t> movingCount_{0};
  std::mutex mutex_;
  std::vector<YieldGroup *> moving_; // handed over, not adopted yet
};

} // namespace fibercl::exec

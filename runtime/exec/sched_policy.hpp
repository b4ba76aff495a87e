// Scheduling policies for yielding launches: one small interface, one class per
// policy (fair, unfair, deterministic). A policy decides, at a yield point whose
// countdown ran out, whether the group gives its worker away, and which occupant of a
// worker runs next. Parallel policies are stateless (shared by all workers); the
// deterministic one is used by exactly one thread and draws every decision from its
// seeded PRNG. Everything here is called across context switches: noexcept.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/exec/executor.hpp"

namespace fibercl::exec {

struct YieldGroup;

// splitmix64: small, seedable, good enough for scheduling decisions.
class SplitMix {
public:
  explicit SplitMix(uint64_t seed) : s_(seed) {}
  uint64_t next() noexcept {
    uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint64_t below(uint64_t n) noexcept { return n ? next() % n : 0; }

private:
  uint64_t s_;
};

class SchedulerPolicy {
public:
  virtual ~SchedulerPolicy() = default;
  virtual const char *name() const noexcept = 0;
  // Yield points a group passes before its first decision (large: groups that do
  // not spin finish without switching).
  virtual uint64_t initialCountdown() noexcept = 0;
  // Yield points before `y`'s next decision. `progressed`: it made progress (a
  // changing write or an advance) since its previous decision; `waitingSite`: the
  // decision is in a loop that may wait; `local`: occupants on this worker (with y).
  virtual uint64_t countdown(const YieldGroup &y, bool progressed, bool waitingSite,
                             size_t local) noexcept = 0;
  // At a yield point of `y` (past the GPU-like start): true to suspend it and return
  // to the worker's loop. `progressed`: it made progress since its previous decision;
  // `canAdmit`: a waiting group could be admitted now; `local`: occupants on this
  // worker (including y).
  virtual bool switchAtYield(YieldGroup &y, bool progressed, bool canAdmit,
                             size_t local) noexcept = 0;
  // Does a launch begin with the GPU-like start (gpu_like_start.hpp)? The fair policies
  // do; the unfair one runs the group that holds a worker on.
  virtual bool gpuLikeStart() const noexcept { return true; }
  // Unfair: at a yield point where a waiting group could be admitted, admit it on
  // this worker without giving the worker away (it becomes occupant, but does not
  // run while the yielding group holds the worker).
  virtual bool admitsInPlace() const noexcept { return false; }
  // After the start, does the worker admit a waiting group at every switch (true), or
  // once per rotation -- after each group resident here has had a turn since the
  // previous admission (false)? See FairPolicy.
  virtual bool admitsAtEverySwitch() const noexcept { return true; }
  // Called when `y` becomes occupant.
  virtual void admitted(YieldGroup &) noexcept {}
  // The worker's loop: which of the runnable local occupants runs next (`last` ran
  // last, or null if it finished). `local` is not empty. (Groups in the GPU-like
  // start's lockstep ring are not the policy's to pick.)
  // `cursor`: the worker's note of where `last` was in `local` (a hint, checked; updated
  // to the pick's place), so that a round robin over many groups does not search.
  virtual YieldGroup *pick(const std::vector<YieldGroup *> &local, YieldGroup *last,
                           size_t &cursor) noexcept = 0;
};

std::unique_ptr<SchedulerPolicy> makePolicy(const Scheduling &s);

} // namespace fibercl::exec

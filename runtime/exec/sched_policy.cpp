// The three scheduling policies: fair (round-robin per worker), unfair (a yielding
// group keeps its worker), deterministic (PCT-style random priorities from a seed).
#include "runtime/exec/sched_policy.hpp"

#include "runtime/exec/yield_launch.hpp"

namespace fibercl::exec {
namespace {

// Large enough that groups which do not spin finish without switching.
constexpr uint64_t kParallelCountdown = 4096;
// After the first decision: a group that made progress since its last decision gets
// a medium countdown, one that made none (it spins) a short one.
constexpr uint64_t kProgressCountdown = 256;
constexpr uint64_t kSpinCountdown = 32;

size_t indexOf(const std::vector<YieldGroup *> &v, YieldGroup *g) noexcept {
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i] == g)
      return i;
  return v.size();
}

class FairPolicy final : public SchedulerPolicy {
public:
  const char *name() const noexcept override { return "fair"; }
  uint64_t initialCountdown() noexcept override { return kParallelCountdown; }
  uint64_t countdown(bool spinning) noexcept override {
    return spinning ? kSpinCountdown : kProgressCountdown;
  }
  bool switchAtYield(YieldGroup &, bool canAdmit, size_t local) noexcept override {
    return canAdmit || local > 1;
  }
  YieldGroup *pick(const std::vector<YieldGroup *> &local,
                   YieldGroup *last) noexcept override {
    // Round-robin: the occupant after `last` (pick is called after `last` was
    // removed if it finished, so the index stays meaningful for the unfinished case).
    size_t i = indexOf(local, last);
    if (i == local.size())
      return local.front();
    return local[(i + 1) % local.size()];
  }
};

class UnfairPolicy final : public SchedulerPolicy {
public:
  const char *name() const noexcept override { return "unfair"; }
  uint64_t initialCountdown() noexcept override { return kParallelCountdown; }
  uint64_t countdown(bool spinning) noexcept override {
    return spinning ? kSpinCountdown : kProgressCountdown;
  }
  bool admitsInPlace() const noexcept override { return true; }
  bool switchAtYield(YieldGroup &, bool, size_t) noexcept override { return false; }
  YieldGroup *pick(const std::vector<YieldGroup *> &local,
                   YieldGroup *last) noexcept override {
    size_t i = indexOf(local, last);
    return i == local.size() ? local.front() : local[i];
  }
};

// PCT-style: every occupant gets a random priority at admission; the highest runs.
// At a decision point the running group may be demoted below every other (a
// priority-change point), with a few forced change points drawn up front so that
// rare interleavings (a preemption exactly at yield k) are reachable. Countdowns are
// random and short, so preemption points land anywhere.
class DeterministicPolicy final : public SchedulerPolicy {
public:
  DeterministicPolicy(uint64_t seed, bool fair) : rng_(seed), fair_(fair) {
    for (auto &c : changeAt_)
      c = 1 + rng_.below(256);
  }
  const char *name() const noexcept override { return fair_ ? "fair" : "unfair"; }
  uint64_t initialCountdown() noexcept override { return 1 + rng_.below(8); }
  uint64_t countdown(bool) noexcept override { return 1 + rng_.below(8); }
  bool admitsInPlace() const noexcept override { return !fair_; }
  bool switchAtYield(YieldGroup &y, bool canAdmit, size_t local) noexcept override {
    ++decisions_;
    if (!fair_)
      return false; // admission happens in place
    if (canAdmit && rng_.below(2) == 0)
      return true;
    if (local <= 1)
      return false;
    bool change = false;
    for (uint64_t c : changeAt_)
      change |= c == decisions_;
    if (change || rng_.below(4) == 0) {
      y.priority = --lowest_;
      return true;
    }
    return false;
  }
  void admitted(YieldGroup &y) noexcept override { y.priority = rng_.next() >> 1; }
  YieldGroup *pick(const std::vector<YieldGroup *> &local, YieldGroup *) noexcept override {
    YieldGroup *best = local.front();
    for (YieldGroup *g : local)
      if (g->priority > best->priority)
        best = g;
    return best;
  }

private:
  SplitMix rng_;
  bool fair_;
  uint64_t decisions_ = 0;
  int64_t lowest_ = 0;
  uint64_t changeAt_[3];
};

} // namespace

std::unique_ptr<SchedulerPolicy> makePolicy(const Scheduling &s) {
  if (s.deterministic)
    return std::make_unique<DeterministicPolicy>(s.seed, s.policy == Scheduling::Policy::Fair);
  if (s.policy == Scheduling::Policy::Unfair)
    return std::make_unique<UnfairPolicy>();
  return std::make_unique<FairPolicy>();
}

} // namespace fibercl::exec

// The three scheduling policies: fair (round-robin per worker), unfair (a yielding
// group keeps its worker), deterministic (CHESS-fair, PCT-style random priorities
// from a seed).
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
// A group that waits while another group on its worker could run: what it waits for may
// well be that group, which runs only once it gives the worker away (two groups taking
// turns on one worker spent 32 spins, ~150 ns, per turn).
constexpr uint64_t kSpinBesideOthersCountdown = 4;

// Where `g` is in `v` (v.size() if absent), trying `hint` first.
size_t indexOf(const std::vector<YieldGroup *> &v, YieldGroup *g, size_t hint) noexcept {
  if (hint < v.size() && v[hint] == g)
    return hint;
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i] == g)
      return i;
  return v.size();
}

// A few yield points of jitter on every countdown. With fixed countdowns a group
// whose loop has an even number of yield points always gives its worker away at the
// same one: a semaphore waiter that takes the word, yields, and puts it back was
// always suspended holding the word, and the posters never got it (a livelock of the
// schedule, not of the program).
uint64_t jitter() noexcept {
  thread_local SplitMix rng(uint64_t(reinterpret_cast<uintptr_t>(&rng)));
  return rng.below(16);
}

// Parallel policies: does `y` get the short countdown of a group that spins? Yes if it
// made no progress; and, in a loop that may wait, if its first progress since it
// waited was its own step (its arrival at an inter-group barrier, its turn): it may be
// waiting again now. One that keeps progressing (its second progress in a row:
// runLength counts them) gets the long countdown.
bool countsAsSpinning(const YieldGroup &y, bool progressed, bool waitingSite) noexcept {
  return !progressed || (waitingSite && y.runLength <= 1);
}

class FairPolicy final : public SchedulerPolicy {
  static constexpr uint32_t kMaxRun = 16;
  static constexpr uint32_t kWaitsInPlace = 8;

public:
  const char *name() const noexcept override {
    return Scheduling::nameOf(Scheduling::Policy::Fair);
  }
  uint64_t initialCountdown() noexcept override { return kParallelCountdown; }
  uint64_t countdown(const YieldGroup &y, bool progressed, bool waitingSite,
                     size_t local) noexcept override {
    const bool spinning = countsAsSpinning(y, progressed, waitingSite);
    if (spinning && local > 1)
      return kSpinBesideOthersCountdown + jitter() / 4;
    return (spinning ? kSpinCountdown : kProgressCountdown) + jitter();
  }
  // A group that waits gives its worker away; one that makes progress keeps it for
  // kMaxRun decisions in a row, so a group that never waits is not suspended at every
  // decision to admit another (issue 30: 2 switches per group of a launch that never
  // waits, 50x a plain launch's cost per group).
  bool switchAtYield(YieldGroup &y, bool progressed, bool canAdmit,
                     size_t local) noexcept override {
    if (!canAdmit && local <= 1)
      return false; // nobody else to run here
    if (progressed && ++y.runLength < kMaxRun)
      return false;
    // Alone on its worker while others run the launch, a waiting group most likely
    // waits for a group that runs elsewhere: it keeps spinning for a few decisions
    // before a new group is admitted here (a new one would often wait for it).
    if (!progressed && local <= 1 && y.sh->runners.load(std::memory_order_relaxed) > 1 &&
        ++y.waitsInPlace < kWaitsInPlace)
      return false;
    y.runLength = 0;
    y.waitsInPlace = 0;
    return true;
  }
  // Admission takes one turn of the round robin: a new group joins after every group
  // here had a turn since the last one joined, as a GPU's free slots fill while its
  // resident groups run on. Admitting at every switch instead put each new group
  // ahead of the ones it waits for: a look-back scan's groups each waited for their
  // suspended predecessor, and the worker admitted group after group (12,288 resident,
  // 13 us per group; issue 30).
  bool admitsAtEverySwitch() const noexcept override { return false; }
  YieldGroup *pick(const std::vector<YieldGroup *> &local, YieldGroup *last,
                   size_t &cursor) noexcept override {
    // Round-robin: the occupant after `last`; after a finish (no `last`), the one that
    // took the finished group's place.
    if (!last) {
      cursor = cursor < local.size() ? cursor : 0;
      return local[cursor];
    }
    size_t i = indexOf(local, last, cursor);
    cursor = i == local.size() ? 0 : (i + 1) % local.size();
    return local[cursor];
  }
};

class UnfairPolicy final : public SchedulerPolicy {
public:
  const char *name() const noexcept override {
    return Scheduling::nameOf(Scheduling::Policy::Unfair);
  }
  uint64_t initialCountdown() noexcept override { return kParallelCountdown; }
  uint64_t countdown(const YieldGroup &y, bool progressed, bool waitingSite,
                     size_t) noexcept override {
    return (countsAsSpinning(y, progressed, waitingSite) ? kSpinCountdown : kProgressCountdown) +
           jitter();
  }
  bool gpuLikeStart() const noexcept override { return false; }
  bool admitsInPlace() const noexcept override { return true; }
  bool switchAtYield(YieldGroup &, bool, bool, size_t) noexcept override { return false; }
  YieldGroup *pick(const std::vector<YieldGroup *> &local, YieldGroup *last,
                   size_t &cursor) noexcept override {
    size_t i = indexOf(local, last, cursor);
    cursor = i == local.size() ? 0 : i;
    return local[cursor];
  }
};

// Fair and deterministic: CHESS's fair scheduler (Musuvathi & Qadeer, PLDI 2008) with
// PCT-style random priorities on top. The highest-priority runnable occupant runs. A
// group that reaches a decision without progress since its previous one (it waits)
// drops below every other group, so every group that can run is resumed before it
// runs again; a group that progresses is also demoted at random decisions (1 in 4),
// at three change points drawn up front, and after kMaxRun decisions in a row, so
// no group keeps the worker for long and co-resident groups interleave at their
// atomics. Countdowns are random and short. Unfair + deterministic: the group that
// holds the worker keeps it (admission in place), as in parallel mode.
class DeterministicPolicy final : public SchedulerPolicy {
public:
  DeterministicPolicy(uint64_t seed, bool fair) : rng_(seed), fair_(fair) {
    for (auto &c : changeAt_)
      c = 1 + rng_.below(256);
  }
  const char *name() const noexcept override {
    return Scheduling::nameOf(fair_ ? Scheduling::Policy::Fair : Scheduling::Policy::Unfair);
  }
  uint64_t initialCountdown() noexcept override { return 1 + rng_.below(8); }
  uint64_t countdown(const YieldGroup &, bool, bool, size_t) noexcept override {
    return 1 + rng_.below(8);
  }
  bool gpuLikeStart() const noexcept override { return fair_; }
  bool admitsInPlace() const noexcept override { return !fair_; }
  bool switchAtYield(YieldGroup &y, bool progressed, bool canAdmit,
                     size_t local) noexcept override {
    ++decisions_;
    if (!fair_)
      return false; // admission happens in place
    if (canAdmit)
      return true; // the utilisation rule: admit at this yield point
    if (local <= 1) {
      y.runLength = 0;
      return false;
    }
    bool change = !progressed || ++y.runLength >= kMaxRun || rng_.below(4) == 0;
    for (uint64_t c : changeAt_)
      change |= c == decisions_;
    if (!change)
      return false;
    y.priority = --lowest_;
    y.runLength = 0;
    return true;
  }
  void admitted(YieldGroup &y) noexcept override {
    y.priority = int64_t(rng_.next() >> 2);
    y.runLength = 0;
  }
  YieldGroup *pick(const std::vector<YieldGroup *> &local, YieldGroup *,
                   size_t &) noexcept override {
    YieldGroup *best = local.front();
    for (YieldGroup *g : local)
      if (g->priority > best->priority)
        best = g;
    return best;
  }

private:
  static constexpr uint32_t kMaxRun = 64;
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

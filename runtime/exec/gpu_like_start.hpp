// The GPU-like start of a yielding launch (fair policies; DESIGN "GPU-like start"):
// the first wave of groups -- as many as the bound, or kUnboundedWave when unbounded
// -- is admitted at once by one worker, each group runs to its first yield point and
// is held there until every group of the wave has got that far (the gate), and then
// the wave runs in lockstep -- one step (to the next yield point) per group in turn,
// in the order they arrived (the ring) -- for each group's first kLockstepSteps steps
// of progress. So protocols that count who is present (the occupancy discovery
// protocol) see every occupant group, as on a GPU where occupant groups start
// together.
//
// The ring: wave groups in the order they arrived at the gate (their slots) take one
// step each in turn, whichever worker they are on, so the wave interleaves at its
// atomics as one ring (as on one worker in deterministic mode), not as one ring per
// worker racing the others.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace fibercl::exec {

class ProgressClock;
struct YieldGroup;

// Where a group is in the start: held at its first yield point until the wave has
// arrived, then in lockstep, then scheduled by the policy alone.
enum class StartPhase : uint8_t { Gated, Lockstep, Free };

// Groups admitted together when unbounded; steps of progress a group makes in
// lockstep; yield points after which lockstep ends even without them.
constexpr uint64_t kUnboundedWave = 1024;
constexpr uint32_t kLockstepSteps = 16;
constexpr uint32_t kLockstepYields = 1024;
// A step of at least this many time-stamp counter ticks (0.25-1 ms) is a long one.
constexpr int64_t kLongStepTicks = 1'000'000;
constexpr unsigned kNoWorker = ~0u;

// One worker's side of the start.
struct LocalStart {
  // This worker's wave groups by ring slot (null: not here or gone): whose turn it is
  // is found without scanning the worker's groups, which grow while the ring lasts.
  std::vector<YieldGroup *> ring;
  uint64_t seen = ~0ull; // arrivals and turn last seen while waiting
  int64_t seenNs = 0;    // ... and since when
};

class GpuLikeStart {
public:
  // `on`: the policy starts launches this way; `starting`: the groups that may start
  // at once; `bound`: the occupancy bound (0 = unbounded).
  GpuLikeStart(bool on, uint64_t starting, uint32_t bound);

  // Wave groups are admission indices below waveSize() (0 = no start).
  uint64_t waveSize() const noexcept { return waveSize_; }
  bool gateOpen() const noexcept { return gateOpen_.load(std::memory_order_acquire); }
  bool ringDone() const noexcept { return ringDone_.load(std::memory_order_acquire); }

  // The group side, at its yield points. A wave group reached its first yield point
  // or finished: gives it its slot in the ring; the last to arrive opens the gate.
  void arrive(YieldGroup &y) noexcept;
  // Returns true while the group is in the start (the decision is made here: hold at
  // the gate, or switch at every yield point in lockstep). `stepped`: the group was
  // not found waiting -- the checks run in lockstep, and a spinning group is found
  // waiting at each of its decisions there, so a step is work. `longStep`: the step
  // took long (kLongStepTicks): the group leaves lockstep, which is there for
  // protocols of short steps that count who is present, and would otherwise keep a
  // persistent kernel's long sweeps in turn on one worker for 16 of them.
  bool decide(YieldGroup &y, bool stepped, bool longStep, bool &go) noexcept;

  // The worker side. Does `worker` admit the wave (the first to ask does)?
  bool admitsWave(unsigned worker) noexcept;
  // The group whose lockstep step is next, if it is on this worker.
  YieldGroup *turnHere(const LocalStart &L) const noexcept;
  // A ring step of `y` was taken: it leaves the ring if it finished or left lockstep,
  // and the turn goes on.
  void stepTaken(YieldGroup &y) noexcept;
  // `y` finished or left lockstep.
  void leaveRing(YieldGroup &y) noexcept;
  // While the gate or the turn is not this worker's. The start only shapes the
  // interleaving, so if it stands still for long it is ended rather than waited for.
  void checkMoves(LocalStart &L, const ProgressClock &clock) noexcept;
  // Deterministic mode, when nothing can run (a wave group could not be created):
  // opens the gate, or else ends the ring; false if both are done.
  bool endOneStage() noexcept;

private:
  // The turn goes to the next slot after `from` still in the ring (or the ring ends).
  void passTurn(uint64_t from) noexcept;

  uint64_t waveSize_ = 0;
  std::atomic<unsigned> waveOwner_{kNoWorker}; // the worker that admits the whole wave
  std::atomic<uint64_t> waveArrived_{0};
  std::atomic<bool> gateOpen_{true};
  std::unique_ptr<std::atomic<uint8_t>[]> inRing_; // per slot: still in lockstep
  std::atomic<uint64_t> turn_{0};                  // the slot whose step is next
  std::atomic<bool> ringDone_{true};
};

} // namespace fibercl::exec

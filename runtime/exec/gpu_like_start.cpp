// GpuLikeStart (gpu_like_start.hpp).
#include "runtime/exec/gpu_like_start.hpp"

#include <algorithm>

#include "runtime/exec/progress_clock.hpp"
#include "runtime/exec/yield_launch.hpp"

namespace fibercl::exec {
namespace {

// How long the gate or the lockstep turn may stand still before the start is ended.
// A safety net: groups still marked as in lockstep then run like the others; it never
// fired in the corpus runs once the countdown-parity livelock was fixed.
constexpr int64_t kStuckStartNs = 20'000'000;

} // namespace

GpuLikeStart::GpuLikeStart(bool on, uint64_t starting, uint32_t bound) {
  if (!on)
    return;
  waveSize_ = std::min<uint64_t>(starting, bound ? bound : kUnboundedWave);
  gateOpen_.store(waveSize_ == 0, std::memory_order_relaxed);
  ringDone_.store(waveSize_ == 0, std::memory_order_relaxed);
  inRing_.reset(new std::atomic<uint8_t>[waveSize_]);
  for (uint64_t i = 0; i < waveSize_; ++i)
    inRing_[i].store(0, std::memory_order_relaxed);
}

void GpuLikeStart::arrive(YieldGroup &y) noexcept {
  if (!y.inWave || y.arrived)
    return;
  y.arrived = true;
  y.slot = waveArrived_.fetch_add(1, std::memory_order_acq_rel);
  if (y.local && y.slot < y.local->start.ring.size())
    y.local->start.ring[y.slot] = &y;
  inRing_[y.slot].store(y.finished ? 0 : 1, std::memory_order_release);
  if (y.slot + 1 == waveSize_) { // the last to arrive opens the gate
    passTurn(waveSize_ - 1);
    gateOpen_.store(true, std::memory_order_release);
  }
}

void GpuLikeStart::passTurn(uint64_t from) noexcept {
  for (uint64_t k = 1; k <= waveSize_; ++k) {
    uint64_t s = (from + k) % waveSize_;
    if (inRing_[s].load(std::memory_order_acquire)) {
      turn_.store(s, std::memory_order_release);
      return;
    }
  }
  ringDone_.store(true, std::memory_order_release);
}

void GpuLikeStart::leaveRing(YieldGroup &y) noexcept {
  if (y.inWave && y.arrived)
    inRing_[y.slot].store(0, std::memory_order_release);
}

bool GpuLikeStart::decide(YieldGroup &y, bool stepped, bool longStep, bool &go) noexcept {
  switch (y.start) {
  case StartPhase::Gated:
    // First yield point: arrive, and give the worker back; the worker's loop holds
    // the group until the whole wave has arrived.
    y.start = StartPhase::Lockstep;
    arrive(y);
    go = true;
    return true;
  case StartPhase::Lockstep:
    if (ringDone()) { // the ring ended without it
      y.start = StartPhase::Free;
      return false;
    }
    if (longStep || (stepped && ++y.lockstepSteps >= kLockstepSteps) ||
        ++y.lockstepYields >= kLockstepYields)
      y.start = StartPhase::Free;
    // Always back to the worker's loop, which passes the turn to the next group in
    // the ring, whichever worker it is on.
    go = true;
    return true;
  case StartPhase::Free:
    break;
  }
  return false;
}

bool GpuLikeStart::admitsWave(unsigned worker) noexcept {
  unsigned owner = waveOwner_.load(std::memory_order_acquire);
  if (owner == kNoWorker &&
      waveOwner_.compare_exchange_strong(owner, worker, std::memory_order_acq_rel))
    owner = worker;
  return owner == worker;
}

YieldGroup *GpuLikeStart::turnHere(const LocalStart &L) const noexcept {
  uint64_t t = turn_.load(std::memory_order_acquire);
  YieldGroup *g = t < L.ring.size() ? L.ring[t] : nullptr;
  return g && g->start == StartPhase::Lockstep ? g : nullptr;
}

void GpuLikeStart::stepTaken(YieldGroup &y) noexcept {
  if (y.finished || y.start != StartPhase::Lockstep)
    leaveRing(y);
  passTurn(y.slot);
}

void GpuLikeStart::checkMoves(LocalStart &L, const ProgressClock &clock) noexcept {
  uint64_t where =
      waveArrived_.load(std::memory_order_acquire) << 32 | turn_.load(std::memory_order_acquire);
  int64_t now = clock.nowNs();
  if (where != L.seen) {
    L.seen = where;
    L.seenNs = now;
  } else if (now - L.seenNs > kStuckStartNs) {
    gateOpen_.store(true, std::memory_order_release);
    ringDone_.store(true, std::memory_order_release);
  }
}

bool GpuLikeStart::endOneStage() noexcept {
  if (!gateOpen()) {
    gateOpen_.store(true, std::memory_order_release);
    return true;
  }
  if (!ringDone()) {
    ringDone_.store(true, std::memory_order_release);
    return true;
  }
  return false;
}

} // namespace fibercl::exec

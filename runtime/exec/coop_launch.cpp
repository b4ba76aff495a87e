// CoopLaunch (coop_launch.hpp): the active group set and the scheduler's decisions.
#include "runtime/exec/coop_launch.hpp"

#include <algorithm>
#include <cstring>

#include "runtime/debug.hpp"
#include "runtime/exec/device_slots.hpp"

namespace fibercl::exec {

CoopLaunch::CoopLaunch(std::string kernel, uint32_t requested, uint32_t bound, bool deterministic,
                       uint64_t seed, std::atomic<uint64_t> &remaining, DeviceSlots *slots)
    : kernel_(std::move(kernel)), requested_(requested),
      capacity_(bound ? std::min(bound, requested) : requested), deterministic_(deterministic),
      rng_(seed ^ 0xc00b5eedull), slots_(slots), remaining_(remaining) {
  if (slots_ && !slots_->coopStarted(capacity_))
    slots_ = nullptr; // another cooperative kernel is the device's: no multitasking
  // The scheduler may start with fewer than N groups; the seed says how many.
  uint32_t m0 = deterministic_ ? 1 + uint32_t(rng_.below(capacity_)) : capacity_;
  std::lock_guard<std::mutex> lk(m_);
  for (uint32_t g = 0; g < m0; ++g)
    starts_.push_back(GroupStart{g, 0, {}});
  setActive(m0);
}

CoopLaunch::~CoopLaunch() { end(); }

void CoopLaunch::end() {
  std::lock_guard<std::mutex> lk(m_);
  if (slots_)
    slots_->coopEnded();
  slots_ = nullptr;
  if (ended_)
    return;
  ended_ = true;
  if (runtime::debugEnabled("coop"))
    runtime::debugLog("coop", "kernel '" + kernel_ + "': " + std::to_string(requested_) +
                                  " groups requested, at most " + std::to_string(capacity_) +
                                  " active; active ranged " + std::to_string(minActive_) + ".." +
                                  std::to_string(maxActive_) + "; kills " + std::to_string(kills_) +
                                  ", groups forked " + std::to_string(forks_) +
                                  ", resizing barriers " + std::to_string(resizes_));
}

uint32_t CoopLaunch::initialStarts() {
  std::lock_guard<std::mutex> lk(m_);
  return uint32_t(starts_.size());
}

bool CoopLaunch::takeStart(GroupStart &out) {
  std::lock_guard<std::mutex> lk(m_);
  if (starts_.empty())
    return false;
  out = std::move(starts_.front());
  starts_.pop_front();
  return true;
}

bool CoopLaunch::hasStart() {
  std::lock_guard<std::mutex> lk(m_);
  return !starts_.empty();
}

uint32_t CoopLaunch::dropStarts() {
  std::lock_guard<std::mutex> lk(m_);
  uint32_t n = uint32_t(starts_.size());
  starts_.clear();
  return n;
}

void CoopLaunch::setActive(uint32_t m) {
  active_ = m;
  minActive_ = std::min(minActive_, m);
  maxActive_ = std::max(maxActive_, m);
  __atomic_store_n(&view.active, uint64_t(m), __ATOMIC_RELEASE);
  if (slots_)
    slots_->setCoopActive(m);
}

bool CoopLaunch::decide(uint32_t percent) { return rng_.below(100) < percent; }

uint32_t CoopLaunch::forkable() {
  uint32_t room = capacity_ > active_ ? capacity_ - active_ : 0;
  if (slots_)
    room = std::min(room, slots_->freeForForks());
  return room;
}

void CoopLaunch::addStarts(uint32_t from, uint32_t to, uint32_t site,
                           const std::vector<uint8_t> &frame) {
  for (uint32_t g = from; g < to; ++g)
    starts_.push_back(GroupStart{g, site, frame});
  if (to > from) {
    remaining_.fetch_add(to - from, std::memory_order_acq_rel);
    forks_ += to - from;
  }
}

uint32_t CoopLaunch::offerKill(uint32_t gid) {
  // Most offers come from groups that are not the highest: no lock for them.
  uint64_t m = __atomic_load_n(&view.active, __ATOMIC_ACQUIRE);
  if (m <= 1 || gid + 1 != m)
    return 0;
  std::lock_guard<std::mutex> lk(m_);
  if (active_ <= 1 || gid + 1 != active_)
    return 0; // only the highest id, never group 0
  bool accept = deterministic_ ? decide(25) : (slots_ && slots_->wantedBack() > 0);
  if (!accept)
    return 0;
  setActive(active_ - 1);
  ++kills_;
  if (arrived_ > 0 && arrived_ >= active_)
    releaseBarrier(); // the others wait at a global barrier for one group fewer now
  return FCL_COOP_LEAVE;
}

uint32_t CoopLaunch::requestFork(uint32_t gid, uint32_t site, const uint8_t *frame, uint64_t size) {
  // At full size nothing can be forked (a seed still draws, under the lock).
  if (!deterministic_ && __atomic_load_n(&view.active, __ATOMIC_ACQUIRE) >= capacity_)
    return 0;
  std::lock_guard<std::mutex> lk(m_);
  uint32_t room = forkable();
  uint32_t k = deterministic_ ? uint32_t(rng_.below(uint64_t(room) + 1)) : room;
  if (k == 0)
    return 0;
  std::vector<uint8_t> bytes(frame, frame + size);
  uint32_t from = active_;
  setActive(active_ + k);
  addStarts(from, from + k, site, bytes);
  return k;
}

uint64_t CoopLaunch::arrive(uint32_t gid, bool resizing, uint32_t site, const uint8_t *frame,
                            uint64_t size) {
  std::lock_guard<std::mutex> lk(m_);
  uint64_t gen = generation_.load(std::memory_order_relaxed);
  if (resizing) {
    resizing_ = true;
    if (gid == 0) { // new groups join as if forked from group 0
      resizeSite_ = site;
      resizeFrame_.assign(frame, frame + size);
    }
  }
  if (++arrived_ >= active_)
    releaseBarrier();
  return gen;
}

void CoopLaunch::releaseBarrier() {
  arrived_ = 0;
  if (resizing_) {
    resizing_ = false;
    uint32_t to = active_;
    if (deterministic_) {
      to = 1 + uint32_t(rng_.below(std::min<uint64_t>(capacity_, uint64_t(active_) + forkable())));
    } else if (uint32_t want = slots_ ? slots_->wantedBack() : 0) {
      to = active_ - std::min(want, active_ - 1);
    } else {
      to = active_ + forkable();
    }
    ++resizes_;
    if (to < active_) {
      kills_ += active_ - to;
      try {
        shrinks_.push_back(Shrink{generation_.load(std::memory_order_relaxed), to, active_ - to});
      } catch (...) {
        std::abort();
      }
    }
    uint32_t from = active_;
    setActive(to);
    if (to > from)
      addStarts(from, to, resizeSite_, resizeFrame_);
  }
  generation_.fetch_add(1, std::memory_order_acq_rel);
}

bool CoopLaunch::leavesAfterResize(uint64_t generation, uint32_t gid) {
  std::lock_guard<std::mutex> lk(m_);
  for (size_t i = 0; i < shrinks_.size(); ++i) {
    Shrink &s = shrinks_[i];
    if (s.generation != generation)
      continue;
    if (gid < s.to)
      return false;
    if (--s.pending == 0)
      shrinks_.erase(shrinks_.begin() + i);
    return true;
  }
  return false;
}

uint32_t CoopLaunch::wanted() const { return slots_ ? slots_->wantedBack() : 0; }

} // namespace fibercl::exec

// Moving suspended groups between workers (group_migration.hpp).
#include "runtime/exec/group_migration.hpp"

#include <algorithm>
#include <string>

#include "runtime/exec/yield_launch.hpp"

namespace fibercl::exec {
namespace {

// This worker's share of the resident groups: at least `low`, at most `high`.
struct Share {
  uint64_t low, high;
};
Share shareOf(uint64_t resident, unsigned runners) noexcept {
  runners = std::max(1u, runners);
  return {resident / runners, (resident + runners - 1) / runners};
}

// The stacks a suspended group holds: its fiber's, and its work-items' when its
// barriers run on fibers. They move with it from one runner's pool to another's.
template <typename Fn> void forEachStack(YieldGroup &y, Fn fn) noexcept {
  fn(y.stack);
  for (ItemSlot &item : y.gs.items)
    if (item.stack)
      fn(item.stack);
}

} // namespace

uint64_t GroupMigration::resident() const noexcept {
  const int64_t sum = resident_.sum(); // a group may finish on another worker
  return sum > 0 ? uint64_t(sum) : 0;
}

void GroupMigration::resumed(YieldGroup &y) const noexcept {
  if (enabled_)
    y.resumedAt = ticks();
}

void GroupMigration::suspended(YieldGroup &y) const noexcept {
  if (!enabled_)
    return;
  if (ticks() - y.resumedAt >= kWorthMovingTicks) {
    y.longStretches = std::min<uint32_t>(y.longStretches + 1, 2);
    y.shortSinceLong = 0;
  } else if (++y.shortSinceLong > kRecentStretches) {
    y.longStretches = 0; // it has only waited for a while
  }
}

YieldGroup *GroupMigration::balance(Runner &r, YieldShared &sh, LocalSched &L) noexcept {
  if (!enabled_ || !sh.start.ringDone())
    return nullptr;
  if (!open_.load(std::memory_order_relaxed)) {
    if (sh.clock.nowNs() < kDelayNs)
      return nullptr;
    open_.store(true, std::memory_order_relaxed);
  }
  // Looking for a group to give is a walk over this worker's groups: at every 8th
  // decision only when it holds many (a request may stay open while every group here
  // waits).
  if (asking_.load(std::memory_order_relaxed) > 0 &&
      (L.groups.size() <= 8 || (++L.balanceTicks & 7) == 0))
    give(sh, L);
  // Nothing on its way and no request to make: the common case, no shared line read.
  if (movingCount_.load(std::memory_order_relaxed) == 0 && (L.asking || sh.canAdmit()))
    return nullptr;
  const Share share = shareOf(resident(), sh.runners.load(std::memory_order_relaxed));
  // A worker that can admit a new group does that instead: taking over a suspended
  // group costs its caches, and a new one keeps both workers busy as well (a look-back
  // scan with stealing throughout ran 25% slower).
  if (!L.asking && !sh.canAdmit() &&
      (L.groups.size() < share.low || (L.groups.empty() && worthWaiting(sh)))) {
    L.asking = true;
    asking_.fetch_add(1, std::memory_order_relaxed);
  }
  // Any worker below its share takes a group on its way, whoever asked for it: a group
  // left in the list would never run (and a look-back scan's chain would stop there).
  return L.asking || L.groups.size() < share.high ? adopt(r, L) : nullptr;
}

void GroupMigration::give(YieldShared &sh, LocalSched &L) noexcept {
  const Share share = shareOf(resident(), sh.runners.load(std::memory_order_relaxed));
  while (L.groups.size() >= 2 && L.groups.size() > share.high) {
    // The group that ran least recently here (policies pick in list order) among those
    // with work to do: not started yet, or that ran for kWorthMovingTicks before each of
    // its last two suspensions. Groups that only wait -- an inter-group barrier's that do nothing
    // else
    // -- run no sooner elsewhere: moving them spread the waiting over two caches, 30%
    // slower.
    auto movable = std::find_if(L.groups.begin(), L.groups.end(), [&](YieldGroup *g) {
      return !g->started || g->longStretches >= 2;
    });
    if (movable == L.groups.end())
      return;
    int asked = asking_.load(std::memory_order_relaxed);
    if (asked <= 0 || !asking_.compare_exchange_weak(asked, asked - 1, std::memory_order_relaxed))
      return;
    YieldGroup *y = *movable;
    L.groups.erase(movable);
    forEachStack(*y, [&](Stack *st) { L.runner->stacks.disown(st); });
    {
      std::lock_guard<std::mutex> lock(mutex_);
      try {
        moving_.push_back(y);
      } catch (...) {
        L.groups.push_back(y); // keep it here
        return;
      }
    }
    movingCount_.fetch_add(1, std::memory_order_release);
    if (sh.trace.on())
      sh.trace.event("give", 'i', L.worker, "\"group\":" + std::to_string(y->gid));
  }
}

YieldGroup *GroupMigration::adopt(Runner &r, LocalSched &L) noexcept {
  if (movingCount_.load(std::memory_order_acquire) == 0)
    return nullptr;
  YieldGroup *y = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (moving_.empty())
      return nullptr;
    y = moving_.back();
    moving_.pop_back();
  }
  movingCount_.fetch_sub(1, std::memory_order_relaxed);
  try {
    L.groups.push_back(y);
  } catch (...) {
    std::abort();
  }
  // The group is this worker's now: its runner (stacks, sanitizer records, the
  // recovery point) and its scheduling view.
  forEachStack(*y, [&](Stack *st) { r.stacks.own(st); });
  y->local = &L;
  y->gs.runner = &r;
  if (L.asking)
    L.asking = false; // served (the giver withdrew the request)
  else
    asking_.fetch_add(1, std::memory_order_relaxed); // the asker's request stays open
  ++L.tally.adopted;
  return y;
}

bool GroupMigration::worthWaiting(const YieldShared &sh) const noexcept {
  if (!enabled_)
    return false;
  if (movingCount_.load(std::memory_order_acquire) > 0)
    return true;
  // The other workers hold every resident group: one of them has two or more.
  return resident() >= sh.runners.load(std::memory_order_relaxed);
}

void GroupMigration::leave(LocalSched &L) noexcept {
  if (!L.asking)
    return;
  L.asking = false;
  int asked = asking_.load(std::memory_order_relaxed);
  while (asked > 0 && !asking_.compare_exchange_weak(asked, asked - 1, std::memory_order_relaxed)) {
  }
}

uint64_t GroupMigration::dropMoving(Runner &r, YieldShared &sh, LocalSched &L) noexcept {
  std::vector<YieldGroup *> dropped;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    dropped.swap(moving_);
  }
  movingCount_.fetch_sub(dropped.size(), std::memory_order_relaxed);
  for (YieldGroup *y : dropped) {
    sh.info[y->gid].phase.store(uint8_t(GroupPhase::Abandoned));
    forEachStack(*y, [&](Stack *st) { r.stacks.own(st); });
    y->gs.runner = &r;
    releaseGroup(r, L, y);
  }
  return dropped.size();
}

} // namespace fibercl::exec

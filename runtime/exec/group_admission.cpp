// Admission of a yielding launch's groups: a place under the occupancy bound, the
// next start from the group set, the group's stack, object and local memory, and its
// fiber, ready to run. Code that runs on a group fiber (or across a switch) is
// noexcept: nothing unwinds across fibers.
#include <cstdlib>
#include <cstring>
#include <new>

#include "runtime/exec/coop_launch.hpp"
#include "runtime/exec/group_entry.hpp"
#include "runtime/exec/group_races.hpp"
#include "runtime/exec/job.hpp"
#include "runtime/exec/local_shadow.hpp"
#include "runtime/exec/report.hpp"
#include "runtime/exec/weak_memory.hpp"
#include "runtime/exec/yield_launch.hpp"

namespace bctx = boost::context::detail;

namespace fibercl::exec {
namespace {

using JumpFn = bctx::transfer_t (*)(bctx::fcontext_t, void *) noexcept;
const JumpFn jumpTo = reinterpret_cast<JumpFn>(&bctx::jump_fcontext);

// The group's fiber: runs the work-group function once, then returns to the worker
// for good.
void groupMain(bctx::transfer_t t) noexcept {
  YieldGroup &y = *static_cast<YieldGroup *>(t.data);
  sanSwitched(y.gs.runner->san);
  y.back = t.fctx;
  if (!runGuarded(*y.gs.runner, y.sh->job, &y.ctx, &y.fiber, &y.recover)) {
    resetGroup(y.gs); // left through the recovery point (fault, divergence)
    y.aborted = true;
  }
  y.finished = true;
  // The group may have moved to another worker since it started (group_migration.hpp).
  SanFibers &san = y.gs.runner->san;
  sanSwitching(san, san.thread, /*ending=*/true);
  jumpTo(y.back, &y);
  __builtin_trap(); // a finished group is never resumed
}

// A place under the bound (always, when unbounded), unless the launch is abandoned.
bool takePlace(YieldShared &sh) noexcept {
  if (sh.S.occupancy == 0)
    return !sh.abandon.load(std::memory_order_relaxed);
  uint32_t occ = sh.occupant.load(std::memory_order_relaxed);
  for (;;) {
    if (sh.abandon.load(std::memory_order_relaxed) || occ >= sh.S.occupancy)
      return false;
    if (sh.occupant.compare_exchange_weak(occ, occ + 1, std::memory_order_acq_rel))
      return true;
  }
}

// The group admitted `k`-th could not be created: the launch fails. It is counted as
// abandoned by the abandon path (the group set moved past it).
void lose(YieldShared &sh, LocalSched &L, uint64_t k) noexcept {
  Report msg;
  msg.kernel(sh.job.range.kernelName) << ": out of memory for a work-group\n";
  msg.emit();
  int32_t expected = kComplete;
  sh.job.status.compare_exchange_strong(expected, kOutOfResources);
  sh.abandon.store(true);
  if (sh.S.occupancy)
    sh.occupant.fetch_sub(1);
  sh.info[sh.groups.groupAt(k)].phase.store(uint8_t(GroupPhase::Abandoned));
  L.lost += 1;
}

// A group object with a stack and the launch's local memory, or null if one of them
// cannot be had.
YieldGroup *create(Runner &r, YieldShared &sh, LocalSched &L) noexcept {
  Stack *stack = r.stacks.take();
  YieldGroup *y = nullptr;
  if (stack) {
    if (!L.spare.empty()) {
      y = L.spare.back();
      L.spare.pop_back();
    } else {
      y = new (std::nothrow) YieldGroup;
    }
  }
  const uint64_t localSize = sh.job.range.localMemSize;
  if (y && localSize && y->localBytes < localSize) {
    std::free(y->localMem);
    y->localBytes = 0;
    if (posix_memalign(&y->localMem, 4096, size_t(localSize)) != 0)
      y->localMem = nullptr;
    else
      y->localBytes = localSize;
  }
  if (!y || (localSize && !y->localMem)) {
    if (stack)
      r.stacks.give(stack);
    delete y;
    return nullptr;
  }
  y->resetRun();
  y->stack = stack;
  return y;
}

// Makes `y` the group of `start`, admitted `k`-th: its context and fiber, ready to run.
void prepare(Runner &r, YieldShared &sh, LocalSched &L, YieldGroup &y, uint64_t k,
             GroupStart &start) noexcept {
  y.inWave = k < sh.start.waveSize();
  y.start = y.inWave ? StartPhase::Gated : StartPhase::Free;
  y.ys.checking = wantsAwaitChecks(sh, y);
  y.sh = &sh;
  y.local = &L;
  y.gid = start.gid;
  y.startSite = start.site;
  y.startFrame = std::move(start.frame);
  y.gs.runner = &r;
  y.gs.yieldGroup = &y;
  const LaunchContext launch(sh.job);
  uint64_t gid[3];
  launch.groupIdOf(y.gid, gid);
  fcl_group_ctx &c = y.ctx;
  c = launch.make();
  launch.placeGroup(c, gid);
  c.local_mem = reinterpret_cast<uintptr_t>(y.localMem);
  y.gs.localBytes = sh.job.range.localMemSize;
  ++y.gs.barrierEpoch; // FIBERCL_CHECK=races: a new group has touched nothing yet
  startGroupRaces(y.gs, sh.job.range.groupRaces.get(), y.gid);
  if (sh.job.range.weakMemory)
    startWeakMemory(y.gs, y.gid, sh.job.range.scheduling.seed, sh.job.range.localMemSize);
  if (sh.coop) // a forked group starts after what its parent did
    acquireGroupRaces(y.gs);
  if (sh.job.range.localShadow) { // FIBERCL_CHECK=uninit: nothing of the group's written yet
    // (The block may come from another launch: cleared, and the first tag.)
    std::memset(static_cast<char *>(y.localMem) + sh.job.range.localShadow, 0,
                sh.job.range.localShadow);
    LocalShadow::setTag(c, 1);
  }
  c.coop = sh.coop ? reinterpret_cast<uintptr_t>(&sh.coop->view) : 0;
  c.runtime = reinterpret_cast<uintptr_t>(&y.gs);
  c.yield_state = reinterpret_cast<uintptr_t>(&y.ys);
  y.gs.ctx = &c;
  sh.policy->admitted(y);
  // A wave group stops at its first yield point (the gate).
  y.ys.countdown = y.inWave ? 1 : sh.policy->initialCountdown();
  char *top = y.stack->top();
  y.fctx = bctx::make_fcontext(top, size_t(top - y.stack->limit()), &groupMain);
  sanFiberCreated(y.fiber, y.stack->limit(), size_t(top - y.stack->limit()));
  y.suspendedOn = &y.fiber;
}

} // namespace

YieldGroup *admitGroup(Runner &r, YieldShared &sh, LocalSched &L) noexcept {
  if (!takePlace(sh))
    return nullptr;
  GroupStart start;
  uint64_t k = 0;
  if (!sh.groups.takeStart(start, k)) {
    if (sh.S.occupancy)
      sh.occupant.fetch_sub(1, std::memory_order_acq_rel);
    return nullptr;
  }
  // Resident from now on: a worker with nothing to run that sees the start taken stays
  // for it (group_migration.hpp) even while its object is being made here.
  sh.migration.admitted(L.worker);
  YieldGroup *y = create(r, sh, L);
  if (!y) {
    sh.migration.finished(L.worker);
    lose(sh, L, k);
    return nullptr;
  }
  prepare(r, sh, L, *y, k, start);
  sh.info[y->gid].phase.store(uint8_t(GroupPhase::Admitted), std::memory_order_release);
  sh.clock.event(L.worker);
  try {
    L.groups.push_back(y);
  } catch (...) {
    std::abort();
  }
  if (sh.trace.on())
    sh.trace.event("admit", 'i', L.worker, "\"group\":" + std::to_string(y->gid));
  return y;
}

void releaseGroup(Runner &r, LocalSched &L, YieldGroup *y) noexcept {
  resetGroup(y->gs);
  r.stacks.give(y->stack);
  try {
    L.spare.push_back(y); // reused by the next admission on this worker
  } catch (...) {
    delete y;
  }
}

} // namespace fibercl::exec

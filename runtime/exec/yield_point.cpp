// __fibercl_host_yield: a work-group's yield point whose countdown ran out. Decides
// whether the group made progress since its last decision, takes it through the
// GPU-like start (gate, lockstep), checks for deadlock, and asks the policy whether
// to give the worker to another occupant. Runs on the group's fiber: noexcept.
#include "runtime/exec/yield_launch.hpp"

namespace bctx = boost::context::detail;

namespace fibercl::exec {
namespace {

using JumpFn = bctx::transfer_t (*)(bctx::fcontext_t, void *) noexcept;
const JumpFn jumpTo = reinterpret_cast<JumpFn>(&bctx::jump_fcontext);

// A waiting site reached for the first time since the group's last progress is not a
// return to where it waited: straight-line code inside a loop that may spin (a lock
// holder's reads before its write). Only coming back to a site is waiting.
bool firstVisit(YieldGroup &y, uint32_t site) noexcept {
  for (uint32_t k = 0; k < y.sitesSinceProgress; ++k)
    if (y.sitesSeen[k] == site)
      return false;
  if (y.sitesSinceProgress == YieldGroup::kSitesRemembered)
    return false; // a loop with this many sites: assume it came back
  y.sitesSeen[y.sitesSinceProgress++] = site;
  return true;
}

// Progress since the group's previous decision: a write that changed shared memory
// (strong); reaching a yield point outside any loop that may spin (the group is not
// waiting: it runs straight-line code or a loop that ends by itself); or, for a
// group waiting with a barrier inside its loop, a completed barrier round (weak: such
// a group completes rounds forever, so rounds alone count only for a limited number
// of decisions).
bool madeProgress(YieldGroup &y, bool waiting, uint32_t site) noexcept {
  bool strong = y.ys.progress != y.lastProgress || !waiting;
  if (strong) {
    y.lastProgress = y.ys.progress;
    y.lastRounds = y.ys.rounds;
    y.roundsOnlyYields = 0;
    y.sitesSinceProgress = 0;
    return true;
  }
  if (firstVisit(y, site))
    return true;
  if (y.ys.rounds != y.lastRounds) {
    y.lastRounds = y.ys.rounds;
    return ++y.roundsOnlyYields < kRoundsOnlyDecisions;
  }
  return false;
}

// The GPU-like start. Returns true while the group is in it (the decision is made
// here: hold at the gate, or switch at every yield point in lockstep).
bool startPhaseDecision(YieldShared &sh, YieldGroup &y, bool progressed, bool &go) noexcept {
  switch (y.start) {
  case StartPhase::Gated:
    // First yield point: arrive, and give the worker back; the worker's loop holds
    // the group until the whole wave has arrived.
    y.start = StartPhase::Lockstep;
    sh.arrive(y);
    go = true;
    return true;
  case StartPhase::Lockstep:
    if (sh.ringDone.load(std::memory_order_acquire)) { // the ring ended without it
      y.start = StartPhase::Free;
      return false;
    }
    if ((progressed && ++y.lockstepSteps >= kLockstepSteps) ||
        ++y.lockstepYields >= kLockstepYields)
      y.start = StartPhase::Free;
    // Always back to the worker's loop, which passes the turn to the next group in
    // the ring, whichever worker it is on.
    go = true;
    return true;
  case StartPhase::Free: break;
  }
  return false;
}

} // namespace
} // namespace fibercl::exec

using namespace fibercl::exec;

extern "C" void __fibercl_host_yield(fcl_group_ctx *ctx, fcl_u32 rawSite) noexcept {
  auto *ys = reinterpret_cast<fcl_yield_state *>(ctx->yield_state);
  GroupState &g = *reinterpret_cast<GroupState *>(ctx->runtime);
  YieldGroup *y = g.yieldGroup;
  if (!y) {
    if (ys)
      ys->countdown = uint64_t(1) << 40;
    return;
  }
  YieldShared &sh = *y->sh;
  ++y->local->yields;
  GroupInfo &info = sh.info[y->gid];
  const bool waiting = rawSite & FIBERCL_SITE_WAITING;
  const bool progressed = madeProgress(*y, waiting, rawSite);
  if (progressed)
    sh.progressEvent(y->local->worker);
  uint64_t ep = sh.epoch();
  if (info.epochSeen.load(std::memory_order_relaxed) != ep) {
    info.epochSeen.store(ep, std::memory_order_relaxed);
    info.yieldsSince.store(1, std::memory_order_release);
  } else {
    info.yieldsSince.fetch_add(1, std::memory_order_acq_rel);
  }
  info.site.store(rawSite, std::memory_order_relaxed);
  info.atBarrier.store(g.inBarrierRounds() ? 1 : 0, std::memory_order_relaxed);
  // Work-items taking turns at barriers: a barrier round takes every work-item
  // through its yield points (a few each: the barrier's, its own atomics).
  info.decisionsPerRound.store(g.inBarrierRounds() ? 4 * g.n : 1, std::memory_order_relaxed);
  info.phase.store(uint8_t(progressed ? GroupPhase::Running : GroupPhase::Spinning),
                   std::memory_order_release);

  bool canAdmit = sh.canAdmit();
  if (canAdmit && sh.policy->admitsInPlace()) {
    admitGroup(*g.runner, sh, *y->local); // occupant now, but this group keeps the worker
    canAdmit = sh.canAdmit();
  }
  if (sh.S.deterministic) {
    if (!progressed && !canAdmit &&
        info.yieldsSince.load(std::memory_order_relaxed) >=
            kDeterministicRounds * info.decisionsPerRound.load(std::memory_order_relaxed) &&
        allOccupantsStuck(sh, kDeterministicRounds))
      declareDeadlock(sh);
  } else if ((y->local->yields & 15) == 0) {
    watchdog(sh); // reads the clock: not at every decision
  }
  bool go = false;
  if (sh.abandon.load(std::memory_order_relaxed)) {
    go = true;
  } else if (startPhaseDecision(sh, *y, progressed, go)) {
    y->ys.countdown = 1;
  } else {
    go = sh.policy->switchAtYield(*y, progressed, canAdmit, y->local->groups.size());
    y->ys.countdown = sh.policy->countdown(!progressed);
  }
  if (!go)
    return;
  ++y->local->switches;
  SanFibers &san = g.runner->san;
  y->suspendedOn = san.running; // the group's own stack or a work-item's
  sanSwitching(san, san.thread);
  bctx::transfer_t t = jumpTo(y->back, y);
  sanSwitched(san);
  y->back = t.fctx;
}

// __fibercl_host_yield: a work-group's yield point whose countdown ran out. Judges
// what the group did since its last decision (progress, waiting, or undecided), takes it through
// the GPU-like start (gate, lockstep), checks for deadlock, and asks the policy whether to give the
// worker to another occupant. Runs on the group's fiber: noexcept.
#include "runtime/exec/host_abi.hpp"
#include "runtime/exec/weak_memory.hpp"
#include "runtime/exec/yield_launch.hpp"

namespace bctx = boost::context::detail;

namespace fibercl::exec {
namespace {

using JumpFn = bctx::transfer_t (*)(bctx::fcontext_t, void *) noexcept;
const JumpFn jumpTo = reinterpret_cast<JumpFn>(&bctx::jump_fcontext);

// What a group did since its previous decision. Waiting is a matter of state, not of
// place (DESIGN "Execution model"): inside a loop that may spin, the compiled code
// compares each iteration's state with the previous one's at the loop's back-edge and
// counts a failed await (same state, nothing written) or an advance (fcl_yield_state).
enum class Judgement : uint8_t {
  Progress,  // wrote shared memory, advanced, or ran code outside any waiting loop
  Waiting,   // failed awaits, and nothing else, since the previous decision
  Undecided, // inside a waiting loop, no back-edge reached yet (a long scan's middle)
};

Judgement judge(YieldGroup &y, bool waitingSite) noexcept {
  const fcl_yield_state &ys = y.ys;
  bool wrote = ys.progress != y.lastProgress;
  bool advanced = ys.advances != y.lastAdvances;
  bool failed = ys.awaits != y.lastAwaits;
  y.lastProgress = ys.progress;
  y.lastAdvances = ys.advances;
  y.lastAwaits = ys.awaits;
  if (wrote || advanced || !waitingSite)
    return Judgement::Progress;
  return failed ? Judgement::Waiting : Judgement::Undecided;
}

} // namespace

bool wantsAwaitChecks(const YieldShared &sh, const YieldGroup &y) noexcept {
  return sh.S.deterministic || y.start != StartPhase::Free ||
         sh.clock.checking.load(std::memory_order_relaxed);
}

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
  if (rawSite & FIBERCL_SITE_WAITING) // FIBERCL_CHECK=weak: others may wait for its stores
    drainWeakMemory(g);
  ++y->local->tally.decisions;
  GroupInfo &info = sh.info[y->gid];
  const Judgement j = judge(*y, rawSite & FIBERCL_SITE_WAITING);

  // The policy counts only progress seen: a group in the middle of a waiting loop's
  // iteration (or spinning while the checks are off) yields as often as a waiting one.
  const bool progressed = j == Judgement::Progress;
  if (j == Judgement::Progress)
    sh.clock.event(y->local->worker);
  // Decisions at which the group was found waiting, in the current progress epoch.
  uint64_t ep = sh.clock.epoch();
  if (info.epochSeen.load(std::memory_order_relaxed) != ep) {
    info.epochSeen.store(ep, std::memory_order_relaxed);
    info.waitsSince.store(j == Judgement::Waiting, std::memory_order_release);
  } else if (j == Judgement::Waiting) {
    info.waitsSince.fetch_add(1, std::memory_order_acq_rel);
  }
  info.site.store(rawSite, std::memory_order_relaxed);
  info.atBarrier.store(g.inBarrierRounds() ? 1 : 0, std::memory_order_relaxed);
  // Work-items taking turns at barriers: each reaches the loop's back-edge in turn,
  // so the group counts as waiting only after proportionally more decisions.
  info.decisionsPerRound.store(g.inBarrierRounds() ? 4 * g.n : 1, std::memory_order_relaxed);
  if (j != Judgement::Undecided)
    info.phase.store(uint8_t(progressed ? GroupPhase::Running : GroupPhase::Spinning),
                     std::memory_order_release);

  bool canAdmit = sh.canAdmit();
  if (canAdmit && sh.policy->admitsInPlace()) {
    admitGroup(*g.runner, sh, *y->local); // occupant now, but this group keeps the worker
    canAdmit = sh.canAdmit();
  }
  if (sh.S.deterministic) {
    if (j == Judgement::Waiting && !canAdmit &&
        info.waitsSince.load(std::memory_order_relaxed) >=
            kDeterministicRounds * info.decisionsPerRound.load(std::memory_order_relaxed) &&
        allOccupantsStuck(sh, kDeterministicRounds))
      declareDeadlock(sh);
  } else if ((y->local->tally.decisions & 15) == 0) {
    watchdog(sh); // reads the clock: not at every decision
  }
  bool go = false;
  if (sh.abandon.load(std::memory_order_relaxed)) {
    go = true;
  } else if (y->start != StartPhase::Free &&
             sh.start.decide(*y, j != Judgement::Waiting,
                             sh.migration.enabled() &&
                                 GroupMigration::ticks() - y->resumedAt >= kLongStepTicks,
                             go)) {
    y->ys.countdown = 1;
  } else {
    go = sh.policy->switchAtYield(*y, progressed, canAdmit, y->local->groups.size());
    y->ys.countdown = sh.policy->countdown(*y, progressed, rawSite & FIBERCL_SITE_WAITING,
                                           y->local->groups.size());
  }
  y->ys.checking = wantsAwaitChecks(sh, *y);
  if (!go)
    return;
  ++y->local->tally.switches;
  sh.migration.suspended(*y);
  SanFibers &san = g.runner->san;
  y->suspendedOn = san.running; // the group's own stack or a work-item's
  sanSwitching(san, san.thread);
  bctx::transfer_t t = jumpTo(y->back, y);
  // Resumed, perhaps by another worker (group_migration.hpp): its runner now.
  sanSwitched(g.runner->san);
  y->back = t.fctx;
}

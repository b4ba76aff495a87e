// Deadlock detection for yielding launches: exact in deterministic mode (every
// occupant found waiting -- failed awaits only -- at K decisions since the last
// progress event, and nothing can be admitted), a progress watchdog in parallel mode. On detection
// the launch is abandoned (its groups are never resumed) and failed with CL_OUT_OF_RESOURCES.
#include "runtime/exec/job.hpp"
#include "runtime/exec/yield_launch.hpp"

namespace fibercl::exec {

// Has every occupant been found waiting `rounds` times in the current progress epoch?
bool allOccupantsStuck(YieldShared &sh, uint32_t rounds) noexcept {
  uint64_t ep = sh.clock.epoch();
  bool any = false;
  for (uint64_t i = 0; i < sh.total; ++i) {
    GroupInfo &g = sh.info[i];
    auto ph = GroupPhase(g.phase.load(std::memory_order_acquire));
    if (ph != GroupPhase::Admitted && ph != GroupPhase::Running && ph != GroupPhase::Spinning)
      continue;
    // Unfair: a suspended (or never started) occupant only runs when the group that
    // holds its worker finishes, so only the groups holding workers count.
    if (sh.policy->admitsInPlace() && !g.onWorker.load(std::memory_order_acquire))
      continue;
    any = true;
    if (g.epochSeen.load(std::memory_order_acquire) != ep ||
        g.waitsSince.load(std::memory_order_acquire) <
            rounds * g.decisionsPerRound.load(std::memory_order_relaxed))
      return false;
  }
  // A group that finished during the scan (skipped above) counted its finish in the
  // epoch before it said so (finishGroup): its last stores, the ones the others wait
  // for, are progress they have not seen yet.
  return any && sh.clock.epoch() == ep;
}

void declareDeadlock(YieldShared &sh) noexcept {
  if (sh.declared.exchange(true))
    return;
  int32_t expected = kComplete;
  sh.job.status.compare_exchange_strong(expected, kOutOfResources);
  // Report before abandoning: once the groups are abandoned the job completes, and
  // whoever waits for it must find the report already written.
  reportDeadlock(sh);
  sh.abandon.store(true, std::memory_order_release);
}

// Parallel watchdog: no progress for the timeout and every occupant spinning.
void watchdog(YieldShared &sh) noexcept {
  if (sh.S.deterministic || sh.abandon.load(std::memory_order_relaxed))
    return;
  const int64_t quiet = sh.clock.stillFor();
  // The flag is read at every decision: written only when it changes.
  if (quiet < 0) { // progress since the last look
    if (sh.clock.checking.load(std::memory_order_relaxed))
      sh.clock.checking.store(false, std::memory_order_relaxed);
    return;
  }
  const int64_t timeout = int64_t(sh.S.deadlockTimeoutSeconds * 1e9);
  // Without the failed-await checks no group is ever found waiting: they are asked for
  // well before the timeout, so that rounds of them fit in it.
  if (quiet >= timeout / 4 && !sh.clock.checking.load(std::memory_order_relaxed))
    sh.clock.checking.store(true, std::memory_order_relaxed);
  if (quiet < timeout)
    return;
  if (sh.canAdmit() || !allOccupantsStuck(sh, kParallelRounds))
    return;
  declareDeadlock(sh);
}

} // namespace fibercl::exec

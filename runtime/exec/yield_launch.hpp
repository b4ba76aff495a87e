// Yielding launches (NDRange::mayYield): every work-group runs on its own fiber with
// its own fcl_group_ctx and fcl_yield_state, so __fibercl_host_yield can suspend it
// and the worker can run another occupant. After the start, suspended groups move
// between workers (group_migration.hpp). A launch is composed of its group set (group_set.hpp), the
// GPU-like start (gpu_like_start.hpp), the progress clock (progress_clock.hpp) and the trace
// (launch_trace.hpp), under the occupancy bound and the policy (sched_policy.hpp);
// admission is in group_admission.cpp, the worker's loop in yield_launch.cpp, the
// yield point in yield_point.cpp, deadlock detection in yield_deadlock.cpp.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <vector>

#include <boost/context/detail/fcontext.hpp>

#include "fibercl/kernel_abi.h"
#include "runtime/exec/gpu_like_start.hpp"
#include "runtime/exec/group_migration.hpp"
#include "runtime/exec/group_set.hpp"
#include "runtime/exec/launch_trace.hpp"
#include "runtime/exec/progress_clock.hpp"
#include "runtime/exec/runner.hpp"
#include "runtime/exec/sched_policy.hpp"

namespace fibercl::exec {

struct Job;
struct YieldShared;
class CoopLaunch;
class DeviceSlots;
struct LocalSched;

// Admitted: occupant, not started yet. Running/Spinning: started (Spinning: has
// reached a yield point since its last progress).
enum class GroupPhase : uint8_t { Waiting, Admitted, Running, Spinning, Finished, Abandoned };

// Per-group bookkeeping visible to every worker (for the watchdog and the report).
struct GroupInfo {
  std::atomic<uint8_t> phase{uint8_t(GroupPhase::Waiting)};
  std::atomic<uint8_t> atBarrier{0};
  std::atomic<uint8_t> onWorker{0}; // running on its worker now (not suspended)
  std::atomic<uint32_t> site{0};
  std::atomic<uint64_t> epochSeen{~0ull};
  std::atomic<uint32_t> waitsSince{0}; // decisions that found it waiting, this epoch
  // Decisions per "round" of this group: a group whose work-items are on fibers
  // reaches several yield points per work-item before a barrier round can complete,
  // so it counts as stuck only after proportionally more decisions.
  std::atomic<uint32_t> decisionsPerRound{1};
};

// Does `y` run the failed-await checks (fcl_yield_state::checking)? In deterministic
// mode always; in parallel mode during the GPU-like start (where a step of progress
// must not be a spin) and once the watchdog asks.
struct YieldGroup;
bool wantsAwaitChecks(const YieldShared &sh, const YieldGroup &y) noexcept;

// One run of a group on a YieldGroup: everything that starts afresh when the object
// is reused for the next group admitted on its worker (assigned from a default).
struct GroupRun {
  uint64_t gid = 0; // linear group id
  fcl_yield_state ys{};
  Stack *stack = nullptr;
  boost::context::detail::fcontext_t fctx = nullptr; // suspended group (or fresh)
  boost::context::detail::fcontext_t back = nullptr; // the worker's loop
  // For sanitizers: the stack it was suspended on (its own, or a work-item's when it
  // yielded inside a barrier round).
  SanFiber *suspendedOn = nullptr;
  intptr_t recover[5] = {}; // its recovery point (group_entry.hpp)
  // ys.progress, ys.advances and ys.awaits at the group's previous decision.
  uint64_t lastProgress = 0, lastAdvances = 0, lastAwaits = 0;
  int64_t priority = 0;
  uint32_t runLength = 0;    // decisions since it last gave its worker away
  uint32_t waitsInPlace = 0; // waiting decisions at which it kept its worker
  // When it last got its worker (GroupMigration::ticks()); of its recent stretches on
  // the worker, how many were long (up to 2) and how many short ones came since the
  // last long one (is it worth moving? Measured only where groups may move).
  int64_t resumedAt = 0;
  uint32_t longStretches = 0, shortSinceLong = 0;
  StartPhase start = StartPhase::Free;
  bool inWave = false;  // admitted in the first wave (held at the gate)
  bool arrived = false; // reached its first yield point (or finished)
  uint64_t slot = 0;    // its place in the lockstep ring (order of arrival)
  uint32_t lockstepSteps = 0, lockstepYields = 0;
  bool started = false;
  bool finished = false;
  bool aborted = false;
  // Cooperative launches: where the group starts (a fork site, 0 = the kernel's
  // start) with the transmitted bytes; each work-item's count of FIBERCL_HOST_COOP
  // calls, how many of the group's calls are decided, and the call at which the group
  // leaves (kill or shrinking resize; the only answer the others must repeat).
  uint32_t startSite = 0;
  std::vector<uint8_t> startFrame;
  std::vector<uint64_t> coopItemCalls;
  uint64_t coopDecided = 0;
  uint64_t coopLeaveAt = ~uint64_t(0);
};

// One occupant work-group: its run, and what the object keeps across runs -- its
// launch and worker, its context (rebuilt at each admission), its work-items' state
// (their fibers' slots, the barrier-region frames, kept for reuse), its own stack's
// sanitizer record.
struct YieldGroup : GroupRun {
  YieldShared *sh = nullptr;
  LocalSched *local = nullptr;
  fcl_group_ctx ctx{};
  GroupState gs;
  [[no_unique_address]] SanFiber fiber;
  // The group's __local memory (at least the launch's size), kept for the next group
  // run on this object: an aligned allocation and free per group was a tenth of a
  // short group's cost.
  void *localMem = nullptr;
  uint64_t localBytes = 0;

  YieldGroup() = default;
  YieldGroup(const YieldGroup &) = delete;
  YieldGroup &operator=(const YieldGroup &) = delete;
  ~YieldGroup() { std::free(localMem); }

  // Starts a new run on this object.
  void resetRun() noexcept { static_cast<GroupRun &>(*this) = GroupRun{}; }
};

// One worker's view of a yielding launch.
struct LocalSched {
  Runner *runner = nullptr;
  unsigned worker = 0;
  std::vector<YieldGroup *> groups;
  std::vector<YieldGroup *> spare;    // finished groups' objects, reused
  std::vector<YieldGroup *> runnable; // scratch: groups not held at the gate
  LocalStart start;                   // its side of the GPU-like start
  uint64_t lost = 0;                  // admitted groups that could not be created (out of memory)
  bool asking = false;                // for a group from another worker (group_migration.hpp)
  uint32_t balanceTicks = 0;          // decisions seen by GroupMigration::balance
  size_t turnsBeforeAdmission = 0;    // groups here to resume before the next admission
  size_t cursor = 0;                  // the policy's place in `groups` (SchedulerPolicy::pick)
  uint32_t idleSleepUs = 5;           // with no group here, waiting for one to move here
  LaunchTally tally;
};

// Shared state of one yielding launch.
struct YieldShared {
  // `workers`: the pool's threads (at most that many, and the cores, run the launch).
  // `slots`: the device's ledger, for cooperative launches (may be null).
  YieldShared(Job &job, uint64_t total, unsigned workers, DeviceSlots *slots = nullptr);
  ~YieldShared();
  Job &job;
  bool occupancyFromStacks = false; // the bound comes from the fiber-stack limit
  Scheduling S;                     // the launch's, occupancy possibly lowered
  std::unique_ptr<SchedulerPolicy> policy;
  unsigned maxRunners;              // threads that may run the launch at once
  std::atomic<unsigned> runners{0}; // ... running it now (parallel mode)
  std::atomic<unsigned> workerIds{0};
  std::atomic<bool> ownerTaken{false}; // deterministic mode: the one thread is there
  const uint64_t total;
  std::atomic<uint64_t> remaining;  // groups left to finish (forks add to it)
  std::unique_ptr<CoopLaunch> coop; // a cooperative kernel's launch, else null
  GroupSet groups;
  GpuLikeStart start;
  GroupMigration migration;
  ProgressClock clock;
  LaunchTrace trace;
  std::unique_ptr<GroupInfo[]> info;
  std::atomic<uint32_t> occupant{0};
  std::atomic<bool> abandon{false};
  std::atomic<bool> declared{false}; // a deadlock was declared (reported once)

  // May a waiting group be admitted now?
  bool canAdmit() const noexcept;
};

// Runs (a share of) a yielding launch on the calling thread's runner until this
// thread has nothing left to do for it. `complete(units)` completes job units.
// In parallel mode at most YieldShared::maxRunners threads take part; others return.
void runYieldJob(Runner &r, Job &job, const std::function<void(uint64_t)> &complete) noexcept;

// Admits the next waiting group on this worker if the bound allows (null if not)
// -- group_admission.cpp.
YieldGroup *admitGroup(Runner &r, YieldShared &sh, LocalSched &L) noexcept;
// Gives a finished or abandoned group's stack, memory and object back.
void releaseGroup(Runner &r, LocalSched &L, YieldGroup *y) noexcept;

// Deadlock detection (yield_deadlock.cpp).
constexpr uint32_t kDeterministicRounds = 3; // waiting decisions per occupant
constexpr uint32_t kParallelRounds = 2;      // ... and in parallel mode, after the timeout
// Has every occupant that can run been found waiting `rounds` times (times its
// decisions per round) in the current epoch?
bool allOccupantsStuck(YieldShared &sh, uint32_t rounds) noexcept;
// Abandons the launch, fails it with CL_OUT_OF_RESOURCES and reports (once).
void declareDeadlock(YieldShared &sh) noexcept;
// Parallel mode: no progress for the timeout and every occupant spinning.
void watchdog(YieldShared &sh) noexcept;

// Reports a detected deadlock (stderr, FIBERCL_REPORT JSON) -- yield_report.cpp.
void reportDeadlock(YieldShared &sh) noexcept;

} // namespace fibercl::exec

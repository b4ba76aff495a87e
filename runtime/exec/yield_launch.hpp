// Yielding launches (NDRange::mayYield): every work-group runs on its own fiber with
// its own fcl_group_ctx and fcl_yield_state, so __fibercl_host_yield can suspend it
// and the worker can run another occupant. Groups stay on the worker that admitted
// them. Occupancy bound, admission order, policy, deadlock detection, trace.
//
// GPU-like start (fair policy): the first wave of groups -- as many as the bound, or
// kUnboundedWave when unbounded -- is admitted at once, each group runs to its first
// yield point and is held there until every group of the wave has got that far (the
// gate), and then the wave runs in lockstep -- one step (to the next yield point) per
// group in turn, in the order they arrived -- for each group's first kLockstepSteps
// steps of progress. So protocols that count who is present (the
// occupancy discovery protocol) see every occupant group, as on a GPU where occupant
// groups start together.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <boost/context/detail/fcontext.hpp>

#include "fibercl/kernel_abi.h"
#include "runtime/exec/runner.hpp"
#include "runtime/exec/sched_policy.hpp"

namespace fibercl::exec {

struct Job;
struct YieldShared;
class CoopLaunch;
class DeviceSlots;
struct GroupStart;
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

// Where a group is in the GPU-like start: held at its first yield point until the
// wave has arrived, then in lockstep, then scheduled by the policy alone.
enum class StartPhase : uint8_t { Gated, Lockstep, Free };

// Groups admitted together when unbounded; steps of progress a group makes in
// lockstep; yield points after which lockstep ends even without them.
constexpr uint64_t kUnboundedWave = 1024;
constexpr uint32_t kLockstepSteps = 16;
constexpr uint32_t kLockstepYields = 1024;
constexpr unsigned kNoWorker = ~0u;

// Does `y` run the failed-await checks (fcl_yield_state::checking)? In deterministic
// mode always; in parallel mode during the GPU-like start (where a step of progress
// must not be a spin) and once the watchdog asks.
struct YieldGroup;
bool wantsAwaitChecks(const YieldShared &sh, const YieldGroup &y) noexcept;

// One occupant work-group: its fiber, context and state (kept while suspended).
struct YieldGroup {
  YieldShared *sh = nullptr;
  LocalSched *local = nullptr;
  uint64_t gid = 0; // linear group id
  fcl_group_ctx ctx{};
  fcl_yield_state ys{};
  GroupState gs;
  Stack *stack = nullptr;
  void *localMem = nullptr;
  boost::context::detail::fcontext_t fctx = nullptr; // suspended group (or fresh)
  boost::context::detail::fcontext_t back = nullptr; // the worker's loop
  // For sanitizers: the group's own stack, and the stack it was suspended on (its
  // own, or a work-item's when it yielded inside a barrier round).
  [[no_unique_address]] SanFiber fiber;
  SanFiber *suspendedOn = nullptr;
  intptr_t recover[5] = {};
  // ys.progress, ys.advances and ys.awaits at the group's previous decision.
  uint64_t lastProgress = 0, lastAdvances = 0, lastAwaits = 0;
  int64_t priority = 0;
  uint32_t runLength = 0;  // decisions since it last gave its worker away
  StartPhase start = StartPhase::Free;
  bool inWave = false;     // admitted in the first wave (held at the gate)
  bool arrived = false;    // reached its first yield point (or finished)
  uint64_t slot = 0;       // its place in the lockstep ring (order of arrival)
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

// One worker's view of a yielding launch.
struct LocalSched {
  Runner *runner = nullptr;
  unsigned worker = 0;
  std::vector<YieldGroup *> groups;
  std::vector<YieldGroup *> spare; // finished groups' objects, reused
  std::vector<YieldGroup *> runnable; // scratch: groups not held at the gate
  // This worker's wave groups by ring slot (null: not here or gone): whose turn it is
  // is found without scanning `groups`, which grows while the ring lasts.
  std::vector<YieldGroup *> ring;
  uint64_t startSeen = ~0ull;         // arrivals and turn last seen while waiting
  int64_t startSeenNs = 0;            // ... and since when
  uint64_t lost = 0;     // admitted groups that could not be created (out of memory)
  LaunchTally tally;
};

struct TraceEvent {
  std::string name;
  char ph;
  unsigned tid;
  uint64_t ts;
  std::string args; // JSON object body or ""
};

// Shared state of one yielding launch.
struct YieldShared {
  // `workers`: the pool's threads (at most that many, and the cores, run the launch).
  // `slots`: the device's ledger, for cooperative launches (may be null).
  YieldShared(Job &job, uint64_t total, unsigned workers, DeviceSlots *slots = nullptr);
  ~YieldShared();
  Job &job;
  Scheduling S;                     // the launch's, occupancy possibly lowered:
  bool occupancyFromStacks = false; // the bound comes from the fiber-stack limit
  std::unique_ptr<SchedulerPolicy> policy;
  unsigned maxRunners;                 // threads that may run the launch at once
  std::atomic<unsigned> runners{0};    // ... running it now (parallel mode)
  uint64_t total;
  // A cooperative kernel's group set (groups start from it instead of in id order).
  std::unique_ptr<CoopLaunch> coop;
  std::vector<uint64_t> order; // admission index -> group id (random admission)
  std::atomic<uint64_t> admitNext{0};
  // The GPU-like start (fair policy; 0 = none): wave groups are admission indices
  // below waveSize; the gate opens when all have arrived.
  uint64_t waveSize = 0;
  std::atomic<unsigned> waveOwner{~0u}; // the worker that admits the whole wave
  std::atomic<uint64_t> waveArrived{0};
  std::atomic<bool> gateOpen{true};
  // The lockstep ring: wave groups in the order they arrived at the gate (their
  // slots) take one step each in turn, whichever worker they are on, so the wave
  // interleaves at its atomics as one ring (as on one worker in deterministic mode),
  // not as one ring per worker racing the others.
  std::unique_ptr<std::atomic<uint8_t>[]> inRing; // per slot: still in lockstep
  std::atomic<uint64_t> turn{0};                  // the slot whose step is next
  std::atomic<bool> ringDone{true};
  std::atomic<uint32_t> occupant{0};
  std::atomic<uint64_t> remaining;
  std::atomic<bool> abandon{false};
  std::atomic<bool> declared{false}; // a deadlock was declared (reported once)
  std::atomic<bool> ownerTaken{false};
  // Progress events, counted per worker slot (no shared cache line on the admission
  // and finish paths); the epoch is their sum, which changes iff any event happened.
  struct alignas(64) EpochSlot {
    std::atomic<uint64_t> v{0};
  };
  static constexpr unsigned kEpochSlots = 16;
  EpochSlot epochs[kEpochSlots];
  std::atomic<uint64_t> watchEpoch{~0ull};  // parallel watchdog: epoch last seen
  std::atomic<int64_t> watchSinceNs{0};     // ... and since when
  // Parallel mode: the watchdog asks groups for failed-await checks (fcl_yield_state::
  // checking) once no progress has been seen for a quarter of the deadlock timeout.
  std::atomic<bool> checking{false};
  std::atomic<unsigned> workerIds{0};
  class TraceLog *traceLog = nullptr;            // the executor's trace files
  unsigned tracePid = 0;                         // this launch in its trace file
  std::unique_ptr<GroupInfo[]> info;
  std::chrono::steady_clock::time_point start;
  std::atomic<uint64_t> logical{0}; // deterministic trace clock
  std::mutex traceM;
  std::vector<TraceEvent> trace;

  uint64_t groupAt(uint64_t admissionIndex) const noexcept;
  // The launch's group set: every group id in admission order, or a cooperative
  // kernel's starts (initial and forked groups). Is a group left to start? Take the
  // next one (false if none), with its admission index. On abandon, take all that are
  // left and say how many.
  bool startsLeft() const noexcept;
  bool takeStart(GroupStart &out, uint64_t &admissionIndex) noexcept;
  uint64_t dropStarts() noexcept;
  bool canAdmit() const noexcept;
  // A wave group reached its first yield point or finished: gives it its slot in the
  // ring; the last to arrive opens the gate.
  void arrive(YieldGroup &y) noexcept;
  // The turn goes to the next slot after `from` still in the ring (or the ring ends).
  void passTurn(uint64_t from) noexcept;
  // `y` finished or left lockstep.
  void leaveRing(YieldGroup &y) noexcept;
  void progressEvent(unsigned worker) noexcept;
  uint64_t epoch() const noexcept;
  int64_t nowNs() const noexcept;
  void traceEvent(const char *name, char ph, unsigned tid, std::string args = {}) noexcept;
};

// Runs (a share of) a yielding launch on the calling thread's runner until this
// thread has nothing left to do for it. `complete(units)` completes job units.
// In parallel mode at most YieldShared::maxRunners threads take part; others return.
void runYieldJob(Runner &r, Job &job, const std::function<void(uint64_t)> &complete) noexcept;

// Admits the next waiting group on this worker if the bound allows (null if not).
YieldGroup *admitGroup(Runner &r, YieldShared &sh, LocalSched &L) noexcept;

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

// Reports a detected deadlock (stderr, FIBERCL_REPORT JSON) — yield_report.cpp.
void reportDeadlock(YieldShared &sh) noexcept;
// Writes the Chrome trace (FIBERCL_TRACE) of the launch — yield_report.cpp.
void writeTrace(YieldShared &sh) noexcept;

} // namespace fibercl::exec

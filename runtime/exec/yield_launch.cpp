// Yielding launches: the launch's shared state, and the worker's loop -- which group
// runs next (the GPU-like start's share, newly admitted groups, the policy's pick),
// resuming it until its next switch, and finishing it. Admission is in
// group_admission.cpp, the yield point in yield_point.cpp, deadlock detection in
// yield_deadlock.cpp. Code that runs across a switch is noexcept: nothing unwinds
// across fibers.
#include "runtime/exec/yield_launch.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "runtime/debug.hpp"
#include "runtime/exec/coop_launch.hpp"
#include "runtime/exec/group_races.hpp"
#include "runtime/exec/job.hpp"
#include "runtime/exec/report.hpp"

namespace bctx = boost::context::detail;

namespace fibercl::exec {
namespace {

using JumpFn = bctx::transfer_t (*)(bctx::fcontext_t, void *) noexcept;
const JumpFn jumpTo = reinterpret_cast<JumpFn>(&bctx::jump_fcontext);

// Threads that may run a launch at once: the pool's, and no more than the cores.
unsigned runnersFor(unsigned workers) noexcept {
  unsigned cores = std::thread::hardware_concurrency();
  return std::max(1u, cores ? std::min(workers, cores) : workers);
}

// The launch's scheduling. Every resident group holds its fiber's stack and, with
// barriers on fibers, one per work-item but the first. Residency is bounded so that
// they fit in half the process's stack limit (stack_pool.hpp), the rest staying for
// other runners' pools (a runner's idle pool is trimmed only by its own thread).
Scheduling schedulingOf(const Job &j, uint64_t n, bool &occupancyFromStacks) {
  Scheduling S = j.range.scheduling;
  const NDRange &R = j.range;
  uint64_t perGroup = 1 + (R.itemFibers ? R.localSize[0] * R.localSize[1] * R.localSize[2] - 1 : 0);
  uint64_t fit = std::max<uint64_t>(1, processStackLimit() / 2 / perGroup);
  if (fit < n && (S.occupancy == 0 || fit < S.occupancy)) {
    S.occupancy = uint32_t(fit);
    occupancyFromStacks = true;
  }
  // The cooperative kernels model guarantees fair scheduling of the active groups.
  if (j.range.cooperative)
    S.policy = Scheduling::Policy::Fair;
  return S;
}

// Active groups never exceed the bound, so the kernel never waits for a group that is
// not occupant (the model's fairness guarantee).
std::unique_ptr<CoopLaunch> coopLaunchOf(const Job &j, uint64_t n, const Scheduling &S,
                                         std::atomic<uint64_t> &remaining, DeviceSlots *slots) {
  if (!j.range.cooperative)
    return nullptr;
  return std::make_unique<CoopLaunch>(j.range.kernelName, uint32_t(n), S.occupancy, S.deterministic,
                                      S.seed, remaining, slots);
}

} // namespace

YieldShared::~YieldShared() = default;

YieldShared::YieldShared(Job &j, uint64_t n, unsigned workers, DeviceSlots *slots)
    : job(j), S(schedulingOf(j, n, occupancyFromStacks)), policy(makePolicy(S)),
      maxRunners(runnersFor(workers)), total(n), remaining(n),
      coop(coopLaunchOf(j, n, S, remaining, slots)), groups(j, n, S, coop.get()),
      start(policy->gpuLikeStart(), coop ? coop->initialStarts() : n,
            occupancyFromStacks ? 0 : S.occupancy),
      trace(S, clock), info(new GroupInfo[n]) {
  if (coop)
    remaining.store(coop->initialStarts());
  migration.enable(!S.deterministic && S.policy == Scheduling::Policy::Fair && !coop &&
                   maxRunners > 1);
  if (migration.enabled())
    groups.stayQueuedAfterLastStart();
}

bool YieldShared::canAdmit() const noexcept {
  if (abandon.load(std::memory_order_relaxed) || !groups.startsLeft())
    return false;
  return S.occupancy == 0 || occupant.load(std::memory_order_relaxed) < S.occupancy;
}

namespace {

void removeLocal(LocalSched &L, YieldGroup *y) noexcept {
  if (y->inWave && y->arrived && y->slot < L.start.ring.size() && L.start.ring[y->slot] == y)
    L.start.ring[y->slot] = nullptr;
  for (size_t i = 0; i < L.groups.size(); ++i)
    if (L.groups[i] == y) {
      L.groups.erase(L.groups.begin() + i);
      return;
    }
}

// Runs `y` until it yields its worker or finishes.
void resume(Runner &r, YieldShared &sh, LocalSched &L, YieldGroup &y) noexcept {
  const bool tracing = sh.trace.on();
  std::string name;
  if (tracing) {
    name = "group " + std::to_string(y.gid);
    sh.trace.event(name.c_str(), 'B', L.worker);
  }
  if (y.started) {
    std::memcpy(r.recover, y.recover, sizeof y.recover);
    r.recoverFiber = &y.fiber;
    r.inKernel = 1;
  }
  GroupInfo &info = sh.info[y.gid];
  if (!y.started)
    info.phase.store(uint8_t(GroupPhase::Running), std::memory_order_release);
  y.started = true;
  info.onWorker.store(1, std::memory_order_release);
  sh.migration.resumed(y);
  r.group.ctx = &y.ctx;
  r.kernelName = sh.job.range.kernelName.c_str();
  r.describeSite = &sh.job.range.describeSite;
  r.checkContinue = sh.job.range.checkContinue;
  sanSwitching(r.san, *y.suspendedOn);
  bctx::transfer_t t = jumpTo(y.fctx, &y);
  sanSwitched(r.san);
  y.fctx = t.fctx;
  info.onWorker.store(0, std::memory_order_release);
  r.inKernel = 0;
  r.group.ctx = nullptr;
  if (tracing)
    sh.trace.event(name.c_str(), 'E', L.worker,
                   y.finished ? std::string()
                              : "\"yield_site\":" + std::to_string(sh.info[y.gid].site.load()));
}

// A finished group of a cooperative kernel: did every work-item make the same
// cooperative calls? (They are work-group functions; one reached by only some
// work-items would kill or fork part of a group.) Reports the first mismatch.
bool coopCallsUniform(YieldGroup &y) noexcept {
  const std::vector<uint64_t> &calls = y.coopItemCalls;
  for (size_t i = 0; i < calls.size(); ++i) {
    if (calls[i] == y.coopDecided)
      continue;
    const fcl_group_ctx &c = y.ctx;
    uint64_t lx = c.local_size[0], ly = c.local_size[1];
    Report msg;
    msg.kernel(y.sh->job.range.kernelName) << ": ";
    msg.group(y.gid) << ": ";
    msg.item(i % lx, i / lx % ly, i / lx / ly)
        << " made " << calls[i] << " cooperative calls but another made " << y.coopDecided
        << " (offer_kill, request_fork and the global barriers are work-group functions: "
           "every work-item must reach each one)\n";
    msg.emit();
    return false;
  }
  return true;
}

YieldGroup *pickFrom(YieldShared &sh, LocalSched &L, const std::vector<YieldGroup *> &groups,
                     YieldGroup *last) noexcept {
  return groups.empty() ? nullptr : sh.policy->pick(groups, last, L.cursor);
}

// While the wave is arriving: the worker's share of the wave, and those of its groups
// that have not reached the gate.
YieldGroup *chooseAtTheGate(Runner &r, YieldShared &sh, LocalSched &L, YieldGroup *last) noexcept {
  // One worker admits the whole wave, so the lockstep ring is on one thread. (A wave
  // shared among the workers, the turn passing between them, made the spin lock's
  // discovery recall fall to 51-69% at bounds 16-64: the other worker's groups past
  // the start run while the ring waits for its turn. conformance/SCHEDULES.md.)
  if (sh.start.admitsWave(L.worker) && sh.groups.taken() < sh.start.waveSize())
    if (YieldGroup *y = admitGroup(r, sh, L))
      return y;
  L.runnable.clear();
  for (YieldGroup *g : L.groups)
    if (!g->arrived)
      L.runnable.push_back(g);
  return pickFrom(sh, L, L.runnable, last);
}

// What the worker runs next. While the wave is arriving: see chooseAtTheGate. Then,
// while the lockstep ring lasts, the group whose turn it is if it is here
// (`ringStep`); otherwise newly admitted groups and groups past the start, as the
// policy picks.
YieldGroup *chooseNext(Runner &r, YieldShared &sh, LocalSched &L, YieldGroup *last,
                       bool &admitFirst, bool &ringStep) noexcept {
  if (!sh.start.gateOpen())
    return chooseAtTheGate(r, sh, L, last);
  if (!sh.start.ringDone()) {
    if (YieldGroup *g = sh.start.turnHere(L.start)) {
      ringStep = true;
      return g;
    }
    sh.start.checkMoves(L.start, sh.clock); // this worker's groups past the start run meanwhile
  }
  const bool admissionTurn =
      sh.policy->admitsAtEverySwitch() ? admitFirst : L.turnsBeforeAdmission == 0;
  if (admissionTurn || L.groups.empty()) {
    admitFirst = false;
    const size_t here = L.groups.size();
    if (YieldGroup *y = admitGroup(r, sh, L)) {
      L.turnsBeforeAdmission = here + 1; // it runs now, then each group here once
      return y;
    }
  }
  // Once the ring has ended, a group still marked as in lockstep runs like any other
  // (it leaves lockstep at its next yield point).
  if (sh.start.ringDone()) // the usual case: no copy to filter
    return pickFrom(sh, L, L.groups, last);
  L.runnable.clear();
  for (YieldGroup *g : L.groups)
    if (g->start != StartPhase::Lockstep)
      L.runnable.push_back(g);
  return pickFrom(sh, L, L.runnable, last);
}

// How long a worker with no group sleeps between looks for one that moves to it.
constexpr uint32_t kMinIdleSleepUs = 5, kMaxIdleSleepUs = 1000;

// Nothing to run here now. False when this worker is done with the launch (everything
// admitted, its groups finished); otherwise waits a little, or moves the launch on.
bool idle(Runner &r, YieldShared &sh, LocalSched &L) noexcept {
  if (L.groups.empty() && !sh.groups.startsLeft()) {
    // While the wave is still at the gate or in its ring, every group is on the worker
    // that admitted it and few are resident yet: groups may move here once it ends (a
    // persistent kernel's 2 groups, each a long sweep from its first yield point).
    if (!sh.abandon.load(std::memory_order_relaxed) &&
        (sh.migration.worthWaiting(sh) || (sh.migration.enabled() && !sh.start.ringDone()))) {
      // A group may move here: soon if the others have work to give, perhaps never if
      // theirs all wait (then this thread would only take the core from them). The
      // workers with groups run the watchdog.
      std::this_thread::sleep_for(std::chrono::microseconds(L.idleSleepUs));
      L.idleSleepUs = std::min<uint32_t>(2 * L.idleSleepUs, kMaxIdleSleepUs);
      return true;
    }
    sh.migration.leave(L);
    return false;
  }
  const bool starting = !sh.start.ringDone();
  if (sh.S.deterministic && !sh.abandon.load()) {
    // Cannot happen with one worker, unless a wave group could not be created.
    if (!sh.start.endOneStage())
      declareDeadlock(sh); // nothing occupant means room to admit
    return true;
  }
  watchdog(sh);
  if (starting) { // the gate or the turn is on another worker: it comes back soon
    sh.start.checkMoves(L.start, sh.clock);
    std::this_thread::yield();
    return true;
  }
  trimIdleStacks(r.stacks);
  std::this_thread::sleep_for(std::chrono::microseconds(50));
  return true;
}

// `y` finished (or was abandoned by a fault): it leaves the launch.
void finishGroup(Runner &r, YieldShared &sh, LocalSched &L, YieldGroup &y) noexcept {
  sh.start.arrive(y); // a wave group that finished before any yield point
  // Progress first: whoever sees the group finished sees the epoch moved
  // (allOccupantsStuck), so the groups waiting for its stores are not judged stuck.
  sh.clock.event(L.worker);
  sh.info[y.gid].phase.store(uint8_t(GroupPhase::Finished), std::memory_order_release);
  if (sh.coop && !y.aborted && !coopCallsUniform(y))
    y.aborted = true; // reported; the launch fails
  if (sh.coop) // a killed group's work is ordered before later barriers and forks
    releaseGroupRaces(y.gs);
  endGroupRaces(y.gs);
  if (y.aborted && !sh.abandon.exchange(true)) {
    int32_t expected = kComplete;
    sh.job.status.compare_exchange_strong(expected, kOutOfResources);
  }
  removeLocal(L, &y);
  releaseGroup(r, L, &y);
  sh.migration.finished(L.worker);
  trimIdleStacks(r.stacks);
  if (sh.S.occupancy)
    sh.occupant.fetch_sub(1, std::memory_order_acq_rel);
  sh.clock.event(L.worker);
}

// The launch was abandoned: this worker's groups are never resumed, and the groups
// nobody admitted are dropped. Returns how many groups that is.
uint64_t abandonHere(Runner &r, YieldShared &sh, LocalSched &L) noexcept {
  uint64_t n = 0;
  for (YieldGroup *y : L.groups) {
    sh.info[y->gid].phase.store(uint8_t(GroupPhase::Abandoned));
    releaseGroup(r, L, y);
    ++n;
  }
  L.groups.clear();
  n += sh.migration.dropMoving(r, sh, L); // handed over, not adopted yet
  sh.migration.leave(L);
  // Groups nobody admitted: whoever claims them completes them.
  n += sh.groups.dropStarts();
  sh.job.next.store(sh.job.total, std::memory_order_release);
  return n;
}

// The worker's loop. Returns the groups finished or abandoned here.
uint64_t runHere(Runner &r, YieldShared &sh, LocalSched &L) noexcept {
  uint64_t done = 0;
  YieldGroup *last = nullptr;
  bool admitFirst = true;
  for (;;) {
    if (sh.abandon.load(std::memory_order_acquire))
      return done + abandonHere(r, sh, L);
    sh.migration.balance(r, sh, L); // gives or adopts a suspended group, after the start
    bool ringStep = false;
    YieldGroup *next = chooseNext(r, sh, L, last, admitFirst, ringStep);
    if (!next) {
      if (!idle(r, sh, L))
        return done;
      continue;
    }
    L.idleSleepUs = kMinIdleSleepUs;
    resume(r, sh, L, *next);
    if (L.turnsBeforeAdmission)
      --L.turnsBeforeAdmission;
    last = next;
    admitFirst = true;
    if (ringStep) // its lockstep step: pass the turn on
      sh.start.stepTaken(*next);
    if (next->finished) {
      finishGroup(r, sh, L, *next);
      last = nullptr; // round-robin continues after the finished one's predecessor
      ++done;         // completed in one step when this worker leaves
    }
  }
}

// Group objects a thread keeps from one launch to the next, with their __local memory
// and barrier frames: a launch's first wave made and freed 1024 of them, a fifth of a
// 1024-group launch's time. At most kMaxKept objects and kMaxKeptLocalBytes of
// __local memory per thread.
struct SpareGroups {
  static constexpr size_t kMaxKept = 1024;
  static constexpr uint64_t kMaxKeptLocalBytes = 4 << 20;
  std::vector<YieldGroup *> groups;

  void keep(std::vector<YieldGroup *> &spare) noexcept {
    try {
      groups.reserve(std::min(kMaxKept, groups.size() + spare.size()));
    } catch (...) {
      groups.clear(); // (empty here: swapped out at the launch's start)
    }
    uint64_t localBytes = 0;
    for (YieldGroup *y : spare) {
      if (groups.size() >= std::min(kMaxKept, groups.capacity())) {
        delete y;
        continue;
      }
      if (localBytes + y->localBytes > kMaxKeptLocalBytes) {
        std::free(y->localMem);
        y->localMem = nullptr;
        y->localBytes = 0;
      }
      localBytes += y->localBytes;
      groups.push_back(y); // within the capacity reserved above
    }
    spare.clear();
  }
  ~SpareGroups() {
    for (YieldGroup *y : groups)
      delete y;
  }
};
thread_local SpareGroups tSpareGroups;

// May this thread take part in the launch? Deterministic mode: only the first.
// Parallel mode: as many threads as cores -- a host thread helping in clFinish would
// be one more, and groups that wait for each other stall for a whole OS time slice
// whenever one of their threads is descheduled.
bool join(YieldShared &sh, Job &job) noexcept {
  if (sh.S.deterministic) {
    if (sh.ownerTaken.exchange(true))
      return false;
    job.next.store(job.total, std::memory_order_release); // nobody else takes it
    return true;
  }
  if (sh.runners.fetch_add(1, std::memory_order_acq_rel) >= sh.maxRunners) {
    sh.runners.fetch_sub(1, std::memory_order_acq_rel);
    return false;
  }
  return true;
}

} // namespace

void runYieldJob(Runner &r, Job &job, const std::function<void(uint64_t)> &complete) noexcept {
  YieldShared &sh = *job.yield;
  if (!join(sh, job))
    return;
  ActiveLaunch active(r, job.serial);
  LocalSched L;
  L.runner = &r;
  L.worker = sh.workerIds.fetch_add(1);
  try {
    L.start.ring.assign(sh.start.waveSize(), nullptr); // at most kUnboundedWave entries
  } catch (...) {
    std::abort();
  }
  L.spare.swap(tSpareGroups.groups); // the objects this thread kept from its last launch
  const uint64_t done = runHere(r, sh, L);
  tSpareGroups.keep(L.spare);
  trimIdleStacks(r.stacks);
  L.tally.addTo(r.counters);
  if (runtime::debugEnabled("sched"))
    runtime::debugLog("sched", "kernel '" + sh.job.range.kernelName + "', worker " +
                                   std::to_string(L.worker) + ": " + std::to_string(done) +
                                   " groups finished, " + std::to_string(L.tally.decisions) +
                                   " decisions, " + std::to_string(L.tally.switches) +
                                   " switches, " + std::to_string(L.tally.adopted) +
                                   " groups taken from another worker");
  if (!sh.S.deterministic)
    sh.runners.fetch_sub(1, std::memory_order_acq_rel);
  // Last: the final completion may release the launch.
  const uint64_t n = done + L.lost;
  if (n && sh.remaining.fetch_sub(n, std::memory_order_acq_rel) == n) {
    if (sh.coop)
      sh.coop->end();
    sh.trace.write(sh.job.range.kernelName);
    complete(sh.total);
  }
}

} // namespace fibercl::exec

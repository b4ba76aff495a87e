// Yielding launches: group fibers, admission under the occupancy bound (with the
// GPU-like start's wave and gate), and the worker's scheduling loop. The yield point
// itself is in yield_point.cpp, deadlock detection in yield_deadlock.cpp. Code that
// runs on a group fiber (or across a switch) is noexcept: nothing unwinds across fibers.
#include "runtime/exec/yield_launch.hpp"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "runtime/exec/coop_launch.hpp"
#include "runtime/exec/group_entry.hpp"
#include "runtime/exec/job.hpp"
#include "runtime/exec/report.hpp"

namespace bctx = boost::context::detail;

namespace fibercl::exec {
namespace {

using JumpFn = bctx::transfer_t (*)(bctx::fcontext_t, void *) noexcept;
const JumpFn jumpTo = reinterpret_cast<JumpFn>(&bctx::jump_fcontext);

// How long the gate or the lockstep turn may stand still before the start is ended.
constexpr int64_t kStuckStartNs = 20'000'000;

void groupMain(bctx::transfer_t t) noexcept {
  YieldGroup &y = *static_cast<YieldGroup *>(t.data);
  SanFibers &san = y.gs.runner->san;
  sanSwitched(san);
  y.back = t.fctx;
  if (!runGuarded(*y.gs.runner, y.sh->job, &y.ctx, &y.fiber, &y.recover)) {
    resetGroup(y.gs); // left through the recovery point (fault, divergence)
    y.aborted = true;
  }
  y.finished = true;
  sanSwitching(san, san.thread, /*ending=*/true);
  jumpTo(y.back, &y);
  __builtin_trap(); // a finished group is never resumed
}

// Threads that may run a launch at once: the pool's, and no more than the cores.
unsigned runnersFor(unsigned workers) noexcept {
  unsigned cores = std::thread::hardware_concurrency();
  return std::max(1u, cores ? std::min(workers, cores) : workers);
}

} // namespace

YieldShared::~YieldShared() = default;

YieldShared::YieldShared(Job &j, uint64_t n, unsigned workers, DeviceSlots *slots)
    : job(j), S(j.range.scheduling), maxRunners(runnersFor(workers)), total(n), remaining(n),
      info(new GroupInfo[n]), start(std::chrono::steady_clock::now()) {
  // Every resident group holds its fiber's stack and, with barriers on fibers, one per
  // work-item but the first. Residency is bounded so that they fit in half the process's stack
  // limit (stack_pool.hpp), the rest staying for other runners' pools (a runner's idle
  // pool is trimmed only by its own thread).
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
  policy = makePolicy(S);
  uint64_t starting = n;
  if (j.range.cooperative) {
    // Active groups never exceed the bound, so the kernel never waits for a group that
    // is not occupant (the model's fairness guarantee).
    coop = std::make_unique<CoopLaunch>(j.range.kernelName, uint32_t(n), S.occupancy,
                                        S.deterministic, S.seed, remaining, slots);
    starting = coop->initialStarts();
    remaining.store(starting);
  }
  if (policy->gpuLikeStart()) {
    waveSize = std::min<uint64_t>(starting, S.occupancy ? S.occupancy : kUnboundedWave);
    gateOpen.store(waveSize == 0, std::memory_order_relaxed);
    ringDone.store(waveSize == 0, std::memory_order_relaxed);
    inRing.reset(new std::atomic<uint8_t>[waveSize]);
    for (uint64_t i = 0; i < waveSize; ++i)
      inRing[i].store(0, std::memory_order_relaxed);
  }
  if (S.admission == Scheduling::Admission::Random) {
    order.resize(n);
    for (uint64_t i = 0; i < n; ++i)
      order[i] = i;
    SplitMix rng(S.seed ^ 0x5eedad31u);
    for (uint64_t i = n; i > 1; --i)
      std::swap(order[i - 1], order[rng.below(i)]);
  }
}

void YieldShared::arrive(YieldGroup &y) noexcept {
  if (!y.inWave || y.arrived)
    return;
  y.arrived = true;
  y.slot = waveArrived.fetch_add(1, std::memory_order_acq_rel);
  if (y.local && y.slot < y.local->ring.size())
    y.local->ring[y.slot] = &y;
  inRing[y.slot].store(y.finished ? 0 : 1, std::memory_order_release);
  if (y.slot + 1 == waveSize) { // the last to arrive opens the gate
    passTurn(waveSize - 1);
    gateOpen.store(true, std::memory_order_release);
  }
}

void YieldShared::passTurn(uint64_t from) noexcept {
  for (uint64_t k = 1; k <= waveSize; ++k) {
    uint64_t s = (from + k) % waveSize;
    if (inRing[s].load(std::memory_order_acquire)) {
      turn.store(s, std::memory_order_release);
      return;
    }
  }
  ringDone.store(true, std::memory_order_release);
}

void YieldShared::leaveRing(YieldGroup &y) noexcept {
  if (y.inWave && y.arrived)
    inRing[y.slot].store(0, std::memory_order_release);
}

uint64_t YieldShared::groupAt(uint64_t k) const noexcept {
  switch (S.admission) {
  case Scheduling::Admission::Reverse: return total - 1 - k;
  case Scheduling::Admission::Random: return order[k];
  default: return k;
  }
}

bool YieldShared::startsLeft() const noexcept {
  return coop ? coop->hasStart() : admitNext.load(std::memory_order_acquire) < total;
}

bool YieldShared::takeStart(GroupStart &out, uint64_t &k) noexcept {
  if (coop) {
    if (!coop->takeStart(out))
      return false;
    k = admitNext.fetch_add(1, std::memory_order_acq_rel); // admission order only
    if (!coop->hasStart()) // later forks are admitted by the workers running it
      job.next.store(job.total, std::memory_order_release);
    return true;
  }
  if (admitNext.load(std::memory_order_relaxed) >= total)
    return false;
  k = admitNext.fetch_add(1, std::memory_order_acq_rel);
  if (k >= total)
    return false;
  if (k + 1 == total)
    job.next.store(job.total, std::memory_order_release); // leave the queue
  out.gid = groupAt(k);
  return true;
}

uint64_t YieldShared::dropStarts() noexcept {
  if (coop)
    return coop->dropStarts();
  uint64_t k = admitNext.exchange(total, std::memory_order_acq_rel);
  return k < total ? total - k : 0;
}

bool YieldShared::canAdmit() const noexcept {
  if (abandon.load(std::memory_order_relaxed) || !startsLeft())
    return false;
  return S.occupancy == 0 || occupant.load(std::memory_order_relaxed) < S.occupancy;
}

int64_t YieldShared::nowNs() const noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now() - start)
      .count();
}

uint64_t YieldShared::epoch() const noexcept {
  uint64_t sum = 0;
  for (const EpochSlot &e : epochs)
    sum += e.v.load(std::memory_order_acquire);
  return sum;
}

void YieldShared::progressEvent(unsigned worker) noexcept {
  epochs[worker % kEpochSlots].v.fetch_add(1, std::memory_order_acq_rel);
}

void YieldShared::traceEvent(const char *name, char ph, unsigned tid,
                             std::string args) noexcept {
  if (S.tracePath.empty())
    return;
  try {
    std::lock_guard<std::mutex> lk(traceM);
    uint64_t ts = S.deterministic ? logical.fetch_add(1) : uint64_t(nowNs() / 1000);
    trace.push_back(TraceEvent{name, ph, tid, ts, std::move(args)});
  } catch (...) {
  }
}

} // namespace fibercl::exec

namespace fibercl::exec {

YieldGroup *admitGroup(Runner &r, YieldShared &sh, LocalSched &L) noexcept {
  const bool bounded = sh.S.occupancy != 0;
  if (bounded) {
    uint32_t occ = sh.occupant.load(std::memory_order_relaxed);
    for (;;) {
      if (sh.abandon.load(std::memory_order_relaxed) || occ >= sh.S.occupancy)
        return nullptr;
      if (sh.occupant.compare_exchange_weak(occ, occ + 1, std::memory_order_acq_rel))
        break;
    }
  } else if (sh.abandon.load(std::memory_order_relaxed)) {
    return nullptr;
  }
  GroupStart start;
  uint64_t k = 0;
  if (!sh.takeStart(start, k)) {
    if (bounded)
      sh.occupant.fetch_sub(1, std::memory_order_acq_rel);
    return nullptr;
  }
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
  const NDRange &R = sh.job.range;
  void *lm = nullptr;
  if (y && R.localMemSize && posix_memalign(&lm, 4096, size_t(R.localMemSize)) != 0)
    lm = nullptr;
  if (!y || (R.localMemSize && !lm)) {
    Report msg;
    msg.kernel(R.kernelName) << ": out of memory for a work-group\n";
    msg.emit();
    if (stack)
      r.stacks.give(stack);
    delete y;
    // Counted as abandoned by the abandon path (admitNext moved past it).
    int32_t expected = kComplete;
    sh.job.status.compare_exchange_strong(expected, kOutOfResources);
    sh.abandon.store(true);
    if (bounded)
      sh.occupant.fetch_sub(1);
    sh.info[sh.groupAt(k)].phase.store(uint8_t(GroupPhase::Abandoned));
    L.lost += 1;
    return nullptr;
  }
  y->fctx = nullptr;
  y->back = nullptr;
  y->ys = fcl_yield_state{};
  y->lastProgress = y->lastAdvances = y->lastAwaits = 0;
  y->priority = 0;
  y->inWave = k < sh.waveSize;
  y->arrived = false;
  y->start = y->inWave ? StartPhase::Gated : StartPhase::Free;
  y->ys.checking = wantsAwaitChecks(sh, *y);
  y->lockstepSteps = y->lockstepYields = 0;
  y->started = y->finished = y->aborted = false;
  y->sh = &sh;
  y->local = &L;
  y->gid = start.gid;
  y->startSite = start.site;
  y->startFrame = std::move(start.frame);
  y->coopItemCalls.clear();
  y->coopDecided = 0;
  y->coopLeaveAt = ~uint64_t(0);
  y->stack = stack;
  y->localMem = lm;
  y->gs.runner = &r;
  y->gs.yieldGroup = y;
  const LaunchContext launch(sh.job);
  uint64_t gid[3];
  launch.groupIdOf(y->gid, gid);
  fcl_group_ctx &c = y->ctx;
  c = launch.make();
  launch.placeGroup(c, gid);
  c.local_mem = reinterpret_cast<uintptr_t>(lm);
  c.coop = sh.coop ? reinterpret_cast<uintptr_t>(&sh.coop->view) : 0;
  c.runtime = reinterpret_cast<uintptr_t>(&y->gs);
  c.yield_state = reinterpret_cast<uintptr_t>(&y->ys);
  y->gs.ctx = &c;
  sh.policy->admitted(*y);
  // A wave group stops at its first yield point (the gate).
  y->ys.countdown = y->inWave ? 1 : sh.policy->initialCountdown();
  char *top = stack->top();
  y->fctx = bctx::make_fcontext(top, size_t(top - stack->limit()), &groupMain);
  sanFiberCreated(y->fiber, stack->limit(), size_t(top - stack->limit()));
  y->suspendedOn = &y->fiber;
  sh.info[y->gid].phase.store(uint8_t(GroupPhase::Admitted), std::memory_order_release);
  sh.progressEvent(L.worker);
  try {
    L.groups.push_back(y);
  } catch (...) {
    std::abort();
  }
  if (!sh.S.tracePath.empty())
    sh.traceEvent("admit", 'i', L.worker, "\"group\":" + std::to_string(y->gid));
  return y;
}

namespace {

void release(Runner &r, LocalSched &L, YieldGroup *y) noexcept {
  resetGroup(y->gs);
  r.stacks.give(y->stack);
  std::free(y->localMem);
  y->localMem = nullptr;
  try {
    L.spare.push_back(y); // reused by the next admission on this worker
  } catch (...) {
    delete y;
  }
}

void removeLocal(LocalSched &L, YieldGroup *y) noexcept {
  if (y->inWave && y->arrived && y->slot < L.ring.size() && L.ring[y->slot] == y)
    L.ring[y->slot] = nullptr;
  for (size_t i = 0; i < L.groups.size(); ++i)
    if (L.groups[i] == y) {
      L.groups.erase(L.groups.begin() + i);
      return;
    }
}

void resume(Runner &r, YieldShared &sh, LocalSched &L, YieldGroup &y) noexcept {
  const bool tracing = !sh.S.tracePath.empty();
  std::string name;
  if (tracing) {
    name = "group " + std::to_string(y.gid);
    sh.traceEvent(name.c_str(), 'B', L.worker);
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
  r.group.ctx = &y.ctx;
  r.kernelName = sh.job.range.kernelName.c_str();
  r.describeSite = &sh.job.range.describeSite;
  sanSwitching(r.san, *y.suspendedOn);
  bctx::transfer_t t = jumpTo(y.fctx, &y);
  sanSwitched(r.san);
  y.fctx = t.fctx;
  info.onWorker.store(0, std::memory_order_release);
  r.inKernel = 0;
  r.group.ctx = nullptr;
  if (tracing)
    sh.traceEvent(name.c_str(), 'E', L.worker,
                y.finished ? std::string() : "\"yield_site\":" +
                    std::to_string(sh.info[y.gid].site.load()));
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

// While the GPU-like start lasts and the gate or the turn is not this worker's. The
// start only shapes the interleaving, so if it stands still for kStuckStartNs it is
// ended rather than waited for (a safety net: groups still marked as in lockstep then
// run like the others; it never fired in the corpus runs once the countdown-parity
// livelock was fixed).
void checkTheStartMoves(YieldShared &sh, LocalSched &L) noexcept {
  uint64_t where = sh.waveArrived.load(std::memory_order_acquire) << 32 |
                   sh.turn.load(std::memory_order_acquire);
  int64_t now = sh.nowNs();
  if (where != L.startSeen) {
    L.startSeen = where;
    L.startSeenNs = now;
  } else if (now - L.startSeenNs > kStuckStartNs) {
    sh.gateOpen.store(true, std::memory_order_release);
    sh.ringDone.store(true, std::memory_order_release);
  }
}

void waitForTheStart(YieldShared &sh, LocalSched &L) noexcept {
  checkTheStartMoves(sh, L);
  std::this_thread::yield();
}

// What the worker runs next. While the wave is arriving: its share of the wave, and
// those of its groups that have not reached the gate. Then, while the lockstep ring
// lasts, the group whose turn it is if it is here (`ringStep`); otherwise newly
// admitted groups and groups past the start, as the policy picks.
YieldGroup *chooseNext(Runner &r, YieldShared &sh, LocalSched &L, YieldGroup *last,
                       bool &admitFirst, bool &ringStep) noexcept {
  if (!sh.gateOpen.load(std::memory_order_acquire)) {
    // One worker admits the whole wave, so the lockstep ring is on one thread. (A wave
    // shared among the workers, the turn passing between them, made the spin lock's
    // discovery recall fall to 51-69% at bounds 16-64: the other worker's groups past
    // the start run while the ring waits for its turn. conformance/SCHEDULES.md.)
    unsigned owner = sh.waveOwner.load(std::memory_order_acquire);
    if (owner == kNoWorker &&
        sh.waveOwner.compare_exchange_strong(owner, L.worker, std::memory_order_acq_rel))
      owner = L.worker;
    if (owner == L.worker && sh.admitNext.load(std::memory_order_relaxed) < sh.waveSize)
      if (YieldGroup *y = admitGroup(r, sh, L))
        return y;
    L.runnable.clear();
    for (YieldGroup *g : L.groups)
      if (!g->arrived)
        L.runnable.push_back(g);
    return L.runnable.empty() ? nullptr : sh.policy->pick(L.runnable, last);
  }
  if (!sh.ringDone.load(std::memory_order_acquire)) {
    uint64_t t = sh.turn.load(std::memory_order_acquire);
    YieldGroup *g = t < L.ring.size() ? L.ring[t] : nullptr;
    if (g && g->start == StartPhase::Lockstep) {
      ringStep = true;
      return g;
    }
    checkTheStartMoves(sh, L); // this worker's groups past the start run meanwhile
  }
  if (admitFirst || L.groups.empty()) {
    admitFirst = false;
    if (YieldGroup *y = admitGroup(r, sh, L))
      return y;
  }
  // Once the ring has ended, a group still marked as in lockstep runs like any other
  // (it leaves lockstep at its next yield point).
  if (sh.ringDone.load(std::memory_order_acquire)) // the usual case: no copy to filter
    return L.groups.empty() ? nullptr : sh.policy->pick(L.groups, last);
  L.runnable.clear();
  for (YieldGroup *g : L.groups)
    if (g->start != StartPhase::Lockstep)
      L.runnable.push_back(g);
  return L.runnable.empty() ? nullptr : sh.policy->pick(L.runnable, last);
}

} // namespace

void runYieldJob(Runner &r, Job &job, const std::function<void(uint64_t)> &complete) noexcept {
  YieldShared &sh = *job.yield;
  if (sh.S.deterministic) {
    if (sh.ownerTaken.exchange(true))
      return;
    job.next.store(job.total, std::memory_order_release); // nobody else takes it
  } else if (sh.runners.fetch_add(1, std::memory_order_acq_rel) >= sh.maxRunners) {
    // As many threads as cores run the launch: a host thread helping in clFinish
    // would be one more, and groups that wait for each other stall for a whole OS
    // time slice whenever one of their threads is descheduled.
    sh.runners.fetch_sub(1, std::memory_order_acq_rel);
    return;
  }
  ActiveLaunch active(r, job.serial);
  LocalSched L;
  L.runner = &r;
  L.worker = sh.workerIds.fetch_add(1);
  try {
    L.ring.assign(sh.waveSize, nullptr); // at most kUnboundedWave entries
  } catch (...) {
    std::abort();
  }
  uint64_t done = 0; // groups finished or abandoned here
  auto finishOne = [&](uint64_t n) {
    if (n == 0)
      return;
    if (sh.remaining.fetch_sub(n, std::memory_order_acq_rel) == n) {
      if (sh.coop)
        sh.coop->end();
      writeTrace(sh);
      complete(sh.total);
    }
  };
  YieldGroup *last = nullptr;
  bool admitFirst = true;
  for (;;) {
    if (sh.abandon.load(std::memory_order_acquire)) {
      uint64_t n = 0;
      for (YieldGroup *y : L.groups) {
        sh.info[y->gid].phase.store(uint8_t(GroupPhase::Abandoned));
        release(r, L, y);
        ++n;
      }
      L.groups.clear();
      // Groups nobody admitted: whoever claims them completes them.
      n += sh.dropStarts();
      job.next.store(job.total, std::memory_order_release);
      done += n;
      break;
    }
    bool ringStep = false;
    YieldGroup *next = chooseNext(r, sh, L, last, admitFirst, ringStep);
    if (!next) {
      if (L.groups.empty() && !sh.startsLeft())
        break; // everything admitted; our groups are done
      const bool starting = !sh.ringDone.load(std::memory_order_acquire);
      if (sh.S.deterministic && !sh.abandon.load()) {
        // Cannot happen with one worker, unless a wave group could not be created.
        if (!sh.gateOpen.load())
          sh.gateOpen.store(true);
        else if (starting)
          sh.ringDone.store(true);
        else
          declareDeadlock(sh); // nothing occupant means room to admit
        continue;
      }
      watchdog(sh);
      if (starting) { // the gate or the turn is on another worker: it comes back soon
        waitForTheStart(sh, L);
        continue;
      }
      trimIdleStacks(r.stacks);
      std::this_thread::sleep_for(std::chrono::microseconds(50));
      continue;
    }
    resume(r, sh, L, *next);
    last = next;
    admitFirst = true;
    if (ringStep) { // its lockstep step: pass the turn on
      if (next->finished || next->start != StartPhase::Lockstep)
        sh.leaveRing(*next);
      sh.passTurn(next->slot);
    }
    if (next->finished) {
      sh.arrive(*next); // a wave group that finished before any yield point
      sh.info[next->gid].phase.store(uint8_t(GroupPhase::Finished), std::memory_order_release);
      if (sh.coop && !next->aborted && !coopCallsUniform(*next))
        next->aborted = true; // reported; the launch fails
      if (next->aborted && !sh.abandon.exchange(true)) {
        int32_t expected = kComplete;
        job.status.compare_exchange_strong(expected, kOutOfResources);
      }
      removeLocal(L, next);
      // Round-robin continues after the finished one's predecessor.
      last = nullptr;
      release(r, L, next);
      trimIdleStacks(r.stacks);
      if (sh.S.occupancy)
        sh.occupant.fetch_sub(1, std::memory_order_acq_rel);
      sh.progressEvent(L.worker);
      ++done; // completed in one step when this worker leaves
    }
  }
  for (YieldGroup *y : L.spare)
    delete y;
  L.spare.clear();
  trimIdleStacks(r.stacks);
  L.tally.addTo(r.counters);
  if (!sh.S.deterministic)
    sh.runners.fetch_sub(1, std::memory_order_acq_rel);
  // Last: the final completion may release the launch.
  finishOne(done + L.lost);
}

} // namespace fibercl::exec

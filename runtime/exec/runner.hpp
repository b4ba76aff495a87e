// The state of one host thread while it runs work-groups (a pool worker, or a host
// thread helping in Executor::helpUntil): its stack pool, local-memory block, the
// fiber state of the group it runs, and the recovery point faults jump back to.
#pragma once

#include <pthread.h>

#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <vector>

#include <boost/context/detail/fcontext.hpp>
#include <functional>
#include <string>

#include "fibercl/kernel_abi.h"
#include "runtime/exec/sanitizer_fibers.hpp"
#include "runtime/exec/stack_pool.hpp"

namespace fibercl::exec {

struct Runner;
struct YieldGroup;
struct RaceShadow; // races.cpp
class GroupRaces;  // group_races.cpp
struct WeakBuffer; // weak_memory.cpp
struct GroupClock;

// One work-item's fiber: its suspended context (null until it first runs) and stack
// (null for work-item 0, which runs on the runner's own stack).
struct ItemSlot {
  boost::context::detail::fcontext_t ctx = nullptr;
  Stack *stack = nullptr;
  [[no_unique_address]] SanFiber san;
};

// The group being run by a runner; `fcl_group_ctx::runtime` points here.
//
// States: sequential (fiberMode false: work-items run one after another on the
// runner's stack, as a plain loop) -> fibered (the first barrier was reached by
// work-item 0: every work-item gets a fiber lazily, barriers switch directly to the
// next work-item in linear order) -> back to sequential when the group ends or is
// aborted. `roundSite` is what the current round waits for: a barrier call site, or
// kFinish when work-item 0 has returned, or kSequential outside fiber mode.
struct GroupState {
  static constexpr int64_t kSequential = -2;
  static constexpr int64_t kFinish = -1;

  Runner *runner = nullptr;
  fcl_group_ctx *ctx = nullptr;
  fcl_item_fn item = nullptr;
  void **args = nullptr;
  uint32_t lx = 1, ly = 1, lz = 1;
  uint32_t n = 1;   // work-items in this group
  uint32_t cur = 0; // linear local id of the running work-item
  bool fiberMode = false;
  int64_t roundSite = kSequential;
  uint32_t roundFlags = 0; // the fence flags work-item 0 gave the round's barrier
  // Counts the group's starts and barrier rounds (every one a new "since the last
  // barrier" for FIBERCL_CHECK=races); `races` is that check's record of the
  // current round's accesses (races.cpp), made at its first use.
  uint64_t barrierEpoch = 0;
  std::shared_ptr<RaceShadow> races;
  uint64_t localBytes = 0; // the launch's __local block at ctx->local_mem
  // ... and between groups: the launch's record and this group's clock in it (null when
  // the kernel does not check races).
  GroupRaces *groupRaces = nullptr;
  GroupClock *groupClock = nullptr; // made at the group's first recorded access
  uint64_t groupRacesGid = 0;
  // FIBERCL_CHECK=weak: the group's store buffer (made at a group's start; null when
  // the kernel does not use it or there was no memory for it).
  std::shared_ptr<WeakBuffer> weak;
  // A barrier divergence found in fiber mode: the round runs on, each work-item up to
  // its next barrier or its end, to report where every one went (`whereItems`, 0:
  // finished) -- what the regions know at once.
  bool diverging = false;
  uint32_t divergedItem = 0;
  int64_t divergedSite = 0;
  std::vector<uint32_t> whereItems;
  // Where the resumed side stores the context of the work-item that jumped to it.
  boost::context::detail::fcontext_t *saveSlot = nullptr;
  std::vector<ItemSlot> items;
  // The stack work-item 0 runs on (the runner's, or the group fiber's), for sanitizers.
  SanFiber *item0Fiber = nullptr;
  // The suspendable group this state belongs to (yielding launches), else null.
  YieldGroup *yieldGroup = nullptr;
  // Barriers compiled as regions (regions.cpp): set while the group runs them, with
  // the frames holding its work-items' values across barriers (kept for reuse).
  bool regions = false;
  std::unique_ptr<char[], void (*)(char *)> frames{nullptr, [](char *p) { std::free(p); }};
  uint64_t framesCap = 0;

  // Kernels with sub-group barriers (sub_group_release.hpp). On fibers, any work-item
  // may be the one on the runner's stack (`stackItem`: the first to reach a barrier);
  // `sgWait` says where each waits (0: finished) and `sgRun` lists the work-items
  // released, `sgNext` the next of them to run. `sgMasks` is what ctx->sub_groups
  // points to.
  bool subGroupMode = false;
  uint32_t stackItem = 0;
  uint32_t sgWidth = 0;
  uint32_t sgNext = 0;
  uint32_t sgYields = 0; // sub-group yields called (every 64th suspends)
  std::vector<uint32_t> sgWait;
  std::vector<uint32_t> sgRun;
  std::vector<uint64_t> sgMasks;
  // Points ctx->sub_groups at room for the masks of the group's sub-groups (of at least
  // 4 work-items), before any of its work-items runs: kernels may read the field
  // before their first sub-group barrier (LLVM may hoist the load; the address stays).
  bool prepareSubGroupMasks() noexcept;
  // Its work-items take turns at barriers (fibers or regions).
  bool inBarrierRounds() const { return fiberMode || regions; }
};

// A barrier divergence in group `g`: work-item `item` is at barrier `site` while
// work-item 0 is at `item0Site` (-1: finished; `firstRound`: before any barrier was
// passed). Prints the report (the same words for fibers and regions) and abandons the
// group. `sites`, when known: where each of the g.n work-items is (0: finished), for
// the report's list of which work-items went where; else the work-items before `item`
// are at `item0Site` and those after it have not got there yet.
[[noreturn]] void barrierDivergence(GroupState &g, uint32_t item, int64_t site, int64_t item0Site,
                                    bool firstRound, const uint32_t *sites = nullptr) noexcept;

// Where call site `site` is in the source ("<source>:12 (barrier) in k"), as the
// compiler recorded it; "" when it is not known. For reports: never throws.
std::string siteText(const Runner &r, uint32_t site) noexcept;

// The linear local id `idx` of g's group as (x, y, z).
void localIdOf(const GroupState &g, uint32_t idx, uint32_t &x, uint32_t &y, uint32_t &z) noexcept;

// A sigaltstack owned by a runner, installed on the thread while it runs groups so
// that a stack overflow in a kernel can still be reported.
class AltStack {
public:
  AltStack() = default;
  ~AltStack();
  AltStack(const AltStack &) = delete;
  AltStack &operator=(const AltStack &) = delete;
  void install() noexcept;   // no-op if already installed
  void uninstall() noexcept; // restores the thread's previous alternate stack
  char *top() const { return mem_ ? static_cast<char *>(mem_) + size_ : nullptr; }

private:
  void *mem_ = nullptr;
  size_t size_ = 0;
  stack_t old_{};
  bool installed_ = false;
};

struct Runner {
  Runner(size_t stackSize, ExecCounters &counters)
      : stacks(stackSize, counters), counters(counters) {
    group.runner = this;
  }
  ~Runner();
  Runner(const Runner &) = delete;
  Runner &operator=(const Runner &) = delete;

  // Returns a block of at least `size` bytes (page aligned), or nullptr.
  void *localMemory(uint64_t size) noexcept;

  StackPool stacks;
  GroupState group;
  AltStack alt;
  ExecCounters &counters;

  // Recovery point of the group being run (__builtin_setjmp buffer), valid while
  // inKernel is set. Faults and barrier divergence __builtin_longjmp here.
  intptr_t recover[5] = {};
  volatile sig_atomic_t inKernel = 0;
  // The stacks this thread switches between, and the one `recover` is on (sanitizers).
  [[no_unique_address]] SanFibers san;
  SanFiber *recoverFiber = nullptr;
  const char *kernelName = "";
  // The launch whose work-groups this runner is running (Job::serial, 0: none), the
  // thread it runs them on, and the launch the kernel watchdog asked to stop
  // (kernel_timeout.hpp). launchM orders the end of a launch here before the
  // watchdog's look at `launch` and its signal to `thread`.
  std::atomic<uint64_t> launch{0};
  std::atomic<uint64_t> stopLaunch{0};
  pthread_t thread{};
  std::mutex launchM;
  // The launch's NDRange::describeSite ("<source>:12 (barrier)"), for reports; may be
  // null or empty.
  const std::function<std::string(uint32_t)> *describeSite = nullptr;
  // The launch's NDRange::checkContinue: a failed check skips the access and goes on.
  bool checkContinue = false;

private:
  void *local_ = nullptr;
  uint64_t localCap_ = 0;
};

// Marks `r` as running work-groups of launch `serial` on the calling thread, for the
// kernel watchdog (kernel_timeout.hpp), while it lives.
class ActiveLaunch {
public:
  ActiveLaunch(Runner &r, uint64_t serial) noexcept : r_(r) {
    r.thread = pthread_self();
    r.launch.store(serial, std::memory_order_release);
  }
  ~ActiveLaunch() {
    std::lock_guard<std::mutex> lk(r_.launchM);
    r_.launch.store(0, std::memory_order_release);
  }
  ActiveLaunch(const ActiveLaunch &) = delete;
  ActiveLaunch &operator=(const ActiveLaunch &) = delete;

private:
  Runner &r_;
};

// The runner of the calling thread, or nullptr (initial-exec TLS: readable from a
// signal handler without allocating).
Runner *currentRunner() noexcept;
void setCurrentRunner(Runner *r) noexcept;

// Process-wide fault handlers (SIGSEGV, SIGBUS, SIGFPE, SIGILL), installed once.
void installFaultHandlers();
// The handler of stopSignal() (kernel_timeout.hpp), installed once.
void installStopHandler();

// FIBERCL_HOST_ENDLESS_LOOP: reports the loop at `where` ("<source>:12" or "") and
// abandons the calling runner's group. Never returns.
[[noreturn]] void endlessLoop(const char *where) noexcept;

// Jumps back to the runner's recovery point, abandoning the group. Never returns.
[[noreturn]] void abortGroup(Runner &r) noexcept;

// After a group was abandoned (fault or divergence): returns its fiber stacks to the
// pool and leaves fiber mode.
void resetGroup(GroupState &g) noexcept;

} // namespace fibercl::exec

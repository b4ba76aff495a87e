// Unit tests of yielding launches (NDRange::mayYield): hand-written work-group
// functions behave like compiled kernels — each yield point decrements the countdown
// and calls __fibercl_host_yield when it runs out; atomic writes that changed memory
// bump `progress`.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <mutex>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>

#include <gtest/gtest.h>

#include "runtime/exec/executor.hpp"
#include "runtime/exec/host_abi.hpp"

using fibercl::kernelTimeoutFromEnvironment;
using fibercl::exec::Executor;
using fibercl::exec::NDRange;
using fibercl::exec::Scheduling;

namespace {

constexpr int32_t kOutOfResources = -5;
using YieldFn = void (*)(fcl_group_ctx *, fcl_u32);
YieldFn hostYield() {
  static YieldFn f = reinterpret_cast<YieldFn>(fibercl::exec::hostSymbols()[FIBERCL_HOST_YIELD]);
  return f;
}

// The inline yield point the compiler emits.
inline void yieldPoint(fcl_group_ctx *c, uint32_t site) {
  auto *ys = reinterpret_cast<fcl_yield_state *>(c->yield_state);
  if (int64_t(--ys->countdown) <= 0)
    hostYield()(c, site);
}
// A yield point inside a loop that may spin (the compiler sets FIBERCL_SITE_WAITING).
inline void waitPoint(fcl_group_ctx *c, uint32_t site) {
  // The compiler's back-edge check of an iteration that saw nothing new: a failed await.
  reinterpret_cast<fcl_yield_state *>(c->yield_state)->awaits += 1;
  yieldPoint(c, site | FIBERCL_SITE_WAITING);
}
inline void progress(fcl_group_ctx *c) {
  reinterpret_cast<fcl_yield_state *>(c->yield_state)->progress += 1;
}

int32_t run(Executor &ex, NDRange r, bool help = true) {
  std::atomic<int> calls{0};
  std::atomic<int32_t> status{1};
  ex.runNDRange(std::move(r), [&](int32_t s) {
    status.store(s);
    calls.fetch_add(1);
  });
  if (help)
    ex.helpUntil([&] { return calls.load() != 0; });
  else
    while (calls.load() == 0)
      std::this_thread::sleep_for(std::chrono::microseconds(100));
  EXPECT_EQ(calls.load(), 1);
  return status.load();
}

NDRange yielding(fcl_work_group_fn fn, void **args, uint64_t groups, Scheduling s,
                 uint64_t local = 1) {
  NDRange r;
  r.entry = fn;
  r.kernelName = "yield_kernel";
  r.globalSize[0] = groups * local;
  r.localSize[0] = local;
  r.args = args;
  r.mayYield = true;
  r.scheduling = s;
  r.describeSite = [](uint32_t site) {
    return "test.cl:" + std::to_string(site & ~FIBERCL_SITE_WAITING) + " (spin)";
  };
  return r;
}

// (a) group 0 spins until group 1 sets the flag.
void flagKernel(void **args, fcl_group_ctx *c) {
  auto *flag = static_cast<std::atomic<int> *>(args[0]);
  if (c->group_id[0] == 0) {
    while (flag->load() == 0)
      waitPoint(c, 10);
  } else {
    flag->store(1);
    progress(c);
  }
}

// (b) inter-work-group barrier across every launched group.
void gridBarrier(void **args, fcl_group_ctx *c) {
  auto *count = static_cast<std::atomic<uint64_t> *>(args[0]);
  count->fetch_add(1);
  progress(c);
  while (count->load() < c->num_groups[0])
    waitPoint(c, 20);
}

// (c) racy read-modify-writes split by a yield point (more of them than the GPU-like
// start's lockstep steps, after which schedules differ).
// Each group records in args[1] (if given) the values it read.
void racy(void **args, fcl_group_ctx *c) {
  auto *x = static_cast<volatile int *>(args[0]);
  auto *seen = static_cast<int *>(args[1]);
  for (int i = 0; i < 40; ++i) {
    int v = *x;
    if (seen)
      seen[c->group_id[0] * 40 + i] = v;
    yieldPoint(c, 30);
    *x = v + 1;
    yieldPoint(c, 31);
  }
}

std::string slurp(const std::string &p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

struct Mode {
  const char *name;
  bool deterministic;
};
void PrintTo(const Mode &m, std::ostream *os) { *os << m.name; }

class YieldTest : public ::testing::TestWithParam<Mode> {
protected:
  Scheduling base() const {
    Scheduling s;
    s.deterministic = GetParam().deterministic;
    s.seed = 7;
    s.deadlockTimeoutSeconds = 0.5;
    return s;
  }
};

TEST_P(YieldTest, FairUnboundedSpinCompletes) {
  for (unsigned threads : {1u, 2u}) {
    Executor ex(threads);
    std::atomic<int> flag{0};
    void *args[] = {&flag};
    EXPECT_EQ(run(ex, yielding(flagKernel, args, 2, base())), 0);
    EXPECT_EQ(flag.load(), 1);
  }
}

TEST_P(YieldTest, UnfairOccupancyOneDeadlocksThenRecovers) {
  Executor ex(2);
  std::atomic<int> flag{0};
  void *args[] = {&flag};
  Scheduling s = base();
  s.policy = Scheduling::Policy::Unfair;
  s.occupancy = 1;
  testing::internal::CaptureStderr();
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(run(ex, yielding(flagKernel, args, 2, s)), kOutOfResources);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_LT(secs, 5.0);
  std::printf("%s", err.c_str()); // show the report
  EXPECT_NE(err.find("FiberCL: deadlock in kernel 'yield_kernel'"), std::string::npos) << err;
  EXPECT_NE(err.find("spinning at test.cl:10"), std::string::npos) << err;
  EXPECT_NE(err.find("waiting for admission"), std::string::npos) << err;
  EXPECT_NE(err.find("FIBERCL_SCHEDULE=unfair FIBERCL_OCCUPANCY=1"), std::string::npos) << err;
  // The executor stays usable.
  flag = 0;
  EXPECT_EQ(run(ex, yielding(flagKernel, args, 2, base())), 0);
}

TEST_P(YieldTest, GridBarrierOccupancyBound) {
  Executor ex(2);
  for (uint32_t n : {1u, 2u, 4u, 8u}) {
    Scheduling s = base();
    s.occupancy = n;
    for (uint32_t g : {n, n + 1}) {
      std::atomic<uint64_t> count{0};
      void *args[] = {&count};
      testing::internal::CaptureStderr();
      int32_t st = run(ex, yielding(gridBarrier, args, g, s));
      std::string err = testing::internal::GetCapturedStderr();
      if (g <= n) {
        EXPECT_EQ(st, 0) << "N=" << n << " G=" << g << err;
      } else {
        EXPECT_EQ(st, kOutOfResources) << "N=" << n << " G=" << g;
        EXPECT_NE(err.find("deadlock"), std::string::npos) << err;
      }
    }
  }
}

// (d) work-items on fibers (barriers) with yields inside the barrier region.
void barrierItem(void **args, fcl_group_ctx *c, fcl_u32 x, fcl_u32, fcl_u32) {
  auto *count = static_cast<std::atomic<uint64_t> *>(args[0]);
  auto *out = static_cast<uint64_t *>(args[1]);
  uint64_t total = c->num_groups[0] * c->local_size[0];
  count->fetch_add(1);
  progress(c);
  __fibercl_host_barrier(c, 1, 0);
  while (count->load() < total) // every item of every group arrived
    waitPoint(c, 40);
  __fibercl_host_barrier(c, 2, 0);
  out[c->group_id[0] * c->local_size[0] + x] = count->load() + x;
}
void barrierKernel(void **args, fcl_group_ctx *c) {
  __fibercl_host_run_items(c, barrierItem, args);
}

TEST_P(YieldTest, BarriersInsideYieldingGroups) {
  Executor ex(2);
  const uint64_t groups = 6, local = 8;
  std::atomic<uint64_t> count{0};
  std::vector<uint64_t> out(groups * local, 0);
  void *args[] = {&count, out.data()};
  EXPECT_EQ(run(ex, yielding(barrierKernel, args, groups, base(), local)), 0);
  for (uint64_t i = 0; i < out.size(); ++i)
    EXPECT_EQ(out[i], groups * local + i % local);
}

TEST_P(YieldTest, UnfairUnboundedSpinnerStarvesItsWorker) {
  // One worker (deterministic) or a worker held by the spinner: the flag setter is
  // admitted (unbounded) but never runs while the spinner holds the worker.
  if (!GetParam().deterministic)
    GTEST_SKIP() << "parallel outcome depends on which worker admits the setter";
  Executor ex(2);
  std::atomic<int> flag{0};
  void *args[] = {&flag};
  Scheduling s = base();
  s.policy = Scheduling::Policy::Unfair;
  testing::internal::CaptureStderr();
  EXPECT_EQ(run(ex, yielding(flagKernel, args, 2, s)), kOutOfResources);
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("not started"), std::string::npos) << err;
}

TEST_P(YieldTest, AdmissionOrders) {
  Executor ex(2);
  for (auto adm : {Scheduling::Admission::GroupId, Scheduling::Admission::Reverse,
                   Scheduling::Admission::Random}) {
    // Occupancy 1: groups run one after another in admission order.
    std::vector<uint64_t> order;
    std::mutex m;
    struct A {
      std::vector<uint64_t> *order;
      std::mutex *m;
    } a{&order, &m};
    void *args[] = {&a};
    Scheduling s = base();
    s.occupancy = 1;
    s.admission = adm;
    s.seed = 3;
    auto kernel = [](void **args, fcl_group_ctx *c) {
      auto &a = *static_cast<A *>(args[0]);
      std::lock_guard<std::mutex> lk(*a.m);
      a.order->push_back(c->group_id[0]);
    };
    EXPECT_EQ(run(ex, yielding(+kernel, args, 16, s)), 0);
    ASSERT_EQ(order.size(), 16u);
    std::vector<uint64_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (uint64_t i = 0; i < 16; ++i)
      EXPECT_EQ(sorted[i], i);
    if (adm == Scheduling::Admission::GroupId)
      EXPECT_EQ(order, sorted);
    else if (adm == Scheduling::Admission::Reverse)
      EXPECT_EQ(order, std::vector<uint64_t>(sorted.rbegin(), sorted.rend()));
    else
      EXPECT_NE(order, sorted);
  }
}

// The null store is the point of the test: UBSan (scripts/sanitize.sh ubsan) leaves it
// to the CPU.
__attribute__((no_sanitize("undefined"))) void faultKernel(void **args, fcl_group_ctx *c) {
  auto *count = static_cast<std::atomic<uint64_t> *>(args[0]);
  if (c->group_id[0] == 3) {
    for (int i = 0; i < 100; ++i) { // working (progress), not spinning
      progress(c);
      yieldPoint(c, 70);
    }
    *static_cast<volatile int *>(args[1]) = 1; // null store
  }
  count->fetch_add(1);
  progress(c);
  while (count->load() < c->num_groups[0]) // never completes: group 3 crashed
    waitPoint(c, 71);
}

TEST_P(YieldTest, FaultInSuspendableGroupFailsTheLaunch) {
  Executor ex(2);
  std::atomic<uint64_t> count{0};
  void *args[] = {&count, nullptr};
  testing::internal::CaptureStderr();
  EXPECT_EQ(run(ex, yielding(faultKernel, args, 6, base())), kOutOfResources);
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("crashed"), std::string::npos) << err;
  std::atomic<int> flag{0};
  void *args2[] = {&flag};
  EXPECT_EQ(run(ex, yielding(flagKernel, args2, 2, base())), 0);
}

TEST_P(YieldTest, TraceAccumulatesLaunchesAsValidJson) {
  std::string path = ::testing::TempDir() + "fibercl_trace_multi_" + std::to_string(getpid()) +
                     GetParam().name + ".json";
  {
    Executor ex(2);
    for (int i = 0; i < 2; ++i) {
      std::atomic<int> flag{0};
      void *args[] = {&flag};
      Scheduling s = base();
      s.tracePath = path;
      EXPECT_EQ(run(ex, yielding(flagKernel, args, 2, s)), 0);
    }
    Scheduling s = base();
    s.tracePath = path;
    s.occupancy = 1;
    std::atomic<int> flag{0};
    void *args[] = {&flag};
    testing::internal::CaptureStderr();
    EXPECT_EQ(run(ex, yielding(flagKernel, args, 2, s)), kOutOfResources);
    testing::internal::GetCapturedStderr();
  }
  std::string t = slurp(path);
  std::remove(path.c_str());
  ASSERT_GE(t.size(), 4u);
  EXPECT_EQ(t.substr(0, 2), "[\n");
  EXPECT_EQ(t.substr(t.size() - 3), "\n]\n");
  EXPECT_NE(t.find("(launch 3)"), std::string::npos);
  EXPECT_NE(t.find("\"name\":\"deadlock\""), std::string::npos);
  EXPECT_NE(t.find("\"name\":\"admit\""), std::string::npos);
  EXPECT_NE(t.find("\"ph\":\"B\""), std::string::npos);
}

// (e) work only: every yield point follows progress, no group ever waits.
void busyKernel(void **args, fcl_group_ctx *c) {
  auto *sum = static_cast<std::atomic<uint64_t> *>(args[0]);
  for (int i = 0; i < 100000; ++i) {
    sum->fetch_add(1, std::memory_order_relaxed);
    progress(c);
    yieldPoint(c, 60);
  }
}

// Parallel mode, fair: a group that makes progress keeps its worker for a run of
// decisions instead of being suspended at each one (two such groups on one worker
// switched at every decision, ~800 times; now every 16th).
TEST(YieldFair, GroupsThatProgressKeepTheirWorker) {
  Executor ex(1);
  std::atomic<uint64_t> sum{0};
  void *args[] = {&sum};
  Scheduling s;
  s.deadlockTimeoutSeconds = 5;
  EXPECT_EQ(run(ex, yielding(busyKernel, args, 2, s)), 0);
  EXPECT_EQ(sum.load(), 200000u);
  EXPECT_GT(ex.groupSwitches(), 0u); // they do take turns
  EXPECT_LT(ex.groupSwitches(), 200u) << "switched at most decisions";
}

// (g) a chain in order of arrival, as in a look-back scan: each group takes a ticket,
// works (300 yield points that progress), then waits for the group with the previous
// ticket. Counts the groups started and not finished, and the most there were when a
// group with a ticket from `late` on started.
struct Chain {
  std::atomic<uint64_t> next{0}, resident{0}, mostWhenLate{0};
  std::unique_ptr<std::atomic<uint8_t>[]> done;
  uint64_t late = 0;
};
void chainKernel(void **args, fcl_group_ctx *c) {
  Chain &ch = *static_cast<Chain *>(args[0]);
  const uint64_t here = ch.resident.fetch_add(1) + 1;
  const uint64_t t = ch.next.fetch_add(1);
  if (t >= ch.late) {
    uint64_t most = ch.mostWhenLate.load();
    while (here > most && !ch.mostWhenLate.compare_exchange_weak(most, here)) {
    }
  }
  for (int i = 0; i < 300; ++i) {
    progress(c);
    yieldPoint(c, 70);
  }
  if (t > 0)
    while (ch.done[t - 1].load() == 0)
      waitPoint(c, 71);
  ch.done[t].store(1);
  progress(c);
  ch.resident.fetch_sub(1);
}

// Parallel mode, fair, unbounded: a worker admits a new group once per rotation over
// the groups it holds, not at every switch. Admitting at every switch put each new
// group ahead of the suspended ones it waits for: every group of the launch was
// admitted before the first wave moved on (a look-back scan, 65,536 groups: 12,288
// resident and 13 us a group).
TEST(YieldFair, WaitingGroupsRunBeforeMoreAreAdmitted) {
  Executor ex(1);
  constexpr uint64_t kGroups = 4096;
  Chain ch;
  ch.done.reset(new std::atomic<uint8_t>[kGroups]());
  ch.late = 2048; // past the first wave (1024 groups)
  void *args[] = {&ch};
  Scheduling s;
  s.deadlockTimeoutSeconds = 10;
  EXPECT_EQ(run(ex, yielding(chainKernel, args, kGroups, s)), 0);
  EXPECT_EQ(ch.next.load(), kGroups);
  EXPECT_EQ(ch.done[kGroups - 1].load(), 1);
  EXPECT_LE(ch.mostWhenLate.load(), 64u) << "groups admitted ahead of the ones they wait for";
}

// (h) two groups take turns on one counter (group g goes when its parity is g),
// counting the spins they make.
void takeTurns(void **args, fcl_group_ctx *c) {
  auto *turn = static_cast<std::atomic<uint64_t> *>(args[0]);
  auto *spins = static_cast<std::atomic<uint64_t> *>(args[1]);
  const uint64_t g = c->group_id[0];
  for (int i = 0; i < 20000; ++i) {
    while ((turn->load() & 1) != g) {
      spins->fetch_add(1, std::memory_order_relaxed);
      waitPoint(c, 90);
    }
    turn->fetch_add(1);
    progress(c);
    yieldPoint(c, 91);
  }
}

// Parallel mode, fair: a group whose one step of progress (its turn) came just before
// a wait is asked again soon, not after the long countdown of a group that computes.
// With the long countdown each turn cost some 256 spins on one worker.
TEST(YieldFair, AGroupThatWaitsAgainAfterItsStepGivesWaySoon) {
  Executor ex(1);
  std::atomic<uint64_t> turn{0}, spins{0};
  void *args[] = {&turn, &spins};
  Scheduling s;
  s.deadlockTimeoutSeconds = 10;
  EXPECT_EQ(run(ex, yielding(takeTurns, args, 2, s)), 0);
  EXPECT_EQ(turn.load(), 40000u);
  EXPECT_LT(spins.load() / 40000, 64u) << "spins per turn";
}

// (f) a grid barrier, 100 rounds of work (5000 yield points that progress) each: each
// group notes the thread it started on (on its own fiber's stack) and counts the rounds
// it resumed on another (group_migration.hpp).
void gridRounds(void **args, fcl_group_ctx *c) {
  auto *count = static_cast<std::atomic<uint64_t> *>(args[0]);
  auto *resumedElsewhere = static_cast<std::atomic<uint64_t> *>(args[1]);
  // The kernel thread's id by system call: pthread_self() is declared const, and the
  // compiler may read it once for the whole function.
  const long startedOn = syscall(SYS_gettid);
  for (uint64_t round = 1; round <= 100; ++round) {
    for (int i = 0; i < 5000; ++i) {
      progress(c);
      yieldPoint(c, 52);
    }
    count->fetch_add(1);
    progress(c);
    while (count->load() < round * c->num_groups[0])
      waitPoint(c, 50);
    if (syscall(SYS_gettid) != startedOn)
      resumedElsewhere->fetch_add(1);
  }
}

// In parallel mode the groups of a launch admitted by one worker (the whole first wave)
// move to the other, which has none to admit: groups resume on another thread with
// their state intact, and the launch completes. Seeded runs stay on one worker.
TEST_P(YieldTest, SuspendedGroupsMoveToAnIdleWorker) {
  if (std::thread::hardware_concurrency() < 2)
    GTEST_SKIP() << "one core: a launch runs on one worker";
  Executor ex(2);
  std::atomic<uint64_t> count{0}, resumedElsewhere{0};
  void *args[] = {&count, &resumedElsewhere};
  EXPECT_EQ(run(ex, yielding(gridRounds, args, 16, base())), 0);
  EXPECT_EQ(count.load(), 16u * 100u);
  if (GetParam().deterministic) {
    EXPECT_EQ(ex.groupsMoved(), 0u);
    EXPECT_EQ(resumedElsewhere.load(), 0u);
  } else {
    EXPECT_GT(ex.groupsMoved(), 0u);
    EXPECT_GT(resumedElsewhere.load(), 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, YieldTest,
                         ::testing::Values(Mode{"parallel", false}, Mode{"deterministic", true}),
                         [](const auto &i) { return std::string(i.param.name); });

TEST(YieldDeterministic, SameSeedSameTraceAndResult) {
  std::string path = ::testing::TempDir() + "fibercl_trace_" + std::to_string(getpid()) + ".json";
  std::string traces[2];
  int results[2];
  for (int i = 0; i < 2; ++i) {
    Executor ex(2); // a fresh executor: as two runs of a program
    volatile int x = 0;
    void *args[] = {const_cast<int *>(&x), nullptr};
    Scheduling s;
    s.deterministic = true;
    s.seed = 12345;
    s.tracePath = path;
    EXPECT_EQ(run(ex, yielding(racy, args, 8, s)), 0);
    results[i] = x;
    traces[i] = slurp(path);
  }
  std::remove(path.c_str());
  EXPECT_EQ(results[0], results[1]);
  EXPECT_FALSE(traces[0].empty());
  EXPECT_EQ(traces[0], traces[1]);
  EXPECT_EQ(traces[0].front(), '[');
}

TEST(YieldDeterministic, SeedsExploreInterleavings) {
  Executor ex(2);
  std::set<std::vector<int>> outcomes;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    volatile int x = 0;
    std::vector<int> seen(4 * 40);
    void *args[] = {const_cast<int *>(&x), seen.data()};
    Scheduling s;
    s.deterministic = true;
    s.seed = seed;
    EXPECT_EQ(run(ex, yielding(racy, args, 4, s)), 0);
    outcomes.insert(seen);
  }
  EXPECT_GE(outcomes.size(), 2u);
}

TEST(YieldEnvironment, ParsesAndWarns) {
  setenv("FIBERCL_OCCUPANCY", "3", 1);
  setenv("FIBERCL_SCHEDULE", "bogus", 1);
  setenv("FIBERCL_SEED", "9", 1);
  setenv("FIBERCL_ADMISSION", "reverse", 1);
  testing::internal::CaptureStderr();
  Scheduling s = Scheduling::fromEnvironment();
  std::string err = testing::internal::GetCapturedStderr();
  unsetenv("FIBERCL_OCCUPANCY");
  unsetenv("FIBERCL_SCHEDULE");
  unsetenv("FIBERCL_SEED");
  unsetenv("FIBERCL_ADMISSION");
  EXPECT_EQ(s.occupancy, 3u);
  EXPECT_EQ(s.policy, Scheduling::Policy::Fair);
  EXPECT_TRUE(s.deterministic);
  EXPECT_EQ(s.seed, 9u);
  EXPECT_EQ(s.admission, Scheduling::Admission::Reverse);
  EXPECT_NE(err.find("FIBERCL_SCHEDULE=bogus"), std::string::npos);
}

// The kernel time limit is on unless the user turns it off: unset or invalid, the
// default (ten minutes); "0", none.
TEST(YieldEnvironment, KernelTimeoutDefaultsToTenMinutes) {
  unsetenv("FIBERCL_KERNEL_TIMEOUT");
  EXPECT_EQ(kernelTimeoutFromEnvironment(), 600.0);
  EXPECT_EQ(Scheduling::fromEnvironment().kernelTimeoutSeconds, 600.0);
  setenv("FIBERCL_KERNEL_TIMEOUT", "0", 1);
  EXPECT_EQ(kernelTimeoutFromEnvironment(), 0.0);
  setenv("FIBERCL_KERNEL_TIMEOUT", "2.5", 1);
  EXPECT_EQ(Scheduling::fromEnvironment().kernelTimeoutSeconds, 2.5);
  setenv("FIBERCL_KERNEL_TIMEOUT", "soon", 1);
  testing::internal::CaptureStderr();
  double bad = kernelTimeoutFromEnvironment();
  std::string err = testing::internal::GetCapturedStderr();
  unsetenv("FIBERCL_KERNEL_TIMEOUT");
  EXPECT_EQ(bad, 600.0);
  EXPECT_NE(err.find("FIBERCL_KERNEL_TIMEOUT=soon"), std::string::npos);
}

} // namespace

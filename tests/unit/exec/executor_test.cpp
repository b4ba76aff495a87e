// Unit tests of the executor: hand-written work-group functions drive the worker
// pool, group launch, fibers and barriers, divergence and fault recovery. Every test
// runs with 1 and 2 worker threads.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include <sys/wait.h>

#include <gtest/gtest.h>

#include "runtime/exec/executor.hpp"
#include "runtime/exec/host_abi.hpp"

using fibercl::exec::Executor;
using fibercl::exec::NDRange;

namespace {

constexpr int32_t kOutOfResources = -5;

// Runs one NDRange to completion (the test thread helps) and returns its status.
int32_t run(Executor &ex, NDRange r) {
  std::atomic<int> calls{0};
  std::atomic<int32_t> status{1};
  ex.runNDRange(std::move(r), [&](int32_t s) {
    status.store(s);
    calls.fetch_add(1);
  });
  ex.helpUntil([&] { return calls.load() != 0; });
  EXPECT_EQ(calls.load(), 1);
  return status.load();
}

NDRange range1D(fcl_work_group_fn fn, void **args, uint64_t global, uint64_t local) {
  NDRange r;
  r.entry = fn;
  r.kernelName = "test_kernel";
  r.workDim = 1;
  r.globalSize[0] = global;
  r.localSize[0] = local;
  r.args = args;
  return r;
}

uint64_t globalId(const fcl_group_ctx *c, unsigned d, uint32_t local) {
  return c->global_offset[d] + c->group_id[d] * c->enqueued_local_size[d] + local;
}

class ExecutorTest : public ::testing::TestWithParam<unsigned> {
protected:
  Executor ex{GetParam()};
};

// --- Barrier-free groups ---------------------------------------------------------

// A work-group function with its own work-item loop (what the compiler emits for
// barrier-free kernels): out[global id] += 1.
void wgLoopIncrement(void **args, fcl_group_ctx *c) {
  auto *out = *static_cast<std::atomic<int> **>(args[0]);
  for (uint64_t z = 0; z < c->local_size[2]; ++z)
    for (uint64_t y = 0; y < c->local_size[1]; ++y)
      for (uint64_t x = 0; x < c->local_size[0]; ++x) {
        uint64_t gx = globalId(c, 0, x) - c->global_offset[0];
        uint64_t gy = globalId(c, 1, y) - c->global_offset[1];
        uint64_t gz = globalId(c, 2, z) - c->global_offset[2];
        out[(gz * c->global_size[1] + gy) * c->global_size[0] + gx].fetch_add(1);
      }
}

TEST_P(ExecutorTest, WorkerCount) { EXPECT_EQ(ex.workerCount(), GetParam()); }

TEST_P(ExecutorTest, BarrierFreeLaunchUsesNoStacks) {
  std::vector<std::atomic<int>> out(4096);
  std::atomic<int> *p = out.data();
  void *args[] = {&p};
  EXPECT_EQ(run(ex, range1D(wgLoopIncrement, args, 4096, 64)), 0);
  for (auto &v : out)
    ASSERT_EQ(v.load(), 1);
  EXPECT_EQ(ex.stacksCreated(), 0u);
  EXPECT_EQ(ex.fiberGroupsRun(), 0u);
}

TEST_P(ExecutorTest, NonUniformEdgeGroups3D) {
  const uint64_t G[3] = {10, 7, 5}, L[3] = {4, 3, 2};
  std::vector<std::atomic<int>> out(G[0] * G[1] * G[2]);
  std::atomic<int> *p = out.data();
  void *args[] = {&p};
  NDRange r;
  r.entry = wgLoopIncrement;
  r.kernelName = "edges";
  r.workDim = 3;
  for (int d = 0; d < 3; ++d) {
    r.globalSize[d] = G[d];
    r.localSize[d] = L[d];
    r.globalOffset[d] = 100 + d;
  }
  r.args = args;
  EXPECT_EQ(run(ex, r), 0);
  for (auto &v : out)
    ASSERT_EQ(v.load(), 1);
}

struct CtxRecord {
  std::atomic<int> seen{0};
  fcl_group_ctx ctx{};
};

void wgRecordCtx(void **args, fcl_group_ctx *c) {
  auto *rec = *static_cast<CtxRecord **>(args[0]);
  uint64_t idx =
      (c->group_id[2] * c->num_groups[1] + c->group_id[1]) * c->num_groups[0] + c->group_id[0];
  rec[idx].ctx = *c;
  rec[idx].seen.fetch_add(1);
}

TEST_P(ExecutorTest, GroupContextFields) {
  const uint64_t G[3] = {10, 7, 5}, L[3] = {4, 3, 5};
  const uint64_t N[3] = {3, 3, 1};
  std::vector<CtxRecord> rec(9);
  CtxRecord *p = rec.data();
  void *args[] = {&p};
  NDRange r;
  r.entry = wgRecordCtx;
  r.kernelName = "ctx";
  r.workDim = 3;
  for (int d = 0; d < 3; ++d) {
    r.globalSize[d] = G[d];
    r.localSize[d] = L[d];
    r.globalOffset[d] = 7 * d;
  }
  r.localMemSize = 1000;
  r.args = args;
  EXPECT_EQ(run(ex, r), 0);
  for (uint64_t gy = 0; gy < 3; ++gy)
    for (uint64_t gx = 0; gx < 3; ++gx) {
      const CtxRecord &cr = rec[gy * 3 + gx];
      ASSERT_EQ(cr.seen.load(), 1);
      const fcl_group_ctx &c = cr.ctx;
      EXPECT_EQ(c.work_dim, 3u);
      EXPECT_EQ(c.group_id[0], gx);
      EXPECT_EQ(c.group_id[1], gy);
      EXPECT_EQ(c.group_id[2], 0u);
      for (int d = 0; d < 3; ++d) {
        EXPECT_EQ(c.num_groups[d], N[d]);
        EXPECT_EQ(c.global_size[d], G[d]);
        EXPECT_EQ(c.enqueued_local_size[d], L[d]);
        EXPECT_EQ(c.global_offset[d], uint64_t(7 * d));
      }
      EXPECT_EQ(c.local_size[0], gx == 2 ? 2u : 4u);
      EXPECT_EQ(c.local_size[1], gy == 2 ? 1u : 3u);
      EXPECT_EQ(c.local_size[2], 5u);
      EXPECT_NE(c.local_mem, 0u);
      EXPECT_EQ(c.local_mem % 128, 0u);
      EXPECT_NE(c.runtime, 0u);
    }
}

// --- run_items without barriers ----------------------------------------------------

struct OrderState {
  std::vector<uint32_t> log; // per group: sequence of linear local ids
  std::atomic<int> bad{0};
};

void itemRecordOrder(void **args, fcl_group_ctx *c, fcl_u32 x, fcl_u32 y, fcl_u32 z) {
  auto *st = *static_cast<OrderState **>(args[0]);
  uint64_t lin = (z * c->local_size[1] + y) * c->local_size[0] + x;
  uint64_t group =
      (c->group_id[2] * c->num_groups[1] + c->group_id[1]) * c->num_groups[0] + c->group_id[0];
  uint64_t base =
      group * c->enqueued_local_size[0] * c->enqueued_local_size[1] * c->enqueued_local_size[2];
  st->log[base + lin] += 1;
}

void wgRunItems(void **args, fcl_group_ctx *c) {
  __fibercl_host_run_items(c, itemRecordOrder, args);
}

TEST_P(ExecutorTest, RunItemsVisitsEveryItemOnce3D) {
  OrderState st;
  st.log.assign(2 * 2 * 3 * (4 * 3 * 2), 0);
  OrderState *p = &st;
  void *args[] = {&p};
  NDRange r;
  r.entry = wgRunItems;
  r.kernelName = "items";
  r.workDim = 3;
  uint64_t G[3] = {8, 6, 6}, L[3] = {4, 3, 2};
  for (int d = 0; d < 3; ++d) {
    r.globalSize[d] = G[d];
    r.localSize[d] = L[d];
  }
  r.args = args;
  EXPECT_EQ(run(ex, r), 0);
  for (uint32_t v : st.log)
    ASSERT_EQ(v, 1u);
  EXPECT_EQ(ex.stacksCreated(), 0u);
  EXPECT_EQ(ex.fiberGroupsRun(), 0u);
}

// --- Barriers ---------------------------------------------------------------------

struct BarrierState {
  int rounds = 0;
  std::atomic<int> errors{0};
  std::atomic<int> itemsDone{0};
};

// Every work-item writes its value into __local, waits, checks its neighbour's value
// from the same round, waits again. Any item passing barrier k before all reached it
// would read a stale value.
void itemExchange(void **args, fcl_group_ctx *c, fcl_u32 x, fcl_u32 y, fcl_u32 z) {
  auto *st = *static_cast<BarrierState **>(args[0]);
  auto *local = reinterpret_cast<uint32_t *>(c->local_mem);
  uint32_t n = uint32_t(c->local_size[0] * c->local_size[1] * c->local_size[2]);
  uint32_t lin = uint32_t((z * c->local_size[1] + y) * c->local_size[0] + x);
  uint32_t next = (lin + 1) % n;
  for (int k = 0; k < st->rounds; ++k) {
    local[lin] = uint32_t(k * 100000 + lin);
    __fibercl_host_barrier(c, 1, 0);
    if (local[next] != uint32_t(k * 100000 + next))
      st->errors.fetch_add(1);
    // Private state must survive the switch (it lives on the item's own stack).
    volatile uint32_t priv[4] = {lin, lin + 1, lin + 2, lin + 3};
    __fibercl_host_barrier(c, 2, 0);
    if (priv[0] != lin || priv[3] != lin + 3)
      st->errors.fetch_add(1);
  }
  st->itemsDone.fetch_add(1);
}

void wgExchange(void **args, fcl_group_ctx *c) { __fibercl_host_run_items(c, itemExchange, args); }

TEST_P(ExecutorTest, BarrierOrderingManyGroups) {
  BarrierState st;
  st.rounds = 10;
  BarrierState *p = &st;
  void *args[] = {&p};
  // 100 groups of 64 plus a non-uniform edge group of 36.
  NDRange r = range1D(wgExchange, args, 64 * 100 + 36, 64);
  r.localMemSize = 64 * sizeof(uint32_t);
  r.itemFibers = true;
  EXPECT_EQ(run(ex, r), 0);
  EXPECT_EQ(st.errors.load(), 0);
  EXPECT_EQ(st.itemsDone.load(), 64 * 100 + 36);
  EXPECT_EQ(ex.fiberGroupsRun(), 101u);
  EXPECT_GT(ex.stacksCreated(), 0u);
  // Stacks are pooled per runner: at most (group size - 1) per thread that ran groups.
  EXPECT_LE(ex.stacksCreated(), uint64_t(63) * (GetParam() + 1));

  // A second launch reuses the pooled stacks.
  uint64_t before = ex.stacksCreated();
  st.itemsDone = 0;
  EXPECT_EQ(run(ex, r), 0);
  EXPECT_EQ(st.errors.load(), 0);
  EXPECT_LE(ex.stacksCreated(), std::max<uint64_t>(before, uint64_t(63) * (GetParam() + 1)));
}

TEST_P(ExecutorTest, Barrier3DGroup) {
  BarrierState st;
  st.rounds = 5;
  BarrierState *p = &st;
  void *args[] = {&p};
  NDRange r;
  r.entry = wgExchange;
  r.kernelName = "b3d";
  r.workDim = 3;
  uint64_t G[3] = {8, 6, 5}, L[3] = {4, 3, 2};
  for (int d = 0; d < 3; ++d) {
    r.globalSize[d] = G[d];
    r.localSize[d] = L[d];
  }
  r.localMemSize = 24 * sizeof(uint32_t);
  r.args = args;
  EXPECT_EQ(run(ex, r), 0);
  EXPECT_EQ(st.errors.load(), 0);
  EXPECT_EQ(st.itemsDone.load(), 8 * 6 * 5);
}

// Barriers in a called function and in a loop whose trip count is uniform.
void __attribute__((noinline)) helperWithBarrier(fcl_group_ctx *c, int *counter) {
  ++*counter;
  __fibercl_host_barrier(c, 7, 0);
}

void itemBarrierInCallee(void **args, fcl_group_ctx *c, fcl_u32 x, fcl_u32, fcl_u32) {
  auto *st = *static_cast<BarrierState **>(args[0]);
  int count = 0;
  for (int i = 0; i < 3; ++i)
    helperWithBarrier(c, &count);
  if (count != 3)
    st->errors.fetch_add(1);
  st->itemsDone.fetch_add(1);
}

void wgBarrierInCallee(void **args, fcl_group_ctx *c) {
  __fibercl_host_run_items(c, itemBarrierInCallee, args);
}

TEST_P(ExecutorTest, BarrierInCalleeAndSingleItemGroups) {
  BarrierState st;
  BarrierState *p = &st;
  void *args[] = {&p};
  EXPECT_EQ(run(ex, range1D(wgBarrierInCallee, args, 40, 8)), 0);
  EXPECT_EQ(st.itemsDone.load(), 40);
  EXPECT_EQ(st.errors.load(), 0);
  // Groups of one work-item need no fibers.
  uint64_t fiberGroups = ex.fiberGroupsRun();
  EXPECT_EQ(run(ex, range1D(wgBarrierInCallee, args, 5, 1)), 0);
  EXPECT_EQ(ex.fiberGroupsRun(), fiberGroups);
}

// --- Divergence ------------------------------------------------------------------

enum DivergeKind { kDifferentSites, kSomeSkipBarrier, kLaterItemFirst, kOnlyItem0Skips };

void itemDiverge(void **args, fcl_group_ctx *c, fcl_u32 x, fcl_u32, fcl_u32) {
  int kind = *static_cast<int *>(args[0]);
  switch (kind) {
  case kDifferentSites:
    __fibercl_host_barrier(c, x < 4 ? 1 : 2, 0);
    break;
  case kSomeSkipBarrier: // items >= 5 finish while the others wait
    if (x < 5)
      __fibercl_host_barrier(c, 1, 0);
    break;
  case kLaterItemFirst: // item 0..2 finish, item 3 reaches a barrier
    if (x >= 3)
      __fibercl_host_barrier(c, 1, 0);
    break;
  case kOnlyItem0Skips: // barrier round, then item 0 finishes, item 1 waits
    __fibercl_host_barrier(c, 1, 0);
    if (x != 0)
      __fibercl_host_barrier(c, 3, 0);
    break;
  }
}

void wgDiverge(void **args, fcl_group_ctx *c) { __fibercl_host_run_items(c, itemDiverge, args); }

TEST_P(ExecutorTest, BarrierDivergenceFailsCommandAndPoolStaysClean) {
  const char *expect[] = {"waits at barrier #2 but work-item (0,0,0) waits at barrier #1",
                          "finished but work-item (0,0,0) waits at barrier #1",
                          "reached barrier #1 but earlier work-items finished",
                          "waits at barrier #3 but work-item (0,0,0) finished"};
  for (int kind = 0; kind < 4; ++kind) {
    int k = kind;
    void *args[] = {&k};
    NDRange r = range1D(wgDiverge, args, 8 * 16, 8);
    r.kernelName = "divergent";
    testing::internal::CaptureStderr();
    EXPECT_EQ(run(ex, r), kOutOfResources) << "kind " << kind;
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("FiberCL: kernel 'divergent': barrier divergence in work-group ("),
              std::string::npos)
        << err;
    EXPECT_NE(err.find(expect[kind]), std::string::npos) << err;

    // The pool is clean: a correct barrier kernel runs normally afterwards.
    BarrierState st;
    st.rounds = 3;
    BarrierState *p = &st;
    void *args2[] = {&p};
    NDRange ok = range1D(wgExchange, args2, 64 * 8, 64);
    ok.localMemSize = 64 * 4;
    EXPECT_EQ(run(ex, ok), 0);
    EXPECT_EQ(st.errors.load(), 0);
    EXPECT_EQ(st.itemsDone.load(), 64 * 8);
  }
}

// --- Faults ------------------------------------------------------------------------

enum FaultKind { kDivZero, kNullStore, kNullStoreInFiber, kStackOverflowInFiber };

volatile int recursionLimit = 1 << 30;

int __attribute__((noinline)) recurse(volatile int depth) {
  if (depth > recursionLimit)
    return 0;
  volatile char pad[512];
  pad[0] = char(depth);
  asm volatile("" ::: "memory");
  int r = recurse(depth + 1) + pad[0];
  asm volatile("" ::: "memory");
  return r;
}

struct FaultArgs {
  int kind;
  uint64_t badGroup;
  std::atomic<int> groupsRun{0};
};

// The faults below are the point of the tests (FiberCL must report them), so UBSan
// (scripts/sanitize.sh ubsan) leaves them to the CPU.
#define DELIBERATE_FAULTS __attribute__((no_sanitize("undefined")))

DELIBERATE_FAULTS void storeThroughNull() {
  volatile int *volatile bad = nullptr;
  *bad = 1;
}

DELIBERATE_FAULTS void itemFault(void **args, fcl_group_ctx *c, fcl_u32 x, fcl_u32, fcl_u32) {
  auto *fa = *static_cast<FaultArgs **>(args[0]);
  __fibercl_host_barrier(c, 1, 0);
  if (c->group_id[0] == fa->badGroup && x == 5) {
    if (fa->kind == kNullStoreInFiber) {
      volatile int *volatile p = nullptr;
      *p = 42;
    } else {
      recurse(0);
    }
  }
  __fibercl_host_barrier(c, 2, 0);
}

DELIBERATE_FAULTS void wgFault(void **args, fcl_group_ctx *c) {
  auto *fa = *static_cast<FaultArgs **>(args[0]);
  fa->groupsRun.fetch_add(1);
  if (fa->kind == kDivZero && c->group_id[0] == fa->badGroup) {
    volatile int zero = 0, num = 12345;
    volatile int sink = num / zero;
    (void)sink;
  } else if (fa->kind == kNullStore && c->group_id[0] == fa->badGroup) {
    volatile int *volatile p = nullptr;
    *p = 1;
  } else if (fa->kind >= kNullStoreInFiber) {
    __fibercl_host_run_items(c, itemFault, args);
  }
}

TEST_P(ExecutorTest, KernelFaultFailsCommandAndProcessGoesOn) {
  const char *expect[] = {"SIGFPE (integer divide by zero)", "SIGSEGV (invalid memory access",
                          "SIGSEGV (invalid memory access", "SIGSEGV (stack overflow"};
  for (int kind = 0; kind < 4; ++kind) {
    FaultArgs fa;
    fa.kind = kind;
    fa.badGroup = 3;
    FaultArgs *p = &fa;
    void *args[] = {&p};
    NDRange r = range1D(wgFault, args, 8 * 2000, 8);
    r.kernelName = "faulty";
    testing::internal::CaptureStderr();
    EXPECT_EQ(run(ex, r), kOutOfResources) << "kind " << kind;
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("FiberCL: kernel 'faulty' crashed in work-group (3,0,0): "),
              std::string::npos)
        << err;
    EXPECT_NE(err.find(expect[kind]), std::string::npos) << err;
    // The rest of the groups are (mostly) skipped.
    EXPECT_LT(fa.groupsRun.load(), 2000);

    // Later commands work, including barrier kernels on the same runners.
    BarrierState st;
    st.rounds = 3;
    BarrierState *bp = &st;
    void *args2[] = {&bp};
    NDRange ok = range1D(wgExchange, args2, 64 * 8, 64);
    ok.localMemSize = 64 * 4;
    EXPECT_EQ(run(ex, ok), 0);
    EXPECT_EQ(st.errors.load(), 0);
  }
  // The signal was unblocked: a second fault is caught as well.
  FaultArgs fa;
  fa.kind = kDivZero;
  fa.badGroup = 0;
  FaultArgs *p = &fa;
  void *args[] = {&p};
  testing::internal::CaptureStderr();
  EXPECT_EQ(run(ex, range1D(wgFault, args, 8, 8)), kOutOfResources);
  testing::internal::GetCapturedStderr();
}

TEST_P(ExecutorTest, FaultOutsideKernelStillCrashes) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        Executor inner(GetParam());
        std::atomic<int> out[8];
        std::atomic<int> *p = out;
        void *args[] = {&p};
        for (auto &v : out)
          v = 0;
        run(inner, range1D(wgLoopIncrement, args, 8, 8)); // installs the handlers
        storeThroughNull();
      },
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
      // The handler FiberCL chains to is the sanitizer's: it reports the fault and
      // ends the process (exit or abort).
      [](int status) { return !(WIFEXITED(status) && WEXITSTATUS(status) == 0); },
      "Sanitizer: SEGV");
#else
      testing::KilledBySignal(SIGSEGV), "");
#endif
}

// --- Host jobs and many concurrent jobs ----------------------------------------------

TEST_P(ExecutorTest, HostJobsAndManyConcurrentJobs) {
  constexpr int kJobs = 200;
  std::vector<std::atomic<int>> doneCalls(kJobs);
  std::vector<std::atomic<int32_t>> statuses(kJobs);
  std::atomic<int> finished{0};
  std::vector<std::vector<std::atomic<int>>> outs(kJobs);
  std::vector<std::atomic<int> *> ptrs(kJobs);
  std::vector<void *> argv(kJobs);
  for (int i = 0; i < kJobs; ++i) {
    auto done = [&, i](int32_t s) {
      statuses[i] = s;
      doneCalls[i].fetch_add(1);
      finished.fetch_add(1);
    };
    if (i % 3 == 0) {
      ex.runHost([i]() -> int32_t { return i % 9 == 0 ? -14 : 0; }, done);
    } else {
      outs[i] = std::vector<std::atomic<int>>(1000);
      ptrs[i] = outs[i].data();
      argv[i] = &ptrs[i];
      ex.runNDRange(range1D(wgLoopIncrement, &argv[i], 1000, 10), done);
    }
  }
  ex.helpUntil([&] { return finished.load() == kJobs; });
  for (int i = 0; i < kJobs; ++i) {
    EXPECT_EQ(doneCalls[i].load(), 1);
    if (i % 3 == 0) {
      EXPECT_EQ(statuses[i].load(), i % 9 == 0 ? -14 : 0);
    } else {
      EXPECT_EQ(statuses[i].load(), 0);
      for (auto &v : outs[i])
        ASSERT_EQ(v.load(), 1);
    }
  }
}

TEST_P(ExecutorTest, DoneRunsWithoutHelper) {
  // Workers complete jobs on their own; the test thread only waits.
  std::atomic<int> finished{0};
  std::vector<std::atomic<int>> out(512);
  std::atomic<int> *p = out.data();
  void *args[] = {&p};
  ex.runNDRange(range1D(wgLoopIncrement, args, 512, 16), [&](int32_t) { finished = 1; });
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!finished.load() && std::chrono::steady_clock::now() < until)
    std::this_thread::yield();
  EXPECT_EQ(finished.load(), 1);
  for (auto &v : out)
    ASSERT_EQ(v.load(), 1);
}

TEST_P(ExecutorTest, ZeroSizedRangeCompletes) {
  std::atomic<int> out[1];
  std::atomic<int> *p = out;
  void *args[] = {&p};
  EXPECT_EQ(run(ex, range1D(wgLoopIncrement, args, 0, 1)), 0);
}

TEST_P(ExecutorTest, SeveralHostThreadsHelpAtOnce) {
  auto client = [&](int seed) {
    for (int iter = 0; iter < 50; ++iter) {
      BarrierState st;
      st.rounds = 2;
      BarrierState *p = &st;
      void *args[] = {&p};
      NDRange r = range1D(wgExchange, args, 32 * (4 + seed), 32);
      r.localMemSize = 32 * 4;
      EXPECT_EQ(run(ex, r), 0);
      EXPECT_EQ(st.errors.load(), 0);
      EXPECT_EQ(st.itemsDone.load(), 32 * (4 + seed));
    }
  };
  std::thread a(client, 0), b(client, 3);
  client(1);
  a.join();
  b.join();
}

INSTANTIATE_TEST_SUITE_P(Threads, ExecutorTest, ::testing::Values(1u, 2u),
                         [](const testing::TestParamInfo<unsigned> &info) {
                           return std::to_string(info.param) + "worker" +
                                  (info.param > 1 ? "s" : "");
                         });

} // namespace

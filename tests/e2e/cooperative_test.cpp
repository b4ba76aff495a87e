// Cooperative kernels (<fibercl/cooperative.h>, seed 001) through the OpenCL API: the
// active group count changing at resizing barriers and at offer_kill/request_fork,
// transmitted variables, poisoned private state of forked groups, seeded decisions,
// and a kernel on another queue getting work-groups from a running cooperative one.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "cl_test.hpp"

namespace fcltest {
namespace {

using Cooperative = CLTest;

// Figure 4 of the paper, reduced: rounds of strided work over the active groups,
// separated by resizing barriers; `round` and the data pointer are transmitted.
const char *kResizeSource = R"CLC(
  #include <fibercl/cooperative.h>
  kernel void rounds(global int *data, int n, int rounds, global int *seen) {
    transmit int round = 0;
    transmit global int *d = data;
    while (round < rounds) {
      int stride = get_global_size(0);
      for (int i = get_global_id(0); i < n; i += stride)
        d[i] += 1;
      if (get_local_id(0) == 0) {
        atomic_max(&seen[0], (int)get_num_groups(0));
        atomic_min(&seen[1], (int)get_num_groups(0));
      }
      resizing_global_barrier();
      round++;
    }
  })CLC";

// The work-stealing pattern: fork and offer to be killed before each task.
const char *kTasksSource = R"CLC(
  #include <fibercl/cooperative.h>
  kernel void tasks(global atomic_int *next, int n, global int *done, global int *seen) {
    for (;;) {
      request_fork();
      offer_kill();
      int t = 0;
      if (get_local_id(0) == 0)
        t = atomic_fetch_add_explicit(next, 1, memory_order_relaxed, memory_scope_device);
      t = work_group_broadcast(t, 0);
      if (t >= n)
        break;
      done[t * get_local_size(0) + get_local_id(0)] += 1;
      if (get_local_id(0) == 0)
        atomic_max(&seen[0], (int)get_num_groups(0));
    }
  })CLC";

struct RoundsResult {
  cl_int status;
  int wrong; // elements not incremented exactly `rounds` times
  int maxM, minM;
};

class CooperativeRun : public CLTest {
protected:
  RoundsResult runRounds(const char *source, int groups, int rounds) {
    cl_kernel k = kernelFrom(source, "rounds", "-cl-std=CL2.0");
    const int n = 777;
    cl_mem data = bufferFrom(std::vector<cl_int>(n, 0));
    cl_mem seen = bufferFrom(std::vector<cl_int>{0, 1 << 30});
    setArgs(k, data, n, rounds, seen);
    RoundsResult r{};
    r.status = tryRun(k, {size_t(groups) * 8}, {8});
    std::vector<cl_int> out = read<cl_int>(data, n);
    for (cl_int v : out)
      r.wrong += v != rounds;
    std::vector<cl_int> m = read<cl_int>(seen, 2);
    r.maxM = m[0];
    r.minM = m[1];
    return r;
  }
};

TEST_F(CooperativeRun, ResizingBarrierKeepsEveryRoundWhateverTheGroupCount) {
  SKIP_UNLESS_FIBERCL("cooperative kernels");
  for (const char *bound : {"0", "1", "2", "4"}) {
    // Parallel mode: a seed decides how many groups a resize grants (the next test).
    ScopedEnv env{{"FIBERCL_OCCUPANCY", bound}, {"FIBERCL_SEED", ScopedEnv::kUnset}};
    RoundsResult r = runRounds(kResizeSource, 8, 12);
    ASSERT_CL(r.status);
    EXPECT_EQ(r.wrong, 0) << "bound " << bound;
    int cap = std::string(bound) == "0" ? 8 : std::stoi(bound);
    EXPECT_EQ(r.maxM, cap) << "all slots given when nothing else runs; bound " << bound;
  }
}

TEST_F(CooperativeRun, SeededResizesChangeTheGroupCountAndStayCorrect) {
  SKIP_UNLESS_FIBERCL("deterministic cooperative scheduling");
  bool varied = false;
  for (int seed = 1; seed <= 25; ++seed) {
    ScopedEnv env{{"FIBERCL_SEED", std::to_string(seed)}};
    RoundsResult r = runRounds(kResizeSource, 8, 12);
    ASSERT_CL(r.status) << "seed " << seed;
    ASSERT_EQ(r.wrong, 0) << "seed " << seed;
    varied |= r.minM != r.maxM;
  }
  EXPECT_TRUE(varied) << "no seed resized the kernel";
}

TEST_F(CooperativeRun, SameSeedSameGroupCounts) {
  SKIP_UNLESS_FIBERCL("deterministic cooperative scheduling");
  ScopedEnv env{{"FIBERCL_SEED", "7"}};
  RoundsResult a = runRounds(kResizeSource, 8, 12), b = runRounds(kResizeSource, 8, 12);
  EXPECT_EQ(a.minM, b.minM);
  EXPECT_EQ(a.maxM, b.maxM);
}

TEST_F(CooperativeRun, MissingTransmitShowsUpInForkedGroups) {
  SKIP_UNLESS_FIBERCL("poisoned private state");
  std::string source = kResizeSource;
  source.replace(source.find("transmit int round"), 18, "int round");
  int broken = 0;
  for (int seed = 1; seed <= 8; ++seed) {
    ScopedEnv env{{"FIBERCL_SEED", std::to_string(seed)}};
    RoundsResult r = runRounds(source.c_str(), 8, 12);
    broken += r.status != CL_SUCCESS || r.wrong != 0;
  }
  EXPECT_GT(broken, 0) << "forked groups read an untransmitted round counter, yet every "
                          "seed gave the right result";
}

TEST_F(Cooperative, ForkAndKillBeforeEachTaskRunsEveryTaskOnce) {
  SKIP_UNLESS_FIBERCL("cooperative kernels");
  cl_kernel k = kernelFrom(kTasksSource, "tasks", "-cl-std=CL2.0");
  const int tasks = 300, local = 4;
  for (int seed = 0; seed <= 20; ++seed) {
    ScopedEnv env{{"FIBERCL_SEED", seed ? std::to_string(seed) : std::string()}};
    if (!seed)
      unsetenv("FIBERCL_SEED");
    cl_mem next = bufferFrom(std::vector<cl_int>{0});
    cl_mem done = bufferFrom(std::vector<cl_int>(tasks * local, 0));
    cl_mem seen = bufferFrom(std::vector<cl_int>{0});
    setArgs(k, next, tasks, done, seen);
    ASSERT_CL(tryRun(k, {size_t(6 * local)}, {size_t(local)})) << "seed " << seed;
    std::vector<cl_int> out = read<cl_int>(done, tasks * local);
    for (int i = 0; i < tasks * local; ++i)
      ASSERT_EQ(out[i], 1) << "task item " << i << ", seed " << seed;
  }
}

TEST_F(Cooperative, GlobalBarrierOrdersRounds) {
  SKIP_UNLESS_FIBERCL("cooperative kernels");
  // Each round reads the neighbour group's value of the previous round.
  cl_kernel k = kernelFrom(R"CLC(
    #include <fibercl/cooperative.h>
    kernel void ring(global int *v, int rounds) {
      int g = get_group_id(0), m = get_num_groups(0);
      for (int r = 0; r < rounds; ++r) {
        int left = v[(g + m - 1) % m];
        global_barrier();
        if (get_local_id(0) == 0) v[g] = left + 1;
        global_barrier();
      }
    })CLC",
                           "ring", "-cl-std=CL2.0");
  for (const char *seed : {"", "3"}) {
    ScopedEnv env{{"FIBERCL_OCCUPANCY", "0"}};
    if (*seed)
      setenv("FIBERCL_SEED", seed, 1);
    cl_mem v = bufferFrom(std::vector<cl_int>(5, 0));
    setArgs(k, v, 9);
    ASSERT_CL(tryRun(k, {5 * 4}, {4}));
    unsetenv("FIBERCL_SEED");
    // A global barrier never resizes, but the seed may start fewer groups: read M.
    std::vector<cl_int> out = read<cl_int>(v, 5);
    int m = 0;
    while (m < 5 && out[m] != 0)
      ++m;
    ASSERT_GE(m, 1);
    for (int g = 0; g < m; ++g)
      EXPECT_EQ(out[g], 9) << "group " << g << " of " << m;
  }
}

TEST_F(Cooperative, NonCooperativeKernelCompletesWhileCooperativeOneRuns) {
  SKIP_UNLESS_FIBERCL("multitasking");
  // The cooperative kernel cannot finish before the other kernel has run: its groups
  // wait (offering to be killed) for a flag that only the other kernel sets. The
  // other kernel needs work-group slots, which all belong to the cooperative kernel
  // until it gives some back at offer_kill.
  // Parallel mode: in deterministic mode one worker runs one launch at a time, and a
  // kernel on another queue is a writer the scheduler does not see (README).
  ScopedEnv env{{"FIBERCL_OCCUPANCY", "4"},
                {"FIBERCL_DEADLOCK_TIMEOUT", "60"},
                {"FIBERCL_SEED", ScopedEnv::kUnset}};
  cl_kernel coop = kernelFrom(R"CLC(
    #include <fibercl/cooperative.h>
    kernel void waiter(global atomic_int *flag, global int *seen) {
      // offer_kill is a work-group function: the group decides together whether to go on.
      while (work_group_broadcast(
                 atomic_load_explicit(flag, memory_order_acquire, memory_scope_device), 0) == 0) {
        if (get_local_id(0) == 0) {
          atomic_max(&seen[0], (int)cooperative_query());
          atomic_min(&seen[1], (int)get_num_groups(0));
        }
        offer_kill();
      }
    })CLC",
                              "waiter", "-cl-std=CL2.0");
  cl_kernel other = kernelFrom(R"CLC(
    kernel void setter(global atomic_int *flag, global int *out) {
      out[get_global_id(0)] = 2 * get_global_id(0);
      if (get_global_id(0) == 0)
        atomic_store_explicit(flag, 1, memory_order_release, memory_scope_device);
    })CLC",
                               "setter", "-cl-std=CL2.0");
  cl_mem flag = bufferFrom(std::vector<cl_int>{0});
  cl_mem seen = bufferFrom(std::vector<cl_int>{0, 1 << 30});
  cl_mem out = buffer(64 * sizeof(cl_int));
  setArgs(coop, flag, seen);
  setArgs(other, flag, out);
  cl_int err;
  cl_command_queue second = clCreateCommandQueueWithProperties(context_, device_, nullptr, &err);
  ASSERT_CL(err);
  atTearDown([second] { clReleaseCommandQueue(second); });
  size_t coopGlobal = 4 * 8, coopLocal = 8, otherGlobal = 64, otherLocal = 16;
  cl_event coopDone = nullptr;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, coop, 1, nullptr, &coopGlobal, &coopLocal, 0, nullptr,
                                   &coopDone));
  keep(coopDone);
  ASSERT_CL(clFlush(queue_));
  // The other kernel must come after the cooperative one holds the slots (a machine
  // under load may start it late: then the other ran first, set the flag, and nothing
  // was asked back). CL_RUNNING: its first group has started.
  cl_int started = CL_QUEUED;
  for (int waited = 0; started > CL_RUNNING && waited < 30000; ++waited) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ASSERT_CL(clGetEventInfo(coopDone, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof started, &started,
                             nullptr));
  }
  ASSERT_EQ(started, CL_RUNNING);
  std::this_thread::sleep_for(std::chrono::milliseconds(50)); // (its other groups start)
  ASSERT_CL(clEnqueueNDRangeKernel(second, other, 1, nullptr, &otherGlobal, &otherLocal, 0, nullptr,
                                   nullptr));
  ASSERT_CL(clFinish(second)); // completes while the cooperative kernel runs
  cl_int coopStatus = 1;
  ASSERT_CL(clGetEventInfo(coopDone, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof coopStatus,
                           &coopStatus, nullptr));
  ASSERT_CL(clFinish(queue_));
  ASSERT_CL(clGetEventInfo(coopDone, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof coopStatus,
                           &coopStatus, nullptr));
  EXPECT_EQ(coopStatus, CL_COMPLETE);
  std::vector<cl_int> o = read<cl_int>(out, 64);
  for (int i = 0; i < 64; ++i)
    ASSERT_EQ(o[i], 2 * i);
  std::vector<cl_int> s = read<cl_int>(seen, 2);
  EXPECT_GT(s[0], 0) << "cooperative_query never asked for groups back";
  EXPECT_LT(s[1], 4) << "no group was killed to make room";
}

// The task pool of the paper (request_fork and offer_kill before each task) running
// long, and a short kernel enqueued on another queue right after the pool's clFlush,
// before the pool has started: it must get its work-group slots at the pool's next
// offer_kill, not when the pool ends. The pool stops early when the host sets `stop`
// (fine-grained SVM), so each try costs about the short kernel's wait.
TEST_F(Cooperative, KernelEnqueuedRightAfterTheCooperativeOneGetsSlotsAtTheNextKill) {
  SKIP_UNLESS_FIBERCL("multitasking");
  // Parallel mode: in deterministic mode one worker runs one launch at a time, and a
  // kernel on another queue is a writer the scheduler does not see (README).
  ScopedEnv env{{"FIBERCL_OCCUPANCY", "4"},
                {"FIBERCL_DEADLOCK_TIMEOUT", "60"},
                {"FIBERCL_SEED", ScopedEnv::kUnset}};
  cl_kernel pool = kernelFrom(R"CLC(
    #include <fibercl/cooperative.h>
    kernel void pool(global atomic_int *stop, global atomic_int *next, int n,
                     global int *done, int work) {
      for (;;) {
        request_fork();
        offer_kill();
        int t = 0;
        if (get_local_id(0) == 0)
          t = atomic_load_explicit(stop, memory_order_acquire, memory_scope_all_svm_devices)
                  ? n
                  : atomic_fetch_add_explicit(next, 1, memory_order_relaxed,
                                              memory_scope_device);
        t = work_group_broadcast(t, 0);
        if (t >= n)
          break;
        uint x = (uint)t * 2654435761u + get_local_id(0);
        for (int i = 0; i < work; ++i)
          x = x * 1664525u + 1013904223u;
        done[t * get_local_size(0) + get_local_id(0)] += (x == 7u) ? 2 : 1;
      }
    })CLC",
                              "pool", "-cl-std=CL2.0");
  // The short kernel also notes how many tasks the pool had claimed when it ran: the
  // measure of its wait that the machine's load does not change (a plain read of the
  // pool's counter: benign on this CPU device, and an atomic would get the kernel
  // scheduled, which is not what is tested).
  cl_kernel other = kernelFrom(R"CLC(
    kernel void fill(global int *out, global const int *poolNext, global int *seen) {
      out[get_global_id(0)] = 3 * (int)get_global_id(0);
      if (get_global_id(0) == 0)
        seen[0] = poolNext[0];
    })CLC",
                               "fill");
  // Keeps the workers busy for a few milliseconds: one long work-item per group.
  cl_kernel busy = kernelFrom(R"CLC(
    kernel void busy(global uint *out, int n) {
      uint x = get_global_id(0);
      for (int i = 0; i < n; ++i)
        x = x * 1664525u + 1013904223u;
      out[get_global_id(0)] = x;
    })CLC",
                              "busy");
  cl_int err;
  cl_command_queue second = clCreateCommandQueueWithProperties(context_, device_, nullptr, &err);
  ASSERT_CL(err);
  atTearDown([second] { clReleaseCommandQueue(second); });
  cl_command_queue third = clCreateCommandQueueWithProperties(context_, device_, nullptr, &err);
  ASSERT_CL(err);
  atTearDown([third] { clReleaseCommandQueue(third); });
  auto *stop = static_cast<cl_int *>(
      clSVMAlloc(context_, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
                 sizeof(cl_int), 0));
  ASSERT_NE(stop, nullptr);
  atTearDown([this, stop] { clSVMFree(context_, stop); });
  const int tasks = 4000, local = 16;
  int work = 160000; // per task and work-item; grown below on a faster machine
  cl_mem next = bufferFrom(std::vector<cl_int>{0});
  cl_mem done = bufferFrom(std::vector<cl_int>(tasks * local, 0));
  cl_mem out = buffer(64 * sizeof(cl_int));
  ASSERT_CL(clSetKernelArgSVMPointer(pool, 0, stop));
  setArg(pool, 1, next);
  setArg(pool, 2, tasks);
  setArg(pool, 3, done);
  setArg(pool, 4, work);
  cl_mem seen = buffer(sizeof(cl_int));
  setArgs(other, out, next, seen);
  cl_mem busyOut = buffer(64 * sizeof(cl_uint));
  setArgs(busy, busyOut, 3000000);
  size_t poolGlobal = 4 * local, poolLocal = local, otherGlobal = 64, otherLocal = 16;
  using Clock = std::chrono::steady_clock;
  auto ms = [](Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
  auto reset = [&] {
    __atomic_store_n(stop, 0, __ATOMIC_SEQ_CST);
    write(next, std::vector<cl_int>{0});
    write(done, std::vector<cl_int>(tasks * local, 0));
    write(out, std::vector<cl_int>(64, 0));
  };
  auto check = [&](int attempt) {
    int claimed = std::min(read<cl_int>(next, 1)[0], tasks);
    std::vector<cl_int> d = read<cl_int>(done, tasks * local);
    for (int i = 0; i < tasks * local; ++i)
      ASSERT_EQ(d[i], i / local < claimed ? 1 : 0) << "task item " << i << ", try " << attempt;
    std::vector<cl_int> o = read<cl_int>(out, 64);
    for (int i = 0; i < 64; ++i)
      ASSERT_EQ(o[i], 3 * i) << "try " << attempt;
  };
  // The pool alone, to the end: how long the short kernel would wait for it (at least
  // 600 ms, so that a wait for the whole pool cannot pass for a wait for a kill point).
  double whole = 0;
  for (int calibration = 0; calibration < 4 && whole < 600.0; ++calibration) {
    if (whole > 0)
      work = int(std::min(work * (900.0 / whole), 1e9));
    setArg(pool, 4, work);
    reset();
    Clock::time_point t0 = Clock::now();
    run(pool, {poolGlobal}, {poolLocal});
    whole = ms(Clock::now() - t0);
  }
  ASSERT_GT(whole, 600.0) << "the pool must run long enough to tell a kill point from its end";
  // Generous: the next offer_kill comes every task, and a group takes one at a time, so
  // a prompt short kernel runs after a handful of tasks. Counted in the pool's tasks, not
  // in milliseconds: a loaded machine slows both kernels alike (a bound of 250 ms failed
  // at a load of 15 on the 2 cores).
  const int bound = tasks / 4;
  // 20 tries right after the clFlush -- every other one with the device's workers busy
  // for a few milliseconds with a kernel on a third queue when the pool is enqueued, as
  // when an application's previous work is still running -- then the other orders: the
  // short kernel first, and while the pool runs.
  enum Order { RightAfter, Before, During };
  double longest[3] = {0, 0, 0};
  int mostTasks[3] = {0, 0, 0};
  for (int attempt = 0; attempt < 26; ++attempt) {
    const Order order = attempt < 20 ? RightAfter : attempt < 23 ? Before : During;
    const bool busyFirst = order == RightAfter && attempt % 2 == 1;
    reset();
    auto enqueueOther = [&] {
      ASSERT_CL(clEnqueueNDRangeKernel(second, other, 1, nullptr, &otherGlobal, &otherLocal, 0,
                                       nullptr, nullptr));
    };
    // The device idle, its workers asleep, as when an application starts the pair.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    size_t two = 2, one = 1;
    if (busyFirst) {
      ASSERT_CL(clEnqueueNDRangeKernel(third, busy, 1, nullptr, &two, &one, 0, nullptr, nullptr));
      ASSERT_CL(clFlush(third));
    }
    Clock::time_point start = Clock::now();
    if (order == Before) {
      enqueueOther();
      ASSERT_CL(clFlush(second));
    }
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, pool, 1, nullptr, &poolGlobal, &poolLocal, 0, nullptr,
                                     nullptr));
    ASSERT_CL(clFlush(queue_));
    if (order == During) {
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      start = Clock::now();
    }
    if (order != Before)
      enqueueOther();
    ASSERT_CL(clFinish(second));
    const double waited = ms(Clock::now() - start);
    longest[order] = std::max(longest[order], waited);
    __atomic_store_n(stop, 1, __ATOMIC_SEQ_CST);
    ASSERT_CL(clFinish(queue_));
    ASSERT_CL(clFinish(third));
    const int tasksBefore = read<cl_int>(seen, 1)[0];
    mostTasks[order] = std::max(mostTasks[order], tasksBefore);
    EXPECT_LT(tasksBefore, bound) << "try " << attempt << " (order " << order
                                  << (busyFirst ? ", workers busy" : "")
                                  << "): the short kernel ran after " << tasksBefore
                                  << " of the pool's " << tasks << " tasks (" << waited
                                  << " ms; the cooperative kernel alone runs " << whole << " ms)";
    check(attempt);
    if (HasFailure())
      break;
  }
  std::printf("the short kernel waited at most %.1f ms / %d tasks right after the cooperative "
              "kernel's clFlush (20 tries), %.1f ms / %d tasks enqueued before it, %.1f ms / %d "
              "tasks while it ran; the cooperative kernel alone runs %.0f ms, %d tasks\n",
              longest[RightAfter], mostTasks[RightAfter], longest[Before], mostTasks[Before],
              longest[During], mostTasks[During], whole, tasks);
}

TEST_F(Cooperative, KernelThatNeverOffersIsReportedAndTheOtherRunsAnyway) {
  SKIP_UNLESS_FIBERCL("multitasking");
  // The cooperative kernel waits for the other kernel without ever offering a group:
  // the other kernel cannot get its slots; FiberCL says so and runs it anyway. Parallel
  // mode, as the other multitasking tests.
  ScopedEnv env{{"FIBERCL_OCCUPANCY", "2"},
                {"FIBERCL_DEADLOCK_TIMEOUT", "2"},
                {"FIBERCL_SEED", ScopedEnv::kUnset}};
  cl_kernel coop = kernelFrom(R"CLC(
    #include <fibercl/cooperative.h>
    kernel void hog(global atomic_int *flag) {
      while (atomic_load_explicit(flag, memory_order_acquire, memory_scope_device) == 0)
        ;
      global_barrier();
    })CLC",
                              "hog", "-cl-std=CL2.0");
  cl_kernel other = kernelFrom(R"CLC(
    kernel void setter(global atomic_int *flag) {
      atomic_store_explicit(flag, 1, memory_order_release, memory_scope_device);
    })CLC",
                               "setter", "-cl-std=CL2.0");
  cl_mem flag = bufferFrom(std::vector<cl_int>{0});
  setArgs(coop, flag);
  setArgs(other, flag);
  cl_int err;
  cl_command_queue second = clCreateCommandQueueWithProperties(context_, device_, nullptr, &err);
  ASSERT_CL(err);
  atTearDown([second] { clReleaseCommandQueue(second); });
  size_t two = 2, one = 1;
  testing::internal::CaptureStderr();
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, coop, 1, nullptr, &two, &one, 0, nullptr, nullptr));
  ASSERT_CL(clFlush(queue_));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_CL(clEnqueueNDRangeKernel(second, other, 1, nullptr, &one, &one, 0, nullptr, nullptr));
  cl_int finishOther = clFinish(second), finishCoop = clFinish(queue_);
  std::string text = testing::internal::GetCapturedStderr();
  EXPECT_CL(finishOther);
  EXPECT_CL(finishCoop);
  EXPECT_NE(text.find("kernel 'setter' waited"), std::string::npos) << text;
  EXPECT_NE(text.find("running it anyway"), std::string::npos) << text;
}

TEST_F(Cooperative, BarrierThatCannotCompleteIsReported) {
  SKIP_UNLESS_FIBERCL("deadlock reports");
  // Group 1 returns early: the others wait at the global barrier for ever.
  cl_kernel k = kernelFrom(R"CLC(
    #include <fibercl/cooperative.h>
    kernel void early(global int *p) {
      if (get_group_id(0) == 1)
        return;
      global_barrier();
      p[get_group_id(0)] = 1;
    })CLC",
                           "early", "-cl-std=CL2.0");
  for (const char *seed : {"1", ""}) {
    ScopedEnv env{{"FIBERCL_DEADLOCK_TIMEOUT", "1"}};
    if (*seed)
      setenv("FIBERCL_SEED", seed, 1);
    cl_mem p = buffer(4 * sizeof(cl_int));
    setArgs(k, p);
    testing::internal::CaptureStderr();
    tryRun(k, {4 * 2}, {2});
    std::string report = testing::internal::GetCapturedStderr();
    unsetenv("FIBERCL_SEED");
    EXPECT_NE(report.find("deadlock in kernel 'early'"), std::string::npos) << report;
    EXPECT_NE(report.find("(cooperative) in early"), std::string::npos) << report;
    EXPECT_NE(report.find("groups active; a global or resizing barrier"), std::string::npos)
        << report;
  }
}

TEST_F(Cooperative, OfferKillInDivergentCodeIsReported) {
  SKIP_UNLESS_FIBERCL("misuse reports");
  cl_kernel k = kernelFrom(R"CLC(
    #include <fibercl/cooperative.h>
    kernel void partial(global int *p) {
      if (get_local_id(0) < 2)
        offer_kill(); // a work-group function in divergent code
      p[get_global_id(0)] = 1;
    })CLC",
                           "partial", "-cl-std=CL2.0");
  cl_mem p = buffer(16 * sizeof(cl_int));
  setArgs(k, p);
  testing::internal::CaptureStderr();
  tryRun(k, {16}, {4});
  std::string report = testing::internal::GetCapturedStderr();
  EXPECT_NE(report.find("kernel 'partial': work-group"), std::string::npos) << report;
  EXPECT_NE(report.find("cooperative calls but another made"), std::string::npos) << report;
}

TEST_F(Cooperative, CooperativeKernelsAreOneDimensionalWithUniformGroups) {
  SKIP_UNLESS_FIBERCL("cooperative kernels");
  cl_kernel k = kernelFrom(R"CLC(
    #include <fibercl/cooperative.h>
    kernel void k(global int *p) { global_barrier(); p[0] = 1; })CLC",
                           "k", "-cl-std=CL2.0");
  cl_mem b = buffer(sizeof(cl_int));
  setArgs(k, b);
  EXPECT_CL_ERR(CL_INVALID_WORK_DIMENSION, tryRun(k, {4, 4}, {2, 2}));
  EXPECT_CL_ERR(CL_INVALID_WORK_GROUP_SIZE, tryRun(k, {10}, {4})) << "uniform groups only";
}

TEST_F(Cooperative, HeadersNeedOpenCL2) {
  SKIP_UNLESS_FIBERCL("served headers");
  BuildResult r = tryBuild("#include <fibercl/cooperative.h>\nkernel void k() {}");
  EXPECT_NE(r.err, CL_SUCCESS);
  EXPECT_NE(r.log.find("needs OpenCL C 2.0"), std::string::npos) << r.log;
}

} // namespace
} // namespace fcltest

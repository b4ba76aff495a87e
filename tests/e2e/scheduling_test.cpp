// Controllable work-group scheduling through the OpenCL API, as an unmodified
// application sees it with FIBERCL_* in its environment: occupancy bound, fair and
// unfair policies, deterministic seeds, and deadlocks reported instead of hangs.
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <CL/cl_fibercl.h>

#include "cl_test.hpp"

namespace {

using namespace fcltest;

const char *kSpinSource = R"CLC(
  // Every group but the last waits for a flag that the last group sets: with as many
  // spinners as workers, only a scheduler that suspends spinning groups completes it.
  __kernel void spin(__global volatile atomic_int *flag, __global int *out) {
    if (get_group_id(0) + 1 < get_num_groups(0)) {
      while (atomic_load_explicit(flag, memory_order_acquire, memory_scope_device) == 0)
        ;
      if (get_local_id(0) == 0) out[get_group_id(0)] = 1;
    } else if (get_local_id(0) == 0) {
      atomic_store_explicit(flag, 1, memory_order_release, memory_scope_device);
      out[get_group_id(0)] = 1;
    }
  })CLC";

// An inter-work-group barrier across all launched groups, without discovery: it needs
// every group occupant at once.
const char *kGlobalBarrierSource = R"CLC(
  __kernel void gbarrier(__global atomic_int *arrived, __global int *out) {
    if (get_local_id(0) == 0) {
      atomic_fetch_add_explicit(arrived, 1, memory_order_acq_rel, memory_scope_device);
      while (atomic_load_explicit(arrived, memory_order_acquire, memory_scope_device) <
             (int)get_num_groups(0))
        ;
      out[get_group_id(0)] = 1;
    }
  })CLC";

// A racy read-modify-write: the outcome depends on the interleaving.
const char *kRacySource = R"CLC(
  // Lost updates: increments made of a load and a store. Groups start together (every
  // group's first load sees 0 in every schedule); after the start, schedules differ.
  __kernel void racy(__global atomic_int *cell, __global int *out) {
    int seen = 0;
    for (int i = 0; i < 24; ++i) {
      seen = atomic_load_explicit(cell, memory_order_relaxed, memory_scope_device);
      atomic_store_explicit(cell, seen + 1, memory_order_relaxed, memory_scope_device);
    }
    out[get_group_id(0)] = seen;
  })CLC";

class Scheduling : public CLTest {
protected:
  struct Outcome {
    cl_int status = CL_COMPLETE; // the command's execution status
    cl_int finish = CL_SUCCESS;  // clFinish's return
    std::vector<int> out;
    std::string stderrText;
  };

  // Launches `groups` groups of `local` work-items of kernel `name` with two int
  // buffers (a zeroed cell and an output of `groups` ints).
  Outcome launch(const char *src, const char *name, size_t groups, size_t local = 1) {
    cl_kernel k = kernelFrom(src, name, "-cl-std=CL2.0");
    cl_mem cell = bufferFrom(std::vector<int>{0});
    cl_mem out = bufferFrom(std::vector<int>(groups, 0));
    EXPECT_CL(clSetKernelArg(k, 0, sizeof cell, &cell));
    EXPECT_CL(clSetKernelArg(k, 1, sizeof out, &out));
    size_t global = groups * local;
    Outcome o;
    cl_event e = nullptr;
    testing::internal::CaptureStderr();
    cl_int err = clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, &e);
    if (err == CL_SUCCESS) {
      o.finish = clFinish(queue_);
      clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof o.status, &o.status, nullptr);
      clReleaseEvent(e);
    }
    o.stderrText = testing::internal::GetCapturedStderr();
    EXPECT_CL(err);
    if (o.status == CL_COMPLETE)
      o.out = read<int>(out, groups);
    return o;
  }

  // After a failed command the queue and context must still work.
  void expectQueueStillWorks() {
    cl_kernel k =
        kernelFrom("__kernel void inc(__global int *d) { d[get_global_id(0)] += 1; }", "inc");
    cl_mem m = bufferFrom(std::vector<int>{1, 2, 3});
    ASSERT_CL(clSetKernelArg(k, 0, sizeof m, &m));
    run(k, {3});
    EXPECT_EQ(read<int>(m, 3), (std::vector<int>{2, 3, 4}));
  }
};

TEST_F(Scheduling, SpinWaitOnAnotherGroupCompletesUnderFairScheduling) {
  SKIP_UNLESS_FIBERCL("scheduling controls");
  // The default (fair, unbounded), on all workers: 7 spinners, 1 setter.
  Outcome o = launch(kSpinSource, "spin", 8, 4);
  ASSERT_EQ(o.status, CL_COMPLETE) << o.stderrText;
  EXPECT_EQ(o.out, std::vector<int>(8, 1));
}

TEST_F(Scheduling, SpinWaitCompletesUnderFairDeterministicScheduling) {
  SKIP_UNLESS_FIBERCL("scheduling controls");
  ScopedEnv env{{"FIBERCL_SCHEDULE", "fair"}, {"FIBERCL_SEED", "3"}};
  Outcome o = launch(kSpinSource, "spin", 8, 4);
  ASSERT_EQ(o.status, CL_COMPLETE) << o.stderrText;
  EXPECT_EQ(o.out, std::vector<int>(8, 1));
}

TEST_F(Scheduling, SpinWaitWithOccupancyOneIsAReportedDeadlock) {
  SKIP_UNLESS_FIBERCL("scheduling controls");
  ScopedEnv env{{"FIBERCL_OCCUPANCY", "1"}, {"FIBERCL_DEADLOCK_TIMEOUT", "1"}};
  Outcome o = launch(kSpinSource, "spin", 2, 4);
  EXPECT_LT(o.status, 0) << "the spinning group can never be joined by the one it waits for";
  EXPECT_NE(o.stderrText.find("deadlock"), std::string::npos) << o.stderrText;
  EXPECT_NE(o.stderrText.find("FIBERCL_OCCUPANCY=1"), std::string::npos)
      << "the report names the environment that reproduces it:\n"
      << o.stderrText;
  expectQueueStillWorks();
}

TEST_F(Scheduling, SpinWaitUnderUnfairSchedulingIsAReportedDeadlock) {
  SKIP_UNLESS_FIBERCL("scheduling controls");
  // Deterministic (one worker) and unfair: the spinner, admitted first, keeps the worker.
  ScopedEnv env{{"FIBERCL_SCHEDULE", "unfair"}, {"FIBERCL_SEED", "1"}, {"FIBERCL_ADMISSION", "id"}};
  Outcome o = launch(kSpinSource, "spin", 2, 4);
  EXPECT_LT(o.status, 0);
  EXPECT_NE(o.stderrText.find("deadlock"), std::string::npos) << o.stderrText;
  expectQueueStillWorks();
}

// The spin-wait with a work-group barrier inside the loop: the spinner completes
// barrier rounds forever without changing memory; still a deadlock, still reported.
const char *kSpinWithBarrierSource = R"CLC(
  __kernel void spinbar(__global volatile atomic_int *flag, __global int *out) {
    __local int go;
    if (get_group_id(0) + 1 < get_num_groups(0)) {
      for (;;) { // work-item 0 reads the flag; the whole group decides together
        if (get_local_id(0) == 0)
          go = atomic_load_explicit(flag, memory_order_acquire, memory_scope_device);
        barrier(CLK_LOCAL_MEM_FENCE);
        int seen = go;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (seen)
          break;
      }
      out[get_group_id(0)] = 1;
    } else {
      barrier(CLK_LOCAL_MEM_FENCE);
      if (get_local_id(0) == 0)
        atomic_store_explicit(flag, 1, memory_order_release, memory_scope_device);
      out[get_group_id(0)] = 1;
    }
  })CLC";

// A long computation in one group while the others wait for it is not a deadlock: the
// computing group makes progress (it is at no waiting point), in parallel mode longer
// than the deadlock timeout, and in every seed.
const char *kLongComputeSource = R"CLC(
  __kernel void compute_then_release(__global volatile atomic_int *flag, __global int *out) {
    if (get_group_id(0) == 0) {
      ulong x = 88172645463325252ul; // xorshift: a chain LLVM cannot fold
      for (uint i = 0; i < 200000000u; ++i) { // ~0.3-0.6 s
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
      }
      out[0] = (int)(x >> 40) | 1;
      atomic_store_explicit(flag, 1, memory_order_release, memory_scope_device);
    } else {
      while (atomic_load_explicit(flag, memory_order_acquire, memory_scope_device) == 0) {}
      out[get_group_id(0)] = 1;
    }
  })CLC";

TEST_F(Scheduling, LongComputationWhileOthersWaitIsNotADeadlock) {
  SKIP_UNLESS_FIBERCL("deadlock detection");
  for (const char *seed : {"", "3"}) {
    ScopedEnv env{{"FIBERCL_DEADLOCK_TIMEOUT", "0.1"}, {"FIBERCL_SEED", seed}};
    if (!*seed)
      unsetenv("FIBERCL_SEED");
    Outcome o = launch(kLongComputeSource, "compute_then_release", 4);
    ASSERT_EQ(o.status, CL_COMPLETE) << (*seed ? "seeded" : "parallel") << "\n" << o.stderrText;
    EXPECT_EQ(o.stderrText.find("deadlock"), std::string::npos) << o.stderrText;
    for (size_t g = 1; g < o.out.size(); ++g)
      EXPECT_EQ(o.out[g], 1);
  }
}

class SpinWithBarrier : public Scheduling, public testing::WithParamInterface<bool> {};

TEST_P(SpinWithBarrier, CompletesWhenFairAndIsReportedWhenBlocked) {
  SKIP_UNLESS_FIBERCL("scheduling controls");
  const bool deterministic = GetParam();
  // No false alarm: a group inside barrier rounds is not "stuck" (20 schedules).
  for (int seed = 1; seed <= (deterministic ? 20 : 1); ++seed) {
    ScopedEnv env{{"FIBERCL_SEED", std::to_string(seed)}};
    if (!deterministic)
      unsetenv("FIBERCL_SEED");
    Outcome ok = launch(kSpinWithBarrierSource, "spinbar", 4, 4);
    ASSERT_EQ(ok.status, CL_COMPLETE) << "seed " << seed << "\n" << ok.stderrText;
    EXPECT_EQ(ok.out, std::vector<int>(4, 1));
  }
  ScopedEnv env{
      {"FIBERCL_OCCUPANCY", "1"}, {"FIBERCL_DEADLOCK_TIMEOUT", "1"}, {"FIBERCL_SEED", "5"}};
  if (!deterministic)
    unsetenv("FIBERCL_SEED");
  Outcome blocked = launch(kSpinWithBarrierSource, "spinbar", 2, 4);
  EXPECT_LT(blocked.status, 0);
  EXPECT_NE(blocked.stderrText.find("deadlock"), std::string::npos) << blocked.stderrText;
  expectQueueStillWorks();
}

INSTANTIATE_TEST_SUITE_P(Modes, SpinWithBarrier, testing::Bool(), [](const auto &info) {
  return std::string(info.param ? "seeded" : "parallel");
});

class GlobalBarrier : public Scheduling,
                      public testing::WithParamInterface<std::tuple<int, bool>> {};

TEST_P(GlobalBarrier, CompletesUpToTheOccupancyBoundAndDeadlocksBeyond) {
  SKIP_UNLESS_FIBERCL("scheduling controls");
  auto [bound, deterministic] = GetParam();
  ScopedEnv env{{"FIBERCL_OCCUPANCY", std::to_string(bound)},
                {"FIBERCL_DEADLOCK_TIMEOUT", "1"},
                {"FIBERCL_SEED", deterministic ? "42" : ""}};
  if (!deterministic)
    unsetenv("FIBERCL_SEED");
  Outcome fits = launch(kGlobalBarrierSource, "gbarrier", size_t(bound));
  ASSERT_EQ(fits.status, CL_COMPLETE) << fits.stderrText;
  EXPECT_EQ(fits.out, std::vector<int>(size_t(bound), 1));

  Outcome over = launch(kGlobalBarrierSource, "gbarrier", size_t(bound) + 1);
  EXPECT_LT(over.status, 0) << "G = N + 1 groups cannot all be occupant";
  EXPECT_NE(over.stderrText.find("deadlock"), std::string::npos) << over.stderrText;
  expectQueueStillWorks();
}

INSTANTIATE_TEST_SUITE_P(Bounds, GlobalBarrier,
                         testing::Combine(testing::Values(1, 2, 4, 8), testing::Bool()),
                         [](const auto &info) {
                           return "N" + std::to_string(std::get<0>(info.param)) +
                                  (std::get<1>(info.param) ? "_seeded" : "_parallel");
                         });

TEST_F(Scheduling, SameSeedSameTraceAndResult) {
  SKIP_UNLESS_FIBERCL("deterministic mode");
  std::string traces[2];
  std::vector<int> results[2];
  for (int run = 0; run < 2; ++run) {
    std::string path = testing::TempDir() + "fibercl_trace_" + std::to_string(run) + ".json";
    ScopedEnv env{{"FIBERCL_SEED", "1234"}, {"FIBERCL_TRACE", path}};
    Outcome o = launch(kRacySource, "racy", 16);
    ASSERT_EQ(o.status, CL_COMPLETE) << o.stderrText;
    results[run] = o.out;
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    traces[run] = ss.str();
    ASSERT_FALSE(traces[run].empty()) << "no trace written to " << path;
    EXPECT_EQ(traces[run].front(), traces[run].front() == '[' ? '[' : '{') << "JSON";
  }
  EXPECT_EQ(results[0], results[1]);
  EXPECT_EQ(traces[0], traces[1]) << "same seed, different trace";
}

TEST_F(Scheduling, DifferentSeedsExploreDifferentInterleavings) {
  SKIP_UNLESS_FIBERCL("deterministic mode");
  std::set<std::vector<int>> outcomes;
  for (int seed = 1; seed <= 20; ++seed) {
    ScopedEnv env{{"FIBERCL_SEED", std::to_string(seed)}};
    Outcome o = launch(kRacySource, "racy", 8);
    ASSERT_EQ(o.status, CL_COMPLETE) << o.stderrText;
    outcomes.insert(o.out);
  }
  EXPECT_GE(outcomes.size(), 2u) << "20 seeds gave one interleaving only";
}

TEST_F(Scheduling, ExecInfoSetsTheScheduleOfOneKernel) {
  SKIP_UNLESS_FIBERCL("cl_fibercl_scheduling");
  ScopedEnv env{{"FIBERCL_DEADLOCK_TIMEOUT", "1"}};
  cl_uint defaultBound = 99;
  ASSERT_CL(clGetDeviceInfo(device_, CL_DEVICE_OCCUPANCY_FIBERCL, sizeof defaultBound,
                            &defaultBound, nullptr));
  EXPECT_EQ(defaultBound, 0u) << "unbounded by default";

  cl_kernel k = kernelFrom(kSpinSource, "spin", "-cl-std=CL2.0");
  cl_uint one = 1, bogus = 7;
  cl_ulong seed = 11;
  // CL_INVALID_VALUE for a wrong size, a NULL value or an unknown policy.
  EXPECT_CL_ERR(CL_INVALID_VALUE,
                clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_OCCUPANCY_FIBERCL, sizeof seed, &seed));
  EXPECT_CL_ERR(CL_INVALID_VALUE,
                clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_OCCUPANCY_FIBERCL, sizeof one, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE,
                clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SCHEDULE_FIBERCL, sizeof bogus, &bogus));
  ASSERT_CL(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_OCCUPANCY_FIBERCL, sizeof one, &one));
  ASSERT_CL(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SEED_FIBERCL, sizeof seed, &seed));

  cl_mem flag = bufferFrom(std::vector<int>{0});
  cl_mem out = bufferFrom(std::vector<int>(4, 0));
  ASSERT_CL(clSetKernelArg(k, 0, sizeof flag, &flag));
  ASSERT_CL(clSetKernelArg(k, 1, sizeof out, &out));
  size_t global = 4, local = 1;
  cl_event e = nullptr;
  testing::internal::CaptureStderr();
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, &e));
  clWaitForEvents(1, &e);
  std::string err = testing::internal::GetCapturedStderr();
  cl_int status = CL_COMPLETE;
  clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
  clReleaseEvent(e);
  EXPECT_LT(status, 0) << "occupancy 1 from clSetKernelExecInfo: the spinner blocks the setter";
  EXPECT_NE(err.find("FIBERCL_OCCUPANCY=1"), std::string::npos) << err;
  EXPECT_NE(err.find("FIBERCL_SEED=11"), std::string::npos) << err;
  expectQueueStillWorks();
}

// The extension's codes reach the scheduler (clSetKernelExecInfo) and come back from it
// (clGetDeviceInfo): unfair and deterministic, the spinner admitted first (id order)
// keeps the worker and the launch deadlocks; admitted in reverse, the setter runs first.
TEST_F(Scheduling, ExecInfoPolicyAndAdmissionCodesReachTheScheduler) {
  SKIP_UNLESS_FIBERCL("cl_fibercl_scheduling");
  for (auto [name, code] : {std::pair{"fair", CL_SCHEDULE_FAIR_FIBERCL},
                            std::pair{"unfair", CL_SCHEDULE_UNFAIR_FIBERCL}}) {
    ScopedEnv env{{"FIBERCL_SCHEDULE", name}};
    cl_uint policy = 99;
    ASSERT_CL(
        clGetDeviceInfo(device_, CL_DEVICE_SCHEDULE_FIBERCL, sizeof policy, &policy, nullptr));
    EXPECT_EQ(policy, cl_uint(code)) << name;
  }

  cl_kernel k = kernelFrom(kSpinSource, "spin", "-cl-std=CL2.0");
  cl_uint unfair = CL_SCHEDULE_UNFAIR_FIBERCL, byId = CL_ADMISSION_GROUP_ID_FIBERCL,
          reverse = CL_ADMISSION_REVERSE_FIBERCL, bogus = CL_ADMISSION_RANDOM_FIBERCL + 1;
  cl_ulong seed = 1;
  EXPECT_CL_ERR(CL_INVALID_VALUE, clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_ADMISSION_FIBERCL,
                                                      sizeof bogus, &bogus));
  ASSERT_CL(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SCHEDULE_FIBERCL, sizeof unfair, &unfair));
  ASSERT_CL(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SEED_FIBERCL, sizeof seed, &seed));
  for (cl_uint order : {byId, reverse}) {
    ASSERT_CL(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_ADMISSION_FIBERCL, sizeof order, &order));
    cl_mem flag = bufferFrom(std::vector<int>{0});
    cl_mem out = bufferFrom(std::vector<int>(2, 0));
    ASSERT_CL(clSetKernelArg(k, 0, sizeof flag, &flag));
    ASSERT_CL(clSetKernelArg(k, 1, sizeof out, &out));
    size_t global = 8, local = 4;
    cl_event e = nullptr;
    testing::internal::CaptureStderr();
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, &e));
    clWaitForEvents(1, &e);
    std::string err = testing::internal::GetCapturedStderr();
    cl_int status = CL_COMPLETE;
    clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
    clReleaseEvent(e);
    if (order == byId) {
      EXPECT_LT(status, 0) << "unfair, spinner first: a reported deadlock";
      EXPECT_NE(err.find("FIBERCL_SCHEDULE=unfair"), std::string::npos) << err;
    } else {
      EXPECT_EQ(status, CL_COMPLETE) << "unfair, setter first: completes\n" << err;
    }
  }
  expectQueueStillWorks();
}

TEST_F(Scheduling, PlatformListsTheExtension) {
  SKIP_UNLESS_FIBERCL("cl_fibercl_scheduling");
  char ext[1024] = {};
  ASSERT_CL(clGetPlatformInfo(platform_, CL_PLATFORM_EXTENSIONS, sizeof ext, ext, nullptr));
  EXPECT_NE(std::string(ext).find("cl_fibercl_scheduling"), std::string::npos) << ext;
}

TEST_F(Scheduling, BarrierDivergenceIsReportedNotHung) {
  SKIP_UNLESS_FIBERCL("divergence report");
  cl_kernel k = kernelFrom(R"CLC(
    __kernel void diverge(__global int *d) {
      if (get_local_id(0) < 2) barrier(CLK_GLOBAL_MEM_FENCE);
      d[get_global_id(0)] = 1;
    })CLC",
                           "diverge");
  cl_mem m = bufferFrom(std::vector<int>(8, 0));
  ASSERT_CL(clSetKernelArg(k, 0, sizeof m, &m));
  Completion c = runReporting(k, {8}, {8});
  const std::string &err = c.stderrText;
  EXPECT_LT(c.status, 0);
  EXPECT_NE(err.find("barrier divergence"), std::string::npos) << err;
  EXPECT_NE(err.find("is at <source>:3 (barrier)"), std::string::npos)
      << "the report names the barrier's source line:\n"
      << err;
  expectQueueStillWorks();
}

} // namespace

// <fibercl/primitives.h> through the OpenCL API: the discovery protocol finds the
// occupant groups (not just "no more than" them), barriers among participants, the
// mutexes and semaphores keep their invariants under bounds and seeds, and one
// context serves consecutive launches without a host reset.
#include <CL/cl_fibercl.h>

#include <string>

#include "cl_test.hpp"

namespace fcltest {
namespace {

class Primitives : public CLTest {
protected:
  // FiberCL serves the header; any other device gets it the way an application would
  // ship it: the installed plain OpenCL C, by -I (and OpenCL C 3.0 if it has it).
  std::string libraryOptions() const {
    if (isFiberCL())
      return "-cl-std=CL2.0";
    return std::string(supportsCVersion(3, 0) ? "-cl-std=CL3.0" : "-cl-std=CL2.0") +
           " -I " FIBERCL_PRIMITIVES_SOURCE_DIR;
  }
  bool hasDiscovery() const {
    return isFiberCL() || !supportsCVersion(3, 0) ||
           hasCFeature("__opencl_c_work_group_collective_functions");
  }
};

// Discovery, then rounds of an XF (or counter) barrier: in round r each participant
// reads its left neighbour's round r-1 value. Participants record their count.
const char *kBarrierSource = R"CLC(
  #include <fibercl/primitives.h>
  kernel void rounds(global void *ctx, global int *v, global int *count, int rounds) {
    fibercl_participant p = fibercl_discover(ctx);
    if (!p_participates(p))
      return;
    uint g = p_get_group_id(p), m = p_get_num_groups(p);
    if (get_local_id(0) == 0 && g == 0)
      *count = m;
    for (int r = 0; r < rounds; ++r) {
      int left = v[(g + m - 1) % m];
      BARRIER(ctx, &p);
      if (get_local_id(0) == 0)
        v[g] = left + 1;
      BARRIER(ctx, &p);
    }
  })CLC";

class PrimitivesRun : public Primitives {
protected:
  // Returns the number of participants; checks every participant did every round.
  int runRounds(const std::string &options, int groups, int rounds, cl_mem ctx = nullptr) {
    cl_kernel k = kernelFrom(kBarrierSource, "rounds", libraryOptions() + " " + options);
    if (!ctx) {
      ctx = buffer(FIBERCL_PRIMITIVES_CTX_BYTES);
      cl_int zero = 0;
      check(clEnqueueFillBuffer(queue_, ctx, &zero, sizeof zero, 0, FIBERCL_PRIMITIVES_CTX_BYTES, 0,
                                nullptr, nullptr),
            "clEnqueueFillBuffer");
    }
    cl_mem v = bufferFrom(std::vector<cl_int>(groups, 0));
    cl_mem count = bufferFrom(std::vector<cl_int>{0});
    setArgs(k, ctx, v, count, rounds);
    check(tryRun(k, {size_t(groups) * 16}, {16}), "rounds");
    int m = read<cl_int>(count, 1)[0];
    std::vector<cl_int> out = read<cl_int>(v, groups);
    for (int g = 0; g < m; ++g)
      EXPECT_EQ(out[g], rounds) << "participant " << g << " of " << m;
    return m;
  }
};

TEST_F(PrimitivesRun, DiscoveryFindsEveryOccupantGroupWithEitherLock) {
  SKIP_UNLESS_FIBERCL("occupancy bounds");
  for (const char *lock : {"", "-DFIBERCL_DISCOVERY_SPIN_LOCK"})
    for (int bound : {1, 2, 4, 8}) {
      ScopedEnv env{{"FIBERCL_OCCUPANCY", std::to_string(bound)}};
      EXPECT_EQ(runRounds(std::string("-DBARRIER=fibercl_xf_barrier ") + lock, 12, 5), bound)
          << "bound " << bound << " " << lock;
    }
  // Unbounded: every launched group is occupant.
  EXPECT_EQ(runRounds("-DBARRIER=fibercl_xf_barrier", 12, 5), 12);
}

TEST_F(PrimitivesRun, CounterBarrierUnderSeeds) {
  SKIP_UNLESS_FIBERCL("deterministic mode");
  for (int seed = 1; seed <= 10; ++seed) {
    ScopedEnv env{{"FIBERCL_SEED", std::to_string(seed)}, {"FIBERCL_OCCUPANCY", "3"}};
    EXPECT_EQ(runRounds("-DBARRIER=fibercl_counter_barrier", 7, 6), 3) << "seed " << seed;
  }
}

TEST_F(PrimitivesRun, OneContextServesConsecutiveLaunchesWithoutReset) {
  if (!hasDiscovery())
    GTEST_SKIP() << "the device has no work-group collective functions (discovery needs them)";
  cl_int err;
  cl_mem ctx = fiberclCreatePrimitivesContext(context_, queue_, &err); // the host helper
  ASSERT_CL(err);
  atTearDown([ctx] { clReleaseMemObject(ctx); });
  for (int launch = 0; launch < 5; ++launch) {
    int m = runRounds("-DBARRIER=fibercl_xf_barrier", 3, 4, ctx);
    ASSERT_GE(m, 1) << "launch " << launch;
    if (isFiberCL()) {
      EXPECT_EQ(m, 3) << "launch " << launch;
    }
  }
}

const char *kMutexSource = R"CLC(
  #include <fibercl/primitives.h>
  // A plain read-modify-write in the critical section, with a hold time: a broken
  // mutex loses updates.
  kernel void count(global MUTEX *m, global int *counter, int iterations) {
    if (get_local_id(0) != 0)
      return;
    for (int i = 0; i < iterations; ++i) {
      LOCK(m);
      int v = *(volatile global int *)counter;
      for (volatile int d = 0; d < 20; ++d)
        ;
      *(volatile global int *)counter = v + 1;
      UNLOCK(m);
    }
  })CLC";

TEST_F(Primitives, MutexesLoseNoUpdate) {
  const char *kinds[][3] = {
      {"fibercl_spin_mutex", "fibercl_spin_lock", "fibercl_spin_unlock"},
      {"fibercl_backoff_mutex", "fibercl_backoff_lock", "fibercl_backoff_unlock"},
      {"fibercl_ticket_mutex", "fibercl_ticket_lock", "fibercl_ticket_unlock"}};
  for (auto &kind : kinds)
    for (const char *seed : {"", "5"}) {
      ScopedEnv env{{"FIBERCL_OCCUPANCY", "0"}};
      if (*seed && isFiberCL())
        setenv("FIBERCL_SEED", seed, 1);
      std::string options =
          libraryOptions() + " -DMUTEX=" + kind[0] + " -DLOCK=" + kind[1] + " -DUNLOCK=" + kind[2];
      cl_kernel k = kernelFrom(kMutexSource, "count", options);
      cl_mem m = bufferFrom(std::vector<cl_int>{0, 0});
      cl_mem counter = bufferFrom(std::vector<cl_int>{0});
      setArgs(k, m, counter, 50);
      ASSERT_CL(tryRun(k, {6 * 4}, {4})) << kind[0];
      unsetenv("FIBERCL_SEED");
      EXPECT_EQ(read<cl_int>(counter, 1)[0], 6 * 50) << kind[0] << " seed '" << seed << "'";
    }
}

TEST_F(Primitives, SemaphoresAdmitAtMostTheirValue) {
  const char *source = R"CLC(
    #include <fibercl/primitives.h>
    kernel void sem(global SEM *s, global atomic_int *inside, global int *most, int value) {
      if (get_local_id(0) != 0)
        return;
      for (int i = 0; i < 20; ++i) {
        WAIT(s);
        int now = atomic_fetch_add_explicit(inside, 1, memory_order_relaxed, memory_scope_device) + 1;
        atomic_max((global int *)most, now);
        for (volatile int d = 0; d < 30; ++d)
          ;
        atomic_fetch_sub_explicit(inside, 1, memory_order_relaxed, memory_scope_device);
        POST(s);
      }
    }
    kernel void init(global SEM *s, int value) { INIT(s, value); })CLC";
  const char *kinds[][4] = {{"fibercl_spin_semaphore", "fibercl_spin_sem_wait",
                             "fibercl_spin_sem_post", "fibercl_spin_semaphore_init"},
                            {"fibercl_sleeping_semaphore", "fibercl_sleeping_sem_wait",
                             "fibercl_sleeping_sem_post", "fibercl_sleeping_semaphore_init"}};
  for (auto &kind : kinds) {
    std::string options = libraryOptions() + " -DSEM=" + kind[0] + " -DWAIT=" + kind[1] +
                          " -DPOST=" + kind[2] + " -DINIT=" + kind[3];
    cl_program p = build(source, options);
    cl_kernel init = kernel(p, "init"), sem = kernel(p, "sem");
    for (int value : {1, 2}) {
      cl_mem s = buffer(16);
      cl_mem inside = bufferFrom(std::vector<cl_int>{0});
      cl_mem most = bufferFrom(std::vector<cl_int>{0});
      setArgs(init, s, value);
      run(init, {1});
      setArgs(sem, s, inside, most, value);
      ASSERT_CL(tryRun(sem, {8 * 2}, {2})) << kind[0];
      int seen = read<cl_int>(most, 1)[0];
      EXPECT_LE(seen, value) << kind[0];
      EXPECT_GE(seen, 1) << kind[0];
    }
  }
}

TEST_F(Primitives, DeadlockReportNamesThePrimitiveAndItsAssumption) {
  SKIP_UNLESS_FIBERCL("deadlock reports");
  // Group 0 finishes holding the mutex: the others wait for ever.
  cl_kernel k = kernelFrom(R"CLC(
    #include <fibercl/primitives.h>
    kernel void forgets(global fibercl_spin_mutex *m) {
      if (get_local_id(0) == 0) {
        fibercl_spin_lock(m);
        if (get_group_id(0) != 0)
          fibercl_spin_unlock(m);
      }
    })CLC",
                           "forgets", "-cl-std=CL2.0");
  ScopedEnv env{{"FIBERCL_SEED", "1"}};
  cl_mem m = bufferFrom(std::vector<cl_int>{0});
  setArgs(k, m);
  testing::internal::CaptureStderr();
  tryRun(k, {4 * 4}, {4});
  std::string report = testing::internal::GetCapturedStderr();
  EXPECT_NE(report.find("deadlock in kernel 'forgets'"), std::string::npos) << report;
  EXPECT_NE(report.find("in fibercl_spin_lock [fibercl_spin_lock assumes: occupant-fair"),
            std::string::npos)
      << report;
}

} // namespace
} // namespace fcltest

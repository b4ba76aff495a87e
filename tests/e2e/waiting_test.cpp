// What "waiting" means to the deadlock detector (issue 27; DESIGN "Execution model"):
// a group waits only when an iteration of a loop that may spin comes back with the
// same state -- nothing written, the same values read at the same addresses, the same
// loop-carried values. Read-mostly scans inside a loop that waits are work, in every
// seed, at every bound, alone or not; real deadlocks of every shape are still reported,
// scans inside the waiting loop included.
#include <string>
#include <vector>

#include "cl_test.hpp"

namespace {

using namespace fcltest;

constexpr int kCells = 4096;

const char *kSource = R"CLC(
  #define ACQ memory_order_acquire, memory_scope_device
  #define REL memory_order_release, memory_scope_device
  #define RLX memory_order_relaxed, memory_scope_device

  // One group waits on a flag it sets itself after `sweeps` read-only scans of every
  // cell: between two writes, thousands of atomic reads at new addresses.
  kernel void lone_scan(global atomic_int *cells, global atomic_int *done, global int *out,
                        int sweeps) {
    if (get_local_id(0) != 0)
      return;
    int n = 0, sum = 0;
    while (atomic_load_explicit(done, ACQ) == 0) {
      for (int i = 0; i < 4096; ++i)
        sum += atomic_load_explicit(&cells[i], RLX);
      if (++n == sweeps)
        atomic_store_explicit(done, 1, REL);
    }
    out[get_group_id(0)] = sum;
  }

  // Group 0 scans read-only `sweeps` times, then releases the others; they scan the
  // cells inside the loop that waits for it (a read-mostly poll of many words).
  kernel void scan_until_released(global atomic_int *cells, global atomic_int *done,
                                  global int *out, int sweeps) {
    if (get_local_id(0) != 0)
      return;
    int sum = 0;
    if (get_group_id(0) == 0) {
      for (int s = 0; s < sweeps; ++s)
        for (int i = 0; i < 4096; ++i)
          sum += atomic_load_explicit(&cells[i], RLX);
      atomic_store_explicit(done, 1, REL);
    } else {
      do {
        sum = 0;
        for (int i = 0; i < 4096; ++i)
          sum += atomic_load_explicit(&cells[i], RLX);
      } while (atomic_load_explicit(done, ACQ) == 0);
    }
    out[get_group_id(0)] = sum;
  }

  // The same waiting loop with nobody to release it: a deadlock, whatever it reads.
  kernel void scan_forever(global atomic_int *cells, global atomic_int *done,
                           global int *out, int unused) {
    int sum = 0;
    while (atomic_load_explicit(done, ACQ) == 0) {
      sum = 0;
      for (int i = 0; i < 4096; ++i)
        sum += atomic_load_explicit(&cells[i], RLX);
    }
    out[get_group_id(0)] = sum;
  }

  // A spin that counts its tries (the count is used only after the loop) and one that
  // backs off (its delay is state until it reaches its cap): both wait for ever.
  kernel void count_tries_forever(global atomic_int *cells, global atomic_int *done,
                                  global int *out, int unused) {
    int tries = 0;
    while (atomic_load_explicit(done, ACQ) == 0)
      ++tries;
    out[get_group_id(0)] = tries;
  }
  kernel void backoff_forever(global atomic_int *cells, global atomic_int *done,
                              global int *out, int unused) {
    int delay = 1, sink = 0;
    while (atomic_load_explicit(done, ACQ) == 0) {
      for (int i = 0; i < delay; ++i)
        sink += i;
      delay = delay < 64 ? delay * 2 : 64;
    }
    out[get_group_id(0)] = sink;
  }
)CLC";

class Waiting : public CLTest {
protected:
  struct Outcome {
    cl_int status = CL_COMPLETE;
    std::string stderrText;
    std::vector<int> out;
  };

  // `groups` groups of 4 work-items of `name`; cells[i] = i.
  Outcome launch(const char *name, size_t groups, int sweeps) {
    cl_kernel k = kernelFrom(kSource, name, "-cl-std=CL2.0");
    std::vector<int> cells(kCells);
    for (int i = 0; i < kCells; ++i)
      cells[i] = i;
    cl_mem c = bufferFrom(cells), done = bufferFrom(std::vector<int>{0}),
           out = bufferFrom(std::vector<int>(groups, -1));
    setArgs(k, c, done, out, sweeps);
    Completion r = runReporting(k, {groups * 4}, {4});
    Outcome o{r.status, r.stderrText, {}};
    if (o.status == CL_COMPLETE)
      o.out = read<int>(out, groups);
    return o;
  }

  static std::string mode(const char *seed, const char *bound) {
    return std::string("seed ") + (*seed ? seed : "none (parallel)") + ", occupancy " + bound;
  }
};

constexpr int kSum = kCells * (kCells - 1) / 2;
const char *kSeeds[] = {"", "1", "2", "3", "4", "5", "6", "7", "8"};

TEST_F(Waiting, ALoneGroupScanningInsideItsWaitingLoopIsWorking) {
  SKIP_UNLESS_FIBERCL("deadlock detection");
  for (const char *bound : {"0", "1"})
    for (const char *seed : kSeeds) {
      ScopedEnv env{{"FIBERCL_SEED", seed},
                    {"FIBERCL_OCCUPANCY", bound},
                    {"FIBERCL_DEADLOCK_TIMEOUT", "0.2"}};
      if (!*seed)
        unsetenv("FIBERCL_SEED");
      Outcome o = launch("lone_scan", 1, 12);
      ASSERT_EQ(o.status, CL_COMPLETE) << mode(seed, bound) << "\n" << o.stderrText;
      EXPECT_EQ(o.out[0], 12 * kSum) << mode(seed, bound);
    }
}

TEST_F(Waiting, ReadMostlyScansWhileWaitingForAScanningGroupAreWorking) {
  SKIP_UNLESS_FIBERCL("deadlock detection");
  for (const char *bound : {"0", "1", "2", "4"})
    for (const char *seed : kSeeds) {
      ScopedEnv env{{"FIBERCL_SEED", seed},
                    {"FIBERCL_OCCUPANCY", bound},
                    {"FIBERCL_DEADLOCK_TIMEOUT", "0.2"}};
      if (!*seed)
        unsetenv("FIBERCL_SEED");
      Outcome o = launch("scan_until_released", 4, 10);
      ASSERT_EQ(o.status, CL_COMPLETE) << mode(seed, bound) << "\n" << o.stderrText;
      EXPECT_EQ(o.out, (std::vector<int>{10 * kSum, kSum, kSum, kSum})) << mode(seed, bound);
    }
}

// Each real deadlock, in seeded and parallel mode: reported, the command failed.
void expectDeadlock(const std::string &what, cl_int status, const std::string &text) {
  EXPECT_LT(status, 0) << what << "\n" << text;
  EXPECT_NE(text.find("FiberCL: deadlock"), std::string::npos) << what << "\n" << text;
}

TEST_F(Waiting, AScanInsideAWaitingLoopNobodyReleasesIsADeadlock) {
  SKIP_UNLESS_FIBERCL("deadlock detection");
  for (const char *seed : {"", "1", "2", "3"}) {
    ScopedEnv env{{"FIBERCL_SEED", seed}, {"FIBERCL_DEADLOCK_TIMEOUT", "0.5"}};
    if (!*seed)
      unsetenv("FIBERCL_SEED");
    Outcome o = launch("scan_forever", 2, 0);
    expectDeadlock("scan_forever, " + mode(seed, "0"), o.status, o.stderrText);
    // Released only by group 0, never admitted before group 1 finishes: bound 1,
    // reverse admission.
    ScopedEnv bound{{"FIBERCL_OCCUPANCY", "1"}, {"FIBERCL_ADMISSION", "reverse"}};
    o = launch("scan_until_released", 2, 1);
    expectDeadlock("scan_until_released, reverse, " + mode(seed, "1"), o.status, o.stderrText);
  }
}

TEST_F(Waiting, CountersThatDoNotChangeWhatTheLoopDoesAreNotProgress) {
  SKIP_UNLESS_FIBERCL("deadlock detection");
  for (const char *name : {"count_tries_forever", "backoff_forever"})
    for (const char *seed : {"", "1", "2"}) {
      ScopedEnv env{{"FIBERCL_SEED", seed}, {"FIBERCL_DEADLOCK_TIMEOUT", "0.5"}};
      if (!*seed)
        unsetenv("FIBERCL_SEED");
      Outcome o = launch(name, 2, 0);
      expectDeadlock(std::string(name) + ", " + mode(seed, "0"), o.status, o.stderrText);
    }
}

} // namespace

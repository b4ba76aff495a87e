// Cooperative kernels (<fibercl/cooperative.h>) under many schedules: programs written
// the way the paper's authors write them (rounds of strided work between resizing
// barriers, loop counters in `transmit` variables), run at occupancy bounds 1..8 in
// parallel mode and under many seeds, with the model's invariants checked inside the
// kernel and the results checked against the host:
//   - in each round between resizing barriers every active group sees the same
//     get_num_groups() M, with 1 <= M <= the bound, and exactly M groups (ids 0..M-1)
//     run the round;
//   - `transmit` variables of forked groups equal work-group 0's;
//   - groups leave only at resizing barriers (every round is run by M groups);
//   - the results equal the host's.
// CTest runs seeds 1..50 and 5 parallel runs at each bound; FIBERCL_COOP_SEEDS=n (or
// a..b), FIBERCL_COOP_BOUNDS=a..b and FIBERCL_COOP_PARALLEL=n choose others, and
// scripts/cooperative_seeds.sh runs the full check (200 seeds, 20 parallel runs).
//
// And multitasking: a short kernel enqueued on another queue right after the
// cooperative kernel's clFlush gets its slots at the next kill point.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "cl_test.hpp"

namespace fcltest {
namespace {

// Violation codes recorded by the kernels (first of each kind; viol[0] counts them).
enum : int {
  kBadM = 1,          // get_num_groups() outside [1, bound]
  kIdNotBelowM = 2,   // a group with id >= M runs a round
  kMDiffers = 3,      // group (a) did not see group 0's M in round (b), or ran past M
  kCountDiffers = 4,  // after the barrier: the groups that ran the round != M
  kTransmitWrong = 5, // a transmitted value differs from what group 0 holds
  kTransmitItem = 6,  // a forked work-item got another work-item's value than item 0's
};

// Rounds, each ending in a resizing barrier. Work-item 0 of each group counts its group
// in count[round] and records M; after the barrier every group checks the previous
// round's count against its M. `round` and a running hash of the rounds are transmitted;
// every work-item checks its copy against the hash recomputed from `round`.
const char *kRoundsSource = R"CLC(
  #include <fibercl/cooperative.h>
  #define MAX_GROUPS 16

  void violation(global atomic_int *viol, int code, int a, int b) {
    if (atomic_fetch_add(&viol[0], 1) == 0) {
      atomic_store(&viol[1], code);
      atomic_store(&viol[2], a);
      atomic_store(&viol[3], b);
    }
  }

  ulong hash_to(int r) {
    ulong h = 1469598103934665603ul;
    for (int i = 0; i < r; ++i)
      h = (h ^ (ulong)i) * 1099511628211ul;
    return h;
  }

  kernel void rounds(int rounds, int bound, global atomic_int *count,
                     global atomic_int *m_of, global atomic_int *viol,
                     global atomic_int *m_seen, global int *mark) {
    transmit int round = 0;
    transmit ulong h = 1469598103934665603ul;
    // Differs between work-items: a forked group's work-items all get work-item 0's.
    transmit int lid = (int)get_local_id(0);
    while (round < rounds) {
      int m = (int)get_num_groups(0);
      int g = (int)get_group_id(0);
      if (h != hash_to(round))
        violation(viol, 5, g, round);
      if (lid != (int)get_local_id(0) && lid != 0)
        violation(viol, 6, g, lid);
      if (get_local_id(0) == 0) {
        if (m < 1 || m > bound)
          violation(viol, 1, m, round);
        if (g >= m)
          violation(viol, 2, g, round);
        atomic_fetch_add(&count[round], 1);
        if (g < MAX_GROUPS)
          atomic_store(&m_seen[round * MAX_GROUPS + g], m);
        if (g == 0)
          atomic_store(&m_of[round], m);
        if (round > 0) {
          // The previous round is complete: exactly its M groups, 0..M-1, ran it, and
          // each saw M.
          int before = atomic_load(&m_of[round - 1]);
          int counted = atomic_load(&count[round - 1]);
          if (counted != before)
            violation(viol, 4, counted, round - 1);
          for (int o = 0; o < MAX_GROUPS; ++o) {
            int seen = atomic_load(&m_seen[(round - 1) * MAX_GROUPS + o]);
            if (seen != (o < before ? before : 0))
              violation(viol, 3, o, round - 1);
          }
        }
      }
      // Every work-item marks its slots of this round (the results).
      int stride = (int)get_global_size(0);
      for (int i = (int)get_global_id(0); i < 64; i += stride)
        mark[round * 64 + i] += 1;
      resizing_global_barrier();
      h = (h ^ (ulong)round) * 1099511628211ul;
      round++;
    }
  })CLC";

// Integer relaxation over n cells: each sweep computes dst from src over the cells
// partitioned by get_global_id / get_global_size, then a resizing barrier, and the two
// swap (Figure 4 of the paper). The sweep counter and the pointers are transmitted.
const char *kRelaxSource = R"CLC(
  #include <fibercl/cooperative.h>
  kernel void relax(global int *a, global int *b, int n, int sweeps, int bound,
                    global atomic_int *viol) {
    transmit int sweep = 0;
    transmit global int *src = a;
    transmit global int *dst = b;
    while (sweep < sweeps) {
      int m = (int)get_num_groups(0);
      if (get_local_id(0) == 0 && (m < 1 || m > bound || (int)get_group_id(0) >= m))
        if (atomic_fetch_add(&viol[0], 1) == 0) {
          atomic_store(&viol[1], 1);
          atomic_store(&viol[2], m);
          atomic_store(&viol[3], sweep);
        }
      int stride = (int)get_global_size(0);
      for (int i = (int)get_global_id(0); i < n; i += stride) {
        int l = i > 0 ? src[i - 1] : src[n - 1];
        int r = i + 1 < n ? src[i + 1] : src[0];
        dst[i] = (l + 2 * src[i] + r + sweep) / 4 + (i % 7);
      }
      resizing_global_barrier();
      global int *t = src;
      src = dst;
      dst = t;
      sweep++;
    }
  })CLC";

std::vector<int> relaxOnHost(std::vector<int> a, int sweeps) {
  const int n = int(a.size());
  std::vector<int> b(n);
  for (int s = 0; s < sweeps; ++s) {
    const std::vector<int> &src = (s & 1) ? b : a;
    std::vector<int> &dst = (s & 1) ? a : b;
    for (int i = 0; i < n; ++i) {
      int l = i > 0 ? src[i - 1] : src[n - 1];
      int r = i + 1 < n ? src[i + 1] : src[0];
      dst[i] = (l + 2 * src[i] + r + s) / 4 + (i % 7);
    }
  }
  return (sweeps & 1) ? b : a;
}

// FIBERCL_COOP_SEEDS: "n" (seeds 1..n) or "a..b"; FIBERCL_COOP_BOUNDS "a..b" (default
// 1..8).
std::pair<int, int> rangeFromEnv(const char *name, std::pair<int, int> fallback) {
  const char *s = std::getenv(name);
  if (!s || !*s)
    return fallback;
  std::string v = s;
  size_t dots = v.find("..");
  if (dots == std::string::npos)
    return {fallback.first, std::atoi(v.c_str())};
  return {std::atoi(v.substr(0, dots).c_str()), std::atoi(v.substr(dots + 2).c_str())};
}

// FIBERCL_COOP_PARALLEL: runs in parallel mode (no seed) per bound.
int parallelRuns() {
  const char *s = std::getenv("FIBERCL_COOP_PARALLEL");
  return s && *s ? std::atoi(s) : 5;
}

class CooperativeSeeds : public CLTest {
protected:
  static constexpr int kGroups = 16, kLocal = 4;
  // Seeds per bound in CTest (a few seconds); the full check runs 200.
  static constexpr int kCTestSeeds = 50;
  static constexpr int kRounds = 24;
  // Per bound: the group counts M seen in some round (bit M).
  unsigned groupCounts_[9] = {};

  // One launch of `rounds`; "" = parallel mode. Returns a description of what went
  // wrong ("" if nothing).
  std::string runRounds(cl_kernel k, int bound, const std::string &seed) {
    const int rounds = kRounds;
    ScopedEnv env{{"FIBERCL_OCCUPANCY", std::to_string(bound)}, {"FIBERCL_DEADLOCK_TIMEOUT", "20"}};
    if (!seed.empty())
      setenv("FIBERCL_SEED", seed.c_str(), 1);
    cl_mem count = bufferFrom(std::vector<cl_int>(rounds, 0));
    cl_mem mOf = bufferFrom(std::vector<cl_int>(rounds, 0));
    cl_mem viol = bufferFrom(std::vector<cl_int>(4, 0));
    cl_mem mSeen = bufferFrom(std::vector<cl_int>(rounds * kGroups, 0));
    cl_mem mark = bufferFrom(std::vector<cl_int>(rounds * 64, 0));
    setArgs(k, rounds, bound, count, mOf, viol, mSeen, mark);
    Completion c = runReporting(k, {size_t(kGroups * kLocal)}, {size_t(kLocal)});
    unsetenv("FIBERCL_SEED");
    std::string where =
        "bound " + std::to_string(bound) + (seed.empty() ? ", parallel" : ", seed " + seed) + ": ";
    if (c.status != CL_COMPLETE)
      return where + "status " + std::to_string(c.status) + "\n" + c.stderrText;
    std::vector<cl_int> v = read<cl_int>(viol, 4);
    if (v[0])
      return where + std::to_string(v[0]) + " violation(s), first: code " + std::to_string(v[1]) +
             " (" + std::to_string(v[2]) + ", " + std::to_string(v[3]) + ")";
    std::vector<cl_int> cnt = read<cl_int>(count, rounds), m = read<cl_int>(mOf, rounds);
    std::vector<cl_int> mk = read<cl_int>(mark, rounds * 64);
    std::vector<cl_int> ms = read<cl_int>(mSeen, rounds * kGroups);
    for (int r = 0; r < rounds; ++r)
      if (m[r] >= 1 && m[r] <= 8)
        groupCounts_[bound] |= 1u << m[r];
    for (int r = 0; r < rounds; ++r) {
      if (cnt[r] != m[r] || m[r] < 1 || m[r] > bound)
        return where + "round " + std::to_string(r) + " counted " + std::to_string(cnt[r]) +
               " groups, M " + std::to_string(m[r]);
      for (int g = 0; g < kGroups; ++g)
        if (ms[r * kGroups + g] != (g < m[r] ? m[r] : 0))
          return where + "round " + std::to_string(r) + ": group " + std::to_string(g) + " saw M " +
                 std::to_string(ms[r * kGroups + g]) + ", group 0 " + std::to_string(m[r]);
      for (int i = 0; i < 64; ++i)
        if (mk[r * 64 + i] != 1)
          return where + "round " + std::to_string(r) + " slot " + std::to_string(i) + " marked " +
                 std::to_string(mk[r * 64 + i]) + " times";
    }
    return "";
  }

  std::string runRelax(cl_kernel k, int bound, const std::string &seed,
                       const std::vector<int> &init, const std::vector<int> &expected, int sweeps) {
    const int n = int(init.size());
    ScopedEnv env{{"FIBERCL_OCCUPANCY", std::to_string(bound)}, {"FIBERCL_DEADLOCK_TIMEOUT", "20"}};
    if (!seed.empty())
      setenv("FIBERCL_SEED", seed.c_str(), 1);
    cl_mem a = bufferFrom(init), b = bufferFrom(std::vector<cl_int>(n, 0));
    cl_mem viol = bufferFrom(std::vector<cl_int>(4, 0));
    setArgs(k, a, b, n, sweeps, bound, viol);
    Completion c = runReporting(k, {size_t(kGroups * kLocal)}, {size_t(kLocal)});
    unsetenv("FIBERCL_SEED");
    std::string where =
        "bound " + std::to_string(bound) + (seed.empty() ? ", parallel" : ", seed " + seed) + ": ";
    if (c.status != CL_COMPLETE)
      return where + "status " + std::to_string(c.status) + "\n" + c.stderrText;
    std::vector<cl_int> v = read<cl_int>(viol, 4);
    if (v[0])
      return where + std::to_string(v[0]) + " violation(s), first: M " + std::to_string(v[2]) +
             " in sweep " + std::to_string(v[3]) + "\n" + c.stderrText;
    std::vector<cl_int> out = read<cl_int>((sweeps & 1) ? b : a, n);
    int wrong = 0;
    for (int i = 0; i < n; ++i)
      wrong += out[i] != expected[i];
    if (wrong)
      return where + std::to_string(wrong) + " of " + std::to_string(n) +
             " cells differ from the host's";
    return "";
  }
};

TEST_F(CooperativeSeeds, RoundsResizingAtEveryBarrierKeepTheInvariants) {
  SKIP_UNLESS_FIBERCL("cooperative kernels under seeds");
  cl_kernel k = kernelFrom(kRoundsSource, "rounds", "-cl-std=CL2.0");
  const auto [seed0, seed1] = rangeFromEnv("FIBERCL_COOP_SEEDS", {1, kCTestSeeds});
  const auto [bound0, bound1] = rangeFromEnv("FIBERCL_COOP_BOUNDS", {1, 8});
  const int parallel = parallelRuns();
  int runs = 0, failed = 0;
  std::string first;
  for (int bound = bound0; bound <= bound1; ++bound)
    for (int s = -parallel; s <= seed1; ++s) {
      if (s == 0)
        continue;
      if (s > 0 && s < seed0)
        s = seed0;
      std::string what = runRounds(k, bound, s > 0 ? std::to_string(s) : std::string());
      ++runs;
      if (!what.empty() && failed++ == 0)
        first = what;
    }
  std::printf("%d runs (bounds %d..%d x seeds %d..%d and %d parallel runs each), %d failed\n", runs,
              bound0, bound1, seed0, seed1, parallel, failed);
  EXPECT_EQ(failed, 0) << failed << " of " << runs << " runs failed; first: " << first;
  // The seeds explore: with 12 or more of them, every M from 1 to the bound occurs.
  if (seed1 - seed0 >= 11)
    for (int bound = bound0; bound <= bound1; ++bound)
      EXPECT_EQ(groupCounts_[bound], ((2u << bound) - 1) & ~1u)
          << "bound " << bound << ": the rounds ran with group counts (bits) "
          << groupCounts_[bound];
}

TEST_F(CooperativeSeeds, RelaxationWithTransmittedSweepCounterEqualsTheHost) {
  SKIP_UNLESS_FIBERCL("cooperative kernels under seeds");
  cl_kernel k = kernelFrom(kRelaxSource, "relax", "-cl-std=CL2.0");
  const int n = 1000, sweeps = 21;
  std::vector<int> init(n);
  for (int i = 0; i < n; ++i)
    init[i] = (i * 7919) % 1009 - 300;
  const std::vector<int> expected = relaxOnHost(init, sweeps);
  const auto [seed0, seed1] = rangeFromEnv("FIBERCL_COOP_SEEDS", {1, kCTestSeeds});
  const auto [bound0, bound1] = rangeFromEnv("FIBERCL_COOP_BOUNDS", {1, 8});
  const int parallel = parallelRuns();
  int runs = 0, failed = 0;
  std::string first;
  for (int bound = bound0; bound <= bound1; ++bound)
    for (int s = -parallel; s <= seed1; ++s) {
      if (s == 0)
        continue;
      if (s > 0 && s < seed0)
        s = seed0;
      std::string what =
          runRelax(k, bound, s > 0 ? std::to_string(s) : std::string(), init, expected, sweeps);
      ++runs;
      if (!what.empty() && failed++ == 0)
        first = what;
    }
  std::printf("%d runs (bounds %d..%d x seeds %d..%d and %d parallel runs each), %d failed\n", runs,
              bound0, bound1, seed0, seed1, parallel, failed);
  EXPECT_EQ(failed, 0) << failed << " of " << runs << " runs failed; first: " << first;
}

} // namespace
} // namespace fcltest

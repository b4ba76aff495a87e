// Sub-groups as vectors (compiler/src/passes/sub_group_vectors.cpp): a kernel whose
// collectives all have a vector form gets a copy where each sub-group is one vector of
// the work-item loop, and the runtime runs it when its rows of work-items are whole
// sub-groups. These tests check that the copy is made (FIBERCL_DEBUG=vectorize says so),
// and that with it and without it (FIBERCL_SUBGROUP_VECTORS=0: the slots) every result
// is the host's: reductions (floats in lane order), broadcasts, votes, a sub-group
// barrier over __local memory, atomics taken in lane order -- at every size, in groups
// with a partial sub-group, in 2-D groups whose rows are and are not whole sub-groups,
// and at a non-uniform edge.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "sub_groups_support.hpp"

namespace {

using namespace fcltest::subgroups;
using fcltest::Local;
using fcltest::ScopedEnv;

const char *kVectorSrc = R"CLC(
SG_ATTR __kernel void vec(__global const T* in, __global T* out, __global int* votes,
                          __global uint* order, __global uint* counter, __local T* tmp) {
  size_t g = get_global_linear_id(), n = get_global_size(0) * get_global_size(1);
  uint lid = get_local_linear_id(), lane = get_sub_group_local_id();
  uint first = lid - lane, size = get_sub_group_size();
  T x = in[g];
  out[0 * n + g] = sub_group_reduce_add(x);
  out[1 * n + g] = sub_group_reduce_min(x);
  out[2 * n + g] = sub_group_reduce_max(x);
  out[3 * n + g] = sub_group_broadcast(x, size - 1);
  // The next lane's value, through __local memory and a sub-group barrier.
  tmp[lid] = x;
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[4 * n + g] = tmp[first + (lane + 1) % size];
  votes[0 * n + g] = sub_group_any(x == (T)7);
  votes[1 * n + g] = sub_group_all(x > (T)-1000);
  order[g] = atomic_inc(counter);
})CLC";

template <typename T> std::vector<T> vectorInputs(size_t n) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<T, cl_int>)
      v[i] = cl_int((i * 7919) % 1999) - 999;
    else if constexpr (std::is_same_v<T, cl_uint>)
      v[i] = cl_uint(i * 2654435761u + 12345u);
    else if constexpr (std::is_same_v<T, cl_long>)
      v[i] = (cl_long((i * 40503) % 1001) - 500) * 4294967311LL;
    else // not integers: the sum's rounding depends on the order
      v[i] = T(cl_int((i * 37) % 201) - 100) / T(3) + T(0.1);
  }
  return v;
}

// Bit for bit: the sums of floats must be the lane-order ones.
template <typename T> bool sameBits(T a, T b) { return std::memcmp(&a, &b, sizeof a) == 0; }

class SubGroupVectors : public SubGroupTest,
                        public ::testing::WithParamInterface<std::tuple<cl_uint, const char *>> {
protected:
  template <typename T> void runAll();
  // Builds `src` (never from the cache) and returns FIBERCL_DEBUG=vectorize's output.
  cl_program buildAndReport(cl_uint S, const std::string &src, std::string &report) {
    ScopedEnv env({{"FIBERCL_DEBUG", "vectorize"}});
    ::testing::internal::CaptureStderr();
    cl_program p = programAt(S, SizeFrom::Attribute, src + freshTag());
    report = ::testing::internal::GetCapturedStderr();
    return p;
  }
};

template <typename T> void SubGroupVectors::runAll() {
  const auto [S, type] = GetParam();
  std::string report;
  cl_program p = buildAndReport(S, std::string("#define T ") + type + "\n" + kVectorSrc, report);
  ASSERT_NE(p, nullptr);
  if (isFiberCL()) {
    EXPECT_NE(report.find("kernel 'vec': sub-groups as vectors"), std::string::npos) << report;
    EXPECT_EQ(report.find(".sgvec: dropped"), std::string::npos) << report;
  }
  cl_kernel k = kernel(p, "vec");
  struct Shape {
    const char *what;
    std::vector<size_t> global, local;
  };
  const Shape shapes[] = {
      {"1-D, a partial sub-group", {3 * (2 * S + 3)}, {2 * S + 3}},
      {"2-D, rows of whole sub-groups", {4 * S, 6}, {2 * S, 3}},
      {"2-D, rows across sub-groups (the slots)", {6, 10}, {3, 5}},
      {"1-D, a non-uniform edge", {5 * S + 7}, {2 * S}},
  };
  for (const Shape &s : shapes)
    for (const char *vectors : {"1", "0"}) {
      SCOPED_TRACE(std::string(s.what) + ", FIBERCL_SUBGROUP_VECTORS=" + vectors);
      ScopedEnv env({{"FIBERCL_SUBGROUP_VECTORS", vectors}});
      Layout L = layoutOf(s.global, s.local, S);
      const size_t n = L.items.size();
      std::vector<T> in = vectorInputs<T>(n);
      for (T &v : in)
        if (v == T(7))
          v = T(8);
      for (size_t j = 0; j < L.subGroups.size(); ++j) {
        if (j % 3 == 0)
          in[L.subGroups[j].back()] = T(7);
        if (j % 4 == 1)
          in[L.subGroups[j].front()] = T(-1000);
      }
      size_t localItems = s.local[0] * (s.local.size() > 1 ? s.local[1] : 1);
      cl_mem din = bufferFrom(in), dout = buffer(5 * n * sizeof(T)),
             votes = bufferFrom(std::vector<cl_int>(2 * n, -1)),
             order = bufferFrom(std::vector<cl_uint>(n, 0xFFFFFFFFu)),
             counter = bufferFrom(std::vector<cl_uint>(1, 0));
      setArgs(k, din, dout, votes, order, counter, Local{localItems * sizeof(T)});
      run(k, s.global, s.local);
      std::vector<T> out = read<T>(dout, 5 * n);
      std::vector<cl_int> b = read<cl_int>(votes, 2 * n);
      std::vector<cl_uint> o = read<cl_uint>(order, n);
      Mismatches m;
      for (const std::vector<size_t> &sg : L.subGroups) {
        T sum = in[sg[0]], mn = in[sg[0]], mx = in[sg[0]];
        bool any = false, all = true;
        for (size_t lane = 0; lane < sg.size(); ++lane) {
          T v = in[sg[lane]];
          if (lane)
            sum = T(sum + v);
          mn = v < mn ? v : mn;
          mx = v > mx ? v : mx;
          any |= v == T(7);
          all &= v > T(-1000);
        }
        for (size_t lane = 0; lane < sg.size(); ++lane) {
          const size_t g = sg[lane];
          m.eq(sameBits(out[g], sum), true, "sub_group_reduce_add, in lane order", g);
          m.eq(out[n + g], mn, "sub_group_reduce_min", g);
          m.eq(out[2 * n + g], mx, "sub_group_reduce_max", g);
          m.eq(out[3 * n + g], in[sg.back()], "sub_group_broadcast(x, size - 1)", g);
          m.eq(out[4 * n + g], in[sg[(lane + 1) % sg.size()]],
               "the next lane's value through __local memory", g);
          m.truth(b[g], any, "sub_group_any(x == 7)", g);
          m.truth(b[n + g], all, "sub_group_all(x > -1000)", g);
          // One group runs on one thread: its work-items take the counter in lane order.
          if (lane)
            m.eq(o[g] > o[sg[lane - 1]], true, "atomic_inc after the lane before", g);
        }
      }
      std::vector<bool> seen(n, false);
      for (cl_uint v : o)
        if (v < n)
          seen[v] = true;
      EXPECT_EQ(std::count(seen.begin(), seen.end(), true), ptrdiff_t(n))
          << "atomic_inc's old values are not 0..n-1";
      EXPECT_EQ(read<cl_uint>(counter, 1)[0], cl_uint(n));
    }
}

TEST_P(SubGroupVectors, MatchTheHostWithAndWithoutTheCopy) {
  const auto [S, type] = GetParam();
  SKIP_UNLESS_SIZE(S, SizeFrom::Attribute);
  const std::string t = type;
  if (t == "int")
    runAll<cl_int>();
  else if (t == "uint")
    runAll<cl_uint>();
  else if (t == "long")
    runAll<cl_long>();
  else if (t == "float")
    runAll<cl_float>();
  else {
    SKIP_UNLESS_EXTENSION("cl_khr_fp64");
    runAll<cl_double>();
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, SubGroupVectors,
                         ::testing::Combine(::testing::Values(4u, 8u, 16u, 32u, 64u),
                                            ::testing::Values("int", "uint", "long", "float",
                                                              "double")),
                         [](const ::testing::TestParamInfo<std::tuple<cl_uint, const char *>> &i) {
                           return "S" + std::to_string(std::get<0>(i.param)) + "_" +
                                  std::get<1>(i.param);
                         });

class SubGroupVectorChoice : public SubGroupTest {
protected:
  std::string reportFor(const std::string &src) {
    ScopedEnv env({{"FIBERCL_DEBUG", "vectorize"}});
    ::testing::internal::CaptureStderr();
    cl_program p = programAt(16, SizeFrom::Attribute, src + freshTag());
    std::string report = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(p, nullptr);
    return report;
  }
};

// A collective inside a loop of the work-item (the masked vectoriser's inner-loop path):
// every iteration reduces over the sub-group, and a lane that leaves the loop early
// takes no part in the later iterations' votes.
TEST_F(SubGroupVectorChoice, CollectivesInsideALoop) {
  const cl_uint S = 16;
  std::string report;
  cl_program p;
  {
    ScopedEnv env({{"FIBERCL_DEBUG", "vectorize"}});
    ::testing::internal::CaptureStderr();
    p = programAt(S, SizeFrom::Attribute, R"CLC(
SG_ATTR __kernel void loop(__global const int* in, __global int* out, __global int* votes) {
  size_t g = get_global_id(0);
  int x = in[g], acc = 0;
  for (int i = 0; i < 4; ++i)
    acc += sub_group_reduce_max(x + i * (int)get_sub_group_local_id());
  out[g] = acc;
  // Lane j stays for j + 1 iterations: at iteration i, lanes i.. are active.
  int seen = 0;
  for (uint i = 0; i <= get_sub_group_local_id(); ++i)
    seen += sub_group_all(1) + 10 * sub_group_any(get_sub_group_local_id() == i);
  votes[g] = seen;
})CLC" + freshTag());
    report = ::testing::internal::GetCapturedStderr();
  }
  ASSERT_NE(p, nullptr);
  if (isFiberCL()) {
    EXPECT_NE(report.find("kernel 'loop': sub-groups as vectors"), std::string::npos) << report;
    EXPECT_EQ(report.find(".sgvec: dropped"), std::string::npos) << report;
  }
  cl_kernel k = kernel(p, "loop");
  const size_t local = 3 * S + 5, n = 2 * local;
  Layout L = layoutOf({n}, {local}, S);
  std::vector<cl_int> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = cl_int((i * 7919) % 201) - 100;
  for (const char *vectors : {"1", "0"}) {
    SCOPED_TRACE(std::string("FIBERCL_SUBGROUP_VECTORS=") + vectors);
    ScopedEnv env({{"FIBERCL_SUBGROUP_VECTORS", vectors}});
    cl_mem din = bufferFrom(in), dout = buffer(n * sizeof(cl_int)),
           dvotes = buffer(n * sizeof(cl_int));
    setArgs(k, din, dout, dvotes);
    run(k, {n}, {local});
    std::vector<cl_int> out = read<cl_int>(dout, n), votes = read<cl_int>(dvotes, n);
    Mismatches m;
    for (const std::vector<size_t> &sg : L.subGroups)
      for (size_t lane = 0; lane < sg.size(); ++lane) {
        cl_int acc = 0;
        for (cl_int i = 0; i < 4; ++i) {
          cl_int mx = std::numeric_limits<cl_int>::min();
          for (size_t j = 0; j < sg.size(); ++j)
            mx = std::max(mx, in[sg[j]] + i * cl_int(j));
          acc += mx;
        }
        m.eq(out[sg[lane]], acc, "sum of sub_group_reduce_max over the loop", sg[lane]);
        // Iteration i (0..lane): all() is 1; any(lane == i) is 1 (lane i is active).
        m.eq(votes[sg[lane]], cl_int(11 * (lane + 1)), "votes in a shrinking loop", sg[lane]);
      }
  }
}

// What keeps the slots, said by FIBERCL_DEBUG=vectorize: a function without a vector
// form, a work-group barrier, a loop that may wait for another sub-group.
TEST_F(SubGroupVectorChoice, KernelsThatNeedTheSlotsKeepThem) {
  if (!isFiberCL())
    GTEST_SKIP() << "FIBERCL_DEBUG is FiberCL's";
  EXPECT_NE(reportFor("SG_ATTR __kernel void k(__global int* p) {\n"
                      "  p[get_global_id(0)] = sub_group_reduce_add(1) +\n"
                      "                        sub_group_scan_inclusive_add(1);\n}\n")
                .find("kernel 'k': sub-groups through slots: a sub-group function without a "
                      "vector form"),
            std::string::npos);
  EXPECT_NE(reportFor("SG_ATTR __kernel void k(__global int* p) {\n"
                      "  int s = sub_group_reduce_add(p[get_global_id(0)]);\n"
                      "  barrier(CLK_GLOBAL_MEM_FENCE);\n  p[get_global_id(0)] = s;\n}\n")
                .find("sub-groups through slots: a work-group barrier"),
            std::string::npos);
  EXPECT_NE(reportFor("SG_ATTR __kernel void k(__global int* p, volatile __local int* f) {\n"
                      "  if (get_sub_group_id() == 0) while (atomic_add(f, 0) == 0) {}\n"
                      "  p[get_global_id(0)] = sub_group_reduce_add(1);\n}\n")
                .find("sub-groups through slots: a loop with atomic or volatile accesses"),
            std::string::npos);
}

} // namespace

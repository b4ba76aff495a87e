// Sub-groups (OpenCL C 3.0 s6.15.16, cl_khr_subgroups, cl_intel_required_subgroup_size)
// against the host: a sub-group is S consecutive work-items in local linear id order,
// the last one of a work-group partial; S is the kernel's intel_reqd_sub_group_size, else
// FIBERCL_SUBGROUP_SIZE when the program was built, else the host's vector width.
// Layout and API queries in 1-3 dimensions and non-uniform groups; the core collectives
// for int, uint, long and float; sub_group_barrier ordering __local memory; collectives
// in code that diverges per sub-group; both barrier paths and a seeded schedule; a
// kernel that assumes 32 lanes. The cl_khr_subgroup_* extensions: sub_groups_khr_test.cpp.
#include <climits>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <tuple>

#include "sub_groups_support.hpp"

namespace fcltest {
namespace {

using namespace subgroups;

// --- Layout and queries ----------------------------------------------------------------

class SubGroupLayout : public SubGroupTest,
                       public ::testing::WithParamInterface<std::tuple<cl_uint, SizeFrom>> {};

const char *kLayoutSrc = R"CLC(
SG_ATTR __kernel void layout(__global uint* out) {
  __global uint* o = out + 7 * get_global_linear_id();
  o[0] = get_sub_group_size();
  o[1] = get_sub_group_id();
  o[2] = get_sub_group_local_id();
  o[3] = get_num_sub_groups();
  o[4] = get_max_sub_group_size();
  o[5] = get_enqueued_num_sub_groups();
  o[6] = (uint)get_local_linear_id();
})CLC";

// What every work-item reports of its sub-group, in 1, 2 and 3 dimensions, with group
// sizes that are and are not multiples of S (and smaller than S), and non-uniform
// launches (the edge groups smaller); clGetKernelSubGroupInfo agrees for each local size.
TEST_P(SubGroupLayout, KernelAndQueriesAgreeWithTheHost) {
  const auto [S, how] = GetParam();
  SKIP_UNLESS_SIZE(S, how);
  cl_kernel k = kernelAt(S, how, kLayoutSrc, "layout");
  struct Shape {
    std::vector<size_t> global, local;
    const char *what;
  };
  const std::vector<Shape> shapes = {
      {{6 * S}, {2 * S}, "1-D, groups of 2S"},
      {{3 * (2 * S + 1)}, {2 * S + 1}, "1-D, groups of 2S+1"},
      {{12}, {3}, "1-D, groups of 3"},
      {{10, 14}, {5, 7}, "2-D, groups of 5x7"},
      {{6, 8, 10}, {3, 4, 5}, "3-D, groups of 3x4x5"},
      {{4, 2, 2 * S}, {2, 2, S}, "3-D, groups of 2x2xS"},
      {{100}, {24}, "1-D non-uniform: 100 in groups of 24"},
      {{7, 5, 3}, {4, 2, 2}, "3-D non-uniform: 7x5x3 in groups of 4x2x2"},
  };
  for (const Shape &s : shapes) {
    SCOPED_TRACE(std::string(s.what) + ", S=" + std::to_string(S));
    Layout L = layoutOf(s.global, s.local, S);
    const size_t n = L.items.size();
    cl_mem out = bufferFrom(std::vector<cl_uint>(7 * n, 0xdeadbeef));
    setArgs(k, out);
    run(k, s.global, s.local);
    std::vector<cl_uint> got = read<cl_uint>(out, 7 * n);
    Mismatches m;
    for (const Item &it : L.items) {
      const cl_uint *o = &got[7 * it.global];
      m.eq(o[0], it.size, "get_sub_group_size", it.global);
      m.eq(o[1], it.subGroup, "get_sub_group_id", it.global);
      m.eq(o[2], it.lane, "get_sub_group_local_id", it.global);
      m.eq(o[3], it.count, "get_num_sub_groups", it.global);
      m.eq(o[4], it.maxSize, "get_max_sub_group_size", it.global);
      m.eq(o[5], it.enqueuedCount, "get_enqueued_num_sub_groups", it.global);
      m.eq(o[6], it.localLinear, "get_local_linear_id", it.global);
    }
    size_t items = 1;
    for (size_t l : s.local)
      items *= l;
    EXPECT_EQ(subGroupInfo(k, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, s.local),
              std::min<size_t>(S, items));
    EXPECT_EQ(subGroupInfo(k, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, s.local), ceilDiv(items, S));
    // The queries and the kernel agree (the first work-item is in a full-size group).
    EXPECT_EQ(subGroupInfo(k, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, s.local), size_t(got[4]));
    EXPECT_EQ(subGroupInfo(k, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, s.local), size_t(got[3]));
  }
}

// The queries that take no local size, and CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
// whose answers launch with the sub-group count asked for.
TEST_P(SubGroupLayout, KernelQueriesFollowTheSize) {
  const auto [S, how] = GetParam();
  SKIP_UNLESS_SIZE(S, how);
  cl_kernel k = kernelAt(S, how, kLayoutSrc, "layout");
  size_t kwg = 0;
  ASSERT_CL(
      clGetKernelWorkGroupInfo(k, device_, CL_KERNEL_WORK_GROUP_SIZE, sizeof kwg, &kwg, nullptr));
  const size_t maxNum = subGroupInfo(k, CL_KERNEL_MAX_NUM_SUB_GROUPS);
  EXPECT_EQ(maxNum, ceilDiv(kwg, S)) << "CL_KERNEL_WORK_GROUP_SIZE " << kwg;
  EXPECT_EQ(subGroupInfo(k, CL_KERNEL_COMPILE_NUM_SUB_GROUPS), 0u);
  cl_uint deviceMax = 0;
  ASSERT_CL(clGetDeviceInfo(device_, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof deviceMax, &deviceMax,
                            nullptr));
  EXPECT_GE(size_t(deviceMax), maxNum) << "CL_DEVICE_MAX_NUM_SUB_GROUPS below the kernel's";
  if (hasExtension("cl_intel_required_subgroup_size")) {
    size_t compiled = SIZE_MAX;
    ASSERT_CL(clGetKernelSubGroupInfo(k, device_, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0,
                                      nullptr, sizeof compiled, &compiled, nullptr));
    EXPECT_EQ(compiled, how == SizeFrom::Attribute ? size_t(S) : 0u);
  }

  for (size_t count : {size_t(1), size_t(3), maxNum}) {
    SCOPED_TRACE("sub-group count " + std::to_string(count));
    for (size_t dims = 1; dims <= 3; ++dims) {
      std::vector<size_t> local(dims, SIZE_MAX);
      ASSERT_CL(clGetKernelSubGroupInfo(k, device_, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                        sizeof count, &count, dims * sizeof(size_t), local.data(),
                                        nullptr));
      size_t items = 1;
      for (size_t l : local)
        items *= l;
      ASSERT_GT(items, 0u) << dims << " dimensions: no local size for " << count;
      EXPECT_LE(items, kwg) << dims << " dimensions";
      EXPECT_EQ(subGroupInfo(k, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, local), count)
          << dims << " dimensions, " << items << " work-items";
      if (dims == 1 && count == 3) { // and a group of that size has 3 sub-groups
        cl_mem out = buffer(7 * items * sizeof(cl_uint));
        setArgs(k, out);
        run(k, local, local);
        EXPECT_EQ(read<cl_uint>(out, 7)[3], 3u) << "get_num_sub_groups, local size " << items;
      }
    }
  }
  // More sub-groups than any work-group of this kernel has: zeros.
  size_t tooMany = maxNum + 1;
  std::vector<size_t> local(3, SIZE_MAX);
  ASSERT_CL(clGetKernelSubGroupInfo(k, device_, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                    sizeof tooMany, &tooMany, 3 * sizeof(size_t), local.data(),
                                    nullptr));
  EXPECT_EQ(local, std::vector<size_t>(3, 0));
}

std::string sizeAndSourceName(const ::testing::TestParamInfo<std::tuple<cl_uint, SizeFrom>> &i) {
  return "S" + std::to_string(std::get<0>(i.param)) + "_" + nameOf(std::get<1>(i.param));
}

INSTANTIATE_TEST_SUITE_P(Sizes, SubGroupLayout,
                         ::testing::Combine(::testing::Values(4u, 8u, 16u, 32u, 64u),
                                            ::testing::Values(SizeFrom::Attribute,
                                                              SizeFrom::Environment)),
                         sizeAndSourceName);

// --- Where S comes from ----------------------------------------------------------------

class SubGroupSize : public SubGroupTest {};

const char *kWidthSrc = R"CLC(
__kernel void width(__global uint* out) {
  out[get_global_id(0)] = get_max_sub_group_size();
})CLC";

TEST_F(SubGroupSize, DeviceReportsTheSizesAndExtensions) {
  SKIP_UNLESS_FIBERCL("FiberCL's sub-group sizes");
  EXPECT_EQ(requirableSizes(), (std::vector<size_t>{4, 8, 16, 32, 64}));
  for (const char *ext : {"cl_khr_subgroups", "cl_khr_subgroup_extended_types",
                          "cl_khr_subgroup_non_uniform_vote", "cl_khr_subgroup_ballot",
                          "cl_khr_subgroup_non_uniform_arithmetic", "cl_khr_subgroup_shuffle",
                          "cl_khr_subgroup_shuffle_relative", "cl_khr_subgroup_clustered_reduce",
                          "cl_khr_subgroup_rotate", "cl_intel_required_subgroup_size"})
    EXPECT_TRUE(hasExtension(ext)) << ext;
}

// Neither the attribute nor FIBERCL_SUBGROUP_SIZE: one vector of 32-bit lanes.
TEST_F(SubGroupSize, DefaultIsTheHostsVectorWidth) {
  SKIP_UNLESS_FIBERCL("FiberCL's default sub-group size");
  ScopedEnv env({{"FIBERCL_SUBGROUP_SIZE", ScopedEnv::kUnset}});
  cl_kernel k = kernelFrom(kWidthSrc, "width", "-cl-std=CL3.0");
  cl_mem out = buffer(128 * sizeof(cl_uint));
  setArgs(k, out);
  run(k, {128}, {64});
  const cl_uint want = hostVectorWidth();
  EXPECT_EQ(read<cl_uint>(out, 1)[0], want);
  EXPECT_EQ(subGroupInfo(k, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, {64}), size_t(want));
  size_t compiled = SIZE_MAX;
  ASSERT_CL(clGetKernelSubGroupInfo(k, device_, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0, nullptr,
                                    sizeof compiled, &compiled, nullptr));
  EXPECT_EQ(compiled, 0u);
}

// FIBERCL_SUBGROUP_SIZE counts when the program is built, not when its kernel runs; the
// same source built under two sizes gives two programs (not one cached build).
TEST_F(SubGroupSize, EnvironmentCountsWhenTheProgramIsBuilt) {
  SKIP_UNLESS_FIBERCL("FIBERCL_SUBGROUP_SIZE is FiberCL's");
  cl_kernel k8, k32;
  {
    ScopedEnv env({{"FIBERCL_SUBGROUP_SIZE", "8"}});
    k8 = kernelFrom(kWidthSrc, "width", "-cl-std=CL3.0");
  }
  {
    ScopedEnv env({{"FIBERCL_SUBGROUP_SIZE", "32"}});
    k32 = kernelFrom(kWidthSrc, "width", "-cl-std=CL3.0");
  }
  ScopedEnv later({{"FIBERCL_SUBGROUP_SIZE", "64"}});
  for (auto [k, want] : {std::pair{k8, 8u}, std::pair{k32, 32u}}) {
    cl_mem out = buffer(128 * sizeof(cl_uint));
    setArgs(k, out);
    run(k, {128}, {64});
    EXPECT_EQ(read<cl_uint>(out, 1)[0], want);
    EXPECT_EQ(subGroupInfo(k, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, {64}), size_t(want));
  }
}

// S is per kernel: in one program, the kernel with the attribute has its size and the
// other FIBERCL_SUBGROUP_SIZE's.
TEST_F(SubGroupSize, AttributeWinsOverTheEnvironmentPerKernel) {
  SKIP_UNLESS_FIBERCL("FIBERCL_SUBGROUP_SIZE is FiberCL's");
  cl_program p;
  {
    ScopedEnv env({{"FIBERCL_SUBGROUP_SIZE", "64"}});
    p = build(R"CLC(
      __attribute__((intel_reqd_sub_group_size(8)))
      __kernel void fixed(__global uint* out) {
        out[get_global_id(0)] = get_sub_group_size() | get_num_sub_groups() << 16;
      }
      __kernel void unfixed(__global uint* out) {
        out[get_global_id(0)] = get_sub_group_size() | get_num_sub_groups() << 16;
      })CLC",
              "-cl-std=CL3.0");
  }
  for (auto [name, S] : {std::pair{"fixed", 8u}, std::pair{"unfixed", 64u}}) {
    SCOPED_TRACE(name);
    cl_kernel k = kernel(p, name);
    cl_mem out = buffer(96 * sizeof(cl_uint));
    setArgs(k, out);
    run(k, {96}, {96});
    std::vector<cl_uint> got = read<cl_uint>(out, 96);
    Layout L = layoutOf({96}, {96}, S);
    Mismatches m;
    for (const Item &it : L.items)
      m.eq(got[it.global], it.size | it.count << 16, "size | count << 16", it.global);
    size_t compiled = SIZE_MAX;
    ASSERT_CL(clGetKernelSubGroupInfo(k, device_, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0,
                                      nullptr, sizeof compiled, &compiled, nullptr));
    EXPECT_EQ(compiled, S == 8 ? 8u : 0u);
  }
}

TEST_F(SubGroupSize, UnsupportedRequiredSizesFailTheBuild) {
  if (!hasExtension("cl_intel_required_subgroup_size"))
    GTEST_SKIP() << "the device does not report cl_intel_required_subgroup_size";
  for (int bad : {2, 12, 128}) {
    SCOPED_TRACE("intel_reqd_sub_group_size(" + std::to_string(bad) + ")");
    BuildResult r = tryBuild("__attribute__((intel_reqd_sub_group_size(" + std::to_string(bad) +
                                 ")))\n__kernel void k(__global int* o) { o[0] = 1; }",
                             "-cl-std=CL3.0");
    EXPECT_CL_ERR(CL_BUILD_PROGRAM_FAILURE, r.err);
    if (isFiberCL()) {
      EXPECT_NE(r.log.find("intel_reqd_sub_group_size"), std::string::npos) << r.log;
    }
  }
}

// --- Core collectives --------------------------------------------------------------------

// One kernel per type (a kernel's build cost grows with its sub-group functions).
class SubGroupCollectives
    : public SubGroupTest,
      public ::testing::WithParamInterface<std::tuple<cl_uint, const char *>> {
protected:
  template <typename T> void runCore();
};

const char *kCoreSrc = R"CLC(
SG_ATTR __kernel void core(__global const T* in, __global T* out, __global int* votes) {
  size_t g = get_global_linear_id(), n = get_global_size(0) * get_global_size(1);
  T x = in[g];
  out[0 * n + g] = sub_group_reduce_add(x);
  out[1 * n + g] = sub_group_reduce_min(x);
  out[2 * n + g] = sub_group_reduce_max(x);
  out[3 * n + g] = sub_group_scan_inclusive_add(x);
  out[4 * n + g] = sub_group_scan_inclusive_min(x);
  out[5 * n + g] = sub_group_scan_inclusive_max(x);
  out[6 * n + g] = sub_group_scan_exclusive_add(x);
  out[7 * n + g] = sub_group_scan_exclusive_min(x);
  out[8 * n + g] = sub_group_scan_exclusive_max(x);
  out[9 * n + g] = sub_group_broadcast(x, get_sub_group_size() - 1);
#ifdef VOTES
  votes[0 * n + g] = sub_group_any(x == 7);
  votes[1 * n + g] = sub_group_all(x > -1000);
#endif
})CLC";

template <typename T> T lowestOf() {
  return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                              : std::numeric_limits<T>::lowest();
}
template <typename T> T highestOf() {
  return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                              : std::numeric_limits<T>::max();
}

// The 10 results of the kernel for one type against the host, sub-group by sub-group.
template <typename T>
void checkCore(const Layout &L, const std::vector<T> &in, const std::vector<T> &out) {
  static const char *what[] = {"reduce_add",         "reduce_min",
                               "reduce_max",         "scan_inclusive_add",
                               "scan_inclusive_min", "scan_inclusive_max",
                               "scan_exclusive_add", "scan_exclusive_min",
                               "scan_exclusive_max", "broadcast(x, size - 1)"};
  const size_t n = L.items.size();
  Mismatches m;
  for (const std::vector<size_t> &sg : L.subGroups) {
    T sum = 0, mn = highestOf<T>(), mx = lowestOf<T>();
    for (size_t g : sg) {
      sum += in[g];
      mn = std::min(mn, in[g]);
      mx = std::max(mx, in[g]);
    }
    T run = 0, rmn = highestOf<T>(), rmx = lowestOf<T>();
    for (size_t lane = 0; lane < sg.size(); ++lane) {
      const size_t g = sg[lane];
      m.eq(out[0 * n + g], sum, what[0], g);
      m.eq(out[1 * n + g], mn, what[1], g);
      m.eq(out[2 * n + g], mx, what[2], g);
      m.eq(out[6 * n + g], run, what[6], g);
      m.eq(out[7 * n + g], rmn, what[7], g);
      m.eq(out[8 * n + g], rmx, what[8], g);
      run += in[g];
      rmn = std::min(rmn, in[g]);
      rmx = std::max(rmx, in[g]);
      m.eq(out[3 * n + g], run, what[3], g);
      m.eq(out[4 * n + g], rmn, what[4], g);
      m.eq(out[5 * n + g], rmx, what[5], g);
      m.eq(out[9 * n + g], in[sg.back()], what[9], g);
    }
  }
}

// Inputs: int in [-999, 999] (any and all: see below), uint across the whole range (so
// that unsigned order differs from signed), long beyond 32 bits, float integer-valued
// (exact sums).
template <typename T> std::vector<T> coreInputs(size_t n) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<T, cl_int>)
      v[i] = cl_int((i * 7919) % 1999) - 999;
    else if constexpr (std::is_same_v<T, cl_uint>)
      v[i] = cl_uint(i * 2654435761u + 12345u);
    else if constexpr (std::is_same_v<T, cl_long>)
      v[i] = (cl_long((i * 40503) % 1001) - 500) * 4294967311LL;
    else
      v[i] = float(cl_int((i * 37) % 201) - 100);
  }
  return v;
}

template <typename T> void SubGroupCollectives::runCore() {
  const auto [S, type] = GetParam();
  const std::string defines = std::string("#define T ") + type + "\n" +
                              (std::is_same_v<T, cl_int> ? "#define VOTES\n" : "");
  cl_kernel k = kernelAt(S, SizeFrom::Attribute, defines + kCoreSrc, "core");
  struct Shape {
    std::vector<size_t> global, local;
  };
  for (const Shape &s : {Shape{{3 * (2 * S + 3)}, {2 * S + 3}}, Shape{{6, 10}, {3, 5}}}) {
    SCOPED_TRACE("local size " + std::to_string(s.local[0]) +
                 (s.local.size() > 1 ? "x" + std::to_string(s.local[1]) : std::string()));
    Layout L = layoutOf(s.global, s.local, S);
    const size_t n = L.items.size();
    std::vector<T> in = coreInputs<T>(n);
    if constexpr (std::is_same_v<T, cl_int>) {
      // any(x == 7): true in every third sub-group only; all(x > -1000): false in some.
      for (cl_int &v : in)
        if (v == 7)
          v = 8;
      for (size_t j = 0; j < L.subGroups.size(); ++j) {
        if (j % 3 == 0)
          in[L.subGroups[j].back()] = 7;
        if (j % 4 == 1)
          in[L.subGroups[j].front()] = -1000;
      }
    }
    cl_mem din = bufferFrom(in), dout = buffer(10 * n * sizeof(T)),
           votes = bufferFrom(std::vector<cl_int>(2 * n, -1));
    setArgs(k, din, dout, votes);
    run(k, s.global, s.local);
    checkCore(L, in, read<T>(dout, 10 * n));
    if constexpr (std::is_same_v<T, cl_int>) {
      std::vector<cl_int> b = read<cl_int>(votes, 2 * n);
      Mismatches m;
      for (const std::vector<size_t> &sg : L.subGroups) {
        bool any = false, all = true;
        for (size_t g : sg) {
          any |= in[g] == 7;
          all &= in[g] > -1000;
        }
        for (size_t g : sg) {
          m.truth(b[g], any, "sub_group_any(x == 7)", g);
          m.truth(b[n + g], all, "sub_group_all(x > -1000)", g);
        }
      }
    }
  }
}

// reduce, inclusive and exclusive scans of add/min/max and broadcast, for int (with any
// and all), uint, long and float, in 1-D groups of 2S+3 (a partial sub-group of 3) and
// 2-D groups of 3x5 (sub-groups in linear order across rows).
TEST_P(SubGroupCollectives, MatchTheHost) {
  const auto [S, type] = GetParam();
  SKIP_UNLESS_SIZE(S, SizeFrom::Attribute);
  const std::string t = type;
  if (t == "int")
    runCore<cl_int>();
  else if (t == "uint")
    runCore<cl_uint>();
  else if (t == "long")
    runCore<cl_long>();
  else
    runCore<cl_float>();
}

std::string sizeAndTypeName(const ::testing::TestParamInfo<std::tuple<cl_uint, const char *>> &i) {
  return "S" + std::to_string(std::get<0>(i.param)) + "_" + std::get<1>(i.param);
}

INSTANTIATE_TEST_SUITE_P(Sizes, SubGroupCollectives,
                         ::testing::Combine(::testing::Values(4u, 8u, 16u, 32u, 64u),
                                            ::testing::Values("int", "uint", "long", "float")),
                         sizeAndTypeName);

// --- Sub-group barriers and divergence ---------------------------------------------------

class SubGroupSync : public SubGroupTest, public ::testing::WithParamInterface<cl_uint> {};

// Each round a lane publishes its value in __local memory, and after a sub-group barrier
// reads its neighbour's (lane + 1, wrapping in the sub-group); a second barrier keeps the
// next round's writes from overtaking the reads. No work-group barrier anywhere.
const char *kNeighbourSrc = R"CLC(
SG_ATTR __kernel void neighbour(__global const uint* in, __global uint* out, __local uint* tmp) {
  uint lid = get_local_id(0), lane = get_sub_group_local_id(), size = get_sub_group_size();
  uint first = lid - lane;
  uint acc = in[get_global_id(0)];
  for (int round = 0; round < 4; ++round) {
    tmp[lid] = acc;
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    acc = acc * 3u + tmp[first + (lane + 1) % size];
    sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group);
  }
  out[get_global_id(0)] = acc;
})CLC";

// `rounds` rounds of the neighbour exchange, per sub-group.
std::vector<cl_uint> neighbourOnHost(const Layout &L, const std::vector<cl_uint> &in, int rounds) {
  std::vector<cl_uint> out(in.size());
  for (const std::vector<size_t> &sg : L.subGroups) {
    std::vector<cl_uint> acc;
    for (size_t g : sg)
      acc.push_back(in[g]);
    for (int round = 0; round < rounds; ++round) {
      std::vector<cl_uint> tmp = acc;
      for (size_t lane = 0; lane < acc.size(); ++lane)
        acc[lane] = acc[lane] * 3u + tmp[(lane + 1) % acc.size()];
    }
    for (size_t lane = 0; lane < sg.size(); ++lane)
      out[sg[lane]] = acc[lane];
  }
  return out;
}

std::vector<cl_uint> pattern(size_t n) {
  std::vector<cl_uint> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = cl_uint((i * 2654435761u) % 100003u);
  return v;
}

TEST_P(SubGroupSync, BarrierOrdersLocalMemoryWithinASubGroup) {
  const cl_uint S = GetParam();
  SKIP_UNLESS_SIZE(S, SizeFrom::Attribute);
  cl_kernel k = kernelAt(S, SizeFrom::Attribute, kNeighbourSrc, "neighbour");
  const size_t local = 3 * S + 3, n = 4 * local; // the last sub-group of each group: 3
  Layout L = layoutOf({n}, {local}, S);
  std::vector<cl_uint> in = pattern(n);
  cl_mem din = bufferFrom(in), dout = buffer(n * sizeof(cl_uint));
  setArgs(k, din, dout, Local{local * sizeof(cl_uint)});
  run(k, {n}, {local});
  std::vector<cl_uint> got = read<cl_uint>(dout, n), want = neighbourOnHost(L, in, 4);
  Mismatches m;
  for (size_t g = 0; g < n; ++g)
    m.eq(got[g], want[g], "neighbour rounds", g);
}

// Sub-groups taking different paths through a work-group: each runs the collectives of
// its own path; a loop whose trip count differs per sub-group; a sub-group that returns
// early while the others go on to further collectives.
const char *kDivergeSrc = R"CLC(
SG_ATTR __kernel void diverge(__global const int* in, __global int* out) {
  size_t g = get_global_id(0), n = get_global_size(0);
  uint sg = get_sub_group_id();
  int x = in[g];
  int r;
  if (sg % 2 == 0)
    r = sub_group_reduce_add(x);
  else
    r = sub_group_scan_inclusive_add(x);
  out[g] = r;
  int r1 = -1;
  if (sg == 1)
    r1 = sub_group_reduce_max(x);
  out[n + g] = r1;
  int acc = 0;
  for (uint i = 0; i <= sg; ++i)
    acc += sub_group_broadcast(x, i % get_sub_group_size());
  out[2 * n + g] = acc;
  if (sg == 0) {
    out[3 * n + g] = -7;
    return;
  }
  out[3 * n + g] = sub_group_scan_exclusive_min(x);
})CLC";

void checkDiverge(const Layout &L, const std::vector<cl_int> &in, const std::vector<cl_int> &out) {
  const size_t n = L.items.size();
  Mismatches m;
  for (const std::vector<size_t> &sg : L.subGroups) {
    const cl_uint id = L.items[sg[0]].subGroup;
    int sum = 0, mx = INT_MIN, run = 0, mn = INT_MAX;
    for (size_t g : sg) {
      sum += in[g];
      mx = std::max(mx, in[g]);
    }
    int acc = 0;
    for (cl_uint i = 0; i <= id; ++i)
      acc += in[sg[i % sg.size()]];
    for (size_t g : sg) {
      run += in[g];
      m.eq(out[g], id % 2 == 0 ? sum : run, "reduce_add or scan_inclusive_add", g);
      m.eq(out[n + g], id == 1 ? mx : -1, "reduce_max in sub-group 1", g);
      m.eq(out[2 * n + g], acc, "broadcast loop", g);
      m.eq(out[3 * n + g], id == 0 ? -7 : mn, "scan_exclusive_min after a return", g);
      mn = std::min(mn, in[g]);
    }
  }
}

TEST_P(SubGroupSync, DivergentSubGroupsRunTheirOwnCollectives) {
  const cl_uint S = GetParam();
  SKIP_UNLESS_SIZE(S, SizeFrom::Attribute);
  cl_kernel k = kernelAt(S, SizeFrom::Attribute, kDivergeSrc, "diverge");
  const size_t local = 4 * S + 5, n = 3 * local;
  Layout L = layoutOf({n}, {local}, S);
  std::vector<cl_int> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = cl_int((i * 7919) % 2001) - 1000;
  cl_mem din = bufferFrom(in);
  for (const char *seed : {"", "3"}) {
    SCOPED_TRACE(std::string("FIBERCL_SEED=") + seed);
    ScopedEnv env({{"FIBERCL_SEED", *seed ? std::string(seed) : ScopedEnv::kUnset}});
    cl_mem dout = bufferFrom(std::vector<cl_int>(4 * n, 12345));
    setArgs(k, din, dout);
    run(k, {n}, {local});
    checkDiverge(L, in, read<cl_int>(dout, 4 * n));
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, SubGroupSync, ::testing::Values(4u, 16u, 64u),
                         [](const auto &i) { return "S" + std::to_string(i.param); });

// --- Both barrier paths, seeded ----------------------------------------------------------

// Sub-group barriers, collectives in code divergent per sub-group and work-group
// barriers in one kernel, built with barriers as regions (the default) and on fibers
// (FIBERCL_BARRIERS=fibers, read at build time), each run free and under FIBERCL_SEED=3:
// all four match the host. FIBERCL_DEBUG=barriers says which path each build took.
class SubGroupPaths : public SubGroupTest {};

const char *kPathsSrc = R"CLC(
SG_ATTR __kernel void paths(__global const uint* in, __global uint* out, __local uint* tmp) {
  uint lid = get_local_id(0), lane = get_sub_group_local_id(), size = get_sub_group_size();
  uint first = lid - lane;
  uint acc = in[get_global_id(0)];
  for (int round = 0; round < 3; ++round) {
    tmp[lid] = acc;
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    acc = acc * 3u + tmp[first + (lane + 1) % size];
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  }
  uint s;
  if (get_sub_group_id() % 2 == 0)
    s = sub_group_reduce_add(acc);
  else
    s = sub_group_scan_inclusive_add(acc);
  barrier(CLK_LOCAL_MEM_FENCE);
  tmp[lid] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s ^ tmp[get_local_size(0) - 1 - lid];
})CLC";

TEST_F(SubGroupPaths, RegionsAndFibersFreeAndSeededMatchTheHost) {
  SKIP_UNLESS_FIBERCL("FIBERCL_BARRIERS, FIBERCL_SEED and FIBERCL_DEBUG are FiberCL's");
  const cl_uint S = 8;
  const size_t local = 3 * S + 3, n = 5 * local;
  Layout L = layoutOf({n}, {local}, S);
  std::vector<cl_uint> in = pattern(n);
  std::vector<cl_uint> acc = neighbourOnHost(L, in, 3), s(n), want(n);
  for (const std::vector<size_t> &sg : L.subGroups) {
    cl_uint sum = 0, run = 0;
    for (size_t g : sg)
      sum += acc[g];
    const bool even = L.items[sg[0]].subGroup % 2 == 0;
    for (size_t g : sg) {
      run += acc[g];
      s[g] = even ? sum : run;
    }
  }
  for (size_t g = 0; g < n; ++g) {
    const size_t lid = g % local, mirror = g - lid + (local - 1 - lid);
    want[g] = s[g] ^ s[mirror];
  }

  for (const char *path : {"regions", "fibers"}) {
    SCOPED_TRACE(path);
    const bool fibers = std::string(path) == "fibers";
    cl_kernel k = nullptr;
    std::string said;
    {
      ScopedEnv env({{"FIBERCL_BARRIERS", fibers ? std::string("fibers") : ScopedEnv::kUnset},
                     {"FIBERCL_DEBUG", "barriers,verify"}});
      testing::internal::CaptureStderr();
      try {
        k = kernelAt(S, SizeFrom::Attribute, kPathsSrc + freshTag(), "paths");
      } catch (...) {
        testing::internal::GetCapturedStderr();
        throw;
      }
      said = testing::internal::GetCapturedStderr();
    }
    const std::string wantSaid = fibers
                                     ? "kernel 'paths': barriers on fibers: FIBERCL_BARRIERS=fibers"
                                     : "kernel 'paths': barriers as ";
    EXPECT_NE(said.find(wantSaid), std::string::npos) << "wanted \"" << wantSaid << "\" in:\n"
                                                      << said;
    for (const char *seed : {"", "3"}) {
      SCOPED_TRACE(std::string("FIBERCL_SEED=") + seed);
      ScopedEnv env({{"FIBERCL_SEED", *seed ? std::string(seed) : ScopedEnv::kUnset}});
      cl_mem din = bufferFrom(in), dout = buffer(n * sizeof(cl_uint));
      setArgs(k, din, dout, Local{local * sizeof(cl_uint)});
      run(k, {n}, {local});
      std::vector<cl_uint> got = read<cl_uint>(dout, n);
      Mismatches m;
      for (size_t g = 0; g < n; ++g)
        m.eq(got[g], want[g], "paths", g);
    }
  }
}

// --- A kernel that assumes 32 lanes ------------------------------------------------------

class SubGroupSizeSensitivity : public SubGroupTest,
                                public ::testing::WithParamInterface<cl_uint> {};

// Code written for 32-lane sub-groups gives its intended answer only when
// FIBERCL_SUBGROUP_SIZE=32 (it does not ask for a size itself).
TEST_P(SubGroupSizeSensitivity, AKernelAssumingThirtyTwoLanes) {
  const cl_uint S = GetParam();
  SKIP_UNLESS_SIZE(S, SizeFrom::Environment);
  cl_kernel k = kernelAt(S, SizeFrom::Environment, R"CLC(
    SG_ATTR __kernel void assumes32(__global int* out) {
      out[get_global_id(0)] = sub_group_reduce_add(1) == 32;
    })CLC",
                         "assumes32");
  const size_t n = 256, local = 128;
  cl_mem out = bufferFrom(std::vector<cl_int>(n, -1));
  setArgs(k, out);
  run(k, {n}, {local});
  std::vector<cl_int> got = read<cl_int>(out, n);
  Mismatches m;
  for (size_t g = 0; g < n; ++g)
    m.eq(got[g], S == 32 ? 1 : 0, "sub_group_reduce_add(1) == 32", g);
}

INSTANTIATE_TEST_SUITE_P(Sizes, SubGroupSizeSensitivity, ::testing::Values(16u, 32u, 64u),
                         [](const auto &i) { return "S" + std::to_string(i.param); });

// --- Independent forward progress ------------------------------------------------------

// The sub-groups of a group take turns in reverse order: each one's lane 0 spins on a
// __local atomic until the sub-group after it has had its turn (CL_DEVICE_SUB_GROUP_
// INDEPENDENT_FORWARD_PROGRESS, which the device reports). Work-items running one
// after another would spin forever in sub-group 0; the loop's yields let the later
// sub-groups run. Built for each barrier path, run free and seeded; every group records
// the same order.
class SubGroupProgress : public SubGroupTest {};

const char *kTurnsSrc = R"CLC(
SG_ATTR __kernel void turns(__global uint* order) {
  __local atomic_uint turn, next;
  uint nsg = get_num_sub_groups(), sg = get_sub_group_id();
  if (get_local_id(0) == 0) {
    atomic_init(&turn, 0);
    atomic_init(&next, 0);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  uint mine = 0;
  if (get_sub_group_local_id() == 0) {
    while (atomic_load(&turn) != nsg - 1 - sg)
      ;
    mine = atomic_fetch_add(&next, 1u);
    atomic_store(&turn, nsg - sg);
  }
  order[get_global_id(0)] = sub_group_reduce_add(mine);
})CLC";

TEST_F(SubGroupProgress, SubGroupsWaitingForEachOtherInAGroupFinish) {
  SKIP_UNLESS_FIBERCL("FIBERCL_BARRIERS and FIBERCL_SEED are FiberCL's");
  cl_bool ifp = CL_FALSE;
  ASSERT_CL(clGetDeviceInfo(device_, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, sizeof ifp,
                            &ifp, nullptr));
  ASSERT_EQ(ifp, CL_TRUE);
  const cl_uint S = 8;
  const size_t local = 5 * S, n = 3 * local;
  for (const char *path : {"regions", "fibers"}) {
    SCOPED_TRACE(path);
    cl_kernel k = nullptr;
    {
      ScopedEnv env({{"FIBERCL_BARRIERS",
                      std::string(path) == "fibers" ? std::string("fibers") : ScopedEnv::kUnset}});
      k = kernelAt(S, SizeFrom::Attribute, kTurnsSrc + freshTag(), "turns");
    }
    for (const char *seed : {"", "3"}) {
      SCOPED_TRACE(std::string("FIBERCL_SEED=") + seed);
      ScopedEnv env({{"FIBERCL_SEED", *seed ? std::string(seed) : ScopedEnv::kUnset}});
      cl_mem dorder = buffer(n * sizeof(cl_uint));
      setArgs(k, dorder);
      run(k, {n}, {local});
      std::vector<cl_uint> got = read<cl_uint>(dorder, n);
      Mismatches m;
      for (size_t g = 0; g < n; ++g) {
        size_t sg = (g % local) / S, nsg = local / S;
        m.eq(got[g], cl_uint(nsg - 1 - sg), "turn", g);
      }
    }
  }
}

} // namespace
} // namespace fcltest

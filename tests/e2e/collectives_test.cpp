// Work-group collective functions (OpenCL C 3.0 s6.15.15) against host computations:
// reduce, inclusive and exclusive scans for add/min/max, broadcast in 1-3 dimensions,
// all/any; uneven (non-uniform) last groups; several collectives back to back.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>

#include <map>

#include <CL/cl_ext.h>

#include "cl_test.hpp"

namespace fcltest {
namespace {

class Collectives : public CLTest {
protected:
  void SetUp() override {
    CLTest::SetUp();
    if (!hasCFeature("__opencl_c_work_group_collective_functions"))
      GTEST_SKIP() << "the device does not report __opencl_c_work_group_collective_functions";
  }
};

const char *kIntSrc = R"CLC(
__kernel void ops(__global const int* in, __global int* out) {
  size_t g = get_global_id(0), n = get_global_size(0);
  int x = in[g];
  out[0 * n + g] = work_group_reduce_add(x);
  out[1 * n + g] = work_group_reduce_min(x);
  out[2 * n + g] = work_group_reduce_max(x);
  out[3 * n + g] = work_group_scan_inclusive_add(x);
  out[4 * n + g] = work_group_scan_inclusive_min(x);
  out[5 * n + g] = work_group_scan_inclusive_max(x);
  out[6 * n + g] = work_group_scan_exclusive_add(x);
  out[7 * n + g] = work_group_scan_exclusive_min(x);
  out[8 * n + g] = work_group_scan_exclusive_max(x);
  out[9 * n + g] = work_group_broadcast(x, get_local_size(0) - 1);
  out[10 * n + g] = work_group_all(x > -1000);
  out[11 * n + g] = work_group_any(x == 7);
})CLC";

// 1000 items in groups of 64: the last group has 40 work-items.
TEST_F(Collectives, IntReduceScanBroadcastAllAny) {
  cl_kernel k = kernelFrom(kIntSrc, "ops", "-cl-std=CL3.0");
  const size_t n = 1000, local = 64;
  std::vector<cl_int> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = static_cast<cl_int>((i * 7919) % 2001) - 1000;
  for (size_t i = 0; i < n; ++i)
    if (in[i] == 7)
      in[i] = 8;
  in[130] = 7; // only group 2 has a 7
  cl_mem din = bufferFrom(in), dout = buffer(12 * n * sizeof(cl_int));
  setArgs(k, din, dout);
  run(k, {n}, {local});
  std::vector<cl_int> out = read<cl_int>(dout, 12 * n);

  for (size_t start = 0; start < n; start += local) {
    size_t end = std::min(n, start + local);
    int sum = 0, mn = INT_MAX, mx = INT_MIN, isum = 0, imn = INT_MAX, imx = INT_MIN;
    bool all = true, any = false;
    for (size_t i = start; i < end; ++i) {
      sum += in[i];
      mn = std::min(mn, in[i]);
      mx = std::max(mx, in[i]);
      all &= in[i] > -1000;
      any |= in[i] == 7;
    }
    for (size_t i = start; i < end; ++i) {
      SCOPED_TRACE("work-item " + std::to_string(i));
      EXPECT_EQ(out[0 * n + i], sum);
      EXPECT_EQ(out[1 * n + i], mn);
      EXPECT_EQ(out[2 * n + i], mx);
      EXPECT_EQ(out[6 * n + i], isum);
      EXPECT_EQ(out[7 * n + i], imn);
      EXPECT_EQ(out[8 * n + i], imx);
      isum += in[i];
      imn = std::min(imn, in[i]);
      imx = std::max(imx, in[i]);
      EXPECT_EQ(out[3 * n + i], isum);
      EXPECT_EQ(out[4 * n + i], imn);
      EXPECT_EQ(out[5 * n + i], imx);
      EXPECT_EQ(out[9 * n + i], in[end - 1]);
      EXPECT_EQ(out[10 * n + i], all ? 1 : 0);
      EXPECT_EQ(out[11 * n + i], any ? 1 : 0);
    }
  }
}

TEST_F(Collectives, BroadcastIn2DAnd3DAndWideTypes) {
  cl_kernel k = kernelFrom(R"CLC(
    __kernel void b(__global ulong* o2, __global double* o3, __global long* osum) {
      size_t lx = get_local_id(0), ly = get_local_id(1), lz = get_local_id(2);
      size_t g = get_global_linear_id();
      ulong v = (ulong)get_global_id(0) << 40 | (ulong)get_global_id(1) << 20 | get_global_id(2);
      o2[g] = work_group_broadcast(v, 1, 2);   // z must be 0 for the 2-D form
      o3[g] = work_group_broadcast((double)v * 0.5, 2, 1, 0);
      osum[2 * g] = work_group_reduce_add((long)(lx + 10 * ly + 100 * lz));
      osum[2 * g + 1] = work_group_scan_exclusive_max((long)lx);
    })CLC",
                           "b", "-cl-std=CL3.0");
  const size_t G[3] = {8, 6, 4}, L[3] = {4, 3, 1};
  const size_t n = G[0] * G[1] * G[2];
  cl_mem o2 = buffer(n * 8), o3 = buffer(n * 8), os = buffer(2 * n * 8);
  setArgs(k, o2, o3, os);
  run(k, {G[0], G[1], G[2]}, {L[0], L[1], L[2]});
  auto r2 = read<cl_ulong>(o2, n);
  auto r3 = read<cl_double>(o3, n);
  auto rs = read<cl_long>(os, 2 * n);
  for (size_t z = 0; z < G[2]; ++z)
    for (size_t y = 0; y < G[1]; ++y)
      for (size_t x = 0; x < G[0]; ++x) {
        size_t g = (z * G[1] + y) * G[0] + x;
        size_t bx = x / L[0] * L[0], by = y / L[1] * L[1];
        cl_ulong want = cl_ulong(bx + 1) << 40 | cl_ulong(by + 2) << 20 | z;
        EXPECT_EQ(r2[g], want) << x << "," << y << "," << z;
        cl_ulong v3 = cl_ulong(bx + 2) << 40 | cl_ulong(by + 1) << 20 | z;
        EXPECT_EQ(r3[g], double(v3) * 0.5) << x << "," << y << "," << z;
        // Over a 4x3x1 group: sum of lx + 10 ly = 3 * 6 + 10 * 4 * 3 = 138; the exclusive
        // max of lx in linear order (x fastest) is lx - 1 in the first row, 3 after it.
        long lx = long(x % L[0]);
        long exmax = y % L[1] == 0 ? (lx == 0 ? LONG_MIN : lx - 1) : 3;
        EXPECT_EQ(rs[2 * g], 138) << x << "," << y << "," << z;
        EXPECT_EQ(rs[2 * g + 1], exmax) << x << "," << y << "," << z;
      }
}

TEST_F(Collectives, FloatReductionsAndScansMatchTheHost) {
  cl_kernel k = kernelFrom(R"CLC(
    __kernel void f(__global const float* in, __global float* out) {
      size_t g = get_global_id(0), n = get_global_size(0);
      out[g] = work_group_reduce_max(in[g]);
      out[n + g] = work_group_scan_inclusive_add(in[g]);
      out[2 * n + g] = work_group_scan_exclusive_min(in[g]);
    })CLC",
                           "f", "-cl-std=CL3.0");
  const size_t n = 512, local = 256;
  std::vector<cl_float> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = static_cast<float>((i * 37) % 101) * 0.25f - 3.0f;
  cl_mem din = bufferFrom(in), dout = buffer(3 * n * 4);
  setArgs(k, din, dout);
  run(k, {n}, {local});
  auto out = read<cl_float>(dout, 3 * n);
  for (size_t s = 0; s < n; s += local) {
    float mx = -INFINITY, sum = 0, mn = INFINITY;
    for (size_t i = s; i < s + local; ++i)
      mx = std::max(mx, in[i]);
    for (size_t i = s; i < s + local; ++i) {
      EXPECT_EQ(out[i], mx);
      EXPECT_EQ(out[2 * n + i], mn) << i; // +INFINITY identity for the first work-item
      sum += in[i];                       // exact: quarter-integers, small sums
      mn = std::min(mn, in[i]);
      EXPECT_EQ(out[n + i], sum) << i;
    }
  }
}

// half overloads (cl_khr_fp16): the CTS's workgroups suite builds them; their
// absence failed 9 of its 14 tests. Values whose sums are exact in half.
TEST_F(Collectives, HalfReductionsScansAndBroadcast) {
  if (!hasExtension("cl_khr_fp16"))
    GTEST_SKIP() << "the device does not report cl_khr_fp16";
  cl_kernel k = kernelFrom(R"CLC(
    #pragma OPENCL EXTENSION cl_khr_fp16 : enable
    __kernel void h(__global const float* in, __global float* out) {
      size_t g = get_global_id(0), n = get_global_size(0);
      half x = (half)in[g];
      out[g] = work_group_reduce_add(x);
      out[n + g] = work_group_scan_inclusive_max(x);
      out[2 * n + g] = work_group_scan_exclusive_add(x);
      out[3 * n + g] = work_group_reduce_min(x);
      out[4 * n + g] = work_group_broadcast(x, 5);
    })CLC",
                           "h", "-cl-std=CL3.0");
  const size_t n = 128, local = 64;
  std::vector<cl_float> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = static_cast<float>(int((i * 7) % 13) - 6) * 0.5f;
  cl_mem din = bufferFrom(in), dout = buffer(5 * n * 4);
  setArgs(k, din, dout);
  run(k, {n}, {local});
  auto out = read<cl_float>(dout, 5 * n);
  for (size_t s = 0; s < n; s += local) {
    float total = 0, mn = INFINITY, mx = -INFINITY, sum = 0;
    for (size_t i = s; i < s + local; ++i)
      total += in[i], mn = std::min(mn, in[i]);
    for (size_t i = s; i < s + local; ++i) {
      EXPECT_EQ(out[i], total) << i;
      EXPECT_EQ(out[2 * n + i], sum) << i; // exclusive: 0 for the first work-item
      sum += in[i];
      mx = std::max(mx, in[i]);
      EXPECT_EQ(out[n + i], mx) << i;
      EXPECT_EQ(out[3 * n + i], mn) << i;
      EXPECT_EQ(out[4 * n + i], in[s + 5]) << i;
    }
  }
}

// Sub-group functions, checked against what the kernel itself reports of its
// sub-groups (id, local id, size), so the check holds for any sub-group layout: each
// result is recomputed on the host over the work-items of the same sub-group, in
// sub-group local id order. The API's sub-group queries must agree with the layout seen.
TEST_F(Collectives, SubGroupFunctionsAgreeWithTheReportedLayout) {
  if (!hasExtension("cl_khr_subgroups") && !hasCFeature("__opencl_c_subgroups"))
    GTEST_SKIP() << "the device reports no sub-groups";
  cl_kernel k = kernelFrom(R"CLC(
    #ifndef __opencl_c_subgroups
    #error "__opencl_c_subgroups is not defined"
    #endif
    __kernel void sg(__global const int* in, __global int* out) {
      size_t g = get_global_id(0), n = get_global_size(0);
      int x = in[g];
      out[0 * n + g] = get_sub_group_id() + 1000 * (int)get_group_id(0);
      out[1 * n + g] = get_sub_group_local_id();
      out[2 * n + g] = get_sub_group_size();
      out[3 * n + g] = sub_group_reduce_add(x);
      out[4 * n + g] = sub_group_scan_inclusive_max(x);
      out[5 * n + g] = sub_group_scan_exclusive_add(x);
      out[6 * n + g] = sub_group_broadcast(x, 0);
      out[7 * n + g] = sub_group_any(x == 7);
      sub_group_barrier(CLK_LOCAL_MEM_FENCE);
      out[8 * n + g] = get_num_sub_groups();
    })CLC",
                           "sg", "-cl-std=CL3.0");
  const size_t n = 500, local = 96; // the last group has 20 work-items
  std::vector<cl_int> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = static_cast<cl_int>((i * 37) % 101) - 50;
  in[3] = 7;
  cl_mem din = bufferFrom(in), dout = buffer(9 * n * sizeof(cl_int));
  setArgs(k, din, dout);
  run(k, {n}, {local});
  auto out = read<cl_int>(dout, 9 * n);
  std::map<int, std::vector<size_t>> groups; // sub-group key -> items by local id
  for (size_t i = 0; i < n; ++i) {
    auto &items = groups[out[i]];
    size_t lid = static_cast<size_t>(out[n + i]);
    if (items.size() <= lid)
      items.resize(lid + 1, SIZE_MAX);
    ASSERT_EQ(items[lid], SIZE_MAX) << "two work-items with sub-group local id " << lid;
    items[lid] = i;
  }
  size_t maxSeen = 0;
  for (auto &[key, items] : groups) {
    SCOPED_TRACE("sub-group " + std::to_string(key));
    int sum = 0, any = 0;
    for (size_t i : items) {
      ASSERT_NE(i, SIZE_MAX) << "a sub-group local id is missing";
      sum += in[i];
      any |= in[i] == 7;
    }
    maxSeen = std::max(maxSeen, items.size());
    int run = 0, best = INT_MIN;
    for (size_t lid = 0; lid < items.size(); ++lid) {
      size_t i = items[lid];
      EXPECT_EQ(static_cast<size_t>(out[2 * n + i]), items.size());
      EXPECT_EQ(out[3 * n + i], sum);
      EXPECT_EQ(out[5 * n + i], run);
      run += in[i];
      best = std::max(best, in[i]);
      EXPECT_EQ(out[4 * n + i], best);
      EXPECT_EQ(out[6 * n + i], in[items[0]]);
      EXPECT_EQ(out[7 * n + i] != 0, any != 0);
    }
  }
  size_t maxSize = 0, count = 0;
  size_t ls[1] = {local};
  ASSERT_CL(clGetKernelSubGroupInfo(k, device_, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof ls,
                                    ls, sizeof maxSize, &maxSize, nullptr));
  ASSERT_CL(clGetKernelSubGroupInfo(k, device_, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof ls,
                                    ls, sizeof count, &count, nullptr));
  EXPECT_GE(maxSize, maxSeen);
  EXPECT_GE(count * maxSize, local) << "the sub-groups must cover a work-group";
  EXPECT_EQ(static_cast<size_t>(out[8 * n]), count);
  EXPECT_CL_ERR(CL_INVALID_VALUE,
                clGetKernelSubGroupInfo(k, device_, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, 0,
                                        nullptr, sizeof maxSize, &maxSize, nullptr));
  // cl_khr_subgroups names the same query clGetKernelSubGroupInfoKHR, found through
  // clGetExtensionFunctionAddressForPlatform (and the loader's export of that name).
  if (hasExtension("cl_khr_subgroups")) {
    auto khr = reinterpret_cast<clGetKernelSubGroupInfoKHR_fn>(
        clGetExtensionFunctionAddressForPlatform(platform_, "clGetKernelSubGroupInfoKHR"));
    ASSERT_NE(khr, nullptr);
    size_t khrCount = 0;
    ASSERT_CL(khr(k, device_, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE_KHR, sizeof ls, ls,
                  sizeof khrCount, &khrCount, nullptr));
    EXPECT_EQ(khrCount, count);
    khrCount = 0;
    ASSERT_CL(clGetKernelSubGroupInfoKHR(k, device_, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE_KHR,
                                         sizeof ls, ls, sizeof khrCount, &khrCount, nullptr));
    EXPECT_EQ(khrCount, count);
  }
}

} // namespace
} // namespace fcltest

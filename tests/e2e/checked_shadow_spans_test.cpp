// FIBERCL_CHECK=uninit on work-item loops whose writes of __local memory are lines: the
// copy without checks (checked_loop_versions.cpp) does not mark the shadow per
// work-item; before the loop it marks the span the writes cover, at once, unless that
// span is inside the one the group is known to have written. What is reported must not
// change: a read of bytes no work-item wrote is reported once, with its element and
// work-item; bytes written apart from the known span (a memset) are not; nor are bytes
// an earlier group wrote. A read whose value is only stored is reported where it is
// stored.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "checked_fixture.hpp"

namespace fcltest {
namespace {

class CheckedShadowSpans : public Checked {
protected:
  static size_t marked(const std::string &said) {
    return countOf(said, "shadow stores marked before it");
  }
  // Two groups of 16 of `k(out)`, which must report nothing: what they wrote to `out`.
  std::vector<cl_int> cleanRunOf(cl_kernel k) {
    cl_mem out = buffer(32 * sizeof(cl_int));
    setArgs(k, out);
    Outcome o = launch(k, 32, 16, false);
    EXPECT_EQ(o.report.find("FiberCL: kernel"), std::string::npos) << o.report;
    EXPECT_EQ(o.status, CL_COMPLETE);
    return read<cl_int>(out, 32);
  }
};

// A tree reduction: its first region writes the whole tile, which its tree steps then
// read and write inside.
const char *kReduce = R"CLC(__kernel void reduce(__global const uint* in, __global uint* partial,
                     __local uint* tmp) {
  uint lid = get_local_id(0);
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) tmp[lid] += tmp[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial[get_group_id(0)] = tmp[0];
})CLC";

TEST_F(CheckedShadowSpans, AReductionIsCleanAndRight) {
  std::string said;
  cl_kernel k = checkedKernelSaying(kReduce, "reduce", "uninit", said);
  EXPECT_GE(marked(said), 1u) << said; // the first region
  // The tree step writes what it read: its reads' decision found those bytes written.
  EXPECT_GE(countOf(said, "shadow stores marked by its reads"), 1u) << said;
  const size_t n = 64 * 128, local = 64;
  std::vector<cl_uint> input(n);
  for (size_t i = 0; i < n; ++i)
    input[i] = cl_uint(i * 7 % 13);
  cl_mem in = bufferFrom(input), partial = buffer(n / local * sizeof(cl_uint));
  setArgs(k, in, partial);
  ASSERT_CL(clSetKernelArg(k, 2, local * sizeof(cl_uint), nullptr));
  Outcome o = launch(k, n, local, false);
  EXPECT_EQ(o.report.find("FiberCL: kernel"), std::string::npos) << o.report;
  EXPECT_EQ(o.status, CL_COMPLETE);
  std::vector<cl_uint> got = read<cl_uint>(partial, n / local);
  for (size_t g = 0; g < n / local; ++g) {
    cl_uint sum = 0;
    for (size_t i = 0; i < local; ++i)
      sum += input[g * local + i];
    ASSERT_EQ(got[g], sum) << "group " << g;
  }
}

// Half the tile written, all of it read: the first read past the written half is
// reported once.
TEST_F(CheckedShadowSpans, AHalfWrittenTileIsReportedOnce) {
  const char *src = R"CLC(__kernel void halfway(__global const int* in, __global int* out) {
  __local int t[64];
  int lid = get_local_id(0);
  if (lid < 32) t[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[63 - lid];
})CLC";
  std::string said;
  cl_kernel k = checkedKernelSaying(src, "halfway", "uninit", said);
  EXPECT_GE(marked(said), 1u) << said;
  cl_mem in = bufferFrom(std::vector<cl_int>(128, 1)), out = buffer(128 * sizeof(cl_int));
  setArgs(k, in, out);
  Outcome o = launch(k, 128, 64, true);
  expectOneReport(o, 6, "read of __local variable 't' (256 bytes)",
                  {"no work-item of the group wrote in this launch: 4 bytes at byte offset 252 "
                   "(element 63)",
                   "work-item (0,0,0) in work-group ("});
  EXPECT_EQ(o.status, CL_COMPLETE); // FIBERCL_CHECK_CONTINUE=1
}

// Two spans written apart (the second is not next to the first: it is marked by a
// memset, and the known span stays the first): reading both is clean, reading the gap
// between them is reported.
const char *kApart = R"CLC(__kernel void apart(__global int* out) {
  __local int t[64];
  int lid = get_local_id(0);
  t[lid] = lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 16) t[lid + 48] = 2 * lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 16) out[get_global_id(0)] = t[lid] + t[lid + GAP];
})CLC";

TEST_F(CheckedShadowSpans, SpansWrittenApartAreBothWritten) {
  // The first region writes t[0..15] only: a group of 16.
  std::string src = std::string("#define GAP 48\n") + kApart;
  std::string said;
  cl_kernel k = checkedKernelSaying(src, "apart", "uninit", said);
  EXPECT_GE(marked(said), 2u) << said;
  std::vector<cl_int> got = cleanRunOf(k);
  for (int i = 0; i < 32; ++i)
    ASSERT_EQ(got[size_t(i)], i % 16 + 2 * (i % 16)) << i;
}

TEST_F(CheckedShadowSpans, TheGapBetweenThemIsReportedOnce) {
  std::string src = std::string("#define GAP 24\n") + kApart;
  std::string said;
  cl_kernel k = checkedKernelSaying(src, "apart", "uninit", said);
  cl_mem out = buffer(32 * sizeof(cl_int));
  setArgs(k, out);
  Outcome o = launch(k, 32, 16, true);
  // Work-item 0 reads t[24]: neither span.
  expectOneReport(o, 9, "read of __local variable 't' (256 bytes)",
                  {"4 bytes at byte offset 96 (element 24)", "work-item (0,0,0) in work-group ("});
  EXPECT_EQ(o.status, CL_COMPLETE);
}

// A loop that reads one array and writes another: the write is marked before the loop,
// not taken as marked by the read. (`if (lid < 8)`: the work-item loop of that region is
// versioned alone, as a reduction's tree step is.)
TEST_F(CheckedShadowSpans, AWriteBesideAReadIsMarked) {
  const char *src = R"CLC(__kernel void beside(__global int* out) {
  __local int t[16], u[16];
  int lid = get_local_id(0);
  t[lid] = lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 8) u[lid] = t[lid] * 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = u[lid & 7];
})CLC";
  std::string said;
  cl_kernel k = checkedKernelSaying(src, "beside", "uninit", said);
  EXPECT_GE(marked(said), 2u) << said;
  std::vector<cl_int> got = cleanRunOf(k);
  for (int i = 0; i < 32; ++i)
    ASSERT_EQ(got[size_t(i)], 2 * (i % 8)) << i;
}

// Each group a runner runs on its block has a tag of its own (runtime/exec/local_shadow.hpp):
// what an earlier group wrote reads as unwritten, also once the tags have wrapped (at
// 255). Group `from` writes t[15], the groups after it up to `quiet` leave it alone, and
// `quiet` reads it: reported, and nothing else is. 8192 groups: a runner takes them in
// chunks of 512, so group 1 runs right after group 0 on the same block, and group 300
// 255 groups after group 45, with the same tag once they wrapped.
TEST_F(CheckedShadowSpans, WhatAnEarlierGroupWroteIsNotWritten) {
  const char *src = R"CLC(__kernel void later(__global int* out, int from, int quiet) {
  __local int t[16];
  int lid = get_local_id(0), g = get_group_id(0);
  bool alone = g > from && g <= quiet; // t[15] left alone
  if (!alone || lid != 15) t[lid] = lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (!alone || g == quiet || lid != 0) out[get_global_id(0)] = t[15 - lid];
})CLC";
  cl_kernel k = checkedKernel(src, "later", "uninit");
  const size_t local = 16, n = 8192 * local;
  cl_mem out = buffer(n * sizeof(cl_int));
  for (auto [from, quiet] : {std::pair{0, 1}, {45, 300}, {8190, 8191}}) {
    setArgs(k, out, cl_int(from), cl_int(quiet));
    Outcome o = launch(k, n, local, true);
    expectOneReport(o, 7, "read of __local variable 't' (64 bytes)",
                    {"4 bytes at byte offset 60 (element 15)",
                     "work-item (0,0,0) in work-group (" + std::to_string(quiet) + ","});
    EXPECT_EQ(o.status, CL_COMPLETE);
    std::vector<cl_int> got = read<cl_int>(out, n);
    for (size_t i = 0; i < n; ++i)
      if (int(i / local) <= from || int(i / local) > quiet)
        ASSERT_EQ(got[i], cl_int(15 - i % local)) << i;
  }
}

// A read whose value is only stored is reported where it is stored (access_checks.cpp,
// reportedAt): a kernel that reads past what it wrote and drops those values (clFFT's
// transposes) is clean; one that stores an unwritten value is reported, at the read's
// line. Under bounds too, whose check merges the read's value with a skipped read's zero.
TEST_F(CheckedShadowSpans, AnUnwrittenValueIsReportedWhereItIsStored) {
  const char *src = R"CLC(__kernel void dropped(__global int* out, int keep) {
  __local int t[32];
  int lid = get_local_id(0);
  if (lid < 16) t[lid] = lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = t[31 - lid];
  if (31 - lid < keep) out[get_global_id(0)] = v;
})CLC";
  for (const char *checks : {"uninit", "bounds,uninit"}) {
    SCOPED_TRACE(checks);
    cl_kernel k = checkedKernel(src, "dropped", checks);
    cl_mem out = buffer(64 * sizeof(cl_int));
    setArgs(k, out, cl_int(16)); // only t[0..15], which were written, are stored
    Outcome clean = launch(k, 64, 32, false);
    EXPECT_EQ(clean.report.find("FiberCL: kernel"), std::string::npos) << clean.report;
    EXPECT_EQ(clean.status, CL_COMPLETE);
    std::vector<cl_int> got = read<cl_int>(out, 64);
    for (size_t i = 0; i < 64; ++i)
      if (31 - int(i % 32) < 16)
        ASSERT_EQ(got[i], 31 - cl_int(i % 32)) << i;
    setArgs(k, out, cl_int(32)); // work-items 0..15 store what nobody wrote
    Outcome o = launch(k, 64, 32, true);
    expectOneReport(
        o, 6, "read of __local variable 't' (128 bytes)",
        {"4 bytes at byte offset 124 (element 31)", "work-item (0,0,0) in work-group ("});
  }
}

} // namespace
} // namespace fcltest

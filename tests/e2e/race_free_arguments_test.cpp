// FIBERCL_CHECK=races leaves unrecorded the accesses of an argument the kernel only
// reads, or accesses at an offset of each work-item's own in a 1-D launch, when the
// launch finds no other argument overlapping it (compiler/src/passes/
// race_free_arguments.hpp, runtime/kernel.cpp's markRaceFree). What must still be
// reported: the same buffer given as two arguments, overlapping sub-buffers, an own
// offset in a 2-D launch, an offset of the local id alone.
#include <gtest/gtest.h>

#include <CL/cl.h>

#include <string>
#include <vector>

#include "checked_fixture.hpp"

namespace {

using fcltest::countOf;
using fcltest::ScopedEnv;

class RaceFreeArguments : public fcltest::Checked {
protected:
  // Launches `k` over `global` x `rows` work-items in groups of 16 x 1 (the command
  // goes on after a report).
  Outcome launch2D(cl_kernel k, size_t global, size_t rows) {
    const size_t g[2] = {global, rows}, l[2] = {16, 1};
    return launchND(k, 2, g, l, true);
  }
};

constexpr const char *kShift =
    R"CLC(__kernel void shift(__global const int* in, __global int* out) {
  size_t i = get_global_id(0);
  out[i] = in[i + 1];
})CLC";

// Apart, the two arguments are race-free and the result is the shifted input.
TEST_F(RaceFreeArguments, SeparateBuffersReportNothing) {
  cl_kernel k = checkedKernel(kShift, "shift", "races");
  const size_t n = 256;
  std::vector<cl_int> in(n + 1);
  for (size_t i = 0; i <= n; ++i)
    in[i] = cl_int(i * 7);
  cl_mem a = bufferFrom(in), b = buffer(n * sizeof(cl_int));
  setArgs(k, a, b);
  Outcome o = launch(k, n, 64, false);
  EXPECT_EQ(o.report, "");
  EXPECT_EQ(o.status, CL_COMPLETE);
  std::vector<cl_int> out = read<cl_int>(b, n);
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], in[i + 1]) << i;
}

// The same buffer as both arguments: work-item i reads what i + 1 writes.
TEST_F(RaceFreeArguments, OneBufferAsBothArgumentsIsARace) {
  cl_kernel k = checkedKernel(kShift, "shift", "races");
  const size_t n = 64;
  cl_mem both = bufferFrom(std::vector<cl_int>(n + 1, 3));
  setArgs(k, both, both);
  Outcome o = launch(k, n, 64, true);
  EXPECT_GE(countOf(o.report, "data race on __global memory"), 1u) << o.report;
  EXPECT_NE(o.report.find("<source>:3 (read of argument 0 'in')"), std::string::npos) << o.report;
  EXPECT_NE(o.report.find("<source>:3 (write of argument 1 'out')"), std::string::npos) << o.report;
}

// A sub-buffer of the buffer the other argument is: they overlap.
TEST_F(RaceFreeArguments, OverlappingSubBufferIsARace) {
  cl_kernel k = checkedKernel(kShift, "shift", "races");
  const size_t n = 64;
  cl_mem whole = bufferFrom(std::vector<cl_int>(n + 1, 3));
  cl_mem sub = firstBytesOf(whole, n * sizeof(cl_int));
  ASSERT_NE(sub, nullptr);
  setArgs(k, whole, sub);
  Outcome o = launch(k, n, 64, true);
  EXPECT_GE(countOf(o.report, "data race on __global memory"), 1u) << o.report;
}

// Each work-item's own element in 1-D; in 2-D, work-items (x, 0) and (x, 1) write the
// same element: a race between their groups.
TEST_F(RaceFreeArguments, OwnOffsetOfXIsARaceInA2DLaunch) {
  cl_kernel k = checkedKernel(R"CLC(__kernel void rows(__global int* out) {
  out[get_global_id(0)] = (int)get_global_id(1) + 1;
})CLC",
                              "rows", "races");
  const size_t n = 64;
  cl_mem out = buffer(n * sizeof(cl_int));
  setArgs(k, out);
  Outcome one = launch2D(k, n, 1);
  EXPECT_EQ(one.report, "");
  EXPECT_EQ(read<cl_int>(out, n), std::vector<cl_int>(n, 1));
  Outcome two = launch2D(k, n, 2);
  EXPECT_GE(countOf(two.report, "data race between work-groups on __global memory"), 1u)
      << two.report;
}

// `out[y * w + x]`: each work-item's own element while a row (w) is at least the
// launch's width; narrower rows overlap, and work-items of different rows write the
// same element.
TEST_F(RaceFreeArguments, RowsOfA2DLaunchAreOwnOffsetsUnlessTheyOverlap) {
  cl_kernel k = checkedKernel(R"CLC(__kernel void grid(uint w, __global int* out) {
  out[get_global_id(1) * w + get_global_id(0)] = (int)get_global_id(1) + 1;
})CLC",
                              "grid", "races");
  const size_t n = 32, rows = 4;
  cl_mem out = buffer(n * rows * sizeof(cl_int));
  setArgs(k, cl_uint(n), out);
  Outcome apart = launch2D(k, n, rows);
  EXPECT_EQ(apart.report, "");
  std::vector<cl_int> got = read<cl_int>(out, n * rows);
  for (size_t i = 0; i < n * rows; ++i)
    ASSERT_EQ(got[i], cl_int(i / n + 1)) << i;
  setArgs(k, cl_uint(n / 2), out);
  Outcome overlapping = launch2D(k, n, rows);
  EXPECT_GE(countOf(overlapping.report, "data race between work-groups on __global memory"), 1u)
      << overlapping.report;
}

// `out[y * get_global_size(0) + x]`: rows as wide as the launch, each work-item's own
// element (FIBERCL_DEBUG=check says so: its accesses go unrecorded). Nothing reported,
// the result right.
TEST_F(RaceFreeArguments, RowsAsWideAsTheLaunchAreOwnOffsets) {
  const char *src = R"CLC(__kernel void grid(__global int* out) {
  out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = (int)get_global_id(1) + 1;
})CLC";
  std::string said;
  cl_kernel k = checkedKernelSaying(src, "grid", "races", said, "check");
  EXPECT_NE(said.find("races: argument 0 at offset"), std::string::npos) << said;
  EXPECT_NE(said.find(": each work-item's own, in rows"), std::string::npos) << said;
  const size_t n = 32, rows = 4;
  cl_mem out = buffer(n * rows * sizeof(cl_int));
  setArgs(k, out);
  Outcome o = launch2D(k, n, rows);
  EXPECT_EQ(o.report, "");
  std::vector<cl_int> got = read<cl_int>(out, n * rows);
  for (size_t i = 0; i < n * rows; ++i)
    ASSERT_EQ(got[i], cl_int(i / n + 1)) << i;
}

// `(int)get_global_id(0)` is still each work-item's own; the local id alone is not:
// every group writes the same 16 elements.
TEST_F(RaceFreeArguments, LocalIdAloneIsNotAnOwnOffset) {
  cl_kernel k = checkedKernel(R"CLC(__kernel void own(__global int* a, __global int* b) {
  int i = (int)get_global_id(0);
  a[i] = i;
  b[get_local_id(0)] = (int)get_group_id(0);
})CLC",
                              "own", "races");
  const size_t n = 64;
  cl_mem a = buffer(n * sizeof(cl_int)), b = buffer(16 * sizeof(cl_int));
  setArgs(k, a, b);
  Outcome o = launch(k, n, 16, true);
  EXPECT_GE(countOf(o.report, "data race between work-groups on __global memory"), 1u) << o.report;
  EXPECT_EQ(o.report.find("argument 0 'a'"), std::string::npos) << o.report;
  std::vector<cl_int> got = read<cl_int>(a, n);
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(got[i], cl_int(i));
}

} // namespace

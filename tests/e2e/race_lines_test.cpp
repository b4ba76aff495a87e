// FIBERCL_CHECK=races with barrier regions: a versioned work-item loop records each
// plain __local access its work-items all make at a line of addresses once
// (checked_loop_versions.cpp, runtime/exec/races.cpp). What a line may meet is
// recorded byte by byte again, so reports are those of the per-byte record: the same
// ids, lines and warnings.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <unistd.h>

#include "checked_fixture.hpp"

namespace fcltest {
namespace {

class RaceLines : public Checked {
protected:
  cl_kernel racesKernel(const std::string &src, const char *name, std::string &said) {
    return checkedKernelSaying(src, name, "races", said);
  }
  static bool madeLines(const std::string &said) {
    return said.find("race records lines") != std::string::npos;
  }
  // Lines of a loop each work-item runs inside the work-item loop.
  static bool madeNestedLines(const std::string &said) {
    return said.find("in a loop inside)") != std::string::npos;
  }
  // One race on __local memory reported, the one `what` says.
  static void expectOneLocalRace(const Outcome &o, const std::string &what) {
    EXPECT_EQ(countOf(o.report, "data race on __local memory"), 1u) << o.report;
    EXPECT_NE(o.report.find(what), std::string::npos) << "no '" << what << "' in:\n" << o.report;
  }
};

// A 2-D tile with its halo loaded (a loop of its own in each work-item: a line for
// each of its iterations), then read at five neighbours (lines): nothing reported,
// the result right.
TEST_F(RaceLines, TileStencilIsCleanAndRight) {
  std::string said;
  cl_kernel k = racesKernel(kTileBlur, "blur", said);
  EXPECT_TRUE(madeLines(said)) << said;
  EXPECT_TRUE(madeNestedLines(said)) << said;
  expectBlurCleanAndRight(k, 16, 24);
}

// A 1-D group's work-items as the rows of a 2-D tile: `t[l / 8][l % 8]` is element l
// (FlattenedRowIndicesPass), so the accesses are lines; the transpose's reads are not,
// and are recorded per byte in their own round. Nothing reported, the result right.
TEST_F(RaceLines, RowsOfATileAreLines) {
  std::string said;
  cl_kernel k =
      racesKernel(R"CLC(__kernel void transpose(__global const int* in, __global int* out) {
  __local int t[8][8];
  int l = get_local_id(0);
  t[l / 8][l % 8] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[l % 8][l / 8] + t[l / 8][l % 8];
})CLC",
                  "transpose", said);
  EXPECT_TRUE(madeLines(said)) << said;
  std::vector<cl_int> input(128);
  for (size_t i = 0; i < input.size(); ++i)
    input[i] = cl_int(i * 3);
  cl_mem in = bufferFrom(input), out = buffer(input.size() * sizeof(cl_int));
  setArgs(k, in, out);
  Outcome o = launch(k, 128, 64, false);
  EXPECT_EQ(o.report.find("FiberCL: kernel"), std::string::npos) << o.report;
  EXPECT_EQ(o.status, CL_COMPLETE);
  std::vector<cl_int> got = read<cl_int>(out, input.size());
  for (int i = 0; i < 128; ++i) {
    int g = i / 64 * 64, l = i % 64;
    ASSERT_EQ(got[size_t(i)], input[size_t(g + l % 8 * 8 + l / 8)] + input[size_t(i)]) << i;
  }
}

// Two lines of one loop that meet: each work-item writes the word its left neighbour
// reads. Reported once, with the ids and line a per-byte record names.
TEST_F(RaceLines, NeighboursReadAndWriteInOneRound) {
  std::string said;
  cl_kernel k = racesKernel(R"CLC(__kernel void shift(__global int* out) {
  __local int t[65];
  int l = get_local_id(0);
  t[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = t[l + 1];
  t[l] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[l];
})CLC",
                            "shift", said);
  EXPECT_TRUE(madeLines(said)) << said;
  cl_mem out = buffer(128 * sizeof(cl_int));
  setArgs(k, out);
  Outcome o = launch(k, 128, 64, true);
  expectOneLocalRace(o, "work-item (1,0,0) writes 4 bytes at __local byte 4 that "
                        "work-item (0,0,0) read");
  EXPECT_NE(o.report.find("at <source>:7 ("), std::string::npos) << o.report;
  EXPECT_NE(o.report.find("the other access: <source>:6 ("), std::string::npos) << o.report;
  EXPECT_EQ(o.status, CL_COMPLETE); // FIBERCL_CHECK_CONTINUE=1
}

// Lines recorded by one loop, then met by the next loop of the round (the range split
// makes two of `if (l < 8)`): the later loop records per byte, and the earlier lines'
// bytes with what they wrote -- so a write of another value is a race, and a write of
// the same value a warning.
TEST_F(RaceLines, LaterLoopMeetsEarlierLines) {
  for (bool same : {false, true}) {
    SCOPED_TRACE(same ? "the same value" : "another value");
    std::string src = R"CLC(__kernel void twice(__global int* out) {
  __local int t[64];
  int l = get_local_id(0);
  if (l < 8)
    t[l + 8] = VALUE;
  t[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[l];
})CLC";
    src.replace(src.find("VALUE"), 5, same ? "l + 8" : "-1");
    std::string said;
    cl_kernel k = racesKernel(src, "twice", said);
    EXPECT_TRUE(madeLines(said)) << said;
    cl_mem out = buffer(64 * sizeof(cl_int));
    setArgs(k, out);
    Outcome o = launch(k, 64, 64, false);
    EXPECT_EQ(countOf(o.report, "FiberCL: kernel"), 1u) << o.report;
    expectOneLocalRace(o, "work-item (8,0,0) writes 4 bytes at __local byte 32 that "
                          "work-item (0,0,0) wrote");
    EXPECT_NE(o.report.find("at <source>:6 ("), std::string::npos) << o.report;
    EXPECT_NE(o.report.find("the other access: <source>:5 ("), std::string::npos) << o.report;
    if (same) {
      EXPECT_NE(o.report.find("warning: data race"), std::string::npos) << o.report;
      EXPECT_NE(o.report.find("the same value"), std::string::npos) << o.report;
      EXPECT_EQ(o.status, CL_COMPLETE);
    } else {
      EXPECT_EQ(o.report.find("warning"), std::string::npos) << o.report;
      EXPECT_EQ(o.status, -5 /* CL_OUT_OF_RESOURCES */);
    }
  }
}

// Every work-item writing one word is a line of step 0 that meets itself: reported as
// the per-byte record would (another value: a race; each work-item's own id differs).
TEST_F(RaceLines, EveryWorkItemWritingOneWord) {
  std::string said;
  cl_kernel k = racesKernel(R"CLC(__kernel void last(__global int* out) {
  __local int t[1];
  t[0] = get_local_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[0];
})CLC",
                            "last", said);
  cl_mem out = buffer(32 * sizeof(cl_int));
  setArgs(k, out);
  Outcome o = launch(k, 32, 32, false);
  expectOneLocalRace(o, "work-item (1,0,0) writes 4 bytes at __local byte 0 that "
                        "work-item (0,0,0) wrote");
  EXPECT_EQ(o.status, -5 /* CL_OUT_OF_RESOURCES */);
}

// A loop in each work-item with trips that differ between work-items (`i < n`, known
// at launch): the work-items making their k-th access are a run, one line each.
// Nothing reported, the result right, for counts that end inside the group and past it.
TEST_F(RaceLines, StridedLoopsWithUnevenTrips) {
  std::string said;
  cl_kernel k = racesKernel(R"CLC(__kernel void spread(int n, __global int* out) {
  __local int t[128];
  int l = get_local_id(0);
  for (int i = l; i < n; i += 32)
    t[i] = i * 3;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[l] + (l + 32 < n ? t[l + 32] : 0);
})CLC",
                            "spread", said);
  EXPECT_TRUE(madeNestedLines(said)) << said;
  for (cl_int n : {32, 40, 77, 128}) {
    SCOPED_TRACE(n);
    cl_mem out = buffer(64 * sizeof(cl_int));
    setArgs(k, n, out);
    Outcome o = launch(k, 64, 32, false);
    EXPECT_EQ(o.report.find("FiberCL: kernel"), std::string::npos) << o.report;
    EXPECT_EQ(o.status, CL_COMPLETE);
    std::vector<cl_int> got = read<cl_int>(out, 64);
    for (int g = 0; g < 64; ++g) {
      int l = g % 32;
      ASSERT_EQ(got[size_t(g)], l * 3 + (l + 32 < n ? (l + 32) * 3 : 0)) << g;
    }
  }
}

// A stride one short of the group: work-item 0's second access is work-item 63's
// first. The loop's lines meet, so it records per byte: one race, the one a per-byte
// record names.
TEST_F(RaceLines, StridedLoopWhoseIterationsMeet) {
  std::string said;
  cl_kernel k = racesKernel(R"CLC(__kernel void overlap(__global int* out) {
  __local int t[128];
  int l = get_local_id(0);
  for (int i = l; i < 100; i += 63)
    t[i] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[l];
})CLC",
                            "overlap", said);
  EXPECT_TRUE(madeNestedLines(said)) << said;
  cl_mem out = buffer(64 * sizeof(cl_int));
  setArgs(k, out);
  Outcome o = launch(k, 64, 64, false);
  expectOneLocalRace(o, "work-item (63,0,0) writes 4 bytes at __local byte 252 that "
                        "work-item (0,0,0) wrote");
  EXPECT_NE(o.report.find("at <source>:5 ("), std::string::npos) << o.report;
  EXPECT_EQ(o.status, -5 /* CL_OUT_OF_RESOURCES */);
}

// A strided loop's lines, then a read of the neighbour's word in the same round (a
// work-item loop of its own): the read meets the lines, so it records per byte, over
// the lines' bytes, and the race is reported once.
TEST_F(RaceLines, StridedLinesMetByAReadOfTheRound) {
  std::string said;
  cl_kernel k = racesKernel(R"CLC(__kernel void peek(__global int* out) {
  __local int t[65];
  int l = get_local_id(0);
  for (int i = l; i < 64; i += 32)
    t[i] = i;
  int v = t[l + 1];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = v + t[l];
})CLC",
                            "peek", said);
  EXPECT_TRUE(madeNestedLines(said)) << said;
  cl_mem out = buffer(32 * sizeof(cl_int));
  setArgs(k, out);
  Outcome o = launch(k, 32, 32, true);
  expectOneLocalRace(o, "work-item (0,0,0) reads 4 bytes at __local byte 4 that "
                        "work-item (1,0,0) wrote");
  EXPECT_NE(o.report.find("at <source>:6 ("), std::string::npos) << o.report;
  EXPECT_NE(o.report.find("the other access: <source>:5 ("), std::string::npos) << o.report;
  EXPECT_EQ(o.status, CL_COMPLETE); // FIBERCL_CHECK_CONTINUE=1
}

} // namespace
} // namespace fcltest

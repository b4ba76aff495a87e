// FIBERCL_CHECK=bounds on gathers whose offsets are not lines in the work-item's index:
// a tile loaded at `in[(y0 + i / 10) * w + x0 + i % 10]` by a loop each work-item runs
// (the fixture's kTileBlur). checked_loop_versions.cpp decides such a check before the
// work-item loops from the offset's range over every iteration (loop_value_ranges.cpp):
// interval arithmetic, with the tile loop's counter bounded by its exit test. The range
// over-approximates, so a tile at the grid's edge runs its checked copy, which reports
// as before: a bug there is reported once, with its line and ids; inside, nothing is.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "checked_fixture.hpp"

namespace fcltest {
namespace {

class CheckedRanges : public Checked {
protected:
  static bool rangedChecks(const std::string &said) {
    return said.find("by their offset's range") != std::string::npos;
  }
  static constexpr int kSide = 32; // the grid: 4x4 groups of 8x8

  // kTileBlur without one of its tests of the grid's edges, checked and launched on
  // the grid: its reports.
  Outcome blurWithout(const std::string &test, bool goOn) {
    std::string src = kTileBlur;
    src.replace(src.find(test), test.size(), "");
    std::string said;
    cl_kernel k = checkedKernelSaying(src, "blur", "bounds", said);
    EXPECT_TRUE(rangedChecks(said)) << said;
    cl_mem in = bufferFrom(std::vector<cl_int>(kSide * kSide, 1));
    cl_mem out = buffer(kSide * kSide * sizeof(cl_int));
    setArgs(k, cl_uint(kSide), cl_uint(kSide), in, out);
    size_t global[2] = {kSide, kSide}, local[2] = {8, 8};
    return launchND(k, 2, global, local, goOn);
  }
};

TEST_F(CheckedRanges, TileGatherIsCleanAndRight) {
  std::string said;
  cl_kernel k = checkedKernelSaying(kTileBlur, "blur", "bounds", said);
  EXPECT_TRUE(rangedChecks(said)) << said;
  expectBlurCleanAndRight(k, kSide, kSide);
}

// Without its `y < h` test the bottom halo row is read past the input: only the last
// row of groups does it, and only there does the range fail. Reported once: the first
// such read, of the row past the grid (elements 1024 to 1055), by a group of that row
// (which one first depends on the schedule).
TEST_F(CheckedRanges, AGatherPastTheLastRowIsReportedOnce) {
  Outcome o = blurWithout(" && y < (int)h", false);
  expectOneReport(o, kTileBlurGatherLine, "argument 2 'in'",
                  {"of an object of 4096 bytes", ",3,0) in work-group ("});
  size_t at = o.report.find("(element ");
  ASSERT_NE(at, std::string::npos) << o.report;
  long element = std::strtol(o.report.c_str() + at + 9, nullptr, 10);
  EXPECT_GE(element, 1024) << o.report;
  EXPECT_LT(element, 1024 + kSide) << o.report;
  EXPECT_NE(o.report.find(",3,0)\n"), std::string::npos) << o.report; // the group's row
  EXPECT_EQ(o.status, -5 /* CL_OUT_OF_RESOURCES */);
}

// Without its `y >= 0` test the top halo row is read before the input: the first row of
// groups, at a negative offset.
TEST_F(CheckedRanges, AGatherBeforeTheFirstRowIsReportedOnce) {
  Outcome o = blurWithout(" && y >= 0", true);
  expectOneReport(o, kTileBlurGatherLine, "argument 2 'in'", {",0,0)"});
  EXPECT_EQ(o.status, CL_COMPLETE); // FIBERCL_CHECK_CONTINUE=1
}

// `in[(lid + 1) / 2]` is not a line either: its range, [0, 32], decides it; clean. With
// `lid - 1` (unsigned) work-item 0 wraps to 2^32 - 1, halved past the input: the range
// must not take it as -1 / 2 (a division's dividend must not be negative). Reported.
const char *kHalves = R"CLC(__kernel void halves(__global const int* in, __global int* out) {
  uint lid = get_local_id(0);
  out[get_global_id(0)] = in[(lid + 1) / 2];
})CLC";

TEST_F(CheckedRanges, AHalvedIndexIsCleanAndRight) {
  std::string said;
  cl_kernel k = checkedKernelSaying(kHalves, "halves", "bounds", said);
  EXPECT_TRUE(rangedChecks(said)) << said;
  std::vector<cl_int> input(64);
  for (size_t i = 0; i < input.size(); ++i)
    input[i] = cl_int(i * 3);
  cl_mem in = bufferFrom(input), out = buffer(128 * sizeof(cl_int));
  setArgs(k, in, out);
  Outcome o = launch(k, 128, 64, false);
  EXPECT_EQ(o.report.find("FiberCL: kernel"), std::string::npos) << o.report;
  EXPECT_EQ(o.status, CL_COMPLETE);
  std::vector<cl_int> got = read<cl_int>(out, 128);
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_EQ(got[i], input[(i % 64 + 1) / 2]) << i;
}

TEST_F(CheckedRanges, AHalvedIndexThatWrapsIsReported) {
  std::string src = kHalves;
  src.replace(src.find("(lid + 1)"), 9, "(lid - 1)");
  std::string said;
  cl_kernel k = checkedKernelSaying(src, "halves", "bounds", said);
  EXPECT_TRUE(rangedChecks(said)) << said;
  cl_mem in = bufferFrom(std::vector<cl_int>(64, 1)), out = buffer(128 * sizeof(cl_int));
  setArgs(k, in, out);
  Outcome o = launch(k, 128, 64, true);
  expectOneReport(o, 3, "argument 0 'in'",
                  {"element 2147483647", "work-item (0,0,0) in work-group (0,0,0)"});
}

} // namespace
} // namespace fcltest

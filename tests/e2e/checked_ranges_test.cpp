// FIBERCL_CHECK=bounds on gathers whose offsets are not lines in the work-item's index:
// a tile loaded at `in[(y0 + i / 10) * w + x0 + i % 10]` by a loop each work-item runs
// (the fixture's kTileBlur). checked_loop_versions.cpp decides such a check before the
// work-item loops from the offset's range over every iteration (loop_value_ranges.cpp):
// interval arithmetic, with the tile loop's counter bounded by its exit test. The range
// over-approximates, so a tile at the grid's edge runs its checked copy, which reports
// as before: a bug there is reported once, with its line and ids; inside, nothing is.
#include <gtest/gtest.h>

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
// such read, in group (0, 3) cell 91 (cell 90 is left of the grid), element 1024, by the
// work-item that loads it in its second iteration: 91 - 64 = 27, (3, 3).
TEST_F(CheckedRanges, AGatherPastTheLastRowIsReportedOnce) {
  Outcome o = blurWithout(" && y < (int)h", false);
  expectOneReport(o, kTileBlurGatherLine, "argument 2 'in'",
                  {"byte offset 4096 (element 1024) of an object of 4096 bytes",
                   "work-item (3,3,0) in work-group (0,3,0)"});
  EXPECT_EQ(o.status, -5 /* CL_OUT_OF_RESOURCES */);
}

// Without its `y >= 0` test the top halo row is read before the input: the first row of
// groups, at a negative offset.
TEST_F(CheckedRanges, AGatherBeforeTheFirstRowIsReportedOnce) {
  Outcome o = blurWithout(" && y >= 0", true);
  expectOneReport(o, kTileBlurGatherLine, "argument 2 'in'", {",0,0)"});
  EXPECT_EQ(o.status, CL_COMPLETE); // FIBERCL_CHECK_CONTINUE=1
}

} // namespace
} // namespace fcltest

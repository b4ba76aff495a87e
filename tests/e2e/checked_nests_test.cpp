// FIBERCL_CHECK=bounds,uninit on a 2-D group's rows: the nest of work-item loops is
// versioned once (checked_loop_versions.cpp) when its checks are lines in both ids --
// the first work-item of the first row and the last of the last decide them all. When
// they do not hold, the rows run their checked copies, which report as before: the
// same report, once, with its line and ids.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <unistd.h>

#include "checked_fixture.hpp"

namespace fcltest {
namespace {

class CheckedNests : public Checked {
protected:
  static bool versionedANest(const std::string &said) {
    return said.find("(a nest: for all its rows)") != std::string::npos;
  }
  Outcome launch2D(cl_kernel k, size_t w, size_t h, bool goOn) {
    size_t global[2] = {w, h}, local[2] = {8, 8};
    return launchND(k, 2, global, local, goOn);
  }
};

// Each row writes its row of the tile, then reads its neighbours' rows: the reads'
// shadow is one span for the whole nest. Nothing reported, the result right.
const char *kRows = R"CLC(__kernel void rows(__global const int* in, __global int* out) {
  __local int t[10][8];
  int lx = get_local_id(0), ly = get_local_id(1);
  t[ly + 1][lx] = in[get_global_id(1) * 16 + get_global_id(0)];
  if (ly == 0) t[0][lx] = 0;
  if (ly == 7) t[9][lx] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(1) * 16 + get_global_id(0)] = t[ly][lx] + t[ly + 1][lx] + t[ly + 2][lx];
})CLC";

TEST_F(CheckedNests, RowsWrittenThenReadAreCleanAndRight) {
  std::string said;
  cl_kernel k = checkedKernelSaying(kRows, "rows", "bounds,uninit", said);
  EXPECT_TRUE(versionedANest(said)) << said;
  std::vector<cl_int> input(16 * 16);
  for (size_t i = 0; i < input.size(); ++i)
    input[i] = cl_int(i % 11);
  cl_mem in = bufferFrom(input), out = buffer(input.size() * sizeof(cl_int));
  setArgs(k, in, out);
  Outcome o = launch2D(k, 16, 16, false);
  EXPECT_EQ(o.report.find("FiberCL: kernel"), std::string::npos) << o.report;
  EXPECT_EQ(o.status, CL_COMPLETE);
  std::vector<cl_int> got = read<cl_int>(out, input.size());
  auto at = [&](int x, int y, int gy0) {
    return y < gy0 || y >= gy0 + 8 ? 0 : input[size_t(y * 16 + x)];
  };
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < 16; ++x) {
      int gy0 = y / 8 * 8;
      ASSERT_EQ(got[size_t(y * 16 + x)], at(x, y - 1, gy0) + at(x, y, gy0) + at(x, y + 1, gy0))
          << x << "," << y;
    }
}

// The last halo row left unwritten: the nest's span is not all written, so the rows run
// their checked copies, and the last row's read of it is reported once.
TEST_F(CheckedNests, AnUnwrittenRowIsReportedOnce) {
  std::string src = kRows;
  src.replace(src.find("  if (ly == 7) t[9][lx] = 0;\n"), 29, "");
  std::string said;
  cl_kernel k = checkedKernelSaying(src, "rows", "uninit", said);
  EXPECT_TRUE(versionedANest(said)) << said;
  cl_mem in = bufferFrom(std::vector<cl_int>(256, 1)), out = buffer(256 * sizeof(cl_int));
  setArgs(k, in, out);
  Outcome o = launch2D(k, 16, 16, true);
  expectOneReport(o, 7, "read of __local variable 't' (320 bytes)",
                  {"no work-item of the group wrote in this launch: 4 bytes at byte offset 288 "
                   "(element 72)",
                   "work-item (0,7,0) in work-group ("});
  EXPECT_EQ(o.status, CL_COMPLETE); // FIBERCL_CHECK_CONTINUE=1
}

// A read one row past the tile by the last row: out of bounds there only. The nest's
// last work-item fails its test, the rows run checked, and the one access is reported.
TEST_F(CheckedNests, ARowPastTheArrayIsReportedOnce) {
  std::string src = kRows;
  src.replace(src.find("t[ly + 2][lx];"), 14, "t[ly + 3][lx];");
  std::string said;
  cl_kernel k = checkedKernelSaying(src, "rows", "bounds", said);
  EXPECT_TRUE(versionedANest(said)) << said;
  cl_mem in = bufferFrom(std::vector<cl_int>(256, 1)), out = buffer(256 * sizeof(cl_int));
  setArgs(k, in, out);
  Outcome o = launch2D(k, 16, 16, false);
  expectOneReport(o, 8, "__local variable 't' (320 bytes)", {"work-item (0,7,0) in work-group ("});
  EXPECT_EQ(o.status, -5 /* CL_OUT_OF_RESOURCES */);
}

} // namespace
} // namespace fcltest

// The fixture of the checked-mode tests (checked_mode_test.cpp, group_races_test.cpp):
// kernels built with FIBERCL_CHECK, launched with stderr captured.
#pragma once

#include <gtest/gtest.h>

#include <CL/cl.h>
#include <cstdlib>
#include <unistd.h>

#include <string>
#include <vector>

#include "cl_test.hpp"

namespace fcltest {

// How many times `needle` occurs in `hay`.
inline size_t countOf(const std::string &hay, const std::string &needle) {
  size_t n = 0;
  for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1))
    ++n;
  return n;
}

class Checked : public CLTest {
protected:
  void SetUp() override {
    CLTest::SetUp();
    if (IsSkipped() || HasFatalFailure())
      return;
    if (!isFiberCL())
      GTEST_SKIP() << "FIBERCL_CHECK is FiberCL's";
  }

  // Builds `src` with FIBERCL_CHECK=`checks`.
  cl_kernel checkedKernel(const std::string &src, const char *name, const char *checks = "bounds") {
    ScopedEnv env({{"FIBERCL_CHECK", checks}});
    return kernel(build(src, "-cl-std=CL3.0"), name);
  }

  // Builds a fresh copy of `src` (a cached build says nothing) with FIBERCL_CHECK=`checks`
  // on barrier regions; `said`: what FIBERCL_DEBUG=`debug` printed (vectorize: which loops
  // were versioned, which recorded race lines; check: which arguments are race-free).
  cl_kernel checkedKernelSaying(const std::string &src, const char *name, const char *checks,
                                std::string &said, const char *debug = "vectorize") {
    ScopedEnv env({{"FIBERCL_DEBUG", debug}, {"FIBERCL_BARRIERS", "regions"}});
    std::string fresh =
        src + "\n// " + std::to_string(getpid()) + "." + std::to_string(std::rand());
    ::testing::internal::CaptureStderr();
    cl_kernel k = checkedKernel(fresh, name, checks);
    said = ::testing::internal::GetCapturedStderr();
    return k;
  }

  // A sub-buffer of `whole`'s first `bytes` (released at tear-down); null, with a
  // failure, if it cannot be made.
  cl_mem firstBytesOf(cl_mem whole, size_t bytes) {
    cl_buffer_region first{0, bytes};
    cl_int err = CL_SUCCESS;
    cl_mem sub =
        clCreateSubBuffer(whole, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &first, &err);
    EXPECT_CL(err);
    if (sub)
      atTearDown([sub] { clReleaseMemObject(sub); });
    return sub;
  }

  struct Outcome {
    cl_int status = 1;  // the command's final execution status
    std::string report; // what FiberCL said on stderr
  };
  // Launches `k` over `global`/`local` (1-D), with FIBERCL_CHECK_CONTINUE as given.
  Outcome launch(cl_kernel k, size_t global, size_t local, bool goOn) {
    return launchND(k, 1, &global, &local, goOn);
  }
  Outcome launchND(cl_kernel k, cl_uint dims, const size_t *global, const size_t *local,
                   bool goOn) {
    ScopedEnv env({{"FIBERCL_CHECK_CONTINUE", goOn ? "1" : "0"}});
    Outcome o;
    cl_event ev = nullptr;
    ::testing::internal::CaptureStderr();
    cl_int err = clEnqueueNDRangeKernel(queue_, k, dims, nullptr, global, local, 0, nullptr, &ev);
    clFinish(queue_);
    o.report = ::testing::internal::GetCapturedStderr();
    EXPECT_CL(err);
    if (ev) {
      keep(ev);
      clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof o.status, &o.status, nullptr);
    }
    return o;
  }

  // A 5-point blur of a w x h grid of ints in 8x8 groups. Each group loads its 10x10 tile
  // (a one-cell halo, 0 outside the grid) with 64 work-items, 100 cells: a loop of one or
  // two iterations in each work-item, a gather of the input. Then it reads 5 neighbours.
  static constexpr const char *kTileBlur = R"CLC(__kernel void blur(uint w, uint h,
                   __global const int* in, __global int* out) {
  __local int t[10][10];
  int lx = get_local_id(0), ly = get_local_id(1);
  int x0 = get_group_id(0) * 8 - 1, y0 = get_group_id(1) * 8 - 1;
  for (int i = ly * 8 + lx; i < 100; i += 64) {
    int x = x0 + i % 10, y = y0 + i / 10;
    t[i / 10][i % 10] = (x >= 0 && x < (int)w && y >= 0 && y < (int)h) ? in[y * w + x] : 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int tx = lx + 1, ty = ly + 1;
  out[get_global_id(1) * w + get_global_id(0)] =
      t[ty][tx] + t[ty - 1][tx] + t[ty + 1][tx] + t[ty][tx - 1] + t[ty][tx + 1];
})CLC";
  static constexpr int kTileBlurGatherLine = 8;

  // Runs `blur` (kTileBlur, built checked) over a w x h grid: nothing reported, the
  // result right.
  void expectBlurCleanAndRight(cl_kernel blur, int w, int h) {
    std::vector<cl_int> input(size_t(w * h));
    for (size_t i = 0; i < input.size(); ++i)
      input[i] = cl_int(i % 7);
    cl_mem in = bufferFrom(input), out = buffer(input.size() * sizeof(cl_int));
    setArgs(blur, cl_uint(w), cl_uint(h), in, out);
    size_t global[2] = {size_t(w), size_t(h)}, local[2] = {8, 8};
    Outcome o = launchND(blur, 2, global, local, false);
    EXPECT_EQ(o.report.find("FiberCL: kernel"), std::string::npos) << o.report;
    EXPECT_EQ(o.status, CL_COMPLETE);
    std::vector<cl_int> got = read<cl_int>(out, input.size());
    auto at = [&](int x, int y) {
      return x < 0 || x >= w || y < 0 || y >= h ? 0 : input[size_t(y * w + x)];
    };
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        ASSERT_EQ(got[size_t(y * w + x)],
                  at(x, y) + at(x, y - 1) + at(x, y + 1) + at(x - 1, y) + at(x + 1, y))
            << x << "," << y;
  }

  // The report of one bug: exactly one, naming the line, the object and the words given.
  void expectOneReport(const Outcome &o, int line, const std::string &object,
                       const std::vector<std::string> &words) {
    EXPECT_EQ(countOf(o.report, "FiberCL: kernel '"), 1u) << o.report;
    EXPECT_NE(o.report.find("at <source>:" + std::to_string(line) + " ("), std::string::npos)
        << o.report;
    EXPECT_NE(o.report.find(object), std::string::npos) << o.report;
    for (const std::string &w : words)
      EXPECT_NE(o.report.find(w), std::string::npos) << "no '" << w << "' in:\n" << o.report;
  }
};

} // namespace fcltest

// The compiler as an application sees it: FIBERCL_DEBUG=ir shows the final IR, and a
// barrier-free kernel's work-item loop is vectorised (DESIGN.md: barrier-free kernels
// pay nothing); the build cache returns the same program.
#include <cstdlib>
#include <string>
#include <unistd.h>

#include "cl_test.hpp"

namespace {

using namespace fcltest;

class Compiler : public CLTest {};

// A source no earlier run has cached: the IR is only dumped when it is built.
std::string uniqueVecadd() {
  return "// " + std::to_string(getpid()) + "-" + std::to_string(std::rand()) + R"CLC(
    __kernel void vecadd(__global const float* a, __global const float* b,
                         __global float* c) {
      size_t i = get_global_id(0);
      c[i] = a[i] + b[i];
    })CLC";
}

TEST_F(Compiler, BarrierFreeWorkItemLoopIsVectorised) {
  SKIP_UNLESS_FIBERCL("FIBERCL_DEBUG=ir is FiberCL's");
  setenv("FIBERCL_DEBUG", "ir", 1);
  testing::internal::CaptureStderr();
  BuildResult r = tryBuild(uniqueVecadd());
  std::string ir = testing::internal::GetCapturedStderr();
  unsetenv("FIBERCL_DEBUG");
  ASSERT_CL(r.err) << r.log;

  size_t begin = ir.find("define void @__fibercl_wg_vecadd(");
  ASSERT_NE(begin, std::string::npos) << "no work-group function in the IR dump:\n" << ir;
  std::string fn = ir.substr(begin, ir.find("\n}\n", begin) - begin);
  // A vectorised loop loads and adds whole vectors of floats across work-items.
  EXPECT_NE(fn.find("load <"), std::string::npos) << fn;
  EXPECT_NE(fn.find("x float>"), std::string::npos) << fn;
  EXPECT_NE(fn.find("fadd <"), std::string::npos) << fn;
  // And it calls nothing: no fiber runner, no per-work-item call.
  EXPECT_EQ(fn.find("__fibercl_host_run_items"), std::string::npos) << fn;
}

// Math must not stop the vectoriser: calls become the vector math library's variants
// (SLEEF under the x86 vector function ABI, e.g. _ZGVdN8v_sinf for 8 floats).
TEST_F(Compiler, MathCallsInTheWorkItemLoopAreVectorised) {
  SKIP_UNLESS_FIBERCL("FIBERCL_DEBUG=ir is FiberCL's");
  setenv("FIBERCL_DEBUG", "ir", 1);
  testing::internal::CaptureStderr();
  BuildResult r = tryBuild("// " + std::to_string(getpid()) + std::to_string(std::rand()) +
                           R"CLC(
    __kernel void waves(__global const float* x, __global float* y) {
      size_t i = get_global_id(0);
      y[i] = exp(x[i]) * sin(x[i]) + atan2(x[i], 1.5f) + cbrt(x[i] + 2.0f);
    })CLC");
  std::string ir = testing::internal::GetCapturedStderr();
  unsetenv("FIBERCL_DEBUG");
  ASSERT_CL(r.err) << r.log;
  size_t begin = ir.find("define void @__fibercl_wg_waves(");
  ASSERT_NE(begin, std::string::npos) << ir;
  std::string fn = ir.substr(begin, ir.find("\n}\n", begin) - begin);
  for (const char *f : {"v_expf(", "v_sinf(", "vv_atan2f(", "v_cbrtf("})
    EXPECT_NE(fn.find(f), std::string::npos) << "no vector variant " << f << " in\n" << fn;
}

TEST_F(Compiler, KernelWithBarrierGoesThroughTheFiberRunner) {
  SKIP_UNLESS_FIBERCL("FIBERCL_DEBUG=ir is FiberCL's");
  setenv("FIBERCL_DEBUG", "ir", 1);
  testing::internal::CaptureStderr();
  BuildResult r = tryBuild("// " + std::to_string(getpid()) + std::to_string(std::rand()) +
                           R"CLC(
    __kernel void shift(__global int* data, __local int* tmp) {
      size_t l = get_local_id(0);
      tmp[l] = data[get_global_id(0)];
      barrier(CLK_LOCAL_MEM_FENCE);
      data[get_global_id(0)] = tmp[(l + 1) % get_local_size(0)];
    })CLC");
  std::string ir = testing::internal::GetCapturedStderr();
  unsetenv("FIBERCL_DEBUG");
  ASSERT_CL(r.err) << r.log;
  size_t begin = ir.find("define void @__fibercl_wg_shift(");
  ASSERT_NE(begin, std::string::npos) << ir;
  std::string fn = ir.substr(begin, ir.find("\n}\n", begin) - begin);
  EXPECT_NE(fn.find("__fibercl_host_run_items"), std::string::npos) << fn;
}

TEST_F(Compiler, RebuildOfTheSameSourceGivesAWorkingProgram) {
  const std::string src = R"CLC(
    __kernel void twice(__global int* d) { d[get_global_id(0)] *= 2; })CLC";
  for (int round = 0; round < 2; ++round) {
    cl_kernel k = kernelFrom(src, "twice");
    std::vector<int> v = {1, 2, 3, 4};
    cl_mem m = bufferFrom(v);
    ASSERT_CL(clSetKernelArg(k, 0, sizeof m, &m));
    size_t n = v.size();
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
    EXPECT_EQ(read<int>(m, 4), (std::vector<int>{2, 4, 6, 8})) << "round " << round;
  }
}

} // namespace

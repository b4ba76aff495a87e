// The compiler as an application sees it: FIBERCL_DEBUG=ir shows the final IR, and a
// barrier-free kernel's work-item loop is vectorised (DESIGN.md: barrier-free kernels
// pay nothing); the build cache returns the same program.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <unistd.h>

#include <functional>

#include "cl_test.hpp"

namespace {

using namespace fcltest;

class Compiler : public CLTest {
protected:
  // Builds `src` (made unique, so that no cache hides the build) with FIBERCL_DEBUG=ir
  // and returns kernel `name`; `ir` receives the final IR the build printed.
  cl_kernel kernelWithIr(const std::string &src, const char *name, std::string &ir,
                         const std::string &options = "", const char *debug = "ir") {
    return kernel(buildReporting(src, debug, ir, options), name);
  }
};

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

// FIBERCL_PERF_MAP=1: the JIT's functions are named in /tmp/perf-<pid>.map for `perf`,
// one "start size name" line each, the kernel's work-group function among them.
TEST_F(Compiler, PerfMapNamesTheWorkGroupFunctions) {
  SKIP_UNLESS_FIBERCL("FIBERCL_PERF_MAP is FiberCL's");
  const std::string path = "/tmp/perf-" + std::to_string(getpid()) + ".map";
  std::filesystem::remove(path);
  setenv("FIBERCL_PERF_MAP", "1", 1);
  cl_kernel k = kernel(build(uniqueVecadd()), "vecadd");
  cl_mem a = bufferFrom(std::vector<float>(64, 1.0f)), b = bufferFrom(std::vector<float>(64, 2.0f)),
         c = buffer(64 * sizeof(float));
  setArgs(k, a, b, c);
  run(k, {64});
  unsetenv("FIBERCL_PERF_MAP");
  EXPECT_EQ(read<float>(c, 64), std::vector<float>(64, 3.0f));
  std::ifstream map(path);
  ASSERT_TRUE(map.good()) << "no " << path;
  bool found = false;
  for (std::string line; std::getline(map, line);) {
    std::istringstream fields(line);
    std::string start, size, name;
    ASSERT_TRUE(bool(fields >> std::hex >> start >> size >> name)) << line;
    EXPECT_GT(std::stoull(size, nullptr, 16), 0u) << line;
    found = found || name == "__fibercl_wg_vecadd";
  }
  EXPECT_TRUE(found) << "no __fibercl_wg_vecadd in " << path;
  std::filesystem::remove(path);
}

// Issue 28: PyOpenCL's bessel_y killed the process in LLVM's LoopDeletion. The masked
// work-item vectoriser, widening an inner loop whose header phis start from uniform
// values that are not constants, put the splats of those values between the header's
// phis: invalid IR, which FIBERCL_DEBUG=verify names. The same shape: a loop whose trip
// count differs per work-item, around a loop with two phis starting from an argument.
TEST_F(Compiler, InnerLoopStartingFromUniformValuesInADivergentLoopIsValid) {
  SKIP_UNLESS_FIBERCL("FIBERCL_DEBUG=verify and =vectorize are FiberCL's");
  const std::string src = R"CLC(
    __kernel void nested(__global float *out, __global const int *trips, float scale,
                         int limit) {
      int i = get_global_id(0);
      float acc = 0.0f;
      for (int k = 0; k < trips[i]; ++k) {
        float f = scale;
        int m = limit;
        do {
          f *= 1.5f + (float)(i & 3);
          m -= 1;
        } while (f < 100.0f && m > 0);
        acc += f + (float)m;
      }
      out[i] = acc;
    })CLC";
  std::string said;
  cl_kernel k = kernel(buildReporting(src, "verify,vectorize", said), "nested");
  EXPECT_NE(said.find("masked-vectorised"), std::string::npos)
      << "the test must reach the masked vectoriser:\n"
      << said;
  const size_t n = 64;
  std::vector<int> trips(n);
  for (size_t i = 0; i < n; ++i)
    trips[i] = int(i % 5);
  cl_mem out = buffer(n * sizeof(float));
  cl_mem t = bufferFrom(trips);
  setArgs(k, out, t, 0.75f, 6);
  run(k, {n});
  std::vector<float> got = read<float>(out, n);
  for (size_t i = 0; i < n; ++i) {
    float acc = 0.0f;
    for (int r = 0; r < trips[i]; ++r) {
      float f = 0.75f;
      int m = 6;
      do {
        f *= 1.5f + (float)(i & 3);
        m -= 1;
      } while (f < 100.0f && m > 0);
      acc += f + (float)m;
    }
    EXPECT_EQ(got[i], acc) << "work-item " << i;
  }
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

// pow, cosh, acosh & co. are vectorised through a guard: SLEEF's variants return inf
// for some finite results at the edges of the ranges, and the guard recomputes those
// lanes with the C library. The edge cases below are the ones the CTS found.
TEST_F(Compiler, GuardedMathVariantsKeepTheEdgesOfTheRanges) {
  SKIP_UNLESS_FIBERCL("FIBERCL_DEBUG=ir is FiberCL's");
  const char *src = R"CLC(
    __kernel void edges(__global const float* x, __global const float* y,
                        __global float* p, __global float* c, __global float* a,
                        __global const double* xd, __global const double* yd,
                        __global double* pd) {
      size_t i = get_global_id(0);
      p[i] = pow(x[i], y[i]);
      c[i] = cosh(x[i]);
      a[i] = acosh(x[i]);
      pd[i] = pow(xd[i], yd[i]);
    })CLC";
  std::string ir;
  cl_kernel k = kernelWithIr(src, "edges", ir);
  size_t begin = ir.find("define void @__fibercl_wg_edges(");
  ASSERT_NE(begin, std::string::npos) << ir;
  std::string fn = ir.substr(begin, ir.find("\n}\n", begin) - begin);
  for (const char *f : {"vv_powf(", "v_coshf(", "v_acoshf(", "vv_pow("}) {
    size_t at = fn.find(f);
    ASSERT_NE(at, std::string::npos) << "no vector variant " << f << " in\n" << fn;
    EXPECT_NE(fn.rfind("@__fibercl_guarded__ZGV", at), std::string::npos) << f << " unguarded";
    EXPECT_LT(at - fn.rfind("@__fibercl_guarded__ZGV", at), 32u) << f << " unguarded";
  }

  const size_t n = 1024;
  std::vector<float> x(n), y(n);
  std::vector<double> xd(n), yd(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = float(int(i % 7) - 3) * 1.7f + 0.3f;
    y[i] = float(i % 5) * 0.9f - 1.0f;
    xd[i] = x[i];
    yd[i] = y[i];
  }
  x[5] = -0x1.62e6p+6f; // cosh: finite, just below the overflow threshold
  x[9] = 0x1p121f;      // acosh: huge argument
  xd[17] = -DBL_MAX;    // pow(-DBL_MAX, 1) == -DBL_MAX
  yd[17] = 1;
  cl_mem dx = bufferFrom(x), dy = bufferFrom(y), dxd = bufferFrom(xd), dyd = bufferFrom(yd);
  cl_mem dp = buffer(n * 4), dc = buffer(n * 4), da = buffer(n * 4), dpd = buffer(n * 8);
  setArgs(k, dx, dy, dp, dc, da, dxd, dyd, dpd);
  run(k, {n}, {256});
  std::vector<float> p = read<float>(dp, n), c = read<float>(dc, n), a = read<float>(da, n);
  std::vector<double> pd = read<double>(dpd, n);
  auto close = [](double got, double want, double tolerance) {
    return (std::isnan(got) && std::isnan(want)) || got == want ||
           std::fabs(got - want) <= tolerance * std::fabs(want);
  };
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) {
    // Well inside the bounds (pow 16 ulp, cosh 4, acosh 4): these compare the lanes.
    if (!close(p[i], std::pow(x[i], y[i]), 1e-6) && bad++ < 5)
      ADD_FAILURE() << "pow(" << x[i] << ", " << y[i] << ") = " << p[i];
    if (!close(c[i], std::cosh(x[i]), 1e-6) && bad++ < 5)
      ADD_FAILURE() << "cosh(" << x[i] << ") = " << c[i];
    if (!close(a[i], std::acosh(x[i]), 1e-6) && bad++ < 5)
      ADD_FAILURE() << "acosh(" << x[i] << ") = " << a[i];
    if (!close(pd[i], std::pow(xd[i], yd[i]), 1e-14) && bad++ < 5)
      ADD_FAILURE() << "pow(" << xd[i] << ", " << yd[i] << ") = " << pd[i];
  }
  EXPECT_EQ(bad, 0u);
}

// Explicit vector calls (pow(float8) in the source) go through the same guards.
TEST_F(Compiler, ExplicitVectorCallsOfGuardedFunctionsAreGuarded) {
  SKIP_UNLESS_FIBERCL("FIBERCL_DEBUG=ir is FiberCL's");
  const char *src = R"CLC(
    __kernel void edges8(__global const float8* x, __global float8* p, __global float8* c,
                         float one) {
      size_t i = get_global_id(0);
      p[i] = pow(x[i], (float8)one);
      c[i] = cosh(x[i]);
    })CLC";
  std::string ir;
  cl_kernel k = kernelWithIr(src, "edges8", ir);
  // A call of a guard for each: "call <8 x float> @__fibercl_guarded__ZGVdN8vv_powf(" with
  // AVX2; the width and ISA letter depend on the host.
  auto callsGuard = [&](const std::string &variant) {
    std::istringstream lines(ir);
    for (std::string line; std::getline(lines, line);)
      if (line.find(" call ") != std::string::npos &&
          line.find("@__fibercl_guarded__ZGV") != std::string::npos &&
          line.find(variant) != std::string::npos)
        return true;
    return false;
  };
  EXPECT_TRUE(callsGuard("vv_powf(")) << ir;
  EXPECT_TRUE(callsGuard("v_coshf("));

  const size_t n = 64; // float8s
  std::vector<float> x(8 * n);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = float(int(i % 13) - 6) * 1.3f;
  x[21] = -0x1.62e6p+6f; // cosh: finite, just below the overflow threshold
  x[30] = -FLT_MAX;      // pow(-FLT_MAX, 1) == -FLT_MAX
  cl_mem dx = bufferFrom(x), dp = buffer(x.size() * 4), dc = buffer(x.size() * 4);
  setArgs(k, dx, dp, dc, 1.0f);
  run(k, {n});
  std::vector<float> p = read<float>(dp, x.size()), c = read<float>(dc, x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(p[i], x[i]) << "pow(" << x[i] << ", 1)";
    float want = std::cosh(x[i]);
    if (std::isinf(want))
      EXPECT_EQ(c[i], want) << "cosh(" << x[i] << ")";
    else
      EXPECT_LE(std::fabs(c[i] - want), 1e-6f * want) << "cosh(" << x[i] << ")";
  }
}

// The work-group function of a kernel with a barrier: barrier regions (a loop per
// region, frames from the runtime) by default, the fiber runner under
// FIBERCL_BARRIERS=fibers.
std::string barrierEntryIr(const std::string &barriersEnv, BuildResult &r,
                           const std::function<BuildResult(const std::string &)> &build) {
  if (barriersEnv.empty())
    unsetenv("FIBERCL_BARRIERS");
  else
    setenv("FIBERCL_BARRIERS", barriersEnv.c_str(), 1);
  setenv("FIBERCL_DEBUG", "ir", 1);
  testing::internal::CaptureStderr();
  r = build("// " + std::to_string(getpid()) + std::to_string(std::rand()) + R"CLC(
    __kernel void shift(__global int* data, __local int* tmp) {
      size_t l = get_local_id(0);
      tmp[l] = data[get_global_id(0)];
      barrier(CLK_LOCAL_MEM_FENCE);
      data[get_global_id(0)] = tmp[(l + 1) % get_local_size(0)];
    })CLC");
  std::string ir = testing::internal::GetCapturedStderr();
  unsetenv("FIBERCL_DEBUG");
  unsetenv("FIBERCL_BARRIERS");
  size_t begin = ir.find("define void @__fibercl_wg_shift(");
  if (begin == std::string::npos)
    return "<no work-group function>\n" + ir;
  return ir.substr(begin, ir.find("\n}\n", begin) - begin);
}

TEST_F(Compiler, KernelWithBarrierRunsAsRegionsOrOnFibers) {
  SKIP_UNLESS_FIBERCL("FIBERCL_DEBUG=ir and FIBERCL_BARRIERS are FiberCL's");
  auto build = [&](const std::string &src) { return tryBuild(src); };
  BuildResult r;
  std::string regions = barrierEntryIr("", r, build);
  ASSERT_CL(r.err) << r.log;
  EXPECT_NE(regions.find("__fibercl_host_regions_begin"), std::string::npos) << regions;
  EXPECT_EQ(regions.find("__fibercl_host_run_items"), std::string::npos) << regions;
  EXPECT_EQ(regions.find("__fibercl_host_barrier"), std::string::npos) << regions;
  // One region ends at the barrier: both loops are vectorised.
  EXPECT_NE(regions.find(" x i32>"), std::string::npos) << regions;

  std::string fibers = barrierEntryIr("fibers", r, build);
  ASSERT_CL(r.err) << r.log;
  EXPECT_NE(fibers.find("__fibercl_host_run_items"), std::string::npos) << fibers;
  EXPECT_EQ(fibers.find("__fibercl_host_regions_begin"), std::string::npos) << fibers;
}

// The yield calls of a kernel's final IR: "w" for a waiting site (FIBERCL_SITE_WAITING,
// printed as a negative i32), "p" for any other, in order.
std::string yieldSites(const std::string &ir, const std::string &kernel) {
  size_t begin = ir.find("define void @__fibercl_wg_" + kernel + "(");
  if (begin == std::string::npos)
    return "<no entry>";
  std::string fn = ir.substr(begin, ir.find("\n}\n", begin) - begin);
  std::string kinds;
  for (size_t at = fn.find("@__fibercl_host_yield(ptr"); at != std::string::npos;
       at = fn.find("@__fibercl_host_yield(ptr", at + 1)) {
    size_t arg = fn.find("i32 ", at);
    kinds += fn[arg + 4] == '-' ? 'w' : 'p';
  }
  return kinds;
}

// Loops that may wait for another group get waiting yield points; delay loops and
// bounded polls do not (a group running them makes progress); __local atomics never
// yield and are plain operations.
TEST_F(Compiler, SpinLoopsAreToldFromLoopsThatEndByThemselves) {
  SKIP_UNLESS_FIBERCL("FIBERCL_DEBUG=ir is FiberCL's");
  std::string ir;
  kernelWithIr(R"CLC(
    __kernel void spin(__global volatile atomic_int* flag) {
      while (atomic_load_explicit(flag, memory_order_acquire, memory_scope_device) == 0) {}
    }
    __kernel void bounded(__global volatile atomic_int* flag, __global int* out, int n) {
      volatile int sink = 0;
      for (int i = 0; i < n; ++i) sink++;            // delay loop
      int seen = 0;
      for (int i = 0; i < 4000 && !seen; ++i)          // bounded poll
        seen = atomic_load_explicit(flag, memory_order_acquire, memory_scope_device);
      out[get_global_id(0)] = seen + sink;
    }
    __kernel void local_only(__global int* out) {
      __local int c;
      if (get_local_id(0) == 0) c = 0;
      barrier(CLK_LOCAL_MEM_FENCE);
      atomic_inc(&c);
      barrier(CLK_LOCAL_MEM_FENCE);
      out[get_global_id(0)] = c;
    })CLC",
               "spin", ir, "-cl-std=CL2.0");
  std::string spin = yieldSites(ir, "spin"), bounded = yieldSites(ir, "bounded"),
              localOnly = yieldSites(ir, "local_only");
  EXPECT_NE(spin.find('w'), std::string::npos) << "spin: " << spin;
  EXPECT_FALSE(bounded.empty()) << "the poll's atomic load is a yield point";
  EXPECT_EQ(bounded.find('w'), std::string::npos) << "bounded: " << bounded;
  EXPECT_EQ(localOnly, "") << "__local atomics never yield";
  size_t begin = ir.find("define void @__fibercl_wg_local_only(");
  ASSERT_NE(begin, std::string::npos);
  std::string fn = ir.substr(begin, ir.find("\n}\n", begin) - begin);
  EXPECT_EQ(fn.find("atomicrmw"), std::string::npos) << "a __local atomic stays locked";
}

// A loop whose bound is re-read from global memory every iteration (a seq_cst atomic in
// the body keeps LLVM from hoisting the load) still ends by itself when a counter of the
// loop passes it: hashcat's loops (`for (il_pos = 0; il_pos < kernel_param->il_cnt;
// il_pos += VECT_SIZE)`, atomic_inc on a hit) ran under the scheduler 6x slower before.
// A counter that only moves when another group's flag says so still waits.
TEST_F(Compiler, LoopsCountingToABoundInGlobalMemoryEndByThemselves) {
  SKIP_UNLESS_FIBERCL("FIBERCL_DEBUG=ir,yields is FiberCL's");
  std::string out;
  kernelWithIr(R"CLC(
    typedef struct { uint count; uint target; } params_t;
    __kernel void counted(__global const params_t* p, __global const uint* words,
                          volatile __global uint* hits) {
      for (uint i = 0; i < p->count; i += 16)
        if (words[i] * 2654435761u == p->target) atomic_inc(hits);
    }
    __kernel void down(__global const params_t* p, volatile __global uint* hits) {
      for (int i = (int)p->count; i >= (int)p->target; i -= 3)
        atomic_add(hits, i);
    }
    __kernel void waits(__global const params_t* p, volatile __global uint* flag) {
      uint i = 0;
      while (i < p->count)
        if (atomic_add(flag, 0) != 0) ++i;   // moves only once another group set the flag
    })CLC",
               "counted", out, "", "ir,yields");
  EXPECT_EQ(yieldSites(out, "counted").find('w'), std::string::npos) << yieldSites(out, "counted");
  EXPECT_EQ(yieldSites(out, "down").find('w'), std::string::npos) << yieldSites(out, "down");
  EXPECT_NE(yieldSites(out, "waits").find('w'), std::string::npos) << yieldSites(out, "waits");
  EXPECT_NE(out.find("kernel 'counted': yield points; no loop may wait"), std::string::npos);
  EXPECT_NE(out.find("kernel 'waits': yield points; 1 loop(s) may wait for another group: loop at"),
            std::string::npos);
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

namespace {

uint64_t directoryBytes(const std::string &dir, size_t *files) {
  uint64_t total = 0;
  *files = 0;
  for (const auto &e : std::filesystem::directory_iterator(dir)) {
    total += e.file_size();
    ++*files;
  }
  return total;
}

// The on-disk cache is bounded (FIBERCL_CACHE_MAX_MB): building many programs evicts
// the least recently used entries, and keeps the recent ones (a rebuild is a hit).
TEST_F(Compiler, DiskCacheStaysUnderItsSizeLimit) {
  SKIP_UNLESS_FIBERCL("FIBERCL_CACHE_DIR and FIBERCL_CACHE_MAX_MB are FiberCL's");
  char pattern[] = "/tmp/fibercl-cache-test-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  const std::string dir = pattern;
  setenv("FIBERCL_CACHE_DIR", dir.c_str(), 1);
  setenv("FIBERCL_CACHE_MAX_MB", "1", 1);
  std::string last;
  size_t files = 0;
  uint64_t peak = 0;
  for (int i = 0; i < 120; ++i) { // ~11 KB each: 1.3 MB in all
    last = uniqueVecadd() + "\n// padding " + std::string(4096, 'x') + "\n";
    BuildResult r = tryBuild(last);
    if (r.err != CL_SUCCESS) {
      ADD_FAILURE() << r.log;
      break;
    }
    peak = std::max(peak, directoryBytes(dir, &files));
  }
  uint64_t bytes = directoryBytes(dir, &files);
  BuildResult again = tryBuild(last); // must be a cache hit: recent entries stay
  unsetenv("FIBERCL_CACHE_MAX_MB");
  unsetenv("FIBERCL_CACHE_DIR");
  std::filesystem::remove_all(dir);
  EXPECT_CL(again.err);
  // One check per limit/16 bytes stored: the directory may exceed the limit by that.
  EXPECT_LE(peak, (1u << 20) + (1u << 20) / 16 + 64 * 1024) << "peak size";
  EXPECT_GT(bytes, 0u);
  EXPECT_GT(files, 0u);
  std::cout << "[ INFO     ] cache after 120 builds: " << bytes << " bytes in " << files
            << " files (peak " << peak << ")\n";
}

} // namespace

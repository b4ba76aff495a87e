// The cost of delegation (issue 11): the same calls and the same kernel on PoCL
// directly and on PoCL through FiberCL's forwarding platform, in one process, both
// through the ICD loader. Run with OCL_ICD_VENDORS naming fibercl.icd and pocl.icd and
// FIBERCL_DELEGATE=pocl (bench/run_forwarding.sh). Prints medians and ratios.
#include <fibercl/cl_host/errors.hpp>
#include <fibercl/cl_host/platforms.hpp>
#include <fibercl/cl_host/programs.hpp>
#include <fibercl/cl_host/session.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void fail(const char *what, cl_int err) {
  std::fprintf(stderr, "%s failed: %s (%d)\n", what, fibercl::cl_host::errorName(err), err);
  std::exit(1);
}
#define CHECK(call)                                                                                \
  do {                                                                                             \
    cl_int e_ = (call);                                                                            \
    if (e_ != CL_SUCCESS)                                                                          \
      fail(#call, e_);                                                                             \
  } while (0)

cl_device_id deviceOf(const std::string &platformName) {
  if (cl_device_id device = fibercl::cl_host::findDevice(platformName))
    return device;
  std::fprintf(stderr, "platform \"%s\" not found (OCL_ICD_VENDORS, FIBERCL_DELEGATE=pocl?)\n",
               platformName.c_str());
  std::exit(2);
}

const char *kSource = R"(
kernel void scale(global float *x, float a) { x[get_global_id(0)] *= a; }
kernel void mandel(global int *out, int width, int iters) {
  int px = get_global_id(0), py = get_global_id(1);
  float cx = -2.0f + 3.0f * px / width, cy = -1.5f + 3.0f * py / width;
  float zx = 0, zy = 0; int n = 0;
  while (n < iters && zx * zx + zy * zy < 4.0f) {
    float t = zx * zx - zy * zy + cx; zy = 2 * zx * zy + cy; zx = t; ++n;
  }
  out[py * width + px] = n;
}
)";

struct Setup {
  cl_context ctx;
  cl_command_queue q;
  cl_kernel scale, mandel;
  cl_mem buf, out;
  explicit Setup(cl_device_id d) {
    cl_program prog = nullptr;
    try {
      ctx = fibercl::cl_host::createContext(d);
      q = fibercl::cl_host::createQueue(ctx, d);
      fibercl::cl_host::BuildResult built = fibercl::cl_host::tryBuild(ctx, d, {kSource});
      if (built.err != CL_SUCCESS) {
        std::fprintf(stderr, "%s\n", built.log.c_str());
        fail("clBuildProgram", built.err);
      }
      prog = built.program;
    } catch (const fibercl::cl_host::Error &e) {
      std::fprintf(stderr, "%s\n", e.what());
      std::exit(1);
    }
    cl_int err;
    scale = clCreateKernel(prog, "scale", &err);
    CHECK(err);
    mandel = clCreateKernel(prog, "mandel", &err);
    CHECK(err);
    buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1024 * sizeof(float), nullptr, &err);
    CHECK(err);
    out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1024 * 1024 * sizeof(int), nullptr, &err);
    CHECK(err);
    clReleaseProgram(prog);
  }
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Nanoseconds per call of `fn`, median of `reps` batches of `n` calls.
template <class F> double perCall(F fn, int n = 200000, int reps = 9) {
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    auto start = Clock::now();
    for (int i = 0; i < n; ++i)
      fn();
    t.push_back(std::chrono::duration<double, std::nano>(Clock::now() - start).count() / n);
  }
  return median(t);
}

} // namespace

int main() {
  Setup pocl(deviceOf("Portable Computing Language"));
  Setup fwd(deviceOf("FiberCL -> Portable Computing Language"));
  std::printf("%-44s %12s %12s %10s %8s\n", "", "PoCL", "via FiberCL", "overhead", "ratio");
  auto row = [](const char *what, double a, double b, const char *unit) {
    std::printf("%-44s %9.1f %s %9.1f %s %7.1f %s %8.3f\n", what, a, unit, b, unit, b - a, unit,
                b / a);
  };

  // Per call: the forwarding layer's translation on top of the vendor's work.
  size_t numArgs = 0;
  for (Setup *s : {&pocl, &fwd})
    (void)s;
  auto info = [&](Setup &s) {
    cl_uint n;
    clGetKernelInfo(s.scale, CL_KERNEL_NUM_ARGS, sizeof n, &n, nullptr);
    numArgs += n;
  };
  row("clGetKernelInfo(NUM_ARGS)", perCall([&] { info(pocl); }), perCall([&] { info(fwd); }), "ns");
  float a = 1.0f;
  row("clSetKernelArg(float)", perCall([&] { clSetKernelArg(pocl.scale, 1, sizeof a, &a); }),
      perCall([&] { clSetKernelArg(fwd.scale, 1, sizeof a, &a); }), "ns");
  row("clSetKernelArg(cl_mem)",
      perCall([&] { clSetKernelArg(pocl.scale, 0, sizeof pocl.buf, &pocl.buf); }),
      perCall([&] { clSetKernelArg(fwd.scale, 0, sizeof fwd.buf, &fwd.buf); }), "ns");
  row("clRetainMemObject + clReleaseMemObject", perCall([&] {
        clRetainMemObject(pocl.buf);
        clReleaseMemObject(pocl.buf);
      }),
      perCall([&] {
        clRetainMemObject(fwd.buf);
        clReleaseMemObject(fwd.buf);
      }),
      "ns");

  // A small kernel enqueued back to back (FiberCL keeps each launch's event for
  // deadlock reports): per enqueue, then clFinish.
  auto launches = [](Setup &s) {
    size_t g = 1024;
    const int n = 2000;
    auto start = Clock::now();
    for (int i = 0; i < n; ++i)
      clEnqueueNDRangeKernel(s.q, s.scale, 1, nullptr, &g, nullptr, 0, nullptr, nullptr);
    clFinish(s.q);
    return std::chrono::duration<double, std::micro>(Clock::now() - start).count() / n;
  };
  std::vector<double> lp, lf;
  for (int r = 0; r < 7; ++r) {
    lp.push_back(launches(pocl));
    lf.push_back(launches(fwd));
  }
  row("enqueue+run of a 1024-item kernel", median(lp), median(lf), "us");

  // A real kernel: 1024x1024 Mandelbrot, 256 iterations, blocking read.
  auto mandel = [](Setup &s) {
    int width = 1024, iters = 256;
    CHECK(clSetKernelArg(s.mandel, 0, sizeof s.out, &s.out));
    CHECK(clSetKernelArg(s.mandel, 1, sizeof width, &width));
    CHECK(clSetKernelArg(s.mandel, 2, sizeof iters, &iters));
    size_t g[2] = {1024, 1024};
    std::vector<int> host(1024 * 1024);
    auto start = Clock::now();
    CHECK(clEnqueueNDRangeKernel(s.q, s.mandel, 2, nullptr, g, nullptr, 0, nullptr, nullptr));
    CHECK(clEnqueueReadBuffer(s.q, s.out, CL_TRUE, 0, host.size() * sizeof(int), host.data(), 0,
                              nullptr, nullptr));
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    long inside = std::count(host.begin(), host.end(), 256);
    return std::make_pair(ms, inside);
  };
  std::vector<double> mp, mf;
  long insideP = -1, insideF = -2;
  for (int r = 0; r < 15; ++r) { // alternate, so drift on a shared machine hits both
    auto p = mandel(pocl);
    auto f = mandel(fwd);
    mp.push_back(p.first);
    mf.push_back(f.first);
    insideP = p.second;
    insideF = f.second;
  }
  if (insideP != insideF) {
    std::fprintf(stderr, "results differ: %ld vs %ld points inside\n", insideP, insideF);
    return 1;
  }
  row("mandelbrot 1024x1024x256 + read", median(mp), median(mf), "ms");
  std::printf("(medians; per-call rows: 9 batches of 200000 calls; launches: 7 x 2000; "
              "mandelbrot: 15 alternating runs, %ld points inside on both)\n",
              insideP);
  return numArgs ? 0 : 1;
}

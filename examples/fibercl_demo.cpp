// fibercl_demo: lists the OpenCL platforms and devices visible through the ICD
// loader, picks FiberCL (or the platform named by argv[1] / $FIBERCL_DEMO_PLATFORM),
// runs a few kernels (vecadd, a local-memory reduction with barrier(), a mandelbrot
// summary), checks them against host results and prints a short report with timings.
// Exit status: 0 if every check passed, 1 otherwise, 2 if the platform is missing.
//
// A plain OpenCL program on purpose: it shows how an application uses FiberCL through
// the ICD loader and is meant to be read as one, so it does its own host set-up rather
// than use cl_host/ (which the rest of the tree shares).
#include <CL/cl.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

int g_failures = 0;

#define CHECK_CL(expr)                                                                             \
  do {                                                                                             \
    cl_int err_ = (expr);                                                                          \
    if (err_ != CL_SUCCESS) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s -> error %d\n", __FILE__, __LINE__, #expr, err_);            \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

std::string platformString(cl_platform_id p, cl_platform_info what) {
  size_t n = 0;
  clGetPlatformInfo(p, what, 0, nullptr, &n);
  std::string s(n, '\0');
  clGetPlatformInfo(p, what, n, s.data(), nullptr);
  if (!s.empty() && s.back() == '\0')
    s.pop_back();
  return s;
}

std::string deviceString(cl_device_id d, cl_device_info what) {
  size_t n = 0;
  clGetDeviceInfo(d, what, 0, nullptr, &n);
  std::string s(n, '\0');
  clGetDeviceInfo(d, what, n, s.data(), nullptr);
  if (!s.empty() && s.back() == '\0')
    s.pop_back();
  return s;
}

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void report(const char *name, bool ok, double run_ms, const std::string &extra) {
  std::printf("  %-12s %-4s %9.2f ms   %s\n", name, ok ? "ok" : "FAIL", run_ms, extra.c_str());
  if (!ok)
    ++g_failures;
}

const char *kSource = R"CLC(
__kernel void vecadd(__global const float* a, __global const float* b, __global float* c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}

__kernel void reduce(__global const uint* in, __global uint* partial, __local uint* tmp) {
  uint lid = get_local_id(0);
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) tmp[lid] += tmp[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial[get_group_id(0)] = tmp[0];
}

#pragma OPENCL FP_CONTRACT OFF
__kernel void mandelbrot(__global uint* iters, uint width, uint height, uint max_iter) {
  uint x = get_global_id(0), y = get_global_id(1);
  float cr = -2.0f + 3.0f * (float)x / (float)width;
  float ci = -1.5f + 3.0f * (float)y / (float)height;
  float zr = 0.0f, zi = 0.0f;
  uint n = 0;
  while (n < max_iter && zr * zr + zi * zi <= 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++n;
  }
  iters[y * width + x] = n;
}
)CLC";

} // namespace

int main(int argc, char **argv) {
  std::string want = "FiberCL";
  if (const char *e = std::getenv("FIBERCL_DEMO_PLATFORM"))
    want = e;
  if (argc > 1)
    want = argv[1];

  cl_uint np = 0;
  if (clGetPlatformIDs(0, nullptr, &np) != CL_SUCCESS || np == 0) {
    std::fprintf(stderr, "no OpenCL platforms found (OCL_ICD_VENDORS=%s)\n",
                 std::getenv("OCL_ICD_VENDORS") ? std::getenv("OCL_ICD_VENDORS") : "<unset>");
    return 2;
  }
  std::vector<cl_platform_id> ps(np);
  CHECK_CL(clGetPlatformIDs(np, ps.data(), nullptr));
  cl_platform_id platform = nullptr;
  std::printf("OpenCL platforms:\n");
  for (cl_platform_id p : ps) {
    std::string name = platformString(p, CL_PLATFORM_NAME);
    std::printf("  %s%s (%s)\n", name == want ? "* " : "  ", name.c_str(),
                platformString(p, CL_PLATFORM_VERSION).c_str());
    cl_uint nd = 0;
    clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd);
    std::vector<cl_device_id> ds(nd);
    if (nd)
      clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, nd, ds.data(), nullptr);
    for (cl_device_id d : ds)
      std::printf("        device: %s (%s)\n", deviceString(d, CL_DEVICE_NAME).c_str(),
                  deviceString(d, CL_DEVICE_VERSION).c_str());
    if (name == want && !platform)
      platform = p;
  }
  if (!platform) {
    std::fprintf(stderr, "platform \"%s\" not found\n", want.c_str());
    return 2;
  }

  cl_device_id dev;
  CHECK_CL(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, nullptr));
  cl_uint units = 0;
  clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, nullptr);
  std::printf("\nUsing \"%s\" / %s, %u compute units\n", want.c_str(),
              deviceString(dev, CL_DEVICE_NAME).c_str(), units);
  cl_int err;
  cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
  CHECK_CL(err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, nullptr, &err);
  CHECK_CL(err);

  auto t0 = std::chrono::steady_clock::now();
  cl_program prog = clCreateProgramWithSource(ctx, 1, &kSource, nullptr, &err);
  CHECK_CL(err);
  err = clBuildProgram(prog, 1, &dev, "", nullptr, nullptr);
  if (err != CL_SUCCESS) {
    size_t n = 0;
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
    std::string log(n, '\0');
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
    std::fprintf(stderr, "build failed (%d):\n%s\n", err, log.c_str());
    return 1;
  }
  double build_ms = msSince(t0);
  std::printf("\nProgram build: %.1f ms\n  kernel       ok?    run time   details\n", build_ms);

  // vecadd
  {
    const size_t n = 1 << 22;
    std::vector<float> a(n), b(n), c(n);
    for (size_t i = 0; i < n; ++i) {
      a[i] = static_cast<float>(i % 1000);
      b[i] = 0.5f * static_cast<float>(i % 777);
    }
    cl_kernel k = clCreateKernel(prog, "vecadd", &err);
    CHECK_CL(err);
    cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, a.data(), &err);
    cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, b.data(), &err);
    cl_mem dc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * 4, nullptr, &err);
    CHECK_CL(err);
    CHECK_CL(clSetKernelArg(k, 0, sizeof da, &da));
    CHECK_CL(clSetKernelArg(k, 1, sizeof db, &db));
    CHECK_CL(clSetKernelArg(k, 2, sizeof dc, &dc));
    auto t = std::chrono::steady_clock::now();
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
    CHECK_CL(clFinish(q));
    double ms = msSince(t);
    CHECK_CL(clEnqueueReadBuffer(q, dc, CL_TRUE, 0, n * 4, c.data(), 0, nullptr, nullptr));
    bool ok = true;
    for (size_t i = 0; i < n && ok; ++i)
      ok = c[i] == a[i] + b[i];
    char extra[96];
    std::snprintf(extra, sizeof extra, "%zu floats, %.2f GB/s", n, 3.0 * n * 4 / (ms * 1e6));
    report("vecadd", ok, ms, extra);
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseMemObject(dc);
    clReleaseKernel(k);
  }

  // reduction with barrier()
  {
    const size_t local = 256, groups = 4096, n = local * groups;
    std::vector<cl_uint> in(n), partial(groups);
    unsigned long long want_sum = 0;
    for (size_t i = 0; i < n; ++i) {
      in[i] = static_cast<cl_uint>((i * 2654435761u) % 1000);
      want_sum += in[i];
    }
    cl_kernel k = clCreateKernel(prog, "reduce", &err);
    CHECK_CL(err);
    cl_mem din =
        clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, in.data(), &err);
    cl_mem dp = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, groups * 4, nullptr, &err);
    CHECK_CL(err);
    CHECK_CL(clSetKernelArg(k, 0, sizeof din, &din));
    CHECK_CL(clSetKernelArg(k, 1, sizeof dp, &dp));
    CHECK_CL(clSetKernelArg(k, 2, local * 4, nullptr));
    auto t = std::chrono::steady_clock::now();
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, nullptr, &n, &local, 0, nullptr, nullptr));
    CHECK_CL(clFinish(q));
    double ms = msSince(t);
    CHECK_CL(
        clEnqueueReadBuffer(q, dp, CL_TRUE, 0, groups * 4, partial.data(), 0, nullptr, nullptr));
    unsigned long long sum = 0;
    for (cl_uint v : partial)
      sum += v;
    char extra[96];
    std::snprintf(extra, sizeof extra, "sum %llu (want %llu), %zu groups of %zu", sum, want_sum,
                  groups, local);
    report("reduce", sum == want_sum, ms, extra);
    clReleaseMemObject(din);
    clReleaseMemObject(dp);
    clReleaseKernel(k);
  }

  // mandelbrot
  {
    const cl_uint w = 512, h = 512, max_iter = 256;
    std::vector<cl_uint> it(w * h);
    cl_kernel k = clCreateKernel(prog, "mandelbrot", &err);
    CHECK_CL(err);
    cl_mem d = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, it.size() * 4, nullptr, &err);
    CHECK_CL(err);
    CHECK_CL(clSetKernelArg(k, 0, sizeof d, &d));
    CHECK_CL(clSetKernelArg(k, 1, sizeof w, &w));
    CHECK_CL(clSetKernelArg(k, 2, sizeof h, &h));
    CHECK_CL(clSetKernelArg(k, 3, sizeof max_iter, &max_iter));
    const size_t g[2] = {w, h}, l[2] = {16, 16};
    auto t = std::chrono::steady_clock::now();
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 2, nullptr, g, l, 0, nullptr, nullptr));
    CHECK_CL(clFinish(q));
    double ms = msSince(t);
    CHECK_CL(clEnqueueReadBuffer(q, d, CL_TRUE, 0, it.size() * 4, it.data(), 0, nullptr, nullptr));
    // Host reference (contraction is off on both sides); allow a few boundary pixels.
    size_t inside = 0, mismatches = 0;
    for (cl_uint y = 0; y < h; ++y)
      for (cl_uint x = 0; x < w; ++x) {
        float cr = -2.0f + 3.0f * static_cast<float>(x) / static_cast<float>(w);
        float ci = -1.5f + 3.0f * static_cast<float>(y) / static_cast<float>(h);
        float zr = 0, zi = 0;
        cl_uint n = 0;
        while (n < max_iter && zr * zr + zi * zi <= 4.0f) {
          float t2 = zr * zr - zi * zi + cr;
          zi = 2.0f * zr * zi + ci;
          zr = t2;
          ++n;
        }
        if (it[y * w + x] != n)
          ++mismatches;
        if (it[y * w + x] == max_iter)
          ++inside;
      }
    char extra[128];
    std::snprintf(extra, sizeof extra, "%ux%u, %zu points inside, %zu differ from host", w, h,
                  inside, mismatches);
    report("mandelbrot", mismatches <= w * h / 1000 && inside > 0, ms, extra);
    clReleaseMemObject(d);
    clReleaseKernel(k);
  }

  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  std::printf("\n%s\n", g_failures ? "FAILED" : "all checks passed");
  return g_failures ? 1 : 0;
}

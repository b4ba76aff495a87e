// fibercl_bench: every benchmark runs on FiberCL and on PoCL ("Portable Computing
// Language") in the same process, both found through the ICD loader (start it with
// OCL_ICD_VENDORS pointing at a directory holding both .icd files; bench/run.sh does).
// Benchmarks are named <benchmark>/<FiberCL|PoCL>. Each checks its result and aborts
// on a mismatch, so a fast wrong answer never makes it into a table.
//
// Times are wall-clock (UseRealTime): the host thread mostly waits in clFinish.
#include <benchmark/benchmark.h>
#include <fibercl/cl_host/errors.hpp>
#include <fibercl/cl_host/platforms.hpp>
#include <fibercl/cl_host/programs.hpp>
#include <fibercl/cl_host/session.hpp>

#include "bench_kernels.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

using fibercl::bench::kReduceSrc;
using fibercl::bench::kStencilSrc;
using fibercl::bench::kStreamSrc;

[[noreturn]] void die(const std::string &msg) {
  std::fprintf(stderr, "fibercl_bench: %s\n", msg.c_str());
  std::fflush(stderr);
  std::abort();
}

void ck(cl_int err, const char *what) {
  if (err != CL_SUCCESS)
    die(std::string(what) + " failed with " + fibercl::cl_host::errorName(err) + " (" +
        std::to_string(err) + ")");
}

// One OpenCL platform under test: device, context, in-order queue, and programs
// built on first use (outside the timed loops).
struct Target {
  std::string label; // "FiberCL" or "PoCL"
  cl_device_id dev = nullptr;
  cl_context ctx = nullptr;
  cl_command_queue q = nullptr;
  std::map<std::string, cl_program> programs;
  std::map<std::string, cl_kernel> kernels;

  cl_program buildProgram(const std::string &src, const std::string &opts = "") {
    fibercl::cl_host::BuildResult built = fibercl::cl_host::tryBuild(ctx, dev, {src}, opts);
    if (built.err != CL_SUCCESS)
      die(label + ": build failed (" + fibercl::cl_host::errorName(built.err) + "):\n" + built.log);
    return built.program;
  }
  cl_kernel kernel(const std::string &key, const char *src, const char *name,
                   const std::string &opts = "") {
    auto it = kernels.find(key);
    if (it != kernels.end())
      return it->second;
    cl_program &p = programs[src];
    if (!p)
      p = buildProgram(src, opts);
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    ck(err, "clCreateKernel");
    kernels[key] = k;
    return k;
  }
  cl_mem buffer(size_t bytes, const void *init = nullptr) {
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                              const_cast<void *>(init), &err);
    ck(err, "clCreateBuffer");
    return m;
  }
  template <typename T> std::vector<T> read(cl_mem m, size_t n) {
    std::vector<T> v(n);
    ck(clEnqueueReadBuffer(q, m, CL_TRUE, 0, n * sizeof(T), v.data(), 0, nullptr, nullptr),
       "clEnqueueReadBuffer");
    return v;
  }
  void enqueue(cl_kernel k, cl_uint dims, const size_t *g, const size_t *l) {
    ck(clEnqueueNDRangeKernel(q, k, dims, nullptr, g, l, 0, nullptr, nullptr),
       "clEnqueueNDRangeKernel");
  }
  void finish() { ck(clFinish(q), "clFinish"); }
};

template <typename T> void setArg(cl_kernel k, cl_uint i, const T &v) {
  ck(clSetKernelArg(k, i, sizeof(T), &v), "clSetKernelArg");
}

std::vector<std::unique_ptr<Target>> g_targets;

// ---- kernels ---------------------------------------------------------------------

const char *kMandelSrc = R"CLC(
#pragma OPENCL FP_CONTRACT OFF
__kernel void mandelbrot(__global uint* out, uint w, uint h, uint max_iter) {
  uint x = get_global_id(0), y = get_global_id(1);
  float cr = -2.0f + 2.5f * (float)x / (float)w;
  float ci = -1.25f + 2.5f * (float)y / (float)h;
  float zr = 0.0f, zi = 0.0f;
  uint n = 0;
  while (n < max_iter && zr * zr + zi * zi <= 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++n;
  }
  out[y * w + x] = n;
}
)CLC";

// Math-heavy and barrier-free: the work-item loop must stay vectorised through the calls.
const char *kMathSrc = R"CLC(
__kernel void math_f32(__global const float* x, __global float* y) {
  size_t i = get_global_id(0);
  float v = x[i];
  y[i] = exp(v) * sin(v) + sqrt(v) + log(v + 1.0f) * cos(v);
}
// The functions whose vector variants go through a guard (compiler/src/vector_math.cpp).
__kernel void math_pow_f32(__global const float* x, __global float* y) {
  size_t i = get_global_id(0);
  float v = x[i];
  y[i] = pow(v, 1.7f) + cosh(v * 0.5f) + log1p(v);
}
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void math_f64(__global const double* x, __global double* y) {
  size_t i = get_global_id(0);
  double v = x[i];
  y[i] = exp(v) * sin(v) + sqrt(v) + log(v + 1.0) * cos(v);
}
)CLC";

// The same reduction twice (issue 31): sums of sub-group-sized runs of the input; once
// with sub_group_reduce_add, once through local memory with a tree of barriers over runs
// of `width` (the device's sub-group size for the first kernel, a power of two). Each
// run's sum is added with one atomic to its group's sum -- with a cache line per group
// (groups on two cores adding to one line would measure the line's trips between them)
// -- or, in the *_store kernels, stored: the reductions without the atomics.
const char *kSubGroupReduceSrc = R"CLC(
uint local_run_sum(__global const uint* in, __local uint* tmp, uint width) {
  uint lid = get_local_id(0);
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = width / 2; s > 0; s >>= 1) {
    if ((lid & (width - 1)) < s) tmp[lid] += tmp[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return tmp[lid];
}
__kernel void sg_reduce(__global const uint* in, __global uint* sums) {
  uint s = sub_group_reduce_add(in[get_global_id(0)]);
  if (get_sub_group_local_id() == 0) atomic_add(&sums[16 * get_group_id(0)], s);
}
__kernel void local_reduce(__global const uint* in, __global uint* sums, __local uint* tmp,
                           uint width) {
  uint s = local_run_sum(in, tmp, width);
  if ((get_local_id(0) & (width - 1)) == 0) atomic_add(&sums[16 * get_group_id(0)], s);
}
__kernel void sg_reduce_store(__global const uint* in, __global uint* runs) {
  uint s = sub_group_reduce_add(in[get_global_id(0)]);
  if (get_sub_group_local_id() == 0) runs[get_global_id(0) / get_max_sub_group_size()] = s;
}
__kernel void local_reduce_store(__global const uint* in, __global uint* runs, __local uint* tmp,
                                 uint width) {
  uint s = local_run_sum(in, tmp, width);
  if ((get_local_id(0) & (width - 1)) == 0) runs[get_global_id(0) / width] = s;
}
)CLC";

const char *kSgemmSrc = R"CLC(
#define TS 16
__kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void sgemm(uint n, __global const float* A, __global const float* B, __global float* C) {
  __local float As[TS][TS];
  __local float Bs[TS][TS];
  uint lx = get_local_id(0), ly = get_local_id(1);
  uint col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (uint t = 0; t < n; t += TS) {
    As[ly][lx] = A[row * n + t + lx];
    Bs[ly][lx] = B[(t + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < TS; ++k) acc += As[ly][k] * Bs[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
}
)CLC";

// 5-point stencil: each 16x16 group loads its 18x18 tile (the block plus a one-cell
// halo; cells outside the grid read as 0) into __local memory, then computes from it.

const char *kBarrierLoopSrc = R"CLC(
__kernel void barrier_loop(__global uint* data, __local uint* buf, int iters) {
  uint lid = get_local_id(0), l = get_local_size(0);
  uint v = data[get_global_id(0)];
  for (int t = 0; t < iters; ++t) {
    buf[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = buf[lid + 1 == l ? 0 : lid + 1] + lid; // no division: measure the barrier
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  data[get_global_id(0)] = v;
}
)CLC";

// ---- benchmarks ------------------------------------------------------------------

// One untimed warm-up launch (some implementations compile per local size on first
// use), then one launch + clFinish per benchmark iteration. Returns the launches made,
// warm-up included.
int64_t timeLaunches(benchmark::State &state, Target *t, cl_kernel k, cl_uint dims, const size_t *g,
                     const size_t *l) {
  t->enqueue(k, dims, g, l);
  t->finish();
  int64_t runs = 1;
  for (auto _ : state) {
    t->enqueue(k, dims, g, l);
    t->finish();
    ++runs;
  }
  return runs;
}

void BM_VecAdd(benchmark::State &state, Target *t) {
  const size_t n = 16u << 20;
  std::vector<float> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 4096);
    b[i] = static_cast<float>(i % 1000) * 0.25f;
  }
  cl_kernel k = t->kernel("vecadd", kStreamSrc, "vecadd");
  cl_mem da = t->buffer(n * 4, a.data()), db = t->buffer(n * 4, b.data()), dc = t->buffer(n * 4);
  setArg(k, 0, da);
  setArg(k, 1, db);
  setArg(k, 2, dc);
  timeLaunches(state, t, k, 1, &n, nullptr);
  std::vector<float> c = t->read<float>(dc, n);
  for (size_t i = 0; i < n; ++i)
    if (c[i] != a[i] + b[i])
      die(t->label + " vecadd: wrong result at " + std::to_string(i));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * n * 12));
  clReleaseMemObject(da);
  clReleaseMemObject(db);
  clReleaseMemObject(dc);
}

void BM_Saxpy(benchmark::State &state, Target *t) {
  const size_t n = 16u << 20;
  std::vector<float> x(n), y(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 1024);
    y[i] = 1.0f;
  }
  const float alpha = 0.5f;
  cl_kernel k = t->kernel("saxpy", kStreamSrc, "saxpy");
  cl_mem dx = t->buffer(n * 4, x.data()), dy = t->buffer(n * 4, y.data());
  setArg(k, 0, alpha);
  setArg(k, 1, dx);
  setArg(k, 2, dy);
  int64_t runs = timeLaunches(state, t, k, 1, &n, nullptr);
  // y = 1 + runs * alpha * x, exact in float for these magnitudes (x < 1024, runs small)
  std::vector<float> r = t->read<float>(dy, n);
  for (size_t i = 0; i < n; i += 97) {
    float want = 1.0f;
    for (int64_t j = 0; j < runs; ++j)
      want = alpha * x[i] + want;
    if (std::fabs(r[i] - want) > 1e-4f * std::fabs(want))
      die(t->label + " saxpy: wrong result at " + std::to_string(i));
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * n * 12));
  clReleaseMemObject(dx);
  clReleaseMemObject(dy);
}

const std::vector<cl_uint> &mandelReference(cl_uint w, cl_uint h, cl_uint max_iter) {
  static std::vector<cl_uint> ref;
  if (!ref.empty())
    return ref;
  ref.resize(static_cast<size_t>(w) * h);
  for (cl_uint y = 0; y < h; ++y)
    for (cl_uint x = 0; x < w; ++x) {
      float cr = -2.0f + 2.5f * static_cast<float>(x) / static_cast<float>(w);
      float ci = -1.25f + 2.5f * static_cast<float>(y) / static_cast<float>(h);
      float zr = 0, zi = 0;
      cl_uint n = 0;
      while (n < max_iter && zr * zr + zi * zi <= 4.0f) {
        float tt = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = tt;
        ++n;
      }
      ref[static_cast<size_t>(y) * w + x] = n;
    }
  return ref;
}

void BM_Mandelbrot(benchmark::State &state, Target *t) {
  const cl_uint w = 1024, h = 1024, max_iter = 256;
  cl_kernel k = t->kernel("mandelbrot", kMandelSrc, "mandelbrot");
  cl_mem d = t->buffer(static_cast<size_t>(w) * h * 4);
  setArg(k, 0, d);
  setArg(k, 1, w);
  setArg(k, 2, h);
  setArg(k, 3, max_iter);
  const size_t g[2] = {w, h}, l[2] = {16, 16};
  timeLaunches(state, t, k, 2, g, l);
  std::vector<cl_uint> r = t->read<cl_uint>(d, static_cast<size_t>(w) * h);
  const std::vector<cl_uint> &ref = mandelReference(w, h, max_iter);
  size_t diff = 0;
  for (size_t i = 0; i < r.size(); ++i)
    diff += r[i] != ref[i];
  if (diff > r.size() / 1000)
    die(t->label + " mandelbrot: " + std::to_string(diff) + " pixels differ from the host");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * w * h));
  clReleaseMemObject(d);
}

// Over 4M values in [0, 8), checked against the host's libm with a relative tolerance
// well above the ULP bounds: `Pow` false: y = exp(x) sin(x) + sqrt(x) + log(x + 1) cos(x);
// true: y = pow(x, 1.7) + cosh(x / 2) + log1p(x).
template <typename T, bool Pow = false> void BM_Math(benchmark::State &state, Target *t) {
  const size_t n = 4u << 20;
  std::vector<T> x(n);
  for (size_t i = 0; i < n; ++i)
    x[i] = static_cast<T>(8.0 * static_cast<double>(i) / n);
  const char *name = Pow ? "math_pow_f32" : sizeof(T) == 4 ? "math_f32" : "math_f64";
  cl_kernel k = t->kernel(name, kMathSrc, name);
  cl_mem dx = t->buffer(n * sizeof(T), x.data());
  cl_mem dy = t->buffer(n * sizeof(T));
  setArg(k, 0, dx);
  setArg(k, 1, dy);
  const size_t l = 256;
  t->enqueue(k, 1, &n, &l);
  t->finish();
  for (auto _ : state) {
    t->enqueue(k, 1, &n, &l);
    t->finish();
  }
  std::vector<T> r = t->read<T>(dy, n);
  for (size_t i = 0; i < n; i += 61) {
    T v = x[i];
    T want = Pow ? std::pow(v, T(1.7)) + std::cosh(v * T(0.5)) + std::log1p(v)
                 : std::exp(v) * std::sin(v) + std::sqrt(v) + std::log(v + T(1)) * std::cos(v);
    if (!(std::fabs(r[i] - want) <= T(1e-5) * (std::fabs(want) + 1)))
      die(t->label + " " + name + ": wrong result at " + std::to_string(i));
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
  clReleaseMemObject(dx);
  clReleaseMemObject(dy);
}

void BM_Reduction(benchmark::State &state, Target *t) {
  const size_t local = 256, n = 16u << 20, groups = n / local;
  std::vector<cl_uint> in(n);
  uint64_t want = 0;
  for (size_t i = 0; i < n; ++i) {
    in[i] = static_cast<cl_uint>((i * 2654435761u) & 0xFFFF); // group sums fit in 32 bits
    want += in[i];
  }
  cl_kernel k = t->kernel("reduce", kReduceSrc, "reduce");
  cl_mem din = t->buffer(n * 4, in.data()), dp = t->buffer(groups * 4);
  setArg(k, 0, din);
  setArg(k, 1, dp);
  ck(clSetKernelArg(k, 2, local * 4, nullptr), "clSetKernelArg(local)");
  timeLaunches(state, t, k, 1, &n, &local);
  std::vector<cl_uint> p = t->read<cl_uint>(dp, groups);
  uint64_t sum = 0;
  for (cl_uint v : p)
    sum += v;
  if (sum != want)
    die(t->label + " reduction: wrong sum");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * n * 4));
  clReleaseMemObject(din);
  clReleaseMemObject(dp);
}

// Whether the device has sub-groups (cl_khr_subgroups); PoCL's CPU device has none.
bool hasSubGroups(Target *t) {
  size_t bytes = 0;
  if (clGetDeviceInfo(t->dev, CL_DEVICE_EXTENSIONS, 0, nullptr, &bytes) != CL_SUCCESS)
    return false;
  std::string extensions(bytes, '\0');
  clGetDeviceInfo(t->dev, CL_DEVICE_EXTENSIONS, bytes, extensions.data(), nullptr);
  return extensions.find("cl_khr_subgroups") != std::string::npos;
}

// kAtomic: each run's sum added to its group's (sg_reduce, local_reduce); else stored
// (the *_store kernels).
template <bool kViaLocal, bool kAtomic> void BM_SubGroupReduce(benchmark::State &state, Target *t) {
  if (!hasSubGroups(t)) {
    state.SkipWithError((t->label + " reports no sub-groups (cl_khr_subgroups)").c_str());
    return;
  }
  const size_t local = 256, n = 16u << 20, groups = n / local;
  std::vector<cl_uint> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = static_cast<cl_uint>((i * 2654435761u) & 0xFFFF);
  const std::string store = kAtomic ? "" : "_store";
  cl_kernel k = t->kernel("sg_reduce" + store, kSubGroupReduceSrc, ("sg_reduce" + store).c_str(),
                          "-cl-std=CL3.0");
  size_t width = 0;
  ck(clGetKernelSubGroupInfo(k, t->dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local,
                             &local, sizeof width, &width, nullptr),
     "clGetKernelSubGroupInfo");
  state.counters["sub_group"] = static_cast<double>(width);
  // Atomic: a cache line of sums per group, starting at 0; stored: a word per run.
  const size_t outWords = kAtomic ? 16 * groups : n / width;
  cl_mem din = t->buffer(n * 4, in.data()),
         dout = t->buffer(outWords * 4, std::vector<cl_uint>(outWords).data());
  if (kViaLocal) {
    k = t->kernel("local_reduce" + store, kSubGroupReduceSrc, ("local_reduce" + store).c_str(),
                  "-cl-std=CL3.0");
    ck(clSetKernelArg(k, 2, local * 4, nullptr), "clSetKernelArg(local)");
    setArg(k, 3, static_cast<cl_uint>(width));
  }
  setArg(k, 0, din);
  setArg(k, 1, dout);
  int64_t launches = timeLaunches(state, t, k, 1, &n, &local);
  std::vector<cl_uint> out = t->read<cl_uint>(dout, outWords);
  // A group's sum, or a run's, after every launch (sums wrap as the kernels' do).
  auto sumOf = [&](size_t first, size_t count) {
    cl_uint sum = 0;
    for (size_t i = first; i < first + count; ++i)
      sum += in[i];
    return sum;
  };
  for (size_t g = 0; g < (kAtomic ? groups : n / width); ++g) {
    cl_uint got = kAtomic ? out[16 * g] : out[g];
    cl_uint want = kAtomic ? sumOf(g * local, local) * static_cast<cl_uint>(launches)
                           : sumOf(g * width, width);
    if (got != want)
      die(t->label + " sub-group reduction: wrong sum at " + std::to_string(g));
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
  clReleaseMemObject(din);
  clReleaseMemObject(dout);
}

void BM_Sgemm(benchmark::State &state, Target *t) {
  const cl_uint n = 512;
  const size_t nn = static_cast<size_t>(n) * n;
  std::vector<float> A(nn), B(nn);
  for (size_t i = 0; i < nn; ++i) {
    A[i] = static_cast<float>((i * 7) % 17) * 0.125f - 1.0f;
    B[i] = static_cast<float>((i * 13) % 11) * 0.25f - 1.25f;
  }
  cl_kernel k = t->kernel("sgemm", kSgemmSrc, "sgemm");
  cl_mem dA = t->buffer(nn * 4, A.data()), dB = t->buffer(nn * 4, B.data()), dC = t->buffer(nn * 4);
  setArg(k, 0, n);
  setArg(k, 1, dA);
  setArg(k, 2, dB);
  setArg(k, 3, dC);
  const size_t g[2] = {n, n}, l[2] = {16, 16};
  timeLaunches(state, t, k, 2, g, l);
  std::vector<float> C = t->read<float>(dC, nn);
  for (cl_uint row = 0; row < n; row += 37)
    for (cl_uint col = 0; col < n; ++col) {
      double acc = 0;
      for (cl_uint kk = 0; kk < n; ++kk)
        acc += static_cast<double>(A[row * n + kk]) * B[static_cast<size_t>(kk) * n + col];
      if (std::fabs(C[row * n + col] - acc) > 1e-3 * (1.0 + std::fabs(acc)))
        die(t->label + " sgemm: wrong result at row " + std::to_string(row));
    }
  state.counters["GFLOP/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 2.0 * n * n * n * 1e-9,
                         benchmark::Counter::kIsRate);
  clReleaseMemObject(dA);
  clReleaseMemObject(dB);
  clReleaseMemObject(dC);
}

// Inputs are multiples of 1/4 in [-8, 8), so every result is exact in float (with or
// without contraction) and the whole grid is compared exactly.
void BM_Stencil(benchmark::State &state, Target *t) {
  const cl_uint w = 2048, h = 2048;
  const size_t n = static_cast<size_t>(w) * h;
  std::vector<float> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = static_cast<float>((i * 7919) % 64) * 0.25f - 8.0f;
  cl_kernel k = t->kernel("stencil", kStencilSrc, "stencil");
  cl_mem din = t->buffer(n * 4, in.data()), dout = t->buffer(n * 4);
  setArg(k, 0, w);
  setArg(k, 1, h);
  setArg(k, 2, din);
  setArg(k, 3, dout);
  const size_t g[2] = {w, h}, l[2] = {16, 16};
  timeLaunches(state, t, k, 2, g, l);
  std::vector<float> r = t->read<float>(dout, n);
  auto at = [&](long x, long y) {
    return x < 0 || x >= w || y < 0 || y >= h ? 0.0f : in[y * w + x];
  };
  for (long y = 0; y < h; ++y)
    for (long x = 0; x < w; ++x) {
      float want =
          0.5f * at(x, y) + 0.125f * (at(x, y - 1) + at(x, y + 1) + at(x - 1, y) + at(x + 1, y));
      if (r[y * w + x] != want)
        die(t->label + " stencil: wrong result at (" + std::to_string(x) + ", " +
            std::to_string(y) + ")");
    }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * n * 8)); // read + write once
  clReleaseMemObject(din);
  clReleaseMemObject(dout);
}

void BM_BarrierLoop(benchmark::State &state, Target *t) {
  const size_t local = 256, n = 256 * 256;
  const int iters = 100, barriers_per_iter = 2;
  std::vector<cl_uint> init(n);
  for (size_t i = 0; i < n; ++i)
    init[i] = static_cast<cl_uint>(i);
  cl_kernel k = t->kernel("barrier_loop", kBarrierLoopSrc, "barrier_loop");
  cl_mem d = t->buffer(n * 4, init.data());
  setArg(k, 0, d);
  ck(clSetKernelArg(k, 1, local * 4, nullptr), "clSetKernelArg(local)");
  setArg(k, 2, iters);
  int64_t runs = timeLaunches(state, t, k, 1, &n, &local);
  // Host model, applied `runs` times.
  std::vector<cl_uint> v = init, next(n);
  for (int64_t r = 0; r < runs; ++r)
    for (int it = 0; it < iters; ++it) {
      for (size_t i = 0; i < n; ++i) {
        size_t base = i / local * local, lid = i % local;
        next[i] = v[base + (lid + 1) % local] + static_cast<cl_uint>(lid);
      }
      v.swap(next);
    }
  if (t->read<cl_uint>(d, n) != v)
    die(t->label + " barrier loop: wrong result");
  const double item_barriers =
      static_cast<double>(state.iterations()) * n * iters * barriers_per_iter;
  // kIsRate|kInvert turns (count * 1e-9) into nanoseconds per count.
  state.counters["ns/item/barrier"] = benchmark::Counter(
      item_barriers * 1e-9, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
}

void BM_EmptyKernelLatency(benchmark::State &state, Target *t) {
  cl_kernel k = t->kernel("empty", kStreamSrc, "empty");
  cl_int zero = 0;
  cl_mem d = t->buffer(4, &zero);
  setArg(k, 0, d);
  const size_t one = 1;
  int64_t runs = timeLaunches(state, t, k, 1, &one, nullptr);
  if (t->read<cl_int>(d, 1)[0] != static_cast<cl_int>(runs))
    die(t->label + " empty kernel: wrong launch count");
  state.SetItemsProcessed(state.iterations()); // launches per second
  clReleaseMemObject(d);
}

const char *kBuildSrcBody = R"CLC(
__kernel void vecadd(__global const float* a, __global const float* b, __global float* c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i] + (float)UNIQUE_VALUE * 0.0f;
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
__kernel void tag(__global long* out) { out[0] = UNIQUE_VALUE; }
)CLC";

// Builds `src`, runs its `tag` kernel and checks it wrote `want`.
void checkTag(Target *t, cl_program p, long long want) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, "tag", &err);
  ck(err, "clCreateKernel(tag)");
  cl_mem d = t->buffer(8);
  setArg(k, 0, d);
  const size_t one = 1;
  t->enqueue(k, 1, &one, nullptr);
  if (t->read<cl_long>(d, 1)[0] != want)
    die(t->label + " build: tag kernel returned a wrong value");
  clReleaseMemObject(d);
  clReleaseKernel(k);
}

std::string buildSource(unsigned long long nonce, long long value) {
  return "// nonce " + std::to_string(nonce) + "\n#define UNIQUE_VALUE " + std::to_string(value) +
         "LL\n" + kBuildSrcBody;
}

unsigned long long runNonce() {
  static unsigned long long nonce = std::random_device{}() * 1000003ULL ^ std::random_device{}();
  return nonce;
}

// An inter-work-group barrier among all launched groups, `rounds` times (the XF-less
// counting barrier of the papers' persistent kernels). On a CPU OpenCL that runs each
// work-group to completion it never finishes once groups outnumber threads, so it is
// Atomics as clbench-style microbenchmarks and a histogram: none of them can wait for
// another group, so none should pay for the scheduler (issue: "only what can block
// pays"). atomic_local: every work-item increments a __local counter; atomic_group:
// one global counter per group; atomic_global: one counter for the whole launch;
// histogram: 256 bins in __local memory, each work-item counting 64 values (as the
// vendors' SDK histograms do), merged into the global bins at the end.
const char *kAtomicsSrc = R"CLC(
__kernel void atomic_local(__global uint* out, int reps) {
  __local uint c;
  if (get_local_id(0) == 0) c = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int r = 0; r < reps; ++r) atomic_inc(&c);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) out[get_group_id(0)] = c;
}
__kernel void atomic_group(__global uint* counts, int reps) {
  for (int r = 0; r < reps; ++r) atomic_inc(&counts[get_group_id(0)]);
}
__kernel void atomic_global(__global uint* count, int reps) {
  for (int r = 0; r < reps; ++r) atomic_inc(count);
}
__kernel void histogram(__global const uint* data, __global uint* bins, __local uint* local_bins) {
  uint lid = get_local_id(0), l = get_local_size(0);
  for (uint b = lid; b < 256; b += l) local_bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t base = get_group_id(0) * l * 64 + lid;
  for (int i = 0; i < 64; ++i) {
    uint v = data[base + i * l];
    atomic_inc(&local_bins[v & 255]);
    atomic_inc(&local_bins[(v >> 8) & 255]);
    atomic_inc(&local_bins[(v >> 16) & 255]);
    atomic_inc(&local_bins[v >> 24]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = lid; b < 256; b += l)
    if (local_bins[b]) atomic_add(&bins[b], local_bins[b]);
}
)CLC";

// `which`: 0 atomic_local, 1 atomic_group, 2 atomic_global. 1M work-items in groups of
// 256, `reps` increments each; the counters are checked.
template <int Which> void BM_Atomic(benchmark::State &state, Target *t) {
  const char *name = Which == 0 ? "atomic_local" : Which == 1 ? "atomic_group" : "atomic_global";
  const size_t n = 1u << 20, local = 256, groups = n / local;
  const cl_int reps = Which == 2 ? 1 : 16;
  cl_kernel k = t->kernel(name, kAtomicsSrc, name);
  cl_mem d = t->buffer(groups * 4);
  setArg(k, 0, d);
  setArg(k, 1, reps);
  const cl_uint zero = 0;
  auto launch = [&] {
    ck(clEnqueueFillBuffer(t->q, d, &zero, 4, 0, groups * 4, 0, nullptr, nullptr), "fill");
    t->enqueue(k, 1, &n, &local);
    t->finish();
  };
  launch(); // warm-up, untimed
  for (auto _ : state)
    launch();
  std::vector<cl_uint> r = t->read<cl_uint>(d, groups);
  if (Which == 2 ? r[0] != n * reps : r[groups - 1] != local * reps)
    die(t->label + " " + name + ": wrong count");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n * reps));
  clReleaseMemObject(d);
}

void BM_Histogram(benchmark::State &state, Target *t) {
  const size_t n = 4u << 20, local = 256, items = n / 64;
  std::vector<cl_uint> data(n);
  std::vector<cl_uint> want(256, 0);
  std::mt19937 rng(42);
  for (cl_uint &v : data) {
    v = rng();
    for (int s = 0; s < 32; s += 8)
      ++want[(v >> s) & 255];
  }
  cl_kernel k = t->kernel("histogram", kAtomicsSrc, "histogram");
  cl_mem dd = t->buffer(n * 4, data.data()), db = t->buffer(256 * 4);
  setArg(k, 0, dd);
  setArg(k, 1, db);
  ck(clSetKernelArg(k, 2, 256 * 4, nullptr), "clSetKernelArg(local)");
  const cl_uint zero = 0;
  auto launch = [&] {
    ck(clEnqueueFillBuffer(t->q, db, &zero, 4, 0, 256 * 4, 0, nullptr, nullptr), "fill");
    t->enqueue(k, 1, &items, &local);
    t->finish();
  };
  launch(); // warm-up, untimed
  for (auto _ : state)
    launch();
  if (t->read<cl_uint>(db, 256) != want)
    die(t->label + " histogram: wrong bins");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
  clReleaseMemObject(dd);
  clReleaseMemObject(db);
}

// Images: every pixel of a 2048x2048 RGBA8 image resampled through a normalised, linear
// sampler at the texel centres (all four filter taps are read, the result is the texel
// itself, so the output must equal the input) and written to a second image.
const char *kImageSrc = R"CLC(
__kernel void resample(read_only image2d_t in, sampler_t s, write_only image2d_t out) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float2 size = (float2)(get_image_width(in), get_image_height(in));
  write_imagef(out, p, read_imagef(in, s, (convert_float2(p) + 0.5f) / size));
}
)CLC";

void BM_ImageResample(benchmark::State &state, Target *t) {
  const size_t w = 2048, h = 2048;
  std::vector<cl_uchar> pixels(w * h * 4);
  std::mt19937 rng(7);
  for (cl_uchar &v : pixels)
    v = static_cast<cl_uchar>(rng());
  cl_image_format fmt{CL_RGBA, CL_UNORM_INT8};
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = w;
  desc.image_height = h;
  cl_int err;
  cl_mem in = clCreateImage(t->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &fmt, &desc,
                            pixels.data(), &err);
  ck(err, "clCreateImage(in)");
  cl_mem out = clCreateImage(t->ctx, CL_MEM_WRITE_ONLY, &fmt, &desc, nullptr, &err);
  ck(err, "clCreateImage(out)");
  cl_sampler smp =
      clCreateSampler(t->ctx, CL_TRUE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR, &err);
  ck(err, "clCreateSampler");
  cl_kernel k = t->kernel("resample", kImageSrc, "resample");
  setArg(k, 0, in);
  ck(clSetKernelArg(k, 1, sizeof smp, &smp), "clSetKernelArg(sampler)");
  setArg(k, 2, out);
  const size_t global[2] = {w, h};
  auto launch = [&] {
    t->enqueue(k, 2, global, nullptr);
    t->finish();
  };
  launch(); // warm-up, untimed
  for (auto _ : state)
    launch();
  std::vector<cl_uchar> got(pixels.size());
  size_t origin[3] = {0, 0, 0}, region[3] = {w, h, 1};
  ck(clEnqueueReadImage(t->q, out, CL_TRUE, origin, region, 0, 0, got.data(), 0, nullptr, nullptr),
     "clEnqueueReadImage");
  if (got != pixels)
    die(t->label + " image resample: wrong pixels");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * w * h));
  clReleaseSampler(smp);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
}

// FiberCL-only: it measures the scheduler (fair, unbounded: the default).
const char *kInterGroupBarrierSrc = R"CLC(
__kernel void gbarrier(__global atomic_int* arrived, __global int* out, int rounds) {
  for (int r = 1; r <= rounds; ++r) {
    if (get_local_id(0) == 0) {
      atomic_fetch_add_explicit(arrived, 1, memory_order_acq_rel, memory_scope_device);
      while (atomic_load_explicit(arrived, memory_order_acquire, memory_scope_device) <
             r * (int)get_num_groups(0))
        ;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
  if (get_local_id(0) == 0) out[get_group_id(0)] = atomic_load(arrived);
}
)CLC";

void BM_InterGroupBarrier(benchmark::State &state, Target *t) {
  const size_t groups = 64, local = 1;
  const int rounds = 100;
  cl_int err;
  cl_program p = t->buildProgram(kInterGroupBarrierSrc, "-cl-std=CL2.0");
  cl_kernel k = clCreateKernel(p, "gbarrier", &err);
  ck(err, "clCreateKernel(gbarrier)");
  cl_mem out = t->buffer(groups * sizeof(int));
  for (auto _ : state) {
    state.PauseTiming();
    int zero = 0;
    cl_mem arrived = t->buffer(sizeof zero, &zero);
    ck(clSetKernelArg(k, 0, sizeof arrived, &arrived), "clSetKernelArg");
    ck(clSetKernelArg(k, 1, sizeof out, &out), "clSetKernelArg");
    ck(clSetKernelArg(k, 2, sizeof rounds, &rounds), "clSetKernelArg");
    state.ResumeTiming();
    size_t global = groups * local;
    t->enqueue(k, 1, &global, &local);
    state.PauseTiming();
    for (int v : t->read<int>(out, groups))
      if (v != int(groups) * rounds)
        die(t->label + " inter-group barrier: wrong count");
    clReleaseMemObject(arrived);
    state.ResumeTiming();
  }
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseProgram(p);
  state.counters["barriers/s"] =
      benchmark::Counter(double(state.iterations()) * rounds, benchmark::Counter::kIsRate);
}

void BM_BuildCold(benchmark::State &state, Target *t) {
  static long long counter = 0;
  cl_program last = nullptr;
  long long last_value = 0;
  for (auto _ : state) {
    state.PauseTiming();
    if (last)
      clReleaseProgram(last);
    last_value = ++counter;
    std::string src = buildSource(runNonce(), last_value); // never seen before: no cache hit
    state.ResumeTiming();
    last = t->buildProgram(src);
  }
  if (last) {
    checkTag(t, last, last_value);
    clReleaseProgram(last);
  }
}

void BM_BuildCached(benchmark::State &state, Target *t) {
  const long long value = 424242;
  std::string src = buildSource(runNonce() + 1, value);
  clReleaseProgram(t->buildProgram(src)); // warm the cache
  cl_program last = nullptr;
  for (auto _ : state) {
    if (last) {
      state.PauseTiming();
      clReleaseProgram(last);
      state.ResumeTiming();
    }
    last = t->buildProgram(src);
  }
  if (last) {
    checkTag(t, last, value);
    clReleaseProgram(last);
  }
}

struct Wanted {
  const char *platform;
  const char *label;
};

} // namespace

// FiberCL's checked mode (FIBERCL_CHECK, README): the same kernels, built with one
// check, on a Target of their own (its programs are other builds), so that the
// overhead is a ratio to the unchecked rows of the same run. PoCL has no such mode.
enum class Check { Bounds, Uninit, Races, Divergence };
template <void (*Bench)(benchmark::State &, Target *), Check which>
void BM_Checked(benchmark::State &state, Target *t) {
  static const char *const kWords[] = {"bounds", "uninit", "races", "divergence"};
  const char *word = kWords[int(which)];
  if (t->label != "FiberCL") {
    state.SkipWithError(
        (std::string("FiberCL's checked mode (FIBERCL_CHECK=") + word + ")").c_str());
    return;
  }
  static std::map<Target *, std::unique_ptr<Target>> checked;
  std::unique_ptr<Target> &c = checked[t];
  if (!c) {
    c = std::make_unique<Target>();
    c->label = t->label;
    c->dev = t->dev;
    c->ctx = t->ctx;
    c->q = t->q;
  }
  // Read when a program is built (and is part of the build cache's key).
  const char *was = std::getenv("FIBERCL_CHECK");
  std::string before = was ? was : "";
  setenv("FIBERCL_CHECK", word, 1);
  Bench(state, c.get());
  if (was)
    setenv("FIBERCL_CHECK", before.c_str(), 1);
  else
    unsetenv("FIBERCL_CHECK");
}

int main(int argc, char **argv) {
  const Wanted wanted[] = {{fibercl::cl_host::kFiberCL, "FiberCL"},
                           {"Portable Computing Language", "PoCL"}};
  for (const Wanted &w : wanted) {
    cl_device_id found = fibercl::cl_host::findDevice(w.platform);
    if (!found) {
      std::fprintf(stderr,
                   "fibercl_bench: WARNING: platform \"%s\" not found through the loader "
                   "(OCL_ICD_VENDORS=%s); its benchmarks are not registered\n",
                   w.platform,
                   std::getenv("OCL_ICD_VENDORS") ? std::getenv("OCL_ICD_VENDORS") : "<unset>");
      continue;
    }
    auto t = std::make_unique<Target>();
    t->label = w.label;
    // Never released: the targets live as long as the process.
    t->dev = found;
    t->ctx = fibercl::cl_host::createContext(t->dev);
    t->q = fibercl::cl_host::createQueue(t->ctx, t->dev);
    g_targets.push_back(std::move(t));
  }
  if (g_targets.empty()) {
    std::fprintf(stderr, "fibercl_bench: no platform to benchmark\n");
    return 2;
  }

  using Fn = void (*)(benchmark::State &, Target *);
  const std::pair<const char *, Fn> benches[] = {
      {"vecadd_16M", BM_VecAdd},
      {"saxpy_16M", BM_Saxpy},
      {"mandelbrot_1024x1024_256", BM_Mandelbrot},
      {"math_f32_4M", BM_Math<float>},
      {"math_f64_4M", BM_Math<double>},
      {"math_pow_f32_4M", BM_Math<float, true>},
      {"reduction_16M_local256", BM_Reduction},
      {"subgroup_reduce_16M_local256", BM_SubGroupReduce<false, true>},
      {"subgroup_reduce_via_local_16M_local256", BM_SubGroupReduce<true, true>},
      {"subgroup_reduce_store_16M_local256", BM_SubGroupReduce<false, false>},
      {"subgroup_reduce_store_via_local_16M_local256", BM_SubGroupReduce<true, false>},
      {"sgemm_512_tile16", BM_Sgemm},
      {"stencil_2048x2048_tile16", BM_Stencil},
      {"barrier_loop_100", BM_BarrierLoop},
      {"atomic_local_1M_x16", BM_Atomic<0>},
      {"atomic_group_1M_x16", BM_Atomic<1>},
      {"atomic_global_1M", BM_Atomic<2>},
      {"histogram_4M_256bins", BM_Histogram},
      {"image_resample_2048x2048_rgba8", BM_ImageResample},
      {"empty_kernel_latency", BM_EmptyKernelLatency},
      {"checked_bounds_vecadd_16M", BM_Checked<BM_VecAdd, Check::Bounds>},
      {"checked_bounds_saxpy_16M", BM_Checked<BM_Saxpy, Check::Bounds>},
      {"checked_bounds_reduction_16M_local256", BM_Checked<BM_Reduction, Check::Bounds>},
      {"checked_bounds_stencil_2048x2048_tile16", BM_Checked<BM_Stencil, Check::Bounds>},
      {"checked_uninit_reduction_16M_local256", BM_Checked<BM_Reduction, Check::Uninit>},
      {"checked_uninit_stencil_2048x2048_tile16", BM_Checked<BM_Stencil, Check::Uninit>},
      {"checked_races_vecadd_16M", BM_Checked<BM_VecAdd, Check::Races>},
      {"checked_races_reduction_16M_local256", BM_Checked<BM_Reduction, Check::Races>},
      {"checked_races_stencil_2048x2048_tile16", BM_Checked<BM_Stencil, Check::Races>},
      {"checked_divergence_reduction_16M_local256", BM_Checked<BM_Reduction, Check::Divergence>},
      {"checked_divergence_stencil_2048x2048_tile16", BM_Checked<BM_Stencil, Check::Divergence>},
      {"build_cold", BM_BuildCold},
      {"build_cached", BM_BuildCached},
  };
  for (auto &t : g_targets)
    if (t->label == "FiberCL") {
      auto *b = benchmark::RegisterBenchmark("inter_group_barrier_64groups/FiberCL",
                                             BM_InterGroupBarrier, t.get());
      b->UseRealTime()->Unit(benchmark::kMillisecond);
    }
  for (const auto &[name, fn] : benches)
    for (auto &t : g_targets) {
      auto *b =
          benchmark::RegisterBenchmark((std::string(name) + "/" + t->label).c_str(), fn, t.get());
      b->UseRealTime()->Unit(benchmark::kMillisecond);
      if (fn == BM_EmptyKernelLatency)
        b->Unit(benchmark::kMicrosecond);
      if (fn == BM_BuildCold || fn == BM_BuildCached)
        b->Iterations(3);
    }

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

// fibercl_limits_bench: the physical-limits table (issue 30). For each kernel class, the
// best this machine can do with a plain C++ loop (native_loops.cpp: memory bandwidth,
// FMA peak, a context switch), then PoCL and FiberCL running the same work as an OpenCL kernel
// through the ICD loader, side by side in one process, and FiberCL's share of the limit.
//
//   streaming      copy, scale, add, saxpy over 64M floats (256 MiB per array),
//                  work-groups of 256: GB/s (bytes read + written, once each)
//   compute        independent FMA chains: GFLOP/s
//   barrier loop   100 rounds of 2 barriers, 65,536 work-items in groups of 16..1024:
//                  ns per work-item per barrier (no native limit: a barrier is ours)
//   blocking       groups that wait for each other: a decoupled look-back scan and
//                  persistent label sweeps with an inter-group barrier: ms (run it with
//                  FIBERCL_THREADS=1 and without to see what a second worker gives),
//                  beside the same two kernels as C++ loops on 1 thread and on every
//                  thread (printed in the run without FIBERCL_THREADS);
//                  two groups taking turns on a counter beside the native switch
//                  between two user contexts: ns per turn
//
// Each figure is the median of `runs` runs (default 7), the platforms alternating run by
// run; a run is one launch and clFinish (wall time) after an untimed warm-up. Results
// are checked. Usage (bench/limits.sh builds and runs it):
//   OCL_ICD_VENDORS=<dir with fibercl.icd and pocl.icd> fibercl_limits_bench [runs] [filter]
#include <fibercl/cl_host/errors.hpp>
#include <fibercl/cl_host/platforms.hpp>
#include <fibercl/cl_host/programs.hpp>
#include <fibercl/cl_host/session.hpp>

#include "native_loops.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

using fibercl::bench::Stream;
using fibercl::cl_host::check;
using Clock = std::chrono::steady_clock;

const char *kSource = R"CLC(
kernel void copy(global const float *a, global float *b) {
  size_t i = get_global_id(0);
  b[i] = a[i];
}
kernel void scale(global const float *a, global float *b) {
  size_t i = get_global_id(0);
  b[i] = 3.0f * a[i];
}
kernel void add(global const float *a, global const float *b, global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
kernel void saxpy(global const float *a, global float *b) {
  size_t i = get_global_id(0);
  b[i] = 0.5f * a[i] + b[i];
}
// 16 independent chains per work-item; the vectorised work-item loop supplies the rest.
kernel void fma_chains(global float *out, int iterations) {
  float x[16];
  for (int j = 0; j < 16; ++j)
    x[j] = 1.0f + j * 1e-3f + get_global_id(0) * 1e-9f;
  for (int i = 0; i < iterations; ++i)
    for (int j = 0; j < 16; ++j)
      x[j] = fma(x[j], 0.999999f, 1e-7f);
  float s = 0;
  for (int j = 0; j < 16; ++j)
    s += x[j];
  out[get_global_id(0)] = s;
}
kernel void barrier_loop(global uint *data, local uint *buf, int iters) {
  uint lid = get_local_id(0), l = get_local_size(0);
  uint v = data[get_global_id(0)];
  for (int t = 0; t < iters; ++t) {
    buf[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = buf[lid + 1 == l ? 0 : lid + 1] + lid;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  data[get_global_id(0)] = v;
}
)CLC";

// The kernels FiberCL exists for: groups that wait for each other. OpenCL 1.2 atomics
// and volatile spin reads (PoCL 3.1 builds no OpenCL 2.0 atomic_* call on a global
// pointer); the status words hold a 2-bit flag and a 30-bit sum.
const char *kBlockingSource = R"CLC(
// Single-pass prefix sum with decoupled look-back (Merrill & Garland): tiles of 64, tile
// ids handed out in order of arrival; a tile publishes its aggregate, then its
// inclusive prefix once its predecessors' are known, spinning on their status words
// (flag in the top bits: 1 aggregate, 2 inclusive prefix).
kernel void scan_lookback(global const uint *in, global uint *out, volatile global uint *next,
                          volatile global uint *status) {
  local uint data[64];
  local uint tile, exclusive;
  uint lid = get_local_id(0);
  if (lid == 0)
    tile = atomic_inc(next);
  barrier(CLK_LOCAL_MEM_FENCE);
  uint t = tile, i = t * 64 + lid;
  data[lid] = in[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint off = 1; off < 64; off <<= 1) {
    uint v = lid >= off ? data[lid - off] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    data[lid] += v;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    uint aggregate = data[63], prefix = 0;
    if (t == 0) {
      atomic_xchg(&status[0], (2u << 30) | aggregate);
    } else {
      atomic_xchg(&status[t], (1u << 30) | aggregate);
      for (uint j = t - 1;;) {
        uint s = status[j];
        uint flag = s >> 30;
        if (flag == 0)
          continue;
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        prefix += s & 0x3fffffffu;
        if (flag == 2)
          break;
        --j;
      }
      atomic_xchg(&status[t], (2u << 30) | (prefix + aggregate));
    }
    exclusive = prefix;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = data[lid] + exclusive;
}

// Two groups take turns on one counter (group g goes when its parity is g): every turn
// hands the counter to the other group -- on one worker, a switch between them.
kernel void take_turns(volatile global uint *turn, uint turns) {
  uint g = get_group_id(0);
  for (uint i = 0; i < turns; ++i) {
    while ((*turn & 1u) != g) {
    }
    atomic_inc(turn);
  }
}

// A persistent kernel: the groups share a grid of labels and relax it in sweeps, each
// cell taking the smallest of itself and its row neighbours (Jacobi: from `from` into
// `to`), with an inter-group barrier (a counter) after every sweep.
kernel void label_sweeps(global uint *a, global uint *b, uint n, uint sweeps,
                         volatile global uint *arrived) {
  uint groups = get_num_groups(0), g = get_group_id(0);
  uint per = n / groups, lo = g * per, hi = lo + per;
  for (uint s = 0; s < sweeps; ++s) {
    global uint *from = s % 2 ? b : a, *to = s % 2 ? a : b;
    for (uint i = lo + get_local_id(0); i < hi; i += get_local_size(0)) {
      uint v = from[i];
      if (i > 0)
        v = min(v, from[i - 1]);
      if (i + 1 < n)
        v = min(v, from[i + 1]);
      to[i] = v;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
      atomic_inc(arrived);
      while (*arrived < (s + 1) * groups)
        ;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
}
)CLC";

[[noreturn]] void die(const std::string &why) {
  std::fprintf(stderr, "fibercl_limits_bench: %s\n", why.c_str());
  std::exit(1);
}

double median(std::vector<double> v);

// The median of `runs` calls of `seconds` (a native loop that returns its time).
template <class F> double nativeMedian(int runs, F seconds) {
  std::vector<double> v;
  for (int r = 0; r < runs; ++r)
    v.push_back(seconds());
  return median(v);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

struct Target {
  std::string label;
  fibercl::cl_host::Session session;
  cl_program program = nullptr;
  cl_program blocking = nullptr; // kBlockingSource

  cl_kernel kernel(const char *name, cl_program from = nullptr) {
    cl_int err;
    cl_kernel k = clCreateKernel(from ? from : program, name, &err);
    check(err, std::string("clCreateKernel ") + name);
    return k;
  }
  cl_mem buffer(size_t bytes, const void *init) {
    cl_int err;
    cl_mem m =
        clCreateBuffer(session.context(), CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0),
                       bytes, const_cast<void *>(init), &err);
    check(err, "clCreateBuffer");
    return m;
  }
  // One launch and clFinish: seconds.
  double launch(cl_kernel k, size_t global, size_t local) {
    auto start = Clock::now();
    check(clEnqueueNDRangeKernel(session.queue(), k, 1, nullptr, &global, &local, 0, nullptr,
                                 nullptr),
          "clEnqueueNDRangeKernel");
    check(clFinish(session.queue()), "clFinish");
    return std::chrono::duration<double>(Clock::now() - start).count();
  }
  std::vector<float> read(cl_mem m, size_t n) {
    std::vector<float> out(n);
    check(
        clEnqueueReadBuffer(session.queue(), m, CL_TRUE, 0, n * 4, out.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
    return out;
  }
};

std::vector<std::unique_ptr<Target>> gTargets;
int gRuns = 7;

template <class T> void setArg(cl_kernel k, cl_uint i, const T &v) {
  check(clSetKernelArg(k, i, sizeof v, &v), "clSetKernelArg");
}

// Runs `once(i)` (target i; returning seconds) `gRuns` times per target, alternating,
// after one warm-up each; returns the median seconds per target, in gTargets' order (the
// first `targets` of them).
std::vector<double> alternate(const std::function<double(size_t)> &once,
                              size_t targets = gTargets.size()) {
  for (size_t i = 0; i < targets; ++i)
    once(i);
  std::vector<std::vector<double>> times(targets);
  for (int r = 0; r < gRuns; ++r)
    for (size_t i = 0; i < targets; ++i)
      times[i].push_back(once(i));
  std::vector<double> medians;
  for (auto &v : times)
    medians.push_back(median(v));
  return medians;
}

// One kernel and its buffers on every platform, in gTargets' order; released when the
// section is done with them.
struct OnEveryTarget {
  std::vector<cl_kernel> kernels;
  std::vector<std::vector<cl_mem>> mems;

  OnEveryTarget() = default;
  OnEveryTarget(const OnEveryTarget &) = delete;
  OnEveryTarget &operator=(const OnEveryTarget &) = delete;
  ~OnEveryTarget() {
    for (size_t i = 0; i < kernels.size(); ++i) {
      for (cl_mem m : mems[i])
        clReleaseMemObject(m);
      clReleaseKernel(kernels[i]);
    }
  }
  void add(cl_kernel k, std::vector<cl_mem> buffers) {
    kernels.push_back(k);
    mems.push_back(std::move(buffers));
  }
  // The median seconds of one launch per target (alternate()); `reset`, if given, runs
  // untimed before each launch (a kernel whose buffers must start from the same state).
  std::vector<double>
  time(size_t global, size_t local,
       const std::function<void(Target &, const std::vector<cl_mem> &)> &reset = {}) {
    return alternate(
        [&](size_t i) {
          if (reset) {
            reset(*gTargets[i], mems[i]);
            check(clFinish(gTargets[i]->session.queue()), "clFinish");
          }
          return gTargets[i]->launch(kernels[i], global, local);
        },
        kernels.size()); // the first kernels.size() targets
  }
};

std::string header() {
  std::string h;
  for (auto &t : gTargets)
    h += " | " + t->label;
  return h;
}

// A table's first two lines: `first`, a column per platform, and PoCL / FiberCL.
void printRatioTableHead(const char *first) {
  std::printf("| %s%s | PoCL / FiberCL |\n|---|", first, header().c_str());
  for (size_t i = 0; i < gTargets.size(); ++i)
    std::printf("---|");
  std::printf("---|\n");
}

void streaming(unsigned threads) {
  const size_t n = size_t(64) << 20, local = 256;
  struct Case {
    const char *name;
    Stream kind;
    int arrays;   // arguments
    double bytes; // per element moved
  } cases[] = {{"copy", Stream::Copy, 2, 8},
               {"scale", Stream::Scale, 2, 8},
               {"add", Stream::Add, 3, 12},
               {"saxpy", Stream::Saxpy, 2, 12}};
  std::vector<float> a(n), b(n), c(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = float(i % 4096);
    b[i] = float(i % 1000) * 0.25f;
  }
  std::printf("\n### Streaming: 64M floats, work-groups of %zu (GB/s, higher is better)\n\n",
              local);
  std::printf("| kernel | native, 1 thread | native, %u threads%s | FiberCL / native | "
              "FiberCL / PoCL |\n|---|---|---|",
              threads, header().c_str());
  for (size_t i = 0; i < gTargets.size(); ++i)
    std::printf("---|");
  std::printf("---|---|\n");
  for (const Case &cs : cases) {
    // Native: the same arrays (b restored for saxpy, which accumulates).
    std::vector<float> a2(a), b2(b), c2(n, 0.0f);
    nativeStream(cs.kind, a2.data(), b2.data(), c2.data(), n, threads); // first touch
    std::vector<double> one, all;
    for (int r = 0; r < gRuns; ++r) {
      one.push_back(nativeStream(cs.kind, a2.data(), b2.data(), c2.data(), n, 1));
      all.push_back(nativeStream(cs.kind, a2.data(), b2.data(), c2.data(), n, threads));
    }
    double gbNative1 = cs.bytes * n / median(one) * 1e-9;
    double gbNative = cs.bytes * n / median(all) * 1e-9;

    OnEveryTarget on;
    for (auto &t : gTargets) {
      cl_kernel k = t->kernel(cs.name);
      std::vector<cl_mem> m = {t->buffer(n * 4, a.data()), t->buffer(n * 4, b.data())};
      if (cs.arrays == 3)
        m.push_back(t->buffer(n * 4, nullptr));
      for (cl_uint i = 0; i < m.size(); ++i)
        setArg(k, i, m[i]);
      on.add(k, m);
    }
    std::vector<double> secs = on.time(n, local);
    // Check one element in 4099 against the host (saxpy accumulated gRuns + 1 times).
    for (size_t i = 0; i < gTargets.size(); ++i) {
      std::vector<float> out = gTargets[i]->read(on.mems[i].back(), n);
      for (size_t j = 0; j < n; j += 4099) {
        float want = cs.kind == Stream::Copy    ? a[j]
                     : cs.kind == Stream::Scale ? 3.0f * a[j]
                     : cs.kind == Stream::Add   ? a[j] + b[j]
                                                : b[j];
        if (cs.kind == Stream::Saxpy)
          for (int r = 0; r <= gRuns; ++r)
            want = 0.5f * a[j] + want;
        if (std::fabs(out[j] - want) > 1e-5f * std::fabs(want) + 1e-6f)
          die(gTargets[i]->label + " " + cs.name + ": wrong result at " + std::to_string(j));
      }
    }
    std::printf("| %s | %.1f | %.1f", cs.name, gbNative1, gbNative);
    std::vector<double> gb;
    for (double s : secs) {
      gb.push_back(cs.bytes * n / s * 1e-9);
      std::printf(" | %.1f", gb.back());
    }
    std::printf(" | %.0f%% | %s |\n", 100 * gb[0] / gbNative,
                gb.size() > 1 ? (std::to_string(gb[0] / gb[1]).substr(0, 4) + "x").c_str() : "-");
    std::fflush(stdout);
  }
}

// Independent FMA chains: the native loop on every thread against the fma_chains kernel
// (65,536 work-items of 16 chains, `iterations` rounds).
void compute(unsigned threads) {
  const size_t n = 65536, local = 256;
  const int iterations = 2000;
  std::printf("\n### Compute: independent single-precision FMA chains (GFLOP/s, higher is "
              "better)\n\n");
  std::printf("| kernel | native, 1 thread | native, %u threads%s | FiberCL / native | "
              "FiberCL / PoCL |\n|---|---|---|",
              threads, header().c_str());
  for (size_t i = 0; i < gTargets.size(); ++i)
    std::printf("---|");
  std::printf("---|---|\n");
  std::vector<double> one, all;
  for (int r = 0; r < gRuns; ++r) {
    one.push_back(fibercl::bench::nativeFmaGflops(1, 20'000'000));
    all.push_back(fibercl::bench::nativeFmaGflops(threads, 20'000'000));
  }
  OnEveryTarget on;
  for (auto &t : gTargets) {
    cl_kernel k = t->kernel("fma_chains");
    cl_mem out = t->buffer(n * 4, nullptr);
    setArg(k, 0, out);
    setArg(k, 1, iterations);
    on.add(k, {out});
  }
  std::vector<double> secs = on.time(n, local);
  // Every work-item's 16 chains start near 1 and move toward 0.1: a sum in (1.6, 16.2).
  std::vector<double> gf;
  for (size_t i = 0; i < gTargets.size(); ++i) {
    std::vector<float> out = gTargets[i]->read(on.mems[i][0], n);
    for (size_t j = 0; j < n; j += 257)
      if (!(out[j] > 1.6f && out[j] < 16.2f))
        die(gTargets[i]->label + " fma_chains: wrong result at " + std::to_string(j));
    gf.push_back(2.0 * 16 * iterations * double(n) / secs[i] * 1e-9);
  }
  double native = median(all);
  std::printf("| fma_chains | %.0f | %.0f", median(one), native);
  for (double g : gf)
    std::printf(" | %.0f", g);
  std::printf(" | %.0f%% | %s |\n", 100 * gf[0] / native,
              gf.size() > 1 ? (std::to_string(gf[0] / gf[1]).substr(0, 4) + "x").c_str() : "-");
  std::fflush(stdout);
}

// The barrier loop at every work-group size from 16 to 1024: ns per work-item per
// barrier (lower is better).
void barriers() {
  const size_t n = 65536;
  const int iters = 100;
  std::printf("\n### Barrier loop: 65,536 work-items, 100 rounds of 2 barriers (ns per "
              "work-item per barrier, lower is better)\n\n");
  printRatioTableHead("work-group size");
  std::vector<float> init(n);
  for (size_t i = 0; i < n; ++i)
    init[i] = 0; // bit pattern 0: the kernel treats the data as uint
  for (size_t local = 16; local <= 1024; local *= 2) {
    OnEveryTarget on;
    for (auto &t : gTargets) {
      cl_kernel k = t->kernel("barrier_loop");
      cl_mem d = t->buffer(n * 4, init.data());
      setArg(k, 0, d);
      check(clSetKernelArg(k, 1, local * 4, nullptr), "clSetKernelArg(local)");
      setArg(k, 2, iters);
      on.add(k, {d});
    }
    std::vector<double> secs = on.time(n, local);
    // Both platforms ran the same number of launches on the same data: same result.
    std::vector<float> first;
    for (size_t i = 0; i < gTargets.size(); ++i) {
      std::vector<float> out = gTargets[i]->read(on.mems[i][0], n);
      if (i == 0)
        first = out;
      else if (std::memcmp(out.data(), first.data(), n * 4) != 0)
        die("barrier_loop: " + gTargets[i]->label + " and FiberCL differ at local size " +
            std::to_string(local));
    }
    std::printf("| %zu", local);
    for (double sec : secs)
      std::printf(" | %.3f", sec * 1e9 / (double(n) * iters * 2));
    if (secs.size() > 1)
      std::printf(" | %.2fx", secs[1] / secs[0]);
    std::printf(" |\n");
    std::fflush(stdout);
  }
}

// The cost of a switch between two work-groups that wait for each other, against the
// native switch between two user contexts. Nanoseconds per turn (lower is better).
// PoCL runs the two groups on two threads at once (it never switches between groups;
// with one core it would spin for ever, so it is left out there).
void takingTurns() {
  const cl_uint turns = 100000;
  std::printf("\n### Two groups taking turns, %u turns each (ns per turn, lower is better; "
              "FIBERCL_THREADS=%s)\n\n",
              turns, std::getenv("FIBERCL_THREADS") ? std::getenv("FIBERCL_THREADS") : "unset");
  std::vector<double> native;
  for (int r = 0; r < gRuns; ++r)
    native.push_back(fibercl::bench::nativeFiberSwitchNs(10'000'000));
  const bool pocl = std::thread::hardware_concurrency() >= 2;
  OnEveryTarget on;
  for (auto &t : gTargets) {
    if (t->label != "FiberCL" && !pocl)
      continue;
    cl_kernel k = t->kernel("take_turns", t->blocking);
    std::vector<cl_mem> m = {t->buffer(4, nullptr)};
    setArg(k, 0, m[0]);
    setArg(k, 1, turns);
    on.add(k, m);
  }
  std::vector<double> secs = on.time(2, 1, [&](Target &t, const std::vector<cl_mem> &m) {
    const cl_uint zero = 0;
    check(clEnqueueFillBuffer(t.session.queue(), m[0], &zero, 4, 0, 4, 0, nullptr, nullptr),
          "clEnqueueFillBuffer");
  });
  for (size_t i = 0; i < on.mems.size(); ++i) {
    std::vector<float> got = gTargets[i]->read(on.mems[i][0], 1);
    cl_uint final = 0;
    std::memcpy(&final, got.data(), 4);
    if (final != 2 * turns)
      die(gTargets[i]->label + " take_turns: wrong count");
  }
  const double nativeNs = median(native);
  std::printf("| native context switch | FiberCL | PoCL (2 threads) | native / FiberCL |\n"
              "|---|---|---|---|\n");
  const double fiberclNs = secs[0] * 1e9 / (2.0 * turns);
  char poclNs[32] = "n/a (one core)";
  if (secs.size() > 1)
    std::snprintf(poclNs, sizeof poclNs, "%.1f", secs[1] * 1e9 / (2.0 * turns));
  std::printf("| %.1f | %.1f | %s | %.0f%% |\n", nativeNs, fiberclNs, poclNs,
              100 * nativeNs / fiberclNs);
  std::fflush(stdout);
}

// Groups that wait for each other: the look-back scan (2^22 uints, 65,536 groups of 64)
// and persistent label sweeps (2 groups of 256 over 2^20 cells, 64 sweeps, an
// inter-group barrier after each). Milliseconds (lower is better). Run once with
// FIBERCL_THREADS=1 and once without to see what the second worker gives.
void blocking(unsigned threads) {
  std::printf("\n### Blocking kernels (ms, lower is better; FIBERCL_THREADS=%s)\n\n",
              std::getenv("FIBERCL_THREADS") ? std::getenv("FIBERCL_THREADS") : "unset");
  printRatioTableHead("kernel");
  std::pair<double, double> nativeScan, nativeSweeps; // seconds on 1 thread, on all
  const auto row = [](const char *name, const std::vector<double> &secs) {
    std::printf("| %s", name);
    for (double sec : secs)
      std::printf(" | %.1f", sec * 1e3);
    if (secs.size() > 1)
      std::printf(" | %.2fx", secs[1] / secs[0]);
    std::printf(" |\n");
    std::fflush(stdout);
  };
  {
    const size_t n = size_t(1) << 22, local = 64, tiles = n / local;
    std::vector<cl_uint> in(n), want(n);
    cl_uint sum = 0;
    for (size_t i = 0; i < n; ++i) {
      in[i] = cl_uint(i % 7);
      want[i] = sum += in[i];
    }
    OnEveryTarget on;
    for (auto &t : gTargets) {
      cl_kernel k = t->kernel("scan_lookback", t->blocking);
      std::vector<cl_mem> m = {t->buffer(n * 4, in.data()), t->buffer(n * 4, nullptr),
                               t->buffer(4, nullptr), t->buffer(tiles * 4, nullptr)};
      for (cl_uint i = 0; i < m.size(); ++i)
        setArg(k, i, m[i]);
      on.add(k, m);
    }
    // The tile counter and the status words start at 0 for every launch.
    std::vector<double> secs = on.time(n, local, [&](Target &t, const std::vector<cl_mem> &m) {
      const cl_uint zero = 0;
      check(clEnqueueFillBuffer(t.session.queue(), m[2], &zero, 4, 0, 4, 0, nullptr, nullptr),
            "clEnqueueFillBuffer");
      check(
          clEnqueueFillBuffer(t.session.queue(), m[3], &zero, 4, 0, tiles * 4, 0, nullptr, nullptr),
          "clEnqueueFillBuffer");
    });
    for (size_t i = 0; i < gTargets.size(); ++i) {
      std::vector<float> got = gTargets[i]->read(on.mems[i][1], n);
      if (std::memcmp(got.data(), want.data(), n * 4) != 0)
        die(gTargets[i]->label + " scan_lookback: wrong prefix sums");
    }
    row("scan_lookback (2^22, groups of 64)", secs);
    if (!std::getenv("FIBERCL_THREADS")) {
      std::vector<unsigned> out(n);
      nativeScan = {nativeMedian(gRuns,
                                 [&] {
                                   return fibercl::bench::nativeLookbackScan(in.data(), out.data(),
                                                                             n, 1);
                                 }),
                    nativeMedian(gRuns, [&] {
                      return fibercl::bench::nativeLookbackScan(in.data(), out.data(), n, threads);
                    })};
      if (std::memcmp(out.data(), want.data(), n * 4) != 0)
        die("native look-back scan: wrong prefix sums");
    }
  }
  {
    const cl_uint n = 1u << 20, sweeps = 64;
    const size_t local = 256, groups = 2;
    std::vector<cl_uint> labels(n);
    for (cl_uint i = 0; i < n; ++i)
      labels[i] = (i * 2654435761u) >> 8; // scattered minima
    // The host's sweeps.
    std::vector<cl_uint> want = labels, next(n);
    for (cl_uint s = 0; s < sweeps; ++s) {
      for (cl_uint i = 0; i < n; ++i) {
        cl_uint v = want[i];
        if (i > 0)
          v = std::min(v, want[i - 1]);
        if (i + 1 < n)
          v = std::min(v, want[i + 1]);
        next[i] = v;
      }
      want.swap(next);
    }
    OnEveryTarget on;
    for (auto &t : gTargets) {
      cl_kernel k = t->kernel("label_sweeps", t->blocking);
      std::vector<cl_mem> m = {t->buffer(n * 4, labels.data()), t->buffer(n * 4, nullptr),
                               t->buffer(4, nullptr)};
      setArg(k, 0, m[0]);
      setArg(k, 1, m[1]);
      setArg(k, 2, n);
      setArg(k, 3, sweeps);
      setArg(k, 4, m[2]);
      on.add(k, m);
    }
    // The labels and the barrier's counter start afresh for every launch.
    std::vector<double> secs =
        on.time(groups * local, local, [&](Target &t, const std::vector<cl_mem> &m) {
          const cl_uint zero = 0;
          check(clEnqueueWriteBuffer(t.session.queue(), m[0], CL_TRUE, 0, n * 4, labels.data(), 0,
                                     nullptr, nullptr),
                "clEnqueueWriteBuffer");
          check(clEnqueueFillBuffer(t.session.queue(), m[2], &zero, 4, 0, 4, 0, nullptr, nullptr),
                "clEnqueueFillBuffer");
        });
    for (size_t i = 0; i < gTargets.size(); ++i) {
      std::vector<float> got = gTargets[i]->read(on.mems[i][0], n); // an even number of sweeps
      if (std::memcmp(got.data(), want.data(), size_t(n) * 4) != 0)
        die(gTargets[i]->label + " label_sweeps: wrong labels");
    }
    row("label_sweeps (2 groups of 256, 2^20 cells, 64 sweeps)", secs);
    if (!std::getenv("FIBERCL_THREADS")) {
      std::vector<unsigned> a(n), b(n);
      auto sweepOn = [&](unsigned t) {
        a.assign(labels.begin(), labels.end());
        return fibercl::bench::nativeLabelSweeps(a.data(), b.data(), n, sweeps, t);
      };
      nativeSweeps = {nativeMedian(gRuns, [&] { return sweepOn(1); }),
                      nativeMedian(gRuns, [&] { return sweepOn(threads); })};
      if (std::memcmp(a.data(), want.data(), size_t(n) * 4) != 0)
        die("native label sweeps: wrong labels");
    }
  }
  if (!std::getenv("FIBERCL_THREADS")) {
    std::printf("\n### The same blocking kernels as C++ loops (ms, lower is better)\n\n"
                "| kernel | native, 1 thread | native, %u threads | %u threads vs 1 |\n"
                "|---|---|---|---|\n",
                threads, threads);
    for (auto [name, ms] : {std::pair{"scan_lookback (2^22, tiles of 64)", nativeScan},
                            std::pair{"label_sweeps (2^20 cells, 64 sweeps)", nativeSweeps}})
      std::printf("| %s | %.1f | %.1f | %.2fx |\n", name, ms.first * 1e3, ms.second * 1e3,
                  ms.first / ms.second);
    std::fflush(stdout);
  }
  takingTurns();
}

} // namespace

int main(int argc, char **argv) {
  if (argc > 1)
    gRuns = std::max(1, std::atoi(argv[1]));
  std::string filter = argc > 2 ? argv[2] : "";
  struct Wanted {
    const char *platform, *label;
  } wanted[] = {{"FiberCL", "FiberCL"}, {"Portable Computing Language", "PoCL"}};
  for (const Wanted &w : wanted) {
    cl_device_id dev;
    try {
      dev = fibercl::cl_host::findDevice(w.platform, CL_DEVICE_TYPE_CPU);
    } catch (const fibercl::cl_host::Error &e) {
      std::fprintf(stderr, "fibercl_limits_bench: %s: %s (skipped)\n", w.label, e.what());
      continue;
    }
    auto t = std::make_unique<Target>();
    t->label = w.label;
    t->session = fibercl::cl_host::Session(dev);
    auto built = fibercl::cl_host::tryBuild(t->session.context(), dev, {kSource});
    if (built.err != CL_SUCCESS)
      die(std::string(w.label) + ": build failed:\n" + built.log);
    t->program = built.program;
    auto blocking = fibercl::cl_host::tryBuild(t->session.context(), dev, {kBlockingSource});
    if (blocking.err != CL_SUCCESS)
      die(std::string(w.label) + ": build failed:\n" + blocking.log);
    t->blocking = blocking.program;
    gTargets.push_back(std::move(t));
  }
  if (gTargets.empty() || gTargets[0]->label != "FiberCL")
    die("FiberCL not found (OCL_ICD_VENDORS?)");
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::printf("## Physical limits: %u hardware threads, %d runs per figure (medians)\n", threads,
              gRuns);
  auto wants = [&](const char *section) {
    return filter.empty() || filter.find(section) != std::string::npos;
  };
  if (wants("stream"))
    streaming(threads);
  if (wants("compute"))
    compute(threads);
  if (wants("barrier"))
    barriers();
  if (wants("blocking"))
    blocking(threads);
  return 0;
}

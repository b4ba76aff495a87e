// fibercl_limits_bench: the physical-limits table (issue 30). For each kernel class, the
// best this machine can do with a plain C++ loop (native_loops.cpp: memory bandwidth,
// FMA peak), then PoCL and FiberCL running the same work as an OpenCL kernel through
// the ICD loader, side by side in one process, and FiberCL's share of the limit.
//
//   streaming      copy, scale, add, saxpy over 64M floats (256 MiB per array),
//                  work-groups of 256: GB/s (bytes read + written, once each)
//   compute        independent FMA chains: GFLOP/s
//   barrier loop   100 rounds of 2 barriers, 65,536 work-items in groups of 16..1024:
//                  ns per work-item per barrier (no native limit: a barrier is ours)
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

[[noreturn]] void die(const std::string &why) {
  std::fprintf(stderr, "fibercl_limits_bench: %s\n", why.c_str());
  std::exit(1);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

struct Target {
  std::string label;
  fibercl::cl_host::Session session;
  cl_program program = nullptr;

  cl_kernel kernel(const char *name) {
    cl_int err;
    cl_kernel k = clCreateKernel(program, name, &err);
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
// after one warm-up each; returns the median seconds per target, in gTargets' order.
std::vector<double> alternate(const std::function<double(size_t)> &once) {
  for (size_t i = 0; i < gTargets.size(); ++i)
    once(i);
  std::vector<std::vector<double>> times(gTargets.size());
  for (int r = 0; r < gRuns; ++r)
    for (size_t i = 0; i < gTargets.size(); ++i)
      times[i].push_back(once(i));
  std::vector<double> medians;
  for (auto &v : times)
    medians.push_back(median(v));
  return medians;
}

std::string header() {
  std::string h;
  for (auto &t : gTargets)
    h += " | " + t->label;
  return h;
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

    std::vector<cl_kernel> kernels;
    std::vector<std::vector<cl_mem>> mems;
    for (auto &t : gTargets) {
      cl_kernel k = t->kernel(cs.name);
      std::vector<cl_mem> m = {t->buffer(n * 4, a.data()), t->buffer(n * 4, b.data())};
      if (cs.arrays == 3)
        m.push_back(t->buffer(n * 4, nullptr));
      for (cl_uint i = 0; i < m.size(); ++i)
        setArg(k, i, m[i]);
      kernels.push_back(k);
      mems.push_back(m);
    }
    std::vector<double> secs =
        alternate([&](size_t i) { return gTargets[i]->launch(kernels[i], n, local); });
    // Check one element in 4099 against the host (saxpy accumulated gRuns + 1 times).
    for (size_t i = 0; i < gTargets.size(); ++i) {
      std::vector<float> out = gTargets[i]->read(mems[i].back(), n);
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
      for (cl_mem m : mems[i])
        clReleaseMemObject(m);
      clReleaseKernel(kernels[i]);
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
  return 0;
}

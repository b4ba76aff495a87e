// fibercl_checked_overhead: what FiberCL's checked mode (FIBERCL_CHECK) costs, as the
// ratio of a checked kernel's time to the same kernel's unchecked time, measured so
// that both see the same machine: the two programs are built in one process (the
// check is read when a program is built), and their launches alternate in blocks of
// a few, for a number of rounds. fibercl_bench's checked rows interleave whole
// repetitions instead, which on a shared machine leaves more noise in each pair.
//
//   fibercl_checked_overhead [rounds]     (default 40; OCL_ICD_VENDORS -> fibercl.icd)
//
// Prints a markdown table: per kernel and check, the unchecked and checked time per
// launch (wall-clock, launch + clFinish) over all rounds, their ratio, and the median
// and range of the per-round ratios. Each result is checked after the rounds.
#include <fibercl/cl_host/errors.hpp>
#include <fibercl/cl_host/platforms.hpp>
#include <fibercl/cl_host/programs.hpp>
#include <fibercl/cl_host/session.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "bench_kernels.hpp"

namespace {

using fibercl::cl_host::errorName;

[[noreturn]] void die(const std::string &msg) {
  std::fprintf(stderr, "fibercl_checked_overhead: %s\n", msg.c_str());
  std::exit(1);
}

void ck(cl_int err, const char *what) {
  if (err != CL_SUCCESS)
    die(std::string(what) + " failed with " + errorName(err));
}

// One kernel of bench_kernels.hpp with its buffers, arguments and result check; the
// same set-up serves the unchecked and the checked kernel (`set` sets the arguments).
struct Case {
  const char *name;
  const char *src, *kernel;
  std::vector<const char *> checks;
  cl_uint dims;
  size_t global[2], local[2]; // local {0, 0}: the implementation's choice
  std::function<void(cl_context)> make;
  std::function<void(cl_kernel)> set;
  std::function<std::string(cl_command_queue)> wrong; // "" when right
  std::function<void()> release;
};

cl_mem buffer(cl_context c, size_t bytes, const void *init = nullptr) {
  cl_int err;
  cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                            const_cast<void *>(init), &err);
  ck(err, "clCreateBuffer");
  return m;
}

template <typename T> void arg(cl_kernel k, cl_uint i, const T &v) {
  ck(clSetKernelArg(k, i, sizeof(T), &v), "clSetKernelArg");
}

template <typename T> std::vector<T> read(cl_command_queue q, cl_mem m, size_t n) {
  std::vector<T> v(n);
  ck(clEnqueueReadBuffer(q, m, CL_TRUE, 0, n * sizeof(T), v.data(), 0, nullptr, nullptr),
     "clEnqueueReadBuffer");
  return v;
}

std::vector<Case> cases() {
  using namespace fibercl::bench;
  std::vector<Case> all;
  {
    static const size_t n = 16u << 20;
    static std::vector<float> a, b;
    static cl_mem da, db, dc;
    all.push_back({"vecadd_16M",
                   kStreamSrc,
                   "vecadd",
                   {"bounds", "races"},
                   1,
                   {n, 0},
                   {0, 0},
                   [](cl_context c) {
                     a.resize(n);
                     b.resize(n);
                     for (size_t i = 0; i < n; ++i) {
                       a[i] = float(i % 4096);
                       b[i] = float(i % 1000) * 0.25f;
                     }
                     da = buffer(c, n * 4, a.data());
                     db = buffer(c, n * 4, b.data());
                     dc = buffer(c, n * 4);
                   },
                   [](cl_kernel k) {
                     arg(k, 0, da);
                     arg(k, 1, db);
                     arg(k, 2, dc);
                   },
                   [](cl_command_queue q) {
                     std::vector<float> r = read<float>(q, dc, n);
                     for (size_t i = 0; i < n; ++i)
                       if (r[i] != a[i] + b[i])
                         return "vecadd: wrong at " + std::to_string(i);
                     return std::string();
                   },
                   [] {
                     clReleaseMemObject(da);
                     clReleaseMemObject(db);
                     clReleaseMemObject(dc);
                   }});
  }
  {
    static const size_t n = 16u << 20, local = 256;
    static std::vector<cl_uint> in;
    static uint64_t want;
    static cl_mem din, dp;
    all.push_back({"reduction_16M_local256",
                   kReduceSrc,
                   "reduce",
                   {"bounds", "uninit", "races", "divergence"},
                   1,
                   {n, 0},
                   {local, 0},
                   [](cl_context c) {
                     in.resize(n);
                     want = 0;
                     for (size_t i = 0; i < n; ++i)
                       want += in[i] = cl_uint((i * 2654435761u) & 0xFFFF);
                     din = buffer(c, n * 4, in.data());
                     dp = buffer(c, n / local * 4);
                   },
                   [](cl_kernel k) {
                     arg(k, 0, din);
                     arg(k, 1, dp);
                     ck(clSetKernelArg(k, 2, local * 4, nullptr), "clSetKernelArg(local)");
                   },
                   [](cl_command_queue q) {
                     uint64_t sum = 0;
                     for (cl_uint v : read<cl_uint>(q, dp, n / local))
                       sum += v;
                     return sum == want ? std::string() : std::string("reduction: wrong sum");
                   },
                   [] {
                     clReleaseMemObject(din);
                     clReleaseMemObject(dp);
                   }});
  }
  {
    static const cl_uint w = 2048, h = 2048;
    static const size_t n = size_t(w) * h;
    static std::vector<float> in;
    static cl_mem din, dout;
    all.push_back(
        {"stencil_2048x2048_tile16",
         kStencilSrc,
         "stencil",
         {"bounds", "uninit", "races", "divergence"},
         2,
         {w, h},
         {16, 16},
         [](cl_context c) {
           in.resize(n);
           for (size_t i = 0; i < n; ++i)
             in[i] = float((i * 7919) % 64) * 0.25f - 8.0f;
           din = buffer(c, n * 4, in.data());
           dout = buffer(c, n * 4);
         },
         [](cl_kernel k) {
           arg(k, 0, w);
           arg(k, 1, h);
           arg(k, 2, din);
           arg(k, 3, dout);
         },
         [](cl_command_queue q) {
           std::vector<float> r = read<float>(q, dout, n);
           auto at = [](long x, long y) {
             return x < 0 || x >= long(w) || y < 0 || y >= long(h) ? 0.0f : in[y * w + x];
           };
           for (long y = 0; y < long(h); ++y)
             for (long x = 0; x < long(w); ++x)
               if (r[y * w + x] != 0.5f * at(x, y) + 0.125f * (at(x, y - 1) + at(x, y + 1) +
                                                               at(x - 1, y) + at(x + 1, y)))
                 return "stencil: wrong at (" + std::to_string(x) + ", " + std::to_string(y) + ")";
           return std::string();
         },
         [] {
           clReleaseMemObject(din);
           clReleaseMemObject(dout);
         }});
  }
  return all;
}

// A kernel built with FIBERCL_CHECK=`check` ("" for none).
cl_kernel build(cl_context c, cl_device_id d, const Case &k, const char *check) {
  if (*check)
    setenv("FIBERCL_CHECK", check, 1);
  else
    unsetenv("FIBERCL_CHECK");
  fibercl::cl_host::BuildResult built = fibercl::cl_host::tryBuild(c, d, {k.src}, "");
  unsetenv("FIBERCL_CHECK");
  if (built.err != CL_SUCCESS)
    die(std::string(k.name) + ": build failed:\n" + built.log);
  cl_int err;
  cl_kernel kernel = clCreateKernel(built.program, k.kernel, &err);
  ck(err, "clCreateKernel");
  return kernel;
}

constexpr int kBlock = 5; // launches per block; the two kernels' blocks alternate

double timeBlock(cl_command_queue q, cl_kernel k, const Case &c) {
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kBlock; ++i)
    ck(clEnqueueNDRangeKernel(q, k, c.dims, nullptr, c.global, c.local[0] ? c.local : nullptr, 0,
                              nullptr, nullptr),
       "clEnqueueNDRangeKernel");
  ck(clFinish(q), "clFinish");
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

} // namespace

int main(int argc, char **argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 40;
  cl_device_id dev = fibercl::cl_host::findDevice(fibercl::cl_host::kFiberCL);
  if (!dev)
    die("FiberCL not found through the ICD loader (set OCL_ICD_VENDORS)");
  fibercl::cl_host::Session s(dev);
  std::printf("%d rounds of %d launches each, alternating\n\n", rounds, kBlock);
  std::printf("| kernel | check | unchecked ms | checked ms | ratio | per-round ratios: median "
              "(min-max) |\n|---|---|---:|---:|---:|---|\n");
  for (Case &c : cases()) {
    c.make(s.context());
    cl_kernel plain = build(s.context(), dev, c, "");
    c.set(plain);
    for (const char *check : c.checks) {
      cl_kernel checked = build(s.context(), dev, c, check);
      c.set(checked);
      timeBlock(s.queue(), plain, c); // first launches: specialisation, page faults
      timeBlock(s.queue(), checked, c);
      double total[2] = {0, 0};
      std::vector<double> ratios;
      for (int r = 0; r < rounds; ++r) {
        // Alternate which goes first, so neither always follows the other.
        double t[2];
        for (int i = 0; i < 2; ++i) {
          int which = (r + i) % 2;
          t[which] = timeBlock(s.queue(), which ? checked : plain, c);
        }
        total[0] += t[0];
        total[1] += t[1];
        ratios.push_back(t[1] / t[0]);
      }
      timeBlock(s.queue(), checked, c); // the checked kernel's result is the one checked
      std::string wrong = c.wrong(s.queue());
      if (!wrong.empty())
        die(std::string(check) + " " + wrong);
      std::sort(ratios.begin(), ratios.end());
      const double per = rounds * kBlock;
      std::printf("| %s | %s | %.2f | %.2f | %.2f | %.2f (%.2f-%.2f) |\n", c.name, check,
                  total[0] / per, total[1] / per, total[1] / total[0], ratios[ratios.size() / 2],
                  ratios.front(), ratios.back());
      std::fflush(stdout);
      clReleaseKernel(checked);
    }
    clReleaseKernel(plain);
    c.release();
  }
  return 0;
}

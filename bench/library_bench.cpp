// fibercl_library_bench: real OpenCL libraries on FiberCL and on PoCL ("Portable
// Computing Language") in one process, both found through the ICD loader (start it with
// OCL_ICD_VENDORS naming a directory that holds both .icd files; bench/run.sh does).
//
//   CLBlast  SGEMM C = A*B, 1000x1000x1000, row-major (CLBlastSgemm)
//   clFFT    forward 1D complex single-precision FFT of 2^20 points, out of place
//
// Each platform gets one untimed warm-up call (CLBlast compiles its kernels, clFFT bakes
// its plan and compiles on first use), then `runs` timed calls (call + clFinish, wall
// time), alternating between the platforms so drift on a shared machine hits both. The
// result of the last call is checked against the host; a mismatch aborts.
//
//   fibercl_library_bench [runs]      (default 7)
//
// Prints a markdown table of medians on stdout; progress and warnings go to stderr.
#include <clFFT.h>
#include <clblast_c.h>
#include <fibercl/cl_host/errors.hpp>
#include <fibercl/cl_host/platforms.hpp>
#include <fibercl/cl_host/session.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void die(const std::string &msg) {
  std::fprintf(stderr, "fibercl_library_bench: %s\n", msg.c_str());
  std::exit(1);
}

void ck(int err, const char *what) { // OpenCL, CLBlast and clFFT share error numbering
  if (err != 0)
    die(std::string(what) + " failed with " + std::to_string(err));
}

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// One platform under test: device, context, in-order queue.
struct Target {
  std::string label; // "FiberCL" or "PoCL"
  cl_device_id dev = nullptr;
  cl_context ctx = nullptr;
  cl_command_queue q = nullptr;

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
};

// Finds the platform named `name` and sets up a Target, or returns false after a loud
// warning.
bool openPlatform(const char *name, const char *label, Target &t) {
  if (cl_device_id device = fibercl::cl_host::findDevice(name)) {
    t.label = label;
    t.dev = device;
    try {
      t.ctx = fibercl::cl_host::createContext(t.dev);
      t.q = fibercl::cl_host::createQueue(t.ctx, t.dev);
    } catch (const fibercl::cl_host::Error &e) {
      die(e.what());
    }
    return true;
  }
  const char *vendors = std::getenv("OCL_ICD_VENDORS");
  std::fprintf(stderr,
               "\nfibercl_library_bench: WARNING: platform \"%s\" NOT FOUND through the ICD "
               "loader (OCL_ICD_VENDORS=%s); %s is SKIPPED\n\n",
               name, vendors ? vendors : "<unset>", label);
  return false;
}

// One library call on one platform, made by sgemm() or fft() (which allocate and
// initialise): run() enqueues one call (the caller waits with clFinish), check()
// verifies the output of the last call, release() frees what sgemm()/fft() made.
struct Case {
  std::function<void()> run, check, release;
};

// ---- CLBlast SGEMM ---------------------------------------------------------------

const size_t kGemmN = 1000;

float gemmA(size_t i) { return static_cast<float>((i * 7) % 17) * 0.125f - 1.0f; }
float gemmB(size_t i) { return static_cast<float>((i * 13) % 11) * 0.25f - 1.25f; }

Case sgemm(Target &t) {
  const size_t n = kGemmN, nn = n * n;
  std::vector<float> A(nn), B(nn);
  for (size_t i = 0; i < nn; ++i) {
    A[i] = gemmA(i);
    B[i] = gemmB(i);
  }
  cl_mem dA = t.buffer(nn * 4, A.data()), dB = t.buffer(nn * 4, B.data()), dC = t.buffer(nn * 4);
  Case c;
  c.run = [&t, n, dA, dB, dC] {
    // Row-major C = 1 * A * B + 0 * C, all leading dimensions n.
    ck(CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, n, n, n, 1.0f,
                    dA, 0, n, dB, 0, n, 0.0f, dC, 0, n, &t.q, nullptr),
       "CLBlastSgemm");
  };
  c.check = [&t, n, dC] {
    std::vector<float> C = t.read<float>(dC, n * n);
    const size_t rows[] = {0, 1, 357, 998, 999}, cols[] = {0, 2, 500, 777, 999};
    for (size_t row : rows)
      for (size_t col : cols) {
        double want = 0;
        for (size_t k = 0; k < n; ++k)
          want += static_cast<double>(gemmA(row * n + k)) * gemmB(k * n + col);
        if (std::fabs(C[row * n + col] - want) > 1e-3 * (1.0 + std::fabs(want)))
          die(t.label + " CLBlast SGEMM: C[" + std::to_string(row) + "][" + std::to_string(col) +
              "] = " + std::to_string(C[row * n + col]) + ", want " + std::to_string(want));
      }
  };
  c.release = [dA, dB, dC] {
    for (cl_mem m : {dA, dB, dC})
      clReleaseMemObject(m);
  };
  return c;
}

// ---- clFFT -----------------------------------------------------------------------

const size_t kFftN = size_t(1) << 20;
// Input: a DC level plus two tones, x[j] = 0.25 + exp(2 pi i k1 j / N) + 0.5 exp(2 pi i k2 j / N),
// whose forward transform (exponent -2 pi i jk / N) is 0.25 N at bin 0, N at bin k1,
// 0.5 N at bin k2 and 0 elsewhere.
const size_t kTone1 = 12345, kTone2 = 777777;

Case fft(Target &t) {
  const size_t n = kFftN;
  std::vector<cl_float2> x(n);
  const double pi = std::acos(-1.0);
  for (size_t j = 0; j < n; ++j) {
    double a1 = 2 * pi * static_cast<double>((kTone1 * j) % n) / n;
    double a2 = 2 * pi * static_cast<double>((kTone2 * j) % n) / n;
    x[j].s[0] = static_cast<float>(0.25 + std::cos(a1) + 0.5 * std::cos(a2));
    x[j].s[1] = static_cast<float>(std::sin(a1) + 0.5 * std::sin(a2));
  }
  cl_mem din = t.buffer(n * sizeof(cl_float2), x.data());
  cl_mem dout = t.buffer(n * sizeof(cl_float2));
  clfftPlanHandle plan;
  ck(clfftCreateDefaultPlan(&plan, t.ctx, CLFFT_1D, &n), "clfftCreateDefaultPlan");
  ck(clfftSetPlanPrecision(plan, CLFFT_SINGLE), "clfftSetPlanPrecision");
  ck(clfftSetLayout(plan, CLFFT_COMPLEX_INTERLEAVED, CLFFT_COMPLEX_INTERLEAVED), "clfftSetLayout");
  ck(clfftSetResultLocation(plan, CLFFT_OUTOFPLACE), "clfftSetResultLocation");
  ck(clfftBakePlan(plan, 1, &t.q, nullptr, nullptr), "clfftBakePlan");
  Case c;
  c.run = [&t, plan, din, dout]() mutable {
    cl_mem in = din, out = dout;
    ck(clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, &t.q, 0, nullptr, nullptr, &in, &out, nullptr),
       "clfftEnqueueTransform");
  };
  c.check = [&t, n, dout] {
    std::vector<cl_float2> X = t.read<cl_float2>(dout, n);
    double worst = 0; // largest error over all bins
    size_t worstBin = 0;
    for (size_t k = 0; k < n; ++k) {
      double want = k == 0 ? 0.25 * n : k == kTone1 ? 1.0 * n : k == kTone2 ? 0.5 * n : 0.0;
      double err = std::hypot(X[k].s[0] - want, X[k].s[1]);
      if (!(err <= worst)) { // also catches NaN
        worst = err;
        worstBin = k;
      }
    }
    // Rounding leaves errors of a few ulps of N (0.125 = 2 ulps measured, at bin k1); a
    // wrong transform leaves errors of order N.
    if (!(worst < 1e-5 * n))
      die(t.label + " clFFT: bin " + std::to_string(worstBin) + " is off by " +
          std::to_string(worst));
  };
  c.release = [plan, din, dout]() mutable {
    clfftDestroyPlan(&plan);
    clReleaseMemObject(din);
    clReleaseMemObject(dout);
  };
  return c;
}

struct Row {
  const char *name;
  double flop; // per call
  std::vector<double> ms[2];
};

} // namespace

int main(int argc, char **argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 7;
  if (runs < 1)
    die("usage: fibercl_library_bench [runs]   (runs >= 1, default 7)");

  Target targets[2];
  bool have[2] = {openPlatform("FiberCL", "FiberCL", targets[0]),
                  openPlatform("Portable Computing Language", "PoCL", targets[1])};
  if (!have[0] && !have[1])
    die("no platform to benchmark");

  clfftSetupData setup;
  ck(clfftInitSetupData(&setup), "clfftInitSetupData");
  ck(clfftSetup(&setup), "clfftSetup");

  Row rows[] = {
      {"CLBlast SGEMM 1000x1000x1000", 2.0 * kGemmN * kGemmN * kGemmN, {}},
      {"clFFT 1D C2C forward 2^20", 5.0 * kFftN * std::log2(static_cast<double>(kFftN)), {}},
  };
  Case (*const make[])(Target &) = {sgemm, fft};

  for (int r = 0; r < 2; ++r) {
    Case cases[2];
    for (int p = 0; p < 2; ++p) {
      if (!have[p])
        continue;
      Target &t = targets[p];
      auto start = Clock::now();
      cases[p] = make[r](t);
      cases[p].run(); // warm-up: compiles (and for CLBlast picks parameters) on first use
      ck(clFinish(t.q), "clFinish");
      std::fprintf(stderr, "%s on %s: setup + warm-up %.0f ms\n", rows[r].name, t.label.c_str(),
                   msSince(start));
    }
    for (int i = 0; i < runs; ++i)
      for (int p = 0; p < 2; ++p) {
        if (!have[p])
          continue;
        auto start = Clock::now();
        cases[p].run();
        ck(clFinish(targets[p].q), "clFinish");
        rows[r].ms[p].push_back(msSince(start));
      }
    for (int p = 0; p < 2; ++p)
      if (have[p]) {
        cases[p].check();
        cases[p].release();
      }
  }

  std::printf("\n| library benchmark | FiberCL ms | PoCL ms | FiberCL GFLOP/s | PoCL GFLOP/s "
              "| ratio FiberCL/PoCL |\n|---|---|---|---|---|---|\n");
  for (const Row &row : rows) {
    std::string cell[4], ratio = "—";
    double gflops[2] = {0, 0};
    for (int p = 0; p < 2; ++p) {
      if (!have[p]) {
        cell[p] = cell[2 + p] = "not found";
        continue;
      }
      double ms = median(row.ms[p]);
      gflops[p] = row.flop / (ms * 1e6);
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.2f", ms);
      cell[p] = buf;
      std::snprintf(buf, sizeof buf, "%.2f", gflops[p]);
      cell[2 + p] = buf;
    }
    if (have[0] && have[1]) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.2f", gflops[0] / gflops[1]);
      ratio = buf;
    }
    std::printf("| %s | %s | %s | %s | %s | %s |\n", row.name, cell[0].c_str(), cell[1].c_str(),
                cell[2].c_str(), cell[3].c_str(), ratio.c_str());
  }
  std::printf("\nMedians of %d alternating verified runs (call + clFinish, wall time) after one "
              "untimed warm-up; FFT GFLOP/s counts 5 N log2 N; ratio > 1: FiberCL faster.\n",
              runs);
  clfftTeardown();
  return 0;
}

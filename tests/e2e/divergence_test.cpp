// Kernels whose work-items take different paths: data-dependent inner loops, break and
// continue, early returns, divergent if/else chains and switches, gathers and scatters,
// mixed integer and float types, math calls, private arrays. FiberCL vectorises the
// work-item loop of such kernels with masks (MaskedWorkItemVectorizerPass): every lane
// runs every block under a mask of the lanes that would reach it, and an inner loop
// repeats while any lane still iterates. A lane that keeps computing after it left a
// loop, a live-out value taken from the wrong iteration, a store or a trapping division
// by a masked-off lane, or a wrong mask on the last, partial vector of a group shows up
// here as a wrong element.
//
// Each kernel is written the way applications write them and runs on group shapes that
// leave partial vectors (the loop runs along x, in vectors of 8 or 16 lanes depending on
// the types and the host: rows of 13, 20, 40 or 5 work-items, one work-item, the
// implementation's choice), and every result is compared exactly with the same
// computation done here. Floats are compared bit for bit: the kernels say
// `#pragma OPENCL FP_CONTRACT OFF` and use only + - * (division only by powers of two,
// which is exact), and this file is compiled with -ffp-contract=off (CMakeLists.txt),
// so both sides round each operation alike. Math builtins are compared with a tolerance.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cl_test.hpp"

namespace fcltest {
namespace {

class Divergence : public CLTest {
protected:
  bool hasFp64() const {
    if (hasExtension("cl_khr_fp64"))
      return true;
    cl_device_fp_config config = 0;
    clGetDeviceInfo(device_, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof config, &config, nullptr);
    return config != 0;
  }
};

// A multiple of every 1-D local size below.
constexpr size_t kN = 4160; // 2^6 * 5 * 13
// Whole vectors (16, 64), a partial last vector (13 and 20 for 8 or 16 lanes, 40 for 16),
// one work-item per group, and no local size (the implementation chooses).
const std::vector<std::vector<size_t>> kLocal1D = {{16}, {13}, {1}, {40}, {20}, {64}, {}};

std::string shape(const std::vector<size_t> &s) {
  if (s.empty())
    return "NULL";
  std::string out;
  for (size_t d : s)
    out += (out.empty() ? "" : "x") + std::to_string(d);
  return out;
}

// Deterministic pseudo-random numbers (the same on every run and platform).
struct Lcg {
  uint64_t state;
  explicit Lcg(uint64_t seed) : state(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint32_t next() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return uint32_t(state >> 33);
  }
  // In [lo, hi).
  int32_t range(int32_t lo, int32_t hi) { return lo + int32_t(next() % uint32_t(hi - lo)); }
};

// Element-wise equality, bit for bit (so -0.0f != 0.0f and a NaN equals itself),
// naming the first differing elements.
template <typename T>
::testing::AssertionResult sameElements(const std::vector<T> &got, const std::vector<T> &want) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure() << "sizes differ: " << got.size() << " vs " << want.size();
  size_t bad = 0;
  std::ostringstream first;
  first << std::setprecision(17);
  for (size_t i = 0; i < got.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0 && bad++ < 8)
      first << "\n  [" << i << "] got " << +got[i] << ", want " << +want[i];
  if (bad == 0)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << bad << " of " << got.size() << " elements differ:" << first.str();
}

size_t roundUp(size_t n, size_t to) { return (n + to - 1) / to * to; }

// ---------------------------------------------------------------------------------
// 1. Mandelbrot: the classic per-pixel escape loop. Each work-item iterates until its
// point escapes or max_iter; neighbours in one vector leave at very different
// iterations, and the values (n, zr, zi) must be those of the iteration each one left at.
// The global size is rounded up to the group size and the padding work-items return
// before touching memory.

const char *kMandelbrot = R"CLC(
    #pragma OPENCL FP_CONTRACT OFF
    __kernel void mandelbrot(__global int* iters, __global float* mag, int w, int h,
                             float x0, float y0, float step, int max_iter) {
      int x = get_global_id(0), y = get_global_id(1);
      if (x >= w || y >= h) return;
      float cr = x0 + (float)x * step, ci = y0 + (float)y * step;
      float zr = 0.0f, zi = 0.0f;
      int n = 0;
      while (n < max_iter && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        ++n;
      }
      iters[y * w + x] = n;
      mag[y * w + x] = zr * zr + zi * zi;
    })CLC";

struct MandelParams {
  cl_int w = 200, h = 24;
  cl_float x0 = -2.1f, y0 = -0.6f, step = 0.015f;
  cl_int maxIter = 200;
};

void mandelbrotOnHost(const MandelParams &p, std::vector<cl_int> &iters,
                      std::vector<cl_float> &mag) {
  iters.assign(size_t(p.w) * p.h, 0);
  mag.assign(size_t(p.w) * p.h, 0.0f);
  for (int y = 0; y < p.h; ++y)
    for (int x = 0; x < p.w; ++x) {
      float cr = p.x0 + float(x) * p.step, ci = p.y0 + float(y) * p.step;
      float zr = 0.0f, zi = 0.0f;
      int n = 0;
      while (n < p.maxIter && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        ++n;
      }
      iters[size_t(y) * p.w + x] = n;
      mag[size_t(y) * p.w + x] = zr * zr + zi * zi;
    }
}

TEST_F(Divergence, MandelbrotEscapeLoopOn2DGroups) {
  MandelParams p;
  std::vector<cl_int> wantIters;
  std::vector<cl_float> wantMag;
  mandelbrotOnHost(p, wantIters, wantMag);
  // The picture has points that leave at once, late, and never.
  ASSERT_EQ(*std::min_element(wantIters.begin(), wantIters.end()), 1);
  ASSERT_EQ(*std::max_element(wantIters.begin(), wantIters.end()), p.maxIter);

  cl_kernel k = kernelFrom(kMandelbrot, "mandelbrot");
  const size_t pixels = size_t(p.w) * p.h, tail = 64 * 8;
  cl_mem diters = buffer((pixels + tail) * sizeof(cl_int));
  cl_mem dmag = buffer((pixels + tail) * sizeof(cl_float));
  setArgs(k, diters, dmag, p.w, p.h, p.x0, p.y0, p.step, p.maxIter);
  for (const std::vector<size_t> &local :
       std::vector<std::vector<size_t>>{{16, 4}, {13, 5}, {1, 1}, {40, 2}, {64, 1}, {}}) {
    write(diters, std::vector<cl_int>(pixels + tail, -7));
    write(dmag, std::vector<cl_float>(pixels + tail, -7.0f));
    std::vector<size_t> global = {size_t(p.w), size_t(p.h)};
    if (!local.empty())
      global = {roundUp(p.w, local[0]), roundUp(p.h, local[1])};
    run(k, global, local);
    std::vector<cl_int> iters = read<cl_int>(diters, pixels + tail);
    std::vector<cl_float> mag = read<cl_float>(dmag, pixels + tail);
    EXPECT_TRUE(sameElements(std::vector<cl_int>(iters.begin(), iters.begin() + pixels), wantIters))
        << "iterations, local size " << shape(local);
    EXPECT_TRUE(sameElements(std::vector<cl_float>(mag.begin(), mag.begin() + pixels), wantMag))
        << "|z|^2, local size " << shape(local);
    EXPECT_TRUE(sameElements(std::vector<cl_int>(iters.begin() + pixels, iters.end()),
                             std::vector<cl_int>(tail, -7)))
        << "a padding work-item wrote past the picture, local size " << shape(local);
  }
}

// ---------------------------------------------------------------------------------
// 2. Nested divergent loops: the outer trip count is per work-item, the inner one
// depends on the item and the outer counter (and is zero or negative for some rounds).
// Four values leave the loops -- a sum, a count, the last (i, j) seen and a float
// updated once per outer round -- and each must be the value of the iteration in
// which that work-item left, not of the iteration the vector left.

TEST_F(Divergence, NestedLoopsWithSeveralLiveOutValues) {
  const char *src = R"CLC(
    #pragma OPENCL FP_CONTRACT OFF
    __kernel void nested(__global const int* a, int n, __global int* sums,
                         __global int* counts, __global int* lasts, __global float* fs) {
      int g = get_global_id(0);
      int outer = a[g] & 7;
      int s = 0, c = 0, last = -1;
      float f = 1.0f;
      for (int i = 0; i < outer; ++i) {
        int inner = ((a[(g + i) % n] >> 3) & 7) + i - 2;
        for (int j = 0; j < inner; ++j) {
          s += a[(g * 7 + i * 3 + j) % n] & 255;
          ++c;
          last = i * 16 + j;
        }
        f = f * 0.75f + (float)(s & 1023);
      }
      sums[g] = s;
      counts[g] = c;
      lasts[g] = last;
      fs[g] = f;
    })CLC";
  const cl_int n = cl_int(kN);
  std::vector<cl_int> a(kN);
  Lcg rng(2);
  for (cl_int &v : a)
    v = rng.range(0, 1 << 20);
  std::vector<cl_int> sums(kN), counts(kN), lasts(kN);
  std::vector<cl_float> fs(kN);
  for (int g = 0; g < n; ++g) {
    int outer = a[g] & 7, s = 0, c = 0, last = -1;
    float f = 1.0f;
    for (int i = 0; i < outer; ++i) {
      int inner = ((a[(g + i) % n] >> 3) & 7) + i - 2;
      for (int j = 0; j < inner; ++j) {
        s += a[(g * 7 + i * 3 + j) % n] & 255;
        ++c;
        last = i * 16 + j;
      }
      f = f * 0.75f + float(s & 1023);
    }
    sums[g] = s, counts[g] = c, lasts[g] = last, fs[g] = f;
  }

  cl_kernel k = kernelFrom(src, "nested");
  cl_mem da = bufferFrom(a), dsums = buffer(kN * 4), dcounts = buffer(kN * 4),
         dlasts = buffer(kN * 4), dfs = buffer(kN * 4);
  setArgs(k, da, n, dsums, dcounts, dlasts, dfs);
  for (const std::vector<size_t> &local : kLocal1D) {
    run(k, {kN}, local);
    EXPECT_TRUE(sameElements(read<cl_int>(dsums, kN), sums)) << "sum, local " << shape(local);
    EXPECT_TRUE(sameElements(read<cl_int>(dcounts, kN), counts)) << "count, local " << shape(local);
    EXPECT_TRUE(sameElements(read<cl_int>(dlasts, kN), lasts)) << "last, local " << shape(local);
    EXPECT_TRUE(sameElements(read<cl_float>(dfs, kN), fs)) << "float, local " << shape(local);
  }
}

// ---------------------------------------------------------------------------------
// 3. A scan with continue, break and returns (from an inlined helper) on data-dependent
// conditions: four ways out of the loop, each giving its own code and value. A lane
// that leaves by one exit must not be carried on to another, or pick up the value
// another exit computes for the lanes still running.

TEST_F(Divergence, BreakContinueAndSeveralExits) {
  const char *src = R"CLC(
    // How the scan ended: 0 ran out of steps, 1 met a large negative value, 2 the sum
    // passed the limit, 3 met a marker.
    int scan(__global const int* data, int n, int start, int limit, int* result) {
      int acc = 0, kind = 0;
      for (int step = 0, i = start; step < 48; ++step, i += 3) {
        int v = data[i % n];
        if ((v & 7) == 0) continue;
        if (v < -980) { *result = i; return 1; }
        acc += v;
        if (acc > limit) { kind = 2; break; }
        if ((v & 255) == 77) { *result = acc ^ step; return 3; }
      }
      *result = kind == 2 ? -acc : acc;
      return kind;
    }

    __kernel void search(__global const int* data, int n, __global int* kinds,
                         __global int* results) {
      int g = get_global_id(0);
      int r;
      int kind = scan(data, n, g, 2000 + (g % 7) * 4000, &r);
      kinds[g] = kind;
      results[g] = r;
    })CLC";
  const cl_int n = cl_int(kN);
  std::vector<cl_int> data(kN);
  Lcg rng(3);
  for (cl_int &v : data)
    v = rng.range(-1000, 1500);
  std::vector<cl_int> kinds(kN), results(kN);
  int taken[4] = {};
  for (int g = 0; g < n; ++g) {
    int acc = 0, kind = 0, result = 0;
    bool returned = false;
    for (int step = 0, i = g; step < 48; ++step, i += 3) {
      int v = data[i % n];
      if ((v & 7) == 0)
        continue;
      if (v < -980) {
        result = i, kind = 1, returned = true;
        break;
      }
      acc += v;
      if (acc > 2000 + (g % 7) * 4000) {
        kind = 2;
        break;
      }
      if ((v & 255) == 77) {
        result = acc ^ step, kind = 3, returned = true;
        break;
      }
    }
    if (!returned)
      result = kind == 2 ? -acc : acc;
    kinds[g] = kind, results[g] = result;
    ++taken[kind];
  }
  for (int kind = 0; kind < 4; ++kind)
    ASSERT_GE(taken[kind], 20) << "too few work-items leave by exit " << kind;

  cl_kernel k = kernelFrom(src, "search");
  cl_mem ddata = bufferFrom(data), dkinds = buffer(kN * 4), dresults = buffer(kN * 4);
  setArgs(k, ddata, n, dkinds, dresults);
  for (const std::vector<size_t> &local : kLocal1D) {
    run(k, {kN}, local);
    EXPECT_TRUE(sameElements(read<cl_int>(dkinds, kN), kinds)) << "exit, local " << shape(local);
    EXPECT_TRUE(sameElements(read<cl_int>(dresults, kN), results))
        << "value, local " << shape(local);
  }
}

// ---------------------------------------------------------------------------------
// 4. Early returns: `if (g >= n) return;` with n not a multiple of the group size, and
// a return from inside a loop. Work-items that returned write nothing afterwards (the
// sentinel stays), while their stores before the return stay. Also with a global offset,
// which moves the work-items past n without moving the group boundaries.

TEST_F(Divergence, EarlyReturnsWriteNothingMore) {
  const char *src = R"CLC(
    __kernel void clip(__global const int* in, __global int* out, __global int* trace,
                       int n, int cap) {
      int g = get_global_id(0);
      if (g >= n) return;
      int v = in[g];
      for (int k = 0; k < (v & 15); ++k) {
        v = v + (v >> 2) + k;
        trace[g] = k;
        if (v > cap) return;
      }
      out[g] = v;
    })CLC";
  const cl_int n = 4001, cap = 100000, sentinel = -12345;
  const size_t size = kN + 64; // room for the offset run
  std::vector<cl_int> in(size);
  Lcg rng(4);
  for (cl_int &v : in)
    v = rng.range(0, 1 << 16);

  // What the work-items with ids [first, first + count) leave in out and trace.
  auto expected = [&](size_t first, size_t count, std::vector<cl_int> &out,
                      std::vector<cl_int> &trace) {
    out.assign(size, sentinel);
    trace.assign(size, sentinel);
    for (size_t g = first; g < first + count && g < size_t(n); ++g) {
      int v = in[g];
      bool returned = false;
      for (int k = 0; k < (v & 15) && !returned; ++k) {
        v = v + (v >> 2) + k;
        trace[g] = k;
        returned = v > cap;
      }
      if (!returned)
        out[g] = v;
    }
  };

  cl_kernel k = kernelFrom(src, "clip");
  cl_mem din = bufferFrom(in), dout = buffer(size * 4), dtrace = buffer(size * 4);
  setArgs(k, din, dout, dtrace, n, cap);
  std::vector<std::pair<std::vector<size_t>, size_t>> runs; // local size, global offset
  for (const std::vector<size_t> &local : kLocal1D)
    runs.push_back({local, 0});
  runs.push_back({{13}, 5});
  runs.push_back({{16}, 9});
  for (const auto &[local, offset] : runs) {
    write(dout, std::vector<cl_int>(size, sentinel));
    write(dtrace, std::vector<cl_int>(size, sentinel));
    run(k, {kN}, local, offset ? std::vector<size_t>{offset} : std::vector<size_t>{});
    std::vector<cl_int> out, trace;
    expected(offset, kN, out, trace);
    size_t returnedInLoop = 0;
    for (size_t g = 0; g < size_t(n); ++g)
      returnedInLoop += out[g] == sentinel;
    ASSERT_GT(returnedInLoop, 100u);
    EXPECT_TRUE(sameElements(read<cl_int>(dout, size), out))
        << "out, local " << shape(local) << ", offset " << offset;
    EXPECT_TRUE(sameElements(read<cl_int>(dtrace, size), trace))
        << "trace, local " << shape(local) << ", offset " << offset;
  }
}

// ---------------------------------------------------------------------------------
// 5. An if/else-if chain and a switch (with fall-through and a default) on per-item
// data, then a loop dividing by a divisor that reaches 0 and -1 for some work-items;
// the guard keeps those items from dividing (INT_MIN / -1 traps on x86 as well). Run
// with masks, a division of a masked-off lane must not trap nor leak into the result.

TEST_F(Divergence, BranchChainsSwitchAndGuardedDivision) {
  const char *src = R"CLC(
    __kernel void classify(__global const int* a, __global const int* b,
                           __global int* out, __global uint* uout) {
      int g = get_global_id(0);
      int x = a[g], y = b[g];
      int r;
      if (y == 0) r = x;
      else if (y == -1) r = -(x >> 1);
      else if (x < 0) r = x / y - x % y;
      else r = x % y * 2 + x / y;
      switch ((x ^ y) & 7) {
        case 0: r += 1; break;
        case 1:
        case 2: r = r - (r >> 2); break;
        case 5: r ^= y;  // falls through
        case 6: r -= 11; break;
        default: r = ~r;
      }
      uint u = (uint)x;
      int trips = 4 + (g & 3);
      for (int k = 0; k < trips; ++k) {
        int d = y - k;
        if (d != 0 && !(x == INT_MIN && d == -1)) r ^= x / d + (x % d) * 3;
        else r ^= k << 8;
        uint ud = (uint)d & 15u;
        u = ud ? u / ud + u % ud : u + 1u;
      }
      out[g] = r;
      uout[g] = u;
    })CLC";
  std::vector<cl_int> a(kN), b(kN);
  Lcg rng(5);
  for (size_t g = 0; g < kN; ++g) {
    a[g] = rng.range(-(1 << 20), 1 << 20);
    b[g] = rng.range(-3, 9);
    // INT_MIN with divisors that reach -1 (2 - k), that are 0 and that are -1 at once.
    if (g % 64 == 7)
      a[g] = INT_MIN, b[g] = 2;
    if (g % 64 == 11)
      a[g] = INT_MIN, b[g] = 0;
    if (g % 64 == 15)
      a[g] = INT_MIN, b[g] = -1;
  }
  std::vector<cl_int> out(kN);
  std::vector<cl_uint> uout(kN);
  for (size_t g = 0; g < kN; ++g) {
    int x = a[g], y = b[g], r;
    if (y == 0)
      r = x;
    else if (y == -1)
      r = -(x >> 1);
    else if (x < 0)
      r = x / y - x % y;
    else
      r = x % y * 2 + x / y;
    switch ((x ^ y) & 7) {
    case 0:
      r += 1;
      break;
    case 1:
    case 2:
      r = r - (r >> 2);
      break;
    case 5:
      r ^= y;
      [[fallthrough]];
    case 6:
      r -= 11;
      break;
    default:
      r = ~r;
    }
    uint32_t u = uint32_t(x);
    int trips = 4 + int(g & 3);
    for (int k = 0; k < trips; ++k) {
      int d = y - k;
      if (d != 0 && !(x == INT_MIN && d == -1))
        r ^= x / d + (x % d) * 3;
      else
        r ^= k << 8;
      uint32_t ud = uint32_t(d) & 15u;
      u = ud ? u / ud + u % ud : u + 1u;
    }
    out[g] = r, uout[g] = u;
  }

  cl_kernel k = kernelFrom(src, "classify");
  cl_mem da = bufferFrom(a), db = bufferFrom(b), dout = buffer(kN * 4), duout = buffer(kN * 4);
  setArgs(k, da, db, dout, duout);
  for (const std::vector<size_t> &local : kLocal1D) {
    ASSERT_CL(tryRun(k, {kN}, local)) << "local " << shape(local);
    EXPECT_TRUE(sameElements(read<cl_int>(dout, kN), out)) << "int, local " << shape(local);
    EXPECT_TRUE(sameElements(read<cl_uint>(duout, kN), uout)) << "uint, local " << shape(local);
  }
}

// ---------------------------------------------------------------------------------
// 6. Memory at data-dependent addresses in a divergent loop: each work-item follows a
// chain of indices through a buffer (a gather per step), counts its visits in eight
// slots of its own (a read-modify-write at a data-dependent address), and reads a
// parameter table at addresses the same for every item, one of them only in a branch
// some items take. Masked-off lanes must neither load from -1 nor store.

TEST_F(Divergence, GathersScattersAndUniformLoads) {
  const char *src = R"CLC(
    #pragma OPENCL FP_CONTRACT OFF
    __kernel void walk(__global const int* next, __global const float* weight,
                       __global const float* params, int which,
                       __global int* visits, __global float* totals, __global int* lengths) {
      int g = get_global_id(0);
      __global int* mine = visits + g * 8;
      int node = g, len = 0;
      float acc = 0.0f;
      while (node >= 0 && len < 40) {
        float w = weight[node];
        acc = acc * params[0] + w;
        if (w > params[1]) acc -= params[which];
        mine[node & 7] += 1;
        node = next[node];
        ++len;
      }
      totals[g] = acc;
      lengths[g] = len;
    })CLC";
  std::vector<cl_int> next(kN);
  std::vector<cl_float> weight(kN);
  const std::vector<cl_float> params = {0.5f, 0.75f, 0.125f, 0.25f};
  const cl_int which = 3;
  Lcg rng(6);
  for (size_t i = 0; i < kN; ++i) {
    next[i] = rng.next() % 12 == 0 ? -1 : rng.range(0, cl_int(kN));
    weight[i] = float(rng.range(0, 64)) / 64.0f;
  }
  std::vector<cl_int> visits(kN * 8, 0), lengths(kN);
  std::vector<cl_float> totals(kN);
  for (size_t g = 0; g < kN; ++g) {
    int node = int(g), len = 0;
    float acc = 0.0f;
    while (node >= 0 && len < 40) {
      float w = weight[node];
      acc = acc * params[0] + w;
      if (w > params[1])
        acc -= params[which];
      visits[g * 8 + (node & 7)] += 1;
      node = next[node];
      ++len;
    }
    totals[g] = acc, lengths[g] = len;
  }

  cl_kernel k = kernelFrom(src, "walk");
  cl_mem dnext = bufferFrom(next), dweight = bufferFrom(weight), dparams = bufferFrom(params);
  cl_mem dvisits = buffer(kN * 8 * 4), dtotals = buffer(kN * 4), dlengths = buffer(kN * 4);
  setArgs(k, dnext, dweight, dparams, which, dvisits, dtotals, dlengths);
  for (const std::vector<size_t> &local : kLocal1D) {
    write(dvisits, std::vector<cl_int>(kN * 8, 0));
    run(k, {kN}, local);
    EXPECT_TRUE(sameElements(read<cl_int>(dlengths, kN), lengths))
        << "length, local " << shape(local);
    EXPECT_TRUE(sameElements(read<cl_float>(dtotals, kN), totals))
        << "total, local " << shape(local);
    EXPECT_TRUE(sameElements(read<cl_int>(dvisits, kN * 8), visits))
        << "visits, local " << shape(local);
  }
}

// ---------------------------------------------------------------------------------
// 7. char, uchar, short, int, uint, long, ulong, float (and double where the device has
// it) in one divergent loop, with conversions between them, signed and unsigned
// comparisons of the same bits, arithmetic and logical right shifts and a break. Each
// type is its own vector width of lanes; the masks and the blends of each must agree.

const char *kMixed = R"CLC(
    #ifdef USE_DOUBLE
    #pragma OPENCL EXTENSION cl_khr_fp64 : enable
    #endif
    #pragma OPENCL FP_CONTRACT OFF
    __kernel void mixed(__global const uchar* bytes, __global const short* shorts,
                        __global int* ints, __global uint* uints, __global long* longs,
                        __global ulong* ulongs, __global float* floats
    #ifdef USE_DOUBLE
                        , __global double* doubles
    #endif
                        ) {
      int g = get_global_id(0);
      uchar b = bytes[g];
      char c = (char)bytes[g ^ 1];
      short s = shorts[g];
      int i32 = c;
      uint u32 = (uint)s;
      long l64 = (long)s * 1000003L;
      ulong u64 = 0x9E3779B97F4A7C15UL ^ (ulong)g;
      float f = 0.5f;
    #ifdef USE_DOUBLE
      double d = 0.25;
    #endif
      for (int k = 0; k < (b & 15); ++k) {
        char cc = (char)(c + k * 37);
        uchar ub = (uchar)(b * (k + 3));
        short ss = (short)(s ^ (k << 11));
        if (cc < 0) i32 += cc; else i32 -= ub;
        if ((uint)i32 > u32) u32 += (uint)ss;
        else u32 ^= (uint)i32 >> (k & 31);
        l64 = (l64 >> 3) ^ (long)((ulong)(long)i32 << (k + 20));
        u64 = u64 * 6364136223846793005UL + (ulong)l64;
        if ((long)u64 < l64) u64 >>= 7; else u64 ^= u64 << 13;
        if (ss < -30000 && ub > 200) break;
        f = f * 1.5f + (float)ss * 0.125f;
    #ifdef USE_DOUBLE
        d = d * 0.75 + (double)l64 * 0.0009765625 + (double)u64 * 0x1p-40;
    #endif
      }
      ints[g] = i32;
      uints[g] = u32;
      longs[g] = l64;
      ulongs[g] = u64;
      floats[g] = f;
    #ifdef USE_DOUBLE
      doubles[g] = d;
    #endif
    })CLC";

TEST_F(Divergence, MixedTypesInADivergentLoop) {
  const bool fp64 = hasFp64();
  std::vector<cl_uchar> bytes(kN);
  std::vector<cl_short> shorts(kN);
  Lcg rng(7);
  for (size_t g = 0; g < kN; ++g) {
    bytes[g] = cl_uchar(rng.next());
    shorts[g] = cl_short(rng.range(-32768, 32768));
  }
  std::vector<cl_int> ints(kN);
  std::vector<cl_uint> uints(kN);
  std::vector<cl_long> longs(kN);
  std::vector<cl_ulong> ulongs(kN);
  std::vector<cl_float> floats(kN);
  std::vector<cl_double> doubles(kN);
  size_t breaks = 0;
  for (size_t gi = 0; gi < kN; ++gi) {
    int g = int(gi);
    uint8_t b = bytes[g];
    int8_t c = int8_t(bytes[g ^ 1]);
    int16_t s = shorts[g];
    int32_t i32 = c;
    uint32_t u32 = uint32_t(s);
    int64_t l64 = int64_t(s) * 1000003;
    uint64_t u64 = 0x9E3779B97F4A7C15ull ^ uint64_t(g);
    float f = 0.5f;
    double d = 0.25;
    for (int k = 0; k < (b & 15); ++k) {
      int8_t cc = int8_t(c + k * 37);
      uint8_t ub = uint8_t(b * (k + 3));
      int16_t ss = int16_t(s ^ (k << 11));
      if (cc < 0)
        i32 += cc;
      else
        i32 -= ub;
      if (uint32_t(i32) > u32)
        u32 += uint32_t(ss);
      else
        u32 ^= uint32_t(i32) >> (k & 31);
      l64 = (l64 >> 3) ^ int64_t(uint64_t(int64_t(i32)) << (k + 20));
      u64 = u64 * 6364136223846793005ull + uint64_t(l64);
      if (int64_t(u64) < l64)
        u64 >>= 7;
      else
        u64 ^= u64 << 13;
      if (ss < -30000 && ub > 200) {
        ++breaks;
        break;
      }
      f = f * 1.5f + float(ss) * 0.125f;
      d = d * 0.75 + double(l64) * 0.0009765625 + double(u64) * 0x1p-40;
    }
    ints[g] = i32, uints[g] = u32, longs[g] = l64, ulongs[g] = u64, floats[g] = f, doubles[g] = d;
  }
  ASSERT_GT(breaks, 10u);

  cl_kernel k = kernelFrom(kMixed, "mixed", fp64 ? "-DUSE_DOUBLE" : "");
  cl_mem dbytes = bufferFrom(bytes), dshorts = bufferFrom(shorts);
  cl_mem dints = buffer(kN * 4), duints = buffer(kN * 4), dlongs = buffer(kN * 8),
         dulongs = buffer(kN * 8), dfloats = buffer(kN * 4), ddoubles = buffer(kN * 8);
  setArgs(k, dbytes, dshorts, dints, duints, dlongs, dulongs, dfloats);
  if (fp64)
    setArg(k, 7, ddoubles);
  for (const std::vector<size_t> &local : kLocal1D) {
    run(k, {kN}, local);
    EXPECT_TRUE(sameElements(read<cl_int>(dints, kN), ints)) << "int, local " << shape(local);
    EXPECT_TRUE(sameElements(read<cl_uint>(duints, kN), uints)) << "uint, local " << shape(local);
    EXPECT_TRUE(sameElements(read<cl_long>(dlongs, kN), longs)) << "long, local " << shape(local);
    EXPECT_TRUE(sameElements(read<cl_ulong>(dulongs, kN), ulongs))
        << "ulong, local " << shape(local);
    EXPECT_TRUE(sameElements(read<cl_float>(dfloats, kN), floats))
        << "float, local " << shape(local);
    if (fp64) {
      EXPECT_TRUE(sameElements(read<cl_double>(ddoubles, kN), doubles))
          << "double, local " << shape(local);
    }
  }
  if (!fp64)
    std::cout << "[ INFO     ] no fp64 on this device: doubles not checked\n";
}

// ---------------------------------------------------------------------------------
// 8. sqrt, exp and sin in a divergent loop, each in its own branch: the vector math
// variants must be called under the right masks and give each lane its own result.
// Compared with the host's float functions within a relative 1e-5 (the loop adds up to
// a dozen results, each within a few ulp).

TEST_F(Divergence, MathBuiltinsInADivergentLoop) {
  const char *src = R"CLC(
    __kernel void damped(__global const float* x, __global const int* steps,
                         __global float* out) {
      int g = get_global_id(0);
      float v = x[g], acc = 0.0f;
      for (int k = 0; k < steps[g]; ++k) {
        if (v > 0.0f) acc += sqrt(v + (float)k);
        else acc += exp(v * 0.25f - (float)k);
        if (acc > 4.0f) acc = 4.0f + sin(acc - 4.0f) * 0.5f;
      }
      out[g] = acc;
    })CLC";
  std::vector<cl_float> x(kN), want(kN);
  std::vector<cl_int> steps(kN);
  Lcg rng(8);
  for (size_t g = 0; g < kN; ++g) {
    x[g] = float(rng.range(-4000, 4000)) / 1000.0f;
    steps[g] = rng.range(0, 13);
    float v = x[g], acc = 0.0f;
    for (int k = 0; k < steps[g]; ++k) {
      if (v > 0.0f)
        acc += std::sqrt(v + float(k));
      else
        acc += std::exp(v * 0.25f - float(k));
      if (acc > 4.0f)
        acc = 4.0f + std::sin(acc - 4.0f) * 0.5f;
    }
    want[g] = acc;
  }

  cl_kernel k = kernelFrom(src, "damped");
  cl_mem dx = bufferFrom(x), dsteps = bufferFrom(steps), dout = buffer(kN * 4);
  setArgs(k, dx, dsteps, dout);
  for (const std::vector<size_t> &local : kLocal1D) {
    run(k, {kN}, local);
    std::vector<cl_float> got = read<cl_float>(dout, kN);
    size_t bad = 0;
    for (size_t g = 0; g < kN; ++g)
      if (!(std::fabs(got[g] - want[g]) <= 1e-5f * std::max(1.0f, std::fabs(want[g]))) && bad++ < 8)
        ADD_FAILURE() << "local " << shape(local) << ": [" << g << "] x " << x[g] << ", "
                      << steps[g] << " steps: got " << got[g] << ", want " << want[g];
    EXPECT_EQ(bad, 0u) << "local " << shape(local);
  }
}

// ---------------------------------------------------------------------------------
// 9. Loops some work-items run zero times -- single items, and whole runs of 32 -- and
// a launch where every work-item runs it zero times. Their values must be the ones set
// before the loop; a vector whose lanes all skip the loop must not run its body once.

TEST_F(Divergence, LoopsSomeOrAllWorkItemsRunZeroTimes) {
  const char *src = R"CLC(
    #pragma OPENCL FP_CONTRACT OFF
    __kernel void tally(__global const int* counts, __global const int* vals,
                        __global int* out, __global float* fout) {
      int g = get_global_id(0);
      int s = 1000 + g;
      float f = -1.5f;
      for (int i = 0; i < counts[g]; ++i) {
        s = s * 3 + vals[(g + i) & 1023];
        f = f * 0.5f + 1.0f;
      }
      out[g] = s;
      fout[g] = f;
    })CLC";
  std::vector<cl_int> vals(1024);
  Lcg rng(9);
  for (cl_int &v : vals)
    v = rng.range(-500, 500);
  auto expected = [&](const std::vector<cl_int> &counts, std::vector<cl_int> &out,
                      std::vector<cl_float> &fout) {
    out.resize(kN), fout.resize(kN);
    for (size_t g = 0; g < kN; ++g) {
      int s = 1000 + int(g);
      float f = -1.5f;
      for (int i = 0; i < counts[g]; ++i) {
        s = s * 3 + vals[(g + i) & 1023];
        f = f * 0.5f + 1.0f;
      }
      out[g] = s, fout[g] = f;
    }
  };
  std::vector<cl_int> some(kN), none(kN, 0);
  for (size_t g = 0; g < kN; ++g)
    some[g] = (g % 4 == 0 || (g / 32) % 5 == 0) ? 0 : rng.range(1, 6);

  cl_kernel k = kernelFrom(src, "tally");
  cl_mem dvals = bufferFrom(vals), dcounts = bufferFrom(some), dout = buffer(kN * 4),
         dfout = buffer(kN * 4);
  setArgs(k, dcounts, dvals, dout, dfout);
  for (const auto *counts : {&some, &none}) {
    const char *which = counts == &some ? "some" : "all";
    write(dcounts, *counts);
    std::vector<cl_int> out;
    std::vector<cl_float> fout;
    expected(*counts, out, fout);
    for (const std::vector<size_t> &local : kLocal1D) {
      write(dout, std::vector<cl_int>(kN, -1));
      run(k, {kN}, local);
      EXPECT_TRUE(sameElements(read<cl_int>(dout, kN), out))
          << which << " zero, local " << shape(local);
      EXPECT_TRUE(sameElements(read<cl_float>(dfout, kN), fout))
          << which << " zero, local " << shape(local);
    }
  }
}

// ---------------------------------------------------------------------------------
// 10a. A loop with a uniform trip count (a kernel argument, also 0) and a divergent
// if/else-if/else inside, on 3-D groups: 5x3x2 (six rows of 5 work-items, each one
// partial vector), 16x4x1 (whole vectors), 8x3x4, 40x1x1 and single work-items.

TEST_F(Divergence, UniformLoopWithDivergentIfOn3DGroups) {
  const char *src = R"CLC(
    __kernel void rounds(__global const uint* in, __global uint* out, int nrounds) {
      size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
      size_t i = (z * get_global_size(1) + y) * get_global_size(0) + x;
      uint v = in[i], acc = (uint)i;
      for (int r = 0; r < nrounds; ++r) {
        if ((v >> (r & 31)) & 1u) acc = acc * 3u + (uint)r;
        else if (acc & 4u) acc ^= v << (r & 7);
        else acc -= 17u;
      }
      out[i] = acc;
    })CLC";
  const std::vector<size_t> global = {80, 12, 4};
  const size_t n = global[0] * global[1] * global[2];
  std::vector<cl_uint> in(n);
  Lcg rng(10);
  for (cl_uint &v : in)
    v = rng.next() ^ (rng.next() << 16);

  cl_kernel k = kernelFrom(src, "rounds");
  cl_mem din = bufferFrom(in), dout = buffer(n * 4);
  for (cl_int nrounds : {37, 0}) {
    std::vector<cl_uint> want(n);
    for (size_t i = 0; i < n; ++i) {
      uint32_t v = in[i], acc = uint32_t(i);
      for (int r = 0; r < nrounds; ++r) {
        if ((v >> (r & 31)) & 1u)
          acc = acc * 3u + uint32_t(r);
        else if (acc & 4u)
          acc ^= v << (r & 7);
        else
          acc -= 17u;
      }
      want[i] = acc;
    }
    setArgs(k, din, dout, nrounds);
    for (const std::vector<size_t> &local : std::vector<std::vector<size_t>>{
             {5, 3, 2}, {16, 4, 1}, {1, 1, 1}, {40, 1, 1}, {8, 3, 4}, {}}) {
      write(dout, std::vector<cl_uint>(n, 0xdeadbeefu));
      run(k, global, local);
      EXPECT_TRUE(sameElements(read<cl_uint>(dout, n), want))
          << nrounds << " rounds, local " << shape(local);
    }
  }
}

// 10b. Private arrays indexed dynamically in divergent loops: a per-item lookup table
// (also written in the loop) and a digit stack whose depth is the number of decimal
// digits of the item's value (0 for value 0).

TEST_F(Divergence, PrivateArraysInDivergentLoops) {
  const char *src = R"CLC(
    __kernel void digits(__global const uint* in, __global uint* out) {
      int g = get_global_id(0);
      uint table[8];
      for (int i = 0; i < 8; ++i) table[i] = (uint)(g * (i + 3)) & 31u;
      uint v = in[g];
      int stack[10], sp = 0;
      while (v != 0u) {
        stack[sp++] = (int)(v % 10u);
        v /= 10u;
      }
      uint r = 0;
      while (sp > 0) {
        int d = stack[--sp];
        r = r * 7u + table[d & 7];
        if (d == 9) table[(r >> 2) & 7u] += (uint)d;
      }
      out[g] = r;
    })CLC";
  std::vector<cl_uint> in(kN), want(kN);
  Lcg rng(11);
  for (size_t g = 0; g < kN; ++g) {
    switch (g % 4) {
    case 0:
      in[g] = 0;
      break;
    case 1:
      in[g] = rng.next() % 1000;
      break;
    case 2:
      in[g] = rng.next() % 10000000;
      break;
    default:
      in[g] = rng.next() | 0x80000000u;
    }
    uint32_t table[8];
    for (int i = 0; i < 8; ++i)
      table[i] = uint32_t(int(g) * (i + 3)) & 31u;
    uint32_t v = in[g];
    int stack[10], sp = 0;
    while (v != 0u) {
      stack[sp++] = int(v % 10u);
      v /= 10u;
    }
    uint32_t r = 0;
    while (sp > 0) {
      int d = stack[--sp];
      r = r * 7u + table[d & 7];
      if (d == 9)
        table[(r >> 2) & 7u] += uint32_t(d);
    }
    want[g] = r;
  }

  cl_kernel k = kernelFrom(src, "digits");
  cl_mem din = bufferFrom(in), dout = buffer(kN * 4);
  setArgs(k, din, dout);
  for (const std::vector<size_t> &local : kLocal1D) {
    run(k, {kN}, local);
    EXPECT_TRUE(sameElements(read<cl_uint>(dout, kN), want)) << "local " << shape(local);
  }
}

// ---------------------------------------------------------------------------------
// 11. The pass itself: a fresh build of Mandelbrot under FIBERCL_DEBUG=vectorize says
// that the work-item loop was masked-vectorised (FiberCL prints "FiberCL: <function>:
// work-item loop masked-vectorised, <W> lanes" for each such loop, and "... not
// masked-vectorised: <why>" for one it leaves scalar), and the program it built gives
// the host's picture. Twice: the kernel above, whose padding work-items return at once
// (as kernels launched on rounded-up global sizes are written), and the same loop
// without that guard, launched on exactly the picture.

const char *kMandelbrotExact = R"CLC(
    #pragma OPENCL FP_CONTRACT OFF
    __kernel void mandelbrot_exact(__global int* iters, __global float* mag, int w,
                                   float x0, float y0, float step, int max_iter) {
      int x = get_global_id(0), y = get_global_id(1);
      float cr = x0 + (float)x * step, ci = y0 + (float)y * step;
      float zr = 0.0f, zi = 0.0f;
      int n = 0;
      while (n < max_iter && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        ++n;
      }
      iters[y * w + x] = n;
      mag[y * w + x] = zr * zr + zi * zi;
    })CLC";

TEST_F(Divergence, DivergentLoopIsMaskedVectorised) {
  SKIP_UNLESS_FIBERCL("FIBERCL_DEBUG=vectorize is FiberCL's");
  std::string said;
  cl_program program =
      buildReporting(std::string(kMandelbrot) + "\n" + kMandelbrotExact, "vectorize", said);
  for (const char *name : {"mandelbrot", "mandelbrot_exact"}) {
    // "<function>: work-item loop ...", the function named after the kernel.
    const std::string about = std::string(name) + ": work-item loop ";
    std::string reports;
    bool vectorised = false, leftScalar = false;
    std::istringstream lines(said);
    for (std::string line; std::getline(lines, line);) {
      if (line.find(about) == std::string::npos)
        continue;
      reports += line + "\n";
      vectorised |= line.find(about + "masked-vectorised") != std::string::npos;
      leftScalar |= line.find(about + "not masked-vectorised") != std::string::npos;
    }
    EXPECT_TRUE(vectorised) << name << ": no \"work-item loop masked-vectorised\" in:\n" << said;
    // LLVM may unswitch the loop into copies; every copy is to be vectorised.
    EXPECT_FALSE(leftScalar) << name << ": a work-item loop left scalar:\n" << reports;
  }

  MandelParams p;
  std::vector<cl_int> wantIters;
  std::vector<cl_float> wantMag;
  mandelbrotOnHost(p, wantIters, wantMag);
  const size_t pixels = size_t(p.w) * p.h;
  cl_mem diters = buffer(pixels * sizeof(cl_int)), dmag = buffer(pixels * sizeof(cl_float));
  cl_kernel guarded = kernel(program, "mandelbrot"), exact = kernel(program, "mandelbrot_exact");
  setArgs(guarded, diters, dmag, p.w, p.h, p.x0, p.y0, p.step, p.maxIter);
  setArgs(exact, diters, dmag, p.w, p.x0, p.y0, p.step, p.maxIter);
  for (const std::vector<size_t> &local :
       std::vector<std::vector<size_t>>{{16, 4}, {13, 5}, {40, 2}, {25, 3}}) {
    for (cl_kernel k : {guarded, exact}) {
      const char *name = k == guarded ? "mandelbrot" : "mandelbrot_exact";
      std::vector<size_t> global = {roundUp(p.w, local[0]), roundUp(p.h, local[1])};
      if (k == exact && (global[0] != size_t(p.w) || global[1] != size_t(p.h)))
        continue;
      write(diters, std::vector<cl_int>(pixels, -7));
      run(k, global, local);
      EXPECT_TRUE(sameElements(read<cl_int>(diters, pixels), wantIters))
          << name << ": iterations, local " << shape(local);
      EXPECT_TRUE(sameElements(read<cl_float>(dmag, pixels), wantMag))
          << name << ": |z|^2, local " << shape(local);
    }
  }
}

// The converse: a global atomic in a divergent loop keeps the kernel off the masked
// path (the order and number of atomic operations are the program's), and the results
// must be right whichever path it takes.
TEST_F(Divergence, AtomicsInADivergentLoopStayCorrect) {
  const char *src = R"CLC(
    __kernel void bins(__global const uint* in, volatile __global uint* hist,
                       __global uint* seen) {
      int g = get_global_id(0);
      uint v = in[g], count = 0;
      for (uint k = 0; k < (v & 7u); ++k) {
        uint bin = (v >> (3u * k + 3u)) & 15u;
        if (bin > 3u) {
          atomic_add(&hist[bin], k + 1u);
          ++count;
        }
      }
      seen[g] = count;
    })CLC";
  std::vector<cl_uint> in(kN), seen(kN), hist(16, 0);
  Lcg rng(12);
  for (size_t g = 0; g < kN; ++g) {
    in[g] = rng.next() ^ (rng.next() << 16);
    uint32_t v = in[g], count = 0;
    for (uint32_t k = 0; k < (v & 7u); ++k) {
      uint32_t bin = (v >> (3u * k + 3u)) & 15u;
      if (bin > 3u) {
        hist[bin] += k + 1u;
        ++count;
      }
    }
    seen[g] = count;
  }

  cl_kernel k = kernelFrom(src, "bins");
  cl_mem din = bufferFrom(in), dhist = buffer(16 * 4), dseen = buffer(kN * 4);
  setArgs(k, din, dhist, dseen);
  for (const std::vector<size_t> &local : kLocal1D) {
    write(dhist, std::vector<cl_uint>(16, 0));
    run(k, {kN}, local);
    EXPECT_TRUE(sameElements(read<cl_uint>(dhist, 16), hist))
        << "histogram, local " << shape(local);
    EXPECT_TRUE(sameElements(read<cl_uint>(dseen, kN), seen)) << "counts, local " << shape(local);
  }
}

} // namespace
} // namespace fcltest

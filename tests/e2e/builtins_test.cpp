// Types and builtin functions against host references: 64-bit integers and double,
// vectors (float4 arithmetic, vload/vstore, conversions, as_type), integer builtins
// and math functions (with tolerances).
#include <bitset>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "cl_test.hpp"

namespace fcltest {
namespace {

using Builtins = CLTest;

TEST_F(Builtins, SixtyFourBitIntegersAndDouble) {
  cl_kernel k = kernelFrom(R"CLC(
    __kernel void wide(__global const long* a, __global const ulong* b, __global long* o,
                       __global double* od) {
      size_t i = get_global_id(0);
      long x = a[i]; ulong y = b[i];
      o[i * 6 + 0] = x * 3 - 7;
      o[i * 6 + 1] = x / 13;
      o[i * 6 + 2] = x % 13;
      o[i * 6 + 3] = (long)(y >> 17);
      o[i * 6 + 4] = (long)(y * 0x9E3779B97F4A7C15UL);
      o[i * 6 + 5] = (long)mul_hi(y, (ulong)0xFFFFFFFF00000001UL);
      od[i] = (double)x * 1.0e-3 + sqrt((double)(y & 0xFFFF));
    })CLC",
                           "wide");
  const size_t n = 512;
  std::vector<cl_long> a(n);
  std::vector<cl_ulong> b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<cl_long>(i * 0x123456789ULL) * (i % 2 ? -1 : 1);
    b[i] = 0xFEDCBA9876543210ULL ^ (i * 0x1111111111ULL);
  }
  cl_mem da = bufferFrom(a), db = bufferFrom(b), o = buffer(n * 6 * 8), od = buffer(n * 8);
  setArgs(k, da, db, o, od);
  run(k, {n});
  std::vector<cl_long> r = read<cl_long>(o, n * 6);
  std::vector<cl_double> rd = read<cl_double>(od, n);
  for (size_t i = 0; i < n; ++i) {
    cl_long x = a[i];
    cl_ulong y = b[i];
    unsigned __int128 prod = static_cast<unsigned __int128>(y) * 0xFFFFFFFF00000001ULL;
    cl_long want[6] = {x * 3 - 7,
                       x / 13,
                       x % 13,
                       static_cast<cl_long>(y >> 17),
                       static_cast<cl_long>(y * 0x9E3779B97F4A7C15ULL),
                       static_cast<cl_long>(static_cast<cl_ulong>(prod >> 64))};
    for (int j = 0; j < 6; ++j)
      ASSERT_EQ(r[i * 6 + j], want[j]) << "item " << i << " op " << j;
    double wd = static_cast<double>(x) * 1.0e-3 + std::sqrt(static_cast<double>(y & 0xFFFF));
    ASSERT_NEAR(rd[i], wd, std::fabs(wd) * 1e-15 + 1e-12) << "item " << i;
  }
}

TEST_F(Builtins, VectorsLoadsStoresConversions) {
  cl_kernel k = kernelFrom(R"CLC(
    __kernel void vec(__global const float* in, __global float* out, __global int* iout,
                      __global const float* sat) {
      size_t i = get_global_id(0);
      float4 a = vload4(i, in);                 // in[4i .. 4i+3]
      float4 b = vload4(0, in + 4 * i + 1);     // unaligned: in[4i+1 .. 4i+4]
      float4 c = a * b + (float4)(1.0f, 2.0f, 3.0f, 4.0f) - a.wzyx;
      c.xy = c.yx;
      vstore4(c, i, out);
      float2 d = (float2)(dot(a, b), length(a.xy));
      vstore2(d, 0, out + 4 * get_global_size(0) + 2 * i);
      int4 s = convert_int4_sat(vload4(i, sat));
      vstore4(s, i, iout);
      iout[4 * get_global_size(0) + i] = as_int(in[i]);
      out[6 * get_global_size(0) + i] = as_float(0x3f800000 + (int)i);
      iout[5 * get_global_size(0) + i] = convert_int_rte((float)i + 0.5f);
    })CLC",
                           "vec");
  const size_t n = 64;
  std::vector<float> in(4 * n + 4), sat(4 * n);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<float>(i % 17) * 0.25f - 1.0f;
  const float specials[8] = {1e10f,          -1e10f, NAN,    2147483520.0f,
                             -2147483648.0f, 3.75f,  -3.75f, 0.0f};
  for (size_t i = 0; i < sat.size(); ++i)
    sat[i] = i % 3 == 0 ? specials[i % 8] : static_cast<float>(i) * 1.5f - 100.0f;
  cl_mem din = bufferFrom(in), dsat = bufferFrom(sat);
  cl_mem out = buffer(7 * n * sizeof(float)), iout = buffer(6 * n * sizeof(cl_int));
  setArgs(k, din, out, iout, dsat);
  run(k, {n});
  std::vector<float> r = read<float>(out, 7 * n);
  std::vector<cl_int> ri = read<cl_int>(iout, 6 * n);
  auto sat_int = [](float f) -> cl_int {
    if (std::isnan(f))
      return 0;
    if (f >= 2147483648.0f)
      return INT_MAX;
    if (f <= -2147483648.0f)
      return INT_MIN;
    return static_cast<cl_int>(f); // round toward zero, the default for convert_int
  };
  for (size_t i = 0; i < n; ++i) {
    float a[4], b[4], c[4];
    for (int j = 0; j < 4; ++j) {
      a[j] = in[4 * i + j];
      b[j] = in[4 * i + 1 + j];
    }
    for (int j = 0; j < 4; ++j)
      c[j] = a[j] * b[j] + static_cast<float>(j + 1) - a[3 - j];
    std::swap(c[0], c[1]);
    for (int j = 0; j < 4; ++j)
      ASSERT_NEAR(r[4 * i + j], c[j], 1e-5f) << "item " << i << " lane " << j;
    float dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    ASSERT_NEAR(r[4 * n + 2 * i], dot, 1e-4f) << "dot, item " << i;
    ASSERT_NEAR(r[4 * n + 2 * i + 1], std::sqrt(a[0] * a[0] + a[1] * a[1]), 1e-5f)
        << "length, item " << i;
    for (int j = 0; j < 4; ++j)
      ASSERT_EQ(ri[4 * i + j], sat_int(sat[4 * i + j]))
          << "convert_int_sat(" << sat[4 * i + j] << ")";
    cl_int bits;
    std::memcpy(&bits, &in[i], 4);
    ASSERT_EQ(ri[4 * n + i], bits) << "as_int";
    cl_int fb = 0x3f800000 + static_cast<cl_int>(i);
    float want_f;
    std::memcpy(&want_f, &fb, 4);
    ASSERT_EQ(r[6 * n + i], want_f) << "as_float";
    ASSERT_EQ(ri[5 * n + i], static_cast<cl_int>(std::nearbyint(static_cast<float>(i) + 0.5f)))
        << "convert_int_rte";
  }
}

TEST_F(Builtins, IntegerFunctions) {
  cl_kernel k = kernelFrom(R"CLC(
    __kernel void ints(__global const int* a, __global const int* b, __global int* o) {
      size_t i = get_global_id(0);
      int x = a[i], y = b[i];
      __global int* r = o + i * 8;
      r[0] = clamp(x, -1000, 1000);
      r[1] = mad24(x & 0x7FFF, y & 0x3FF, 17);
      r[2] = popcount(x);
      r[3] = (int)rotate((uint)x, (uint)(y & 31));
      r[4] = hadd(x, y);
      r[5] = (int)hadd((uint)x, (uint)y);
      r[6] = abs_diff(x, y) > 0x7FFFFFFFu ? -1 : (int)abs_diff(x, y);
      r[7] = (int)((uint)max(x, y) - (uint)min(x, y) + (uint)clz(x));
    })CLC",
                           "ints");
  const size_t n = 1000;
  std::vector<cl_int> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<cl_int>(i * 2654435761u);
    b[i] = static_cast<cl_int>(i * 40503u + 12345u) * (i % 3 ? 1 : -1);
  }
  cl_mem da = bufferFrom(a), db = bufferFrom(b), o = buffer(n * 8 * sizeof(cl_int));
  setArgs(k, da, db, o);
  run(k, {n});
  std::vector<cl_int> r = read<cl_int>(o, n * 8);
  for (size_t i = 0; i < n; ++i) {
    int64_t x = a[i], y = b[i];
    uint32_t ux = static_cast<uint32_t>(x), uy = static_cast<uint32_t>(y);
    uint32_t sh = uy & 31;
    int64_t ad = x > y ? x - y : y - x;
    int clz = ux == 0 ? 32 : __builtin_clz(ux);
    cl_int want[8] = {
        static_cast<cl_int>(std::min<int64_t>(std::max<int64_t>(x, -1000), 1000)),
        static_cast<cl_int>((x & 0x7FFF) * (y & 0x3FF) + 17),
        static_cast<cl_int>(std::bitset<32>(ux).count()),
        static_cast<cl_int>(sh ? (ux << sh) | (ux >> (32 - sh)) : ux),
        static_cast<cl_int>((x + y) >> 1),
        static_cast<cl_int>(static_cast<uint32_t>((static_cast<uint64_t>(ux) + uy) >> 1)),
        ad > 0x7FFFFFFF ? -1 : static_cast<cl_int>(ad),
        static_cast<cl_int>(static_cast<uint32_t>(std::max(x, y) - std::min(x, y)) + clz)};
    for (int j = 0; j < 8; ++j)
      ASSERT_EQ(r[i * 8 + j], want[j])
          << "item " << i << " function #" << j << " x=" << x << " y=" << y;
  }
}

TEST_F(Builtins, MathFunctionsWithinTolerance) {
  cl_kernel k = kernelFrom(R"CLC(
    __kernel void m(__global const float* x, __global float* o) {
      size_t i = get_global_id(0);
      float v = x[i];
      __global float* r = o + i * 8;
      r[0] = sqrt(fabs(v));
      r[1] = sin(v);
      r[2] = cos(v);
      r[3] = exp(v * 0.1f);
      r[4] = pow(fabs(v) + 0.5f, 1.7f);
      r[5] = log(fabs(v) + 1.0f);
      r[6] = atan2(v, 3.0f);
      r[7] = fma(v, 2.0f, -1.0f) + floor(v) + fmin(v, 0.0f);
    })CLC",
                           "m");
  const size_t n = 2048;
  std::vector<float> x(n);
  for (size_t i = 0; i < n; ++i)
    x[i] = (static_cast<float>(i) - 1024.0f) * 0.037f;
  cl_mem dx = bufferFrom(x), o = buffer(n * 8 * sizeof(float));
  setArgs(k, dx, o);
  run(k, {n});
  std::vector<float> r = read<float>(o, n * 8);
  static const char *names[8] = {"sqrt", "sin", "cos", "exp", "pow", "log", "atan2", "mixed"};
  for (size_t i = 0; i < n; ++i) {
    double v = x[i];
    double want[8] = {
        std::sqrt(std::fabs(v)),
        std::sin(v),
        std::cos(v),
        std::exp(static_cast<double>(x[i] * 0.1f)),
        std::pow(static_cast<double>(std::fabs(x[i]) + 0.5f), static_cast<double>(1.7f)),
        std::log(static_cast<double>(std::fabs(x[i]) + 1.0f)),
        std::atan2(v, 3.0),
        (v * 2.0 - 1.0) + std::floor(v) + std::min(v, 0.0)};
    for (int j = 0; j < 8; ++j) {
      // A few ulp of relative error (full-profile bounds are <= 16 ulp) plus a small
      // absolute slack for results near zero.
      double tol = std::fabs(want[j]) * 4e-6 + 1e-6;
      ASSERT_NEAR(r[i * 8 + j], want[j], tol) << names[j] << "(" << v << ")";
    }
  }
}

// vloada_half16 / vstorea_half16 need 32-byte alignment; a private array of 16 ushorts
// is only promised 2 by C, but kernels written for GPUs use it so. It must not fault.
TEST_F(Builtins, AlignedHalfVectorsOnPrivateArrays) {
  cl_kernel k = kernelFrom(R"CLC(
    __kernel void roundtrip(__global const float* in, __global float* out, int pick) {
      int i = get_global_id(0);
      ushort priv[16];
      vstorea_half16(vload16(i, in), 0, (__private half*)priv);
      // A dynamic index keeps the array in memory (0xFFFF, a NaN, is never stored).
      out[i] = vloada_half16(0, (__private half*)priv).s3 + (float)(priv[pick & 15] == 0xFFFF);
    })CLC",
                           "roundtrip");
  const size_t n = 8;
  std::vector<float> in(16 * n);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<float>(i) * 0.5f;
  cl_mem a = bufferFrom(in), b = buffer(n * sizeof(float));
  setArgs(k, a, b, cl_int(1));
  run(k, {n});
  std::vector<float> want(n);
  for (size_t i = 0; i < n; ++i)
    want[i] = in[16 * i + 3]; // halves of these are exact
  EXPECT_EQ(read<float>(b, n), want);
}

} // namespace
} // namespace fcltest

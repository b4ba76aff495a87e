// cl_khr_fp16: half arithmetic, the half built-ins and conversions, checked over every
// half bit pattern against references computed exactly on the host (half values are
// integers times 2^-24, so sums and products are exact in 128-bit integers).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <CL/cl_ext.h> // CL_DEVICE_HALF_FP_CONFIG

#include "cl_test.hpp"

namespace fcltest {
namespace {

enum class Round { Nearest, Zero, Up, Down };

// The half nearest (in `mode`) to m * 2^e.
uint16_t halfFrom(__int128 m, int e, Round mode) {
  const bool negative = m < 0;
  unsigned __int128 a = negative ? -static_cast<unsigned __int128>(m) : m;
  const uint16_t sign = negative ? 0x8000 : 0;
  if (a == 0)
    return sign;
  int length = 0;
  for (unsigned __int128 t = a; t; t >>= 1)
    ++length;
  const int exponent = length - 1 + e;               // floor(log2 |value|)
  int k = exponent - 10 < -24 ? -24 : exponent - 10; // the result's quantum, 2^k
  const int shift = k - e;
  unsigned __int128 q;
  bool inexact = false, above_half = false, at_half = false;
  if (shift <= 0) {
    q = a << -shift;
  } else if (shift >= 127) {
    q = 0, inexact = true; // far below the quantum: less than half of it
  } else {
    q = a >> shift;
    unsigned __int128 r = a - (q << shift), halfq = static_cast<unsigned __int128>(1)
                                                    << (shift - 1);
    inexact = r != 0, above_half = r > halfq, at_half = r == halfq;
  }
  bool up = false;
  switch (mode) {
  case Round::Nearest:
    up = above_half || (at_half && (q & 1));
    break;
  case Round::Zero:
    break;
  case Round::Up:
    up = inexact && !negative;
    break;
  case Round::Down:
    up = inexact && negative;
    break;
  }
  q += up;
  if (q == 2048)
    q = 1024, ++k;
  if (k > 5) { // beyond 65504
    bool to_infinity = mode == Round::Nearest || (mode == Round::Up && !negative) ||
                       (mode == Round::Down && negative);
    return sign | (to_infinity ? 0x7c00 : 0x7bff);
  }
  if (q < 1024)
    return sign | static_cast<uint16_t>(q); // subnormal (k == -24)
  return sign | static_cast<uint16_t>(((k + 25) << 10) | (static_cast<unsigned>(q) - 1024));
}

uint16_t halfFromDouble(double v, Round mode = Round::Nearest) {
  if (std::isnan(v))
    return 0x7e00;
  if (std::isinf(v))
    return v > 0 ? 0x7c00 : 0xfc00;
  if (v == 0)
    return std::signbit(v) ? 0x8000 : 0;
  int e;
  double f = std::frexp(v, &e); // v = f * 2^e, 0.5 <= |f| < 1
  return halfFrom(static_cast<__int128>(std::ldexp(f, 53)), e - 53, mode);
}

bool isNaN(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }
bool isFinite(uint16_t h) { return (h & 0x7c00) != 0x7c00; }
// A finite half as an integer multiple of 2^-24.
int64_t scaled(uint16_t h) {
  int64_t q = h & 0x3ff, e = (h >> 10) & 0x1f;
  int64_t v = e ? (q | 0x400) << (e - 1) : q;
  return (h & 0x8000) ? -v : v;
}
double toDouble(uint16_t h) {
  if (!isFinite(h))
    return isNaN(h) ? NAN : ((h & 0x8000) ? -INFINITY : INFINITY);
  double v = std::ldexp(static_cast<double>(scaled(h)), -24);
  return (v == 0 && (h & 0x8000)) ? -0.0 : v;
}
// Distance in ulps between two halves (same-sign ordering of the bit patterns).
int ulps(uint16_t a, uint16_t b) {
  auto ordered = [](uint16_t h) {
    return (h & 0x8000) ? -static_cast<int>(h & 0x7fff) : static_cast<int>(h);
  };
  return std::abs(ordered(a) - ordered(b));
}
bool sameHalf(uint16_t got, uint16_t want) { return got == want || (isNaN(got) && isNaN(want)); }
std::string hex(uint16_t h) {
  char b[8];
  snprintf(b, sizeof b, "0x%04x", h);
  return b;
}

class Half : public CLTest {
protected:
  void SetUp() override {
    CLTest::SetUp();
    if (!hasExtension("cl_khr_fp16"))
      GTEST_SKIP() << "device has no cl_khr_fp16";
  }
  std::vector<uint16_t> allHalves() {
    std::vector<uint16_t> v(65536);
    for (size_t i = 0; i < v.size(); ++i)
      v[i] = static_cast<uint16_t>(i);
    return v;
  }
};

TEST_F(Half, DeviceReportsTheExtension) {
  auto config = deviceInfo<cl_device_fp_config>(device_, CL_DEVICE_HALF_FP_CONFIG);
  // Minimum for cl_khr_fp16: round to nearest (or to zero) and INF/NaN.
  EXPECT_TRUE(config & CL_FP_INF_NAN);
  EXPECT_TRUE(config & (CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO));
  EXPECT_GT(deviceInfo<cl_uint>(device_, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF), 0u);
  EXPECT_GT(deviceInfo<cl_uint>(device_, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF), 0u);
}

// + * / sqrt and fma on every half x against y, c drawn from every pattern: correctly
// rounded (fma with one rounding), as the device's CL_FP_FMA and IEEE 754 promise.
TEST_F(Half, ArithmeticIsCorrectlyRoundedForEveryHalf) {
  cl_kernel k = kernelFrom(R"CLC(
    #pragma OPENCL EXTENSION cl_khr_fp16 : enable
    __kernel void arith(__global const half* x, __global const half* y, __global const half* c,
                        __global ushort* out) {
      size_t i = get_global_id(0);
      half a = x[i], b = y[i];
      out[i * 6 + 0] = as_ushort(a + b);
      out[i * 6 + 1] = as_ushort(a * b);
      out[i * 6 + 2] = as_ushort(a / b);
      out[i * 6 + 3] = as_ushort(sqrt(a));
      out[i * 6 + 4] = as_ushort(fma(a, b, c[i]));
      out[i * 6 + 5] = as_ushort(a - b);
    })CLC",
                           "arith");
  const size_t n = 65536;
  std::vector<uint16_t> x = allHalves(), y(n), c(n);
  for (size_t i = 0; i < n; ++i) {
    y[i] = static_cast<uint16_t>(i * 40503u + 17);
    if (i % 4 == 0) { // c near -a * b: the sum cancels and rounds at its last bits
      c[i] = static_cast<uint16_t>(halfFromDouble(-toDouble(x[i]) * toDouble(y[i])) ^ (i & 8));
    } else if (i % 4 == 2) {
      // a * 1.5 is a tie between two halves when a's mantissa is odd; a tiny c decides
      // the rounding, which a float fma rounded again to half gets wrong
      y[i] = (i & 16) ? 0xbe00 : 0x3e00;
      c[i] = static_cast<uint16_t>(((i & 8) ? 0x8000 : 0) | (1 + (i >> 5) % 1023));
    } else {
      c[i] = static_cast<uint16_t>(i * 2654435761u >> 7);
    }
  }
  cl_mem bx = bufferFrom(x), by = bufferFrom(y), bc = bufferFrom(c), out = buffer(n * 6 * 2);
  setArgs(k, bx, by, bc, out);
  run(k, {n});
  std::vector<uint16_t> r = read<uint16_t>(out, n * 6);
  int failures = 0;
  for (size_t i = 0; i < n && failures < 10; ++i) {
    const uint16_t a = x[i], b = y[i];
    uint16_t want[6];
    const bool finite = isFinite(a) && isFinite(b) && isFinite(c[i]);
    const double da = toDouble(a), db = toDouble(b);
    if (finite) {
      __int128 sa = scaled(a), sb = scaled(b), sc = scaled(c[i]);
      const __int128 fma = sa * sb + sc * (__int128(1) << 24); // c in units of 2^-48
      want[0] = halfFrom(sa + sb, -24, Round::Nearest);
      want[1] = halfFrom(sa * sb, -48, Round::Nearest);
      want[4] = halfFrom(fma, -48, Round::Nearest);
      want[5] = halfFrom(sa - sb, -24, Round::Nearest);
      // Exact zero results: +0 except for (-0) + (-0) and the products' signs.
      if (sa + sb == 0)
        want[0] = (a & b & 0x8000) ? 0x8000 : 0;
      if (sa - sb == 0)
        want[5] = (a & ~b & 0x8000) ? 0x8000 : 0;
      if (sa * sb == 0)
        want[1] = (a ^ b) & 0x8000;
      if (fma == 0)
        want[4] = (sa * sb == 0 && sc == 0) ? (((a ^ b) & c[i] & 0x8000) ? 0x8000 : 0) : 0;
    } else {
      want[0] = halfFromDouble(da + db);
      want[1] = halfFromDouble(da * db);
      want[4] = halfFromDouble(std::fma(da, db, toDouble(c[i])));
      want[5] = halfFromDouble(da - db);
    }
    want[2] = halfFromDouble(da / db); // the double quotient is never a false half tie
    want[3] = halfFromDouble(std::sqrt(da));
    static const char *names[] = {"+", "*", "/", "sqrt", "fma", "-"};
    for (int j = 0; j < 6; ++j) {
      if (!sameHalf(r[i * 6 + j], want[j])) {
        ADD_FAILURE() << names[j] << "(" << hex(a) << ", " << hex(b)
                      << (j == 4 ? ", " + hex(c[i]) : std::string()) << ") = " << hex(r[i * 6 + j])
                      << ", want " << hex(want[j]);
        ++failures;
      }
    }
  }
}

// Transcendental functions on every finite half: within 2 ulp of the exact result
// (the host's double functions, rounded to half).
TEST_F(Half, MathFunctionsAreWithinTwoUlpForEveryHalf) {
  cl_kernel k = kernelFrom(R"CLC(
    #pragma OPENCL EXTENSION cl_khr_fp16 : enable
    __kernel void math(__global const half* x, __global ushort* out) {
      size_t i = get_global_id(0);
      half v = x[i];
      half4 w = vload4(i / 4, x);  // the vector overloads must agree with the scalar ones
      half4 s = sin(w);
      out[i * 10 + 0] = as_ushort(sin(v)) ^ (as_ushort(s[i % 4]) != as_ushort(sin(v)) ? 0x1234 : 0);
      out[i * 10 + 1] = as_ushort(cos(v));
      out[i * 10 + 2] = as_ushort(exp(v));
      out[i * 10 + 3] = as_ushort(log(v));
      out[i * 10 + 4] = as_ushort(tan(v));
      out[i * 10 + 5] = as_ushort(atan(v));
      out[i * 10 + 6] = as_ushort(exp2(v));
      out[i * 10 + 7] = as_ushort(cbrt(v));
      out[i * 10 + 8] = as_ushort(pow(v, (half)1.5h));
      out[i * 10 + 9] = as_ushort(rsqrt(v));
    })CLC",
                           "math");
  const size_t n = 65536;
  std::vector<uint16_t> x = allHalves();
  cl_mem bx = bufferFrom(x), out = buffer(n * 10 * 2);
  setArgs(k, bx, out);
  run(k, {n});
  std::vector<uint16_t> r = read<uint16_t>(out, n * 10);
  static const char *names[] = {"sin",  "cos",  "exp",  "log",        "tan",
                                "atan", "exp2", "cbrt", "pow(x,1.5)", "rsqrt"};
  int failures = 0, worst = 0;
  for (size_t i = 0; i < n && failures < 10; ++i) {
    if (!isFinite(x[i]))
      continue;
    const double v = toDouble(x[i]);
    const double want[10] = {std::sin(v),      std::cos(v),       std::exp(v),  std::log(v),
                             std::tan(v),      std::atan(v),      std::exp2(v), std::cbrt(v),
                             std::pow(v, 1.5), 1.0 / std::sqrt(v)};
    for (int j = 0; j < 10; ++j) {
      const uint16_t w = halfFromDouble(want[j]), g = r[i * 10 + j];
      if (isNaN(w) || isNaN(g)) {
        if (!sameHalf(g, w)) {
          ADD_FAILURE() << names[j] << "(" << v << ") = " << hex(g) << ", want " << hex(w);
          ++failures;
        }
        continue;
      }
      const int d = ulps(g, w);
      worst = std::max(worst, d);
      if (d > 2) {
        ADD_FAILURE() << names[j] << "(" << v << ") = " << toDouble(g) << " (" << hex(g)
                      << "), want " << toDouble(w) << " (" << hex(w) << "): " << d << " ulp";
        ++failures;
      }
    }
  }
  RecordProperty("worst_ulps", worst);
}

// convert_half_<mode> from float and double, and the integer conversions from half.
TEST_F(Half, ConversionsRoundAsTheirSuffixSays) {
  cl_kernel k = kernelFrom(R"CLC(
    #pragma OPENCL EXTENSION cl_khr_fp16 : enable
    __kernel void conv(__global const float* f, __global const double* d, __global const half* h,
                       __global ushort* out, __global int* ints) {
      size_t i = get_global_id(0);
      float v = f[i];
      out[i * 8 + 0] = as_ushort(convert_half(v));
      out[i * 8 + 1] = as_ushort(convert_half_rtz(v));
      out[i * 8 + 2] = as_ushort(convert_half_rtp(v));
      out[i * 8 + 3] = as_ushort(convert_half_rtn(v));
      out[i * 8 + 4] = as_ushort(convert_half_rte(d[i]));
      out[i * 8 + 5] = as_ushort(convert_half_rtz(d[i]));
      out[i * 8 + 6] = as_ushort(convert_half_rtp(d[i]));
      out[i * 8 + 7] = as_ushort(convert_half_rtn(d[i]));
      half2 p = vload2(i, h);  // vector forms
      int2 s = convert_int2_sat_rte(p * (half2)64.0h);
      ints[i * 4 + 0] = s.x;
      ints[i * 4 + 1] = convert_short_sat(h[i * 2]);
      ints[i * 4 + 2] = convert_uchar_sat_rtn(h[i * 2]);
      ints[i * 4 + 3] = as_ushort(convert_half_rtp((int)(i * 37 - 600000)));
    })CLC",
                           "conv");
  const size_t n = 32768;
  std::vector<float> f(n);
  std::vector<double> d(n);
  std::vector<uint16_t> h = allHalves();
  for (size_t i = 0; i < n; ++i) {
    uint32_t bits = static_cast<uint32_t>(i * 2654435761u);
    // exponents around half's range (2^-26 .. 2^17), every sign and mantissa
    bits = (bits & 0x807fffff) | ((101u + (bits >> 23) % 44u) << 23);
    std::memcpy(&f[i], &bits, 4);
    d[i] = static_cast<double>(f[i]) * (1.0 + std::ldexp(static_cast<double>(i % 977), -40));
  }
  cl_mem bf = bufferFrom(f), bd = bufferFrom(d), bh = bufferFrom(h), out = buffer(n * 8 * 2),
         ints = buffer(n * 4 * 4);
  setArgs(k, bf, bd, bh, out, ints);
  run(k, {n});
  std::vector<uint16_t> r = read<uint16_t>(out, n * 8);
  std::vector<int> ri = read<int>(ints, n * 4);
  const Round modes[4] = {Round::Nearest, Round::Zero, Round::Up, Round::Down};
  int failures = 0;
  for (size_t i = 0; i < n && failures < 10; ++i) {
    for (int j = 0; j < 8; ++j) {
      const uint16_t want = halfFromDouble(j < 4 ? static_cast<double>(f[i]) : d[i], modes[j % 4]);
      if (r[i * 8 + j] != want) {
        ADD_FAILURE() << "convert_half mode " << j % 4 << " of " << (j < 4 ? "float " : "double ")
                      << (j < 4 ? f[i] : d[i]) << " = " << hex(r[i * 8 + j]) << ", want "
                      << hex(want);
        ++failures;
      }
    }
    const double h0 = toDouble(h[i * 2]);
    const double scaledh = toDouble(halfFromDouble(h0 * 64.0));
    const int want_int = std::isnan(scaledh)        ? 0
                         : scaledh >= 2147483647.0  ? 2147483647
                         : scaledh <= -2147483648.0 ? INT32_MIN
                                                    : static_cast<int>(std::nearbyint(scaledh));
    const int want_short =
        std::isnan(h0) ? 0
                       : static_cast<int>(std::fmax(-32768.0, std::fmin(32767.0, std::trunc(h0))));
    const int want_uchar =
        std::isnan(h0) ? 0 : static_cast<int>(std::fmax(0.0, std::fmin(255.0, std::floor(h0))));
    const int64_t iv = static_cast<int64_t>(static_cast<int>(i * 37 - 600000));
    const int want_from_int = halfFrom(iv, 0, Round::Up);
    const int want[4] = {want_int, want_short, want_uchar, want_from_int};
    for (int j = 0; j < 4; ++j) {
      if (ri[i * 4 + j] != want[j]) {
        ADD_FAILURE() << "integer conversion " << j << " of half " << hex(h[i * 2]) << " / int "
                      << iv << ": " << ri[i * 4 + j] << ", want " << want[j];
        ++failures;
      }
    }
  }
}

// Relational functions return short vectors for half vectors; vstore/vload, select,
// shuffle and the half image functions carry half values unchanged.
TEST_F(Half, VectorsRelationalsAndImagesCarryHalves) {
  cl_kernel k = kernelFrom(R"CLC(
    #pragma OPENCL EXTENSION cl_khr_fp16 : enable
    __kernel void misc(__global const half* x, __global half* y, __global short* rel,
                       write_only image2d_t img) {
      size_t i = get_global_id(0);
      half8 v = vload8(i, x);
      short8 nan = isnan(v), inf = isinf(v), neg = signbit(v);
      vstore8(select(v, (half8)0, nan), i, y);
      rel[i] = (short)(nan.s3 + 2 * inf.s5 + 4 * neg.s7 + 8 * (short)isnan(v.s3));
      half4 sh = shuffle(v.lo, (ushort4)(3, 2, 1, 0));
      write_imageh(img, (int2)(i % 64, i / 64), sh);
    })CLC",
                           "misc");
  const size_t n = 4096; // 8 halves each: every pattern once (x[8i + j])
  std::vector<uint16_t> x(n * 8);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<uint16_t>(i * 2 + (i >> 15));
  cl_image_format fmt = {CL_RGBA, CL_HALF_FLOAT};
  cl_image_desc desc = {};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = 64;
  desc.image_height = n / 64;
  cl_int err;
  cl_mem img = clCreateImage(context_, CL_MEM_WRITE_ONLY, &fmt, &desc, nullptr, &err);
  ASSERT_CL(err);
  atTearDown([img] { clReleaseMemObject(img); });
  cl_mem bx = bufferFrom(x), by = buffer(x.size() * 2), rel = buffer(n * 2);
  setArgs(k, bx, by, rel, img);
  run(k, {n});
  std::vector<uint16_t> y = read<uint16_t>(by, x.size());
  std::vector<int16_t> rr = read<int16_t>(rel, n);
  std::vector<uint16_t> pixels(n * 4);
  size_t origin[3] = {0, 0, 0}, region[3] = {64, n / 64, 1};
  ASSERT_CL(clEnqueueReadImage(queue_, img, CL_TRUE, origin, region, 0, 0, pixels.data(), 0,
                               nullptr, nullptr));
  for (size_t i = 0; i < n; ++i) {
    for (int j = 0; j < 8; ++j) {
      const uint16_t in = x[i * 8 + j];
      ASSERT_EQ(y[i * 8 + j], isNaN(in) ? 0 : in) << "element " << i * 8 + j;
    }
    const int want = (isNaN(x[i * 8 + 3]) ? -1 : 0) +
                     2 * ((x[i * 8 + 5] & 0x7fff) == 0x7c00 ? -1 : 0) +
                     4 * ((x[i * 8 + 7] & 0x8000) ? -1 : 0) + 8 * (isNaN(x[i * 8 + 3]) ? 1 : 0);
    ASSERT_EQ(rr[i], want) << "group " << i;
    for (int c = 0; c < 4; ++c)
      ASSERT_TRUE(sameHalf(pixels[i * 4 + c], x[i * 8 + 3 - c]))
          << "pixel " << i << " channel " << c;
  }
}

} // namespace
} // namespace fcltest

// Unit tests of the OpenCL C printf the runtime gives to kernels.
// (vector arguments of 32 and 64 bytes go through memory in varargs on x86-64: -Wpsabi notes are
// expected)
#include <cstdarg>
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "runtime/exec/executor.hpp"
#include "runtime/exec/printf.hpp"

namespace {

std::string fmt(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  std::string out;
  bool ok = fibercl::exec::formatOpenCL(out, f, ap);
  va_end(ap);
  return ok ? out : std::string("<error>");
}

typedef float float2 __attribute__((vector_size(8)));
typedef float float4 __attribute__((vector_size(16)));
typedef float float8 __attribute__((vector_size(32)));
typedef float float16 __attribute__((vector_size(64)));
typedef int int2 __attribute__((vector_size(8)));
typedef int int4 __attribute__((vector_size(16)));
typedef int int8 __attribute__((vector_size(32)));
typedef int int16 __attribute__((vector_size(64)));
typedef char char4 __attribute__((vector_size(4)));
typedef short short2 __attribute__((vector_size(4)));
typedef short short4 __attribute__((vector_size(8)));
typedef long long2 __attribute__((vector_size(16)));
typedef double double2 __attribute__((vector_size(16)));
typedef unsigned short half2bits __attribute__((vector_size(4)));

TEST(Printf, Scalars) {
  EXPECT_EQ(fmt("hello %d %i %u", -5, 7, 4000000000u), "hello -5 7 4000000000");
  EXPECT_EQ(fmt("%x %X %o %#x", 255, 255, 8, 255), "ff FF 10 0xff");
  EXPECT_EQ(fmt("%5d|%-5d|%05d|%+d", 42, 42, 42, 42), "   42|42   |00042|+42");
  EXPECT_EQ(fmt("%ld %lu", (long)-1234567890123, (unsigned long)18446744073709551615ul),
            "-1234567890123 18446744073709551615");
  EXPECT_EQ(fmt("%hhd %hhu %hd %hu", 300, 300, 70000, 70000), "44 44 4464 4464");
  EXPECT_EQ(fmt("%c%c %s|%.3s|%8s", 'o', 'k', "str", "abcdef", "r"), "ok str|abc|       r");
  EXPECT_EQ(fmt("%f %.2f %e %g %G", 1.5, 3.14159, 1234.5, 0.0001, 1e20),
            "1.500000 3.14 1.234500e+03 0.0001 1E+20");
  EXPECT_EQ(fmt("%F %E %a", 2.0, 2.0, 1.0), "2.000000 2.000000E+00 0x1p+0");
  EXPECT_EQ(fmt("100%%"), "100%");
  EXPECT_EQ(fmt("%p", (void *)0x1234), "0x1234");
}

TEST(Printf, Vectors) {
  float4 f4 = {1.0f, 2.5f, -3.0f, 4.25f};
  EXPECT_EQ(fmt("%v4hlf", f4), "1.000000,2.500000,-3.000000,4.250000");
  EXPECT_EQ(fmt("[%.1v4hlf]", f4), "[1.0,2.5,-3.0,4.2]");
  float2 f2 = {0.5f, 1.5f};
  EXPECT_EQ(fmt("%v2hlg %d", f2, 9), "0.5,1.5 9");
  float4 f3 = {1, 2, 3, 0};
  EXPECT_EQ(fmt("%v3hlg|", f3), "1,2,3|");
  float8 f8 = {0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(fmt("%v8hlg", f8), "0,1,2,3,4,5,6,7");
  float16 f16;
  for (int i = 0; i < 16; ++i)
    f16[i] = float(i);
  EXPECT_EQ(fmt("%v16hlg!", f16), "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15!");
  int2 i2 = {-1, 2};
  EXPECT_EQ(fmt("%v2hld", i2), "-1,2");
  int4 i4 = {1, 2, 3, 255};
  EXPECT_EQ(fmt("%v4hlx", i4), "1,2,3,ff");
  int8 i8 = {1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_EQ(fmt("%v8hld", i8), "1,2,3,4,5,6,7,8");
  int16 i16;
  for (int i = 0; i < 16; ++i)
    i16[i] = -i;
  EXPECT_EQ(fmt("%v16hld", i16), "0,-1,-2,-3,-4,-5,-6,-7,-8,-9,-10,-11,-12,-13,-14,-15");
  char4 c4 = {1, -2, 3, 127};
  EXPECT_EQ(fmt("%v4hhd", c4), "1,-2,3,127");
  short2 s2 = {-300, 300};
  EXPECT_EQ(fmt("%v2hd", s2), "-300,300");
  short4 s4 = {1, 2, 3, 4};
  EXPECT_EQ(fmt("%v4hu", s4), "1,2,3,4");
  long2 l2 = {-5000000000l, 5000000000l};
  EXPECT_EQ(fmt("%v2ld", l2), "-5000000000,5000000000");
  double2 d2 = {0.25, 0.75};
  EXPECT_EQ(fmt("%v2lf", d2), "0.250000,0.750000");
  half2bits h2 = {0x3c00, 0xc000}; // 1.0, -2.0
  EXPECT_EQ(fmt("%v2hg", h2), "1,-2");
  // Mixed scalars and vectors keep the argument order.
  EXPECT_EQ(fmt("%d %v2hld %f", 1, i2, 2.0), "1 -1,2 2.000000");
}

TEST(Printf, InvalidFormats) {
  EXPECT_EQ(fmt("%v5hld", 1), "<error>");
  EXPECT_EQ(fmt("%hld", 1), "<error>"); // hl needs a vector
  EXPECT_EQ(fmt("%v4s", "x"), "<error>");
  EXPECT_EQ(fmt("%"), "<error>");
  // Not OpenCL C (6.15.14.4): '*' widths and precisions, the reserved ll modifier.
  EXPECT_EQ(fmt("%*d", 4, 7), "<error>");
  EXPECT_EQ(fmt("%.*f", 1, 2.25), "<error>");
  EXPECT_EQ(fmt("%lld", 1ll), "<error>");
}

TEST(Printf, HostSymbolWritesToStdout) {
  auto syms = fibercl::exec::hostSymbols();
  ASSERT_TRUE(syms.count(FIBERCL_HOST_PRINTF));
  ASSERT_TRUE(syms.count(FIBERCL_HOST_RUN_ITEMS));
  ASSERT_TRUE(syms.count(FIBERCL_HOST_BARRIER));
  auto *pf = reinterpret_cast<int (*)(const char *, ...)>(syms[FIBERCL_HOST_PRINTF]);
  testing::internal::CaptureStdout();
  int a = pf("item %d: %v2hlf\n", 3, float2{1.0f, 2.0f});
  int b = pf("%v7d\n", 1);
  std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(a, 0);
  EXPECT_EQ(b, -1);
  EXPECT_EQ(out, "item 3: 1.000000,2.000000\n");
}

} // namespace

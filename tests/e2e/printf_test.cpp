// OpenCL C printf (OpenCL C 3.0, 6.15.14) end to end: kernels print every conversion,
// flag, field width and precision, every length modifier, vectors of every size and
// element type, %%, strings, %p, infinities and NaNs, and the exact stdout is compared
// with the expected text. Also printf's return value (0), formats the specification
// does not define (-1, nothing printed), long conversions, and lines from many
// work-items staying whole.
#include <cinttypes>
#include <cstdio>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cl_test.hpp"

namespace fcltest {
namespace {

class Printf : public CLTest {
protected:
  // Builds `body` as the body of `__kernel void k(__global int *ret <params>)` and
  // runs it as one work-item; returns what it printed. `ret` has 64 ints, zeroed;
  // returnValues() reads them back.
  template <typename... Args>
  std::string print(const std::string &body, const std::string &params = "", const Args &...args) {
    cl_kernel k =
        kernelFrom("__kernel void k(__global int *ret" + params + ") {\n" + body + "\n}", "k");
    ret_ = bufferFrom(std::vector<cl_int>(64, 0x5a5a));
    setArgs(k, ret_, args...);
    return captureStdout([&] { run(k, {1}); });
  }
  std::vector<cl_int> returnValues(size_t n) { return read<cl_int>(ret_, n); }

  cl_mem ret_ = nullptr;
};

TEST_F(Printf, IntegerConversions) {
  std::string out = print(R"CLC(
    int n = -42, z = 0;
    uint u = 4000000000u;
    printf("[%d][%i][%u][%o][%x][%X]\n", n, 42, u, 8, 255, 255);
    printf("[%d][%u][%x]\n", INT_MIN, UINT_MAX, UINT_MAX);
    printf("[%5d][%-5d][%05d][%+d][% d][%+ d][% d]\n", 42, 42, 42, 42, 42, 42, n);
    printf("[%.5d][%8.3d][%08.3d][%-8.3d][%.0d][%.d][%5.0d]\n", 42, 42, 42, n, z, z, z);
    printf("[%#o][%#x][%#X][%#x][%#o][%#.3o]\n", 8, 255, 255, z, z, 8);
    printf("[%-+6d][%0-6d][%#010x][%+u]\n", 7, 7, 255, 7u);
  )CLC");
  EXPECT_EQ(out, "[-42][42][4000000000][10][ff][FF]\n"
                 "[-2147483648][4294967295][ffffffff]\n"
                 "[   42][42   ][00042][+42][ 42][+42][-42]\n"
                 "[00042][     042][     042][-042    ][][][     ]\n"
                 "[010][0xff][0XFF][0][0][010]\n"
                 "[+7    ][7     ][0x000000ff][7]\n");
}

// Calls LLVM would rewrite as C library calls (puts, putchar) if it took printf for
// the C library's; a string with an embedded NUL prints up to the NUL.
TEST_F(Printf, CallsLibcWouldSimplify) {
  std::string out = print(R"CLC(
    printf("%s\n", "foo");
    printf("plain line\n");
    printf("x");
    printf("%c", 'y');
    printf("\n%s\n", "foo\0foo");
  )CLC");
  EXPECT_EQ(out, "foo\nplain line\nxy\nfoo\n");
}

TEST_F(Printf, ScalarLengthModifiers) {
  std::string out = print(R"CLC(
    char c = -5;
    uchar uc = 250;
    short s = -1234;
    ushort us = 65000;
    long l = LONG_MIN, big = 123456789012345L;
    ulong ul = ULONG_MAX;
    printf("hh[%hhd][%hhu][%hhx][%hhd][%hhd][%hhu][%hho][%hhX]\n", c, uc, uc, 300, -129, -1, c, c);
    printf("h[%hd][%hu][%hx][%hd][%hu][%hX][%ho]\n", s, us, us, 70000, -1, s, s);
    printf("l[%ld][%ld][%lu][%lx][%lX][%lo][%li]\n", l, big, ul, ul, big, ul, -big);
    printf("l[%20ld][%-20lu|][%+ld][%.20lu][%#lx]\n", big, ul, big, 1ul, big);
  )CLC");
  EXPECT_EQ(out, "hh[-5][250][fa][44][127][255][373][FB]\n"
                 "h[-1234][65000][fde8][4464][65535][FB2E][175456]\n"
                 "l[-9223372036854775808][123456789012345][18446744073709551615][ffffffffffffffff]"
                 "[7048860DDF79][1777777777777777777777][-123456789012345]\n"
                 "l[     123456789012345][18446744073709551615|][+123456789012345]"
                 "[00000000000000000001][0x7048860ddf79]\n");
}

TEST_F(Printf, FloatConversions) {
  std::string out = print(R"CLC(
    float f = 1.5f, tenth = 0.1f;
    double d = 3.14159265358979;
    printf("[%f][%F][%e][%E][%g][%G][%a][%A]\n", f, f, f, f, f, f, f, f);
    printf("[%.10f][%.3f][%.0f][%#.0f][%.2e][%.3E][%.3g][%#.3g]\n", tenth, d, 3.0, 3.0, d, d, d, 1.0);
    printf("[%10.3f][%-10.3f][%010.3f][%+.2f][% .2f][%+e][%-+12.2e|]\n", d, d, -d, d, d, d, -d);
    printf("[%g][%g][%g][%G][%g][%g][%#g][%.0g]\n", 100000.0, 1000000.0, 0.0001, 0.00001, 0.0, -0.0, 1.5, 123.0);
    printf("[%a][%A][%.2a][%.0a][%a][%a][%lf][%le]\n", 1.0, 0.5, 1.0, 1.0, -2.0, 0.0, 2.25, 2.25);
    printf("[%e][%f][%.1f][%.1e][%f]\n", 0.0, -0.0, 0.25, 12345.0, 1e20);
  )CLC");
  EXPECT_EQ(out,
            "[1.500000][1.500000][1.500000e+00][1.500000E+00][1.5][1.5][0x1.8p+0][0X1.8P+0]\n"
            "[0.1000000015][3.142][3][3.][3.14e+00][3.142E+00][3.14][1.00]\n"
            "[     3.142][3.142     ][-00003.142][+3.14][ 3.14][+3.141593e+00][-3.14e+00   |]\n"
            "[100000][1e+06][0.0001][1E-05][0][-0][1.50000][1e+02]\n"
            "[0x1p+0][0X1P-1][0x1.00p+0][0x1p+0][-0x1p+1][0x0p+0][2.250000][2.250000e+00]\n"
            "[0.000000e+00][-0.000000][0.2][1.2e+04][100000000000000000000.000000]\n");
}

TEST_F(Printf, InfinityAndNaN) {
  const cl_float inf = std::numeric_limits<float>::infinity();
  const cl_float nan = std::numeric_limits<float>::quiet_NaN();
  const cl_double dinf = std::numeric_limits<double>::infinity();
  std::string out = print(R"CLC(
    printf("[%f][%F][%e][%E][%g][%G][%a][%A]\n", inf, inf, inf, inf, inf, inf, inf, inf);
    printf("[%f][%F][%e][%E][%g][%G][%a][%A]\n", -inf, -inf, -inf, -inf, -inf, -inf, -inf, -inf);
    printf("[%f][%F][%e][%E][%g][%G][%a][%A]\n", nan, nan, nan, nan, nan, nan, nan, nan);
    printf("[%+f][% f][%6f][%-6f|][%06f][%#f][%.2f][%+F]\n", inf, inf, inf, inf, inf, inf, nan, nan);
    printf("[%f][%v2hlf][%v2lf][%v2hlE]\n", dinf, (float2)(inf, -inf), (double2)(-dinf, nan), (float2)(nan, inf));
    printf("[%f][%f]\n", INFINITY, NAN);
  )CLC",
                          ", float inf, float nan, double dinf", inf, nan, dinf);
  EXPECT_EQ(out, "[inf][INF][inf][INF][inf][INF][inf][INF]\n"
                 "[-inf][-INF][-inf][-INF][-inf][-INF][-inf][-INF]\n"
                 "[nan][NAN][nan][NAN][nan][NAN][nan][NAN]\n"
                 "[+inf][ inf][   inf][inf   |][   inf][inf][nan][+NAN]\n"
                 "[inf][inf,-inf][-inf,nan][NAN,INF]\n"
                 "[inf][nan]\n");
}

TEST_F(Printf, CharactersStringsPercentAndPointers) {
  std::string out = print(R"CLC(
    printf("[%c][%5c][%-3c][%c%c]\n", 'A', 'b', 'c', 'o', 'k');
    printf("[%s][%.3s][%10s][%-10s][%.0s][%3s]\n", "hello", "abcdef", "right", "left", "gone", "toolong");
    printf("[%%][100%%][%s][%%d][%s%%]\n", "50%", "x");
    printf("%s", "only a string\n");
    printf("no conversions at all\n");
    printf("[%p][%p]\n", (__global void *)ret, (__global void *)(ret + 1));
    ret[0] = (int)((ulong)ret);
    ret[1] = (int)((ulong)ret >> 32);
  )CLC");
  std::vector<cl_int> r = returnValues(2);
  uint64_t ptr = uint64_t(uint32_t(r[0])) | (uint64_t(uint32_t(r[1])) << 32);
  char ptrs[64];
  std::snprintf(ptrs, sizeof ptrs, "[0x%" PRIx64 "][0x%" PRIx64 "]\n", ptr, ptr + 4);
  EXPECT_EQ(out, "[A][    b][c  ][ok]\n"
                 "[hello][abc][     right][left      ][][toolong]\n"
                 "[%][100%][50%][%d][x%]\n"
                 "only a string\n"
                 "no conversions at all\n" +
                     std::string(ptrs));
}

// Every vector size with every element type: chars (hh), shorts (h), ints (hl),
// longs (l), floats (hl) and doubles (l). Vectors come from buffers, so their values
// are only known at run time.
TEST_F(Printf, VectorsOfEverySizeAndType) {
  std::vector<cl_long> src(16);
  for (int i = 0; i < 16; ++i)
    src[i] = (i % 2 ? -1 : 1) * (i + 1); // 1,-2,3,-4,...
  cl_mem in = bufferFrom(src);
  std::string out = print(R"CLC(
    long16 L = vload16(0, in);
    printf("c2 %v2hhd|%v2hhu|%v2hhx\n", convert_char2(L.s01), convert_uchar2(L.s01), convert_char2(L.s01));
    printf("c3 %v3hhd|%v3hhu\n", convert_char3(L.s012), convert_uchar3(L.s012));
    printf("c4 %v4hhd|%v4hhX\n", convert_char4(L.s0123), convert_uchar4(L.s0123));
    printf("c8 %v8hhd\n", convert_char8(L.lo));
    printf("c16 %v16hhd\n", convert_char16(L));
    printf("s2 %v2hd|%v2hu\n", convert_short2(L.s01), convert_ushort2(L.s01));
    printf("s3 %v3hd|%v3hx\n", convert_short3(L.s012), convert_short3(L.s012));
    printf("s4 %v4hd\n", convert_short4(L.s0123));
    printf("s8 %v8hd\n", convert_short8(L.lo));
    printf("s16 %v16hu\n", convert_ushort16(L));
    printf("i2 %v2hld|%v2hlu\n", convert_int2(L.s01), convert_uint2(L.s01));
    printf("i3 %v3hld|%v3hlx\n", convert_int3(L.s012), convert_int3(L.s012));
    printf("i4 %v4hli\n", convert_int4(L.s0123));
    printf("i8 %v8hld\n", convert_int8(L.lo));
    printf("i16 %v16hlo\n", convert_uint16(L));
    printf("l2 %v2ld|%v2lu\n", L.s01, convert_ulong2(L.s01));
    printf("l3 %v3ld|%v3lx\n", L.s012, L.s012);
    printf("l4 %v4ld\n", L.s0123);
    printf("l8 %v8ld\n", L.lo);
    printf("l16 %v16ld\n", L);
    printf("f2 %v2hlf\n", convert_float2(L.s01) / 4);
    printf("f3 %v3hlg\n", convert_float3(L.s012) / 4);
    printf("f4 %v4hle\n", convert_float4(L.s0123));
    printf("f8 %v8hlg\n", convert_float8(L.lo) / 4);
    printf("f16 %v16hla\n", convert_float16(L));
    printf("d2 %v2lf\n", convert_double2(L.s01) / 4);
    printf("d3 %v3lg\n", convert_double3(L.s012) / 4);
    printf("d4 %v4lE\n", convert_double4(L.s0123));
    printf("d8 %v8lg\n", convert_double8(L.lo) / 4);
    printf("d16 %v16lG\n", convert_double16(L) / 8);
  )CLC",
                          ", __global const long *in", in);
  EXPECT_EQ(out,
            "c2 1,-2|1,254|1,fe\n"
            "c3 1,-2,3|1,254,3\n"
            "c4 1,-2,3,-4|1,FE,3,FC\n"
            "c8 1,-2,3,-4,5,-6,7,-8\n"
            "c16 1,-2,3,-4,5,-6,7,-8,9,-10,11,-12,13,-14,15,-16\n"
            "s2 1,-2|1,65534\n"
            "s3 1,-2,3|1,fffe,3\n"
            "s4 1,-2,3,-4\n"
            "s8 1,-2,3,-4,5,-6,7,-8\n"
            "s16 1,65534,3,65532,5,65530,7,65528,9,65526,11,65524,13,65522,15,65520\n"
            "i2 1,-2|1,4294967294\n"
            "i3 1,-2,3|1,fffffffe,3\n"
            "i4 1,-2,3,-4\n"
            "i8 1,-2,3,-4,5,-6,7,-8\n"
            "i16 1,37777777776,3,37777777774,5,37777777772,7,37777777770,11,37777777766,13,"
            "37777777764,15,37777777762,17,37777777760\n"
            "l2 1,-2|1,18446744073709551614\n"
            "l3 1,-2,3|1,fffffffffffffffe,3\n"
            "l4 1,-2,3,-4\n"
            "l8 1,-2,3,-4,5,-6,7,-8\n"
            "l16 1,-2,3,-4,5,-6,7,-8,9,-10,11,-12,13,-14,15,-16\n"
            "f2 0.250000,-0.500000\n"
            "f3 0.25,-0.5,0.75\n"
            "f4 1.000000e+00,-2.000000e+00,3.000000e+00,-4.000000e+00\n"
            "f8 0.25,-0.5,0.75,-1,1.25,-1.5,1.75,-2\n"
            "f16 0x1p+0,-0x1p+1,0x1.8p+1,-0x1p+2,0x1.4p+2,-0x1.8p+2,0x1.cp+2,-0x1p+3,0x1.2p+3,"
            "-0x1.4p+3,0x1.6p+3,-0x1.8p+3,0x1.ap+3,-0x1.cp+3,0x1.ep+3,-0x1p+4\n"
            "d2 0.250000,-0.500000\n"
            "d3 0.25,-0.5,0.75\n"
            "d4 1.000000E+00,-2.000000E+00,3.000000E+00,-4.000000E+00\n"
            "d8 0.25,-0.5,0.75,-1,1.25,-1.5,1.75,-2\n"
            "d16 0.125,-0.25,0.375,-0.5,0.625,-0.75,0.875,-1,1.125,-1.25,1.375,-1.5,1.625,-1.75,"
            "1.875,-2\n");
}

// Flags, width and precision apply to each element; the specification's own examples.
TEST_F(Printf, VectorFlagsWidthPrecision) {
  std::string out = print(R"CLC(
    float4 f = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    uchar4 uc = (uchar4)(0xFA, 0xFB, 0xFC, 0xFD);
    printf("f4 = %2.2v4hlf\n", f);
    printf("uc = %#v4hhx\n", uc);
    printf("[%6.1v3hlf][%-5v2hld|][%+v2hld][%05v2hlx][%.3v2hld][%#v2lo]\n", f.xyz, (int2)(7, -7), (int2)(7, -7), (int2)(255, 16), (int2)(5, -5), (long2)(8, 0));
    printf("[% v2lf][%#.0v2lf][%+.1v2hle][%8.3v2lg|]\n", (double2)(1.5, -1.5), (double2)(2.0, 3.0), (float2)(0.5f, 100.0f), (double2)(3.14159, 2.71828));
  )CLC");
  EXPECT_EQ(out, "f4 = 1.00,2.00,3.00,4.00\n"
                 "uc = 0xfa,0xfb,0xfc,0xfd\n"
                 "[   1.0,   2.0,   3.0][7    ,-7   |][+7,-7][000ff,00010][005,-005][010,0]\n"
                 "[ 1.500000,-1.500000][2.,3.][+5.0e-01,+1.0e+02][    3.14,    2.72|]\n");
}

// Scalars and vectors interleaved, more than the registers hold: the 32- to 128-byte
// vectors travel in memory, the rest in registers until those run out, and every
// argument must still be read in order.
TEST_F(Printf, MixedArgumentsKeepTheirOrder) {
  std::string out = print(R"CLC(
    int16 i16 = (int16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    double8 d8 = (double8)(0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5);
    printf("%d %v16hld %f %v8lg %ld %v4hlg %s %v2hhd %c %v3lx %u %v8hd %e %v16hhu %d %f %d %f %d %f %d %f %d %f %d %f\n",
           1, i16, 2.5f, d8, -3L, (float4)(4.0f, 4.25f, 4.5f, 4.75f), "five", (char2)(6, -6), '7',
           (long3)(8, 9, 10), 11u, (short8)(12, 13, 14, 15, 16, 17, 18, 19), 20.0,
           convert_uchar16(i16 + 21), 1, 1.0, 2, 2.0, 3, 3.0, 4, 4.0, 5, 5.0, 6, 6.0);
  )CLC");
  EXPECT_EQ(out,
            "1 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15 2.500000 0.5,1.5,2.5,3.5,4.5,5.5,6.5,7.5 -3 "
            "4,4.25,4.5,4.75 five 6,-6 7 8,9,a 11 12,13,14,15,16,17,18,19 2.000000e+01 "
            "21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36 1 1.000000 2 2.000000 3 3.000000 "
            "4 4.000000 5 5.000000 6 6.000000\n");
}

// Conversions longer than any fixed buffer.
TEST_F(Printf, LongConversions) {
  std::string out = print(R"CLC(
    printf("[%1000d]\n", 7);
    printf("[%-600s]\n", "left");
    printf("[%.400f]\n", 1.0);
  )CLC");
  std::string want = "[" + std::string(999, ' ') + "7]\n[left" + std::string(596, ' ') + "]\n[1." +
                     std::string(400, '0') + "]\n";
  EXPECT_EQ(out, want);
}

TEST_F(Printf, ReturnsZeroOnSuccess) {
  std::string out = print(R"CLC(
    ret[0] = printf("a %d\n", 1);
    ret[1] = printf("%v4hld\n", (int4)(1, 2, 3, 4));
    ret[2] = printf("");
    ret[3] = printf("%%\n");
  )CLC");
  EXPECT_EQ(out, "a 1\n1,2,3,4\n%\n");
  EXPECT_EQ(returnValues(4), (std::vector<cl_int>{0, 0, 0, 0}));
}

// What OpenCL C does not support (6.15.14.4) or leaves undefined: printf prints
// nothing, not even the text before the offending conversion, and returns -1. The
// printfs between them still print.
TEST_F(Printf, InvalidFormatsReturnMinusOneAndPrintNothing) {
  const std::vector<std::string> invalid = {
      R"("a %*d\n", 4, 7)",             // '*' field width: not in OpenCL C
      R"("b %.*f\n", 2, 1.0)",          // '*' precision
      R"("c %lld\n", 1L)",              // ll: reserved
      R"("d %zu\n", (size_t)1)",        // z: OpenCL C 3.1
      R"("e %jd\n", 1L)",               // j: reserved
      R"("f %Lf\n", 1.0)",              // L: reserved
      R"("g %hld\n", 1)",               // hl without a vector
      R"("h %v4f\n", (float4)1.0f)",    // vector without a length modifier
      R"("i %v4d\n", (int4)1)",         // vector without a length modifier
      R"("j %v5hld\n", (int4)1)",       // no 5-element vectors
      R"("k %v4hhf\n", (char4)1)",      // hh with a floating conversion
      R"("l %v2hlc\n", (int2)1)",       // no vector of c
      R"("m %lc\n", 'x')",              // l with c: not supported
      R"("n %ls\n", "x")",              // l with s: not supported
      R"("o %hhc\n", 'x')",             // length modifier c does not take
      R"("p %5%\n")",                   // "%%" must be the whole specification
      R"("q %k\n", 1)",                 // no such conversion
      R"("r %")",                       // format ends inside a specification
      R"("s %d %v7hld\n", 1, (int4)1)", // an invalid one after a valid one
  };
  std::string body;
  for (size_t i = 0; i < invalid.size(); ++i)
    body += "ret[" + std::to_string(2 * i) + "] = printf(\"ok %d\\n\", " + std::to_string(i) +
            ");\nret[" + std::to_string(2 * i + 1) + "] = printf(" + invalid[i] + ");\n";
  std::string out = print(body);
  std::string want;
  for (size_t i = 0; i < invalid.size(); ++i)
    want += "ok " + std::to_string(i) + "\n";
  EXPECT_EQ(out, want);
  std::vector<cl_int> r = returnValues(2 * invalid.size());
  for (size_t i = 0; i < invalid.size(); ++i) {
    EXPECT_EQ(r[2 * i], 0) << "valid printf before " << invalid[i];
    EXPECT_EQ(r[2 * i + 1], -1) << "printf(" << invalid[i] << ")";
  }
}

// Work-items of work-groups running on every worker print at once: each printf's
// output is written whole, so every line arrives intact.
TEST_F(Printf, LinesFromManyWorkItemsStayWhole) {
  cl_kernel k = kernelFrom(R"CLC(
    __kernel void k(void) {
      int g = (int)get_global_id(0);
      for (int rep = 0; rep < 4; ++rep)
        printf("item %d rep %d: %v16hld %s\n", g, rep, (int16)(g), "end");
    })CLC",
                           "k");
  std::string out = captureStdout([&] { run(k, {256}, {16}); });
  std::multiset<std::string> lines, want;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);)
    lines.insert(line);
  for (int g = 0; g < 256; ++g) {
    std::string v = std::to_string(g);
    std::string vec = v;
    for (int i = 1; i < 16; ++i)
      vec += "," + v;
    for (int rep = 0; rep < 4; ++rep)
      want.insert("item " + v + " rep " + std::to_string(rep) + ": " + vec + " end");
  }
  EXPECT_EQ(lines.size(), want.size());
  EXPECT_TRUE(lines == want) << "output:\n" << out.substr(0, 4000);
}

} // namespace
} // namespace fcltest

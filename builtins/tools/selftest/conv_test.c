/* Reference checker for conv_test.cl (C, host libm and the FP environment). */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#pragma STDC FENV_ACCESS ON

typedef signed char c_char;
typedef unsigned char c_uchar;
typedef short c_short;
typedef unsigned short c_ushort;
typedef int c_int;
typedef unsigned c_uint;
typedef long c_long;
typedef unsigned long c_ulong;
typedef float c_float;
typedef double c_double;

enum { K_CHAR, K_UCHAR, K_SHORT, K_USHORT, K_INT, K_UINT, K_LONG, K_ULONG, K_FLOAT, K_DOUBLE };
static const char *names[] = {"char", "uchar", "short", "ushort", "int",
                              "uint", "long",  "ulong", "float",  "double"};
static const int sizes[] = {1, 1, 2, 2, 4, 4, 8, 8, 4, 8};
static const long double lo_[] = {
    -128.0L, 0, -32768.0L, 0, -2147483648.0L, 0, -9223372036854775808.0L, 0};
static const long double hi_[] = {127.0L,
                                  255.0L,
                                  32767.0L,
                                  65535.0L,
                                  2147483647.0L,
                                  4294967295.0L,
                                  9223372036854775807.0L,
                                  18446744073709551615.0L};

#define N 4096
static long double get(int k, const void *p, int i) {
  switch (k) {
  case K_CHAR:
    return ((const c_char *)p)[i];
  case K_UCHAR:
    return ((const c_uchar *)p)[i];
  case K_SHORT:
    return ((const c_short *)p)[i];
  case K_USHORT:
    return ((const c_ushort *)p)[i];
  case K_INT:
    return ((const c_int *)p)[i];
  case K_UINT:
    return ((const c_uint *)p)[i];
  case K_LONG:
    return ((const c_long *)p)[i];
  case K_ULONG:
    return ((const c_ulong *)p)[i];
  case K_FLOAT:
    return ((const c_float *)p)[i];
  default:
    return ((const c_double *)p)[i];
  }
}
static uint64_t bits_of(int k, const void *p, int i) {
  uint64_t v = 0;
  memcpy(&v, (const char *)p + (size_t)i * sizes[k], sizes[k]);
  return v;
}
/* Expected integer-destination result (as the destination's bit pattern); -1 = don't care. */
static int expect_int(int dk, int sk, const void *in, int i, int variant, uint64_t *res) {
  long double x = get(sk, in, i);
  int sat = variant >= 5, rm = variant % 5; /* 0 default 1 rte 2 rtz 3 rtp 4 rtn */
  if (sk >= K_FLOAT) {
    if (isnan(x)) {
      if (!sat)
        return -1;
      *res = 0;
      return 0;
    }
    long double r = rm == 1 ? nearbyintl(x) : rm == 3 ? ceill(x) : rm == 4 ? floorl(x) : truncl(x);
    if (!sat && (r < lo_[dk] || r > hi_[dk]))
      return -1;
    if (r < lo_[dk])
      r = lo_[dk];
    if (r > hi_[dk])
      r = hi_[dk];
    if (dk == K_ULONG)
      *res = (uint64_t)r;
    else
      *res = (uint64_t)(int64_t)r;
  } else {
    if (sat) {
      if (x < lo_[dk])
        x = lo_[dk];
      if (x > hi_[dk])
        x = hi_[dk];
    }
    uint64_t b = bits_of(sk, in, i);
    /* sign-extend the source bits to 64 */
    if (sk % 2 == 0 && sk < K_FLOAT && sizes[sk] < 8) {
      int sh = 64 - 8 * sizes[sk];
      b = (uint64_t)(((int64_t)(b << sh)) >> sh);
    }
    *res = sat ? (dk == K_ULONG || x >= 0 ? (uint64_t)x : (uint64_t)(int64_t)x) : b;
  }
  if (sizes[dk] < 8)
    *res &= (1ULL << (8 * sizes[dk])) - 1;
  return 0;
}
static const int modes[] = {FE_TONEAREST, FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
static uint64_t expect_flt(int dk, int sk, const void *in, int i, int variant) {
  fesetround(modes[variant]);
  uint64_t r = 0;
  if (dk == K_FLOAT) {
    volatile float f;
    switch (sk) {
    case K_CHAR:
      f = ((volatile c_char *)in)[i];
      break;
    case K_UCHAR:
      f = ((volatile c_uchar *)in)[i];
      break;
    case K_SHORT:
      f = ((volatile c_short *)in)[i];
      break;
    case K_USHORT:
      f = ((volatile c_ushort *)in)[i];
      break;
    case K_INT:
      f = ((volatile c_int *)in)[i];
      break;
    case K_UINT:
      f = ((volatile c_uint *)in)[i];
      break;
    case K_LONG:
      f = ((volatile c_long *)in)[i];
      break;
    case K_ULONG:
      f = ((volatile c_ulong *)in)[i];
      break;
    case K_FLOAT:
      f = ((volatile c_float *)in)[i];
      break;
    default:
      f = ((volatile c_double *)in)[i];
      break;
    }
    float g = f;
    memcpy(&r, &g, 4);
  } else {
    volatile double f;
    switch (sk) {
    case K_CHAR:
      f = ((volatile c_char *)in)[i];
      break;
    case K_UCHAR:
      f = ((volatile c_uchar *)in)[i];
      break;
    case K_SHORT:
      f = ((volatile c_short *)in)[i];
      break;
    case K_USHORT:
      f = ((volatile c_ushort *)in)[i];
      break;
    case K_INT:
      f = ((volatile c_int *)in)[i];
      break;
    case K_UINT:
      f = ((volatile c_uint *)in)[i];
      break;
    case K_LONG:
      f = ((volatile c_long *)in)[i];
      break;
    case K_ULONG:
      f = ((volatile c_ulong *)in)[i];
      break;
    case K_FLOAT:
      f = ((volatile c_float *)in)[i];
      break;
    default:
      f = ((volatile c_double *)in)[i];
      break;
    }
    double g = f;
    memcpy(&r, &g, 8);
  }
  fesetround(FE_TONEAREST);
  return r;
}

static uint64_t rng = 88172645463325252ULL;
static uint64_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}
static void fill(int k, void *p) {
  for (int i = 0; i < N; ++i) {
    uint64_t r = rnd();
    if (k == K_FLOAT) {
      float specials[] = {
          0.0f,          -0.0f,         0.5f,          -0.5f,         1.5f,          2.5f,
          -2.5f,         127.5f,        128.0f,        -128.5f,       -129.0f,       255.5f,
          256.0f,        32767.5f,      65535.5f,      2147483520.0f, 2147483648.0f, -2147483648.0f,
          4294967040.0f, 4294967296.0f, 9.2233715e18f, 9.223372e18f,  -9.223372e18f, 1.8446743e19f,
          1.8446744e19f, INFINITY,      -INFINITY,     NAN,           1e-30f,        -1e-30f};
      int ns = sizeof specials / sizeof specials[0];
      float f;
      if (i < ns)
        f = specials[i];
      else if (r % 3 == 0) {
        uint32_t b = (uint32_t)r;
        memcpy(&f, &b, 4);
      } else if (r % 3 == 1)
        f = (float)((int64_t)(r >> 8) % 100000) / 16.0f;
      else
        f = ldexpf((float)(r >> 40) / 16777216.0f, (int)((r >> 8) % 140) - 70) *
            ((r & 16) ? -1 : 1);
      ((float *)p)[i] = f;
    } else if (k == K_DOUBLE) {
      double specials[] = {0.0,
                           -0.0,
                           0.5,
                           -0.5,
                           1.5,
                           2.5,
                           -2.5,
                           127.5,
                           128.0,
                           -128.5,
                           -129.0,
                           255.5,
                           256.0,
                           2147483647.5,
                           2147483648.0,
                           -2147483648.5,
                           -2147483649.0,
                           4294967295.5,
                           4294967296.0,
                           9223372036854774784.0,
                           9223372036854775808.0,
                           -9223372036854775808.0,
                           -9223372036854777856.0,
                           18446744073709549568.0,
                           18446744073709551616.0,
                           INFINITY,
                           -INFINITY,
                           NAN,
                           1e-300,
                           -1e-300,
                           3.4028235677973366e38,
                           3.4028235677973367e38,
                           3.402823669209385e38,
                           -3.4028235677973366e38,
                           1e39,
                           -1e39,
                           1.401298464324817e-45,
                           7.00649232162408e-46,
                           7.006492321624085e-46,
                           1e-46,
                           -1e-46,
                           1.1754942e-38,
                           0.1,
                           1.0 / 3};
      int ns = sizeof specials / sizeof specials[0];
      double f;
      if (i < ns)
        f = specials[i];
      else if (r % 3 == 0)
        memcpy(&f, &r, 8);
      else if (r % 3 == 1)
        f = (double)((int64_t)(r >> 8) % 100000000) / 1024.0;
      else
        f = ldexp((double)(r >> 11) / 9007199254740992.0, (int)((r >> 3) % 300) - 150) *
            ((r & 16) ? -1 : 1);
      ((double *)p)[i] = f;
    } else {
      uint64_t v = r;
      if (i < 64)
        v = (i & 1) ? (uint64_t)1 << (i / 2)
                    : ((uint64_t)1 << (i / 2)) - 1; /* powers of two and below */
      else if (i < 128)
        v = -(v & 0xffff);
      else if (r % 4 == 0)
        v = r >> (r % 64);
      memcpy((char *)p + (size_t)i * sizes[k], &v, sizes[k]);
    }
  }
}

typedef int (*test_fn)(const void *, void *, int);
extern int t_conv_char_char();
#define DECL(D)                                                                                    \
  int t_conv_##D##_char(const void *, void *, int);                                                \
  int t_conv_##D##_uchar(const void *, void *, int);                                               \
  int t_conv_##D##_short(const void *, void *, int);                                               \
  int t_conv_##D##_ushort(const void *, void *, int);                                              \
  int t_conv_##D##_int(const void *, void *, int);                                                 \
  int t_conv_##D##_uint(const void *, void *, int);                                                \
  int t_conv_##D##_long(const void *, void *, int);                                                \
  int t_conv_##D##_ulong(const void *, void *, int);                                               \
  int t_conv_##D##_float(const void *, void *, int);                                               \
  int t_conv_##D##_double(const void *, void *, int);
// clang-format off: declaring macros without semicolons, several to a line
DECL(char) DECL(uchar) DECL(short) DECL(ushort) DECL(int) DECL(uint) DECL(long) DECL(ulong) DECL(float) DECL(double)
#define ROW(D) {t_conv_##D##_char, t_conv_##D##_uchar, t_conv_##D##_short, t_conv_##D##_ushort, t_conv_##D##_int, \
  t_conv_##D##_uint, t_conv_##D##_long, t_conv_##D##_ulong, t_conv_##D##_float, t_conv_##D##_double}
static test_fn table[10][10] = {ROW(char), ROW(uchar), ROW(short), ROW(ushort), ROW(int), ROW(uint), ROW(long), ROW(ulong), ROW(float), ROW(double)};
// clang-format on

/* Markers (conversions do not use them). */
unsigned __fibercl_local_id(unsigned d) { return 0; }
void *__fibercl_ctx(void) { return 0; }
void __fibercl_barrier(unsigned f) {}

int main(void) {
  static char in[N * 8], out[N * 8 * 10];
  int total_bad = 0;
  for (int sk = 0; sk < 10; ++sk) {
    fill(sk, in);
    for (int dk = 0; dk < 10; ++dk) {
      int vbad = table[dk][sk](in, out, N);
      int nv = dk < K_FLOAT ? 10 : 5, bad = 0;
      for (int i = 0; i < N; ++i)
        for (int v = 0; v < nv; ++v) {
          uint64_t got = bits_of(dk, out, i * nv + v), want;
          if (dk < K_FLOAT) {
            if (expect_int(dk, sk, in, i, v, &want))
              continue;
          } else
            want = expect_flt(dk, sk, in, i, v);
          if (dk == K_FLOAT && (want & 0x7fffffff) > 0x7f800000 && (got & 0x7fffffff) > 0x7f800000)
            continue;
          if (dk == K_DOUBLE && (want & ~(1ULL << 63)) > 0x7ff0000000000000ULL &&
              (got & ~(1ULL << 63)) > 0x7ff0000000000000ULL)
            continue;
          if (got != want) {
            if (bad < 3)
              printf("  convert_%s variant %d from %s %.20Lg: got %#llx want %#llx\n", names[dk], v,
                     names[sk], get(sk, in, i), (unsigned long long)got, (unsigned long long)want);
            ++bad;
          }
        }
      if (bad || vbad)
        printf("%s <- %s: %d wrong, %d vector lanes differ\n", names[dk], names[sk], bad, vbad);
      total_bad += bad + vbad;
    }
  }
  printf("conversions: %s (%d failures)\n", total_bad ? "FAIL" : "PASS", total_bad);
  return total_bad != 0;
}

/* Reference checker for math_test.cl: ULP errors against long double libm. */
#define _GNU_SOURCE
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned __fibercl_local_id(unsigned d) { return 0; }
void *__fibercl_ctx(void) { return 0; }
void __fibercl_barrier(unsigned f) {}

#define N 8192
static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static uint64_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}
static int skip; /* set by a reference to skip the comparison */
static const long double PI = 3.141592653589793238462643383279502884L;

static int is_half_int(long double x) { return fmodl(x, 0.5L) == 0; }
static long double r_sinpi(long double x) {
  if (isinf(x))
    return NAN;
  if (fmodl(x, 1.0L) == 0)
    return copysignl(0, x);
  return sinl(PI * fmodl(x, 2.0L));
}
static long double r_cospi(long double x) {
  if (isinf(x))
    return NAN;
  if (is_half_int(x) && fmodl(x, 1.0L) != 0)
    return 0.0L;
  return cosl(PI * fmodl(x, 2.0L));
}
static long double r_tanpi(long double x) {
  if (isinf(x))
    return NAN;
  if (is_half_int(x)) {
    skip = 1;
    return 0;
  } /* sign conventions checked elsewhere */
  return tanl(PI * fmodl(x, 1.0L));
}
static long double r_asinpi(long double x) { return asinl(x) / PI; }
static long double r_acospi(long double x) { return acosl(x) / PI; }
static long double r_atanpi(long double x) { return atanl(x) / PI; }
static long double r_atan2pi(long double y, long double x) { return atan2l(y, x) / PI; }
static long double r_powr(long double x, long double y) {
  if (!(x > 0) || !isfinite(x) || !isfinite(y)) {
    skip = 1;
    return 0;
  }
  return powl(x, y);
}
static long double r_pow(long double x, long double y) { return powl(x, y); }
static long double r_maxmag(long double x, long double y) {
  if (fabsl(x) > fabsl(y))
    return x;
  if (fabsl(y) > fabsl(x))
    return y;
  return fmaxl(x, y);
}
static long double r_minmag(long double x, long double y) {
  if (fabsl(x) < fabsl(y))
    return x;
  if (fabsl(y) < fabsl(x))
    return y;
  return fminl(x, y);
}
static long double r_rsqrt(long double x) { return 1.0L / sqrtl(x); }
static long double r_sign(long double x) { return x > 0 ? 1 : x < 0 ? -1 : isnan(x) ? 0 : x; }
static long double r_exp10(long double x) { return exp10l(x); }

typedef long double (*ref1)(long double);
typedef long double (*ref2)(long double, long double);
typedef int (*kfn_f)(const float *, const float *, float *, int);
typedef int (*kfn_d)(const double *, const double *, double *, int);
struct test {
  const char *name;
  int arity;
  void *ref;
  double tol_f, tol_d;
  kfn_f kf;
  kfn_d kd;
};

#define K(n)                                                                                       \
  int t_##n##_float(const float *, const float *, float *, int);                                   \
  int t_##n##_double(const double *, const double *, double *, int);
// clang-format off: declaring macros without semicolons, several to a line
K(sinpi) K(cospi) K(tanpi) K(asinpi) K(acospi) K(atanpi) K(atan2pi) K(powr) K(pow) K(nextafter)
K(maxmag) K(minmag) K(fdim) K(logb) K(rsqrt) K(sin) K(cos) K(tan) K(exp10) K(exp) K(log) K(cbrt)
K(erf) K(tgamma) K(asinh) K(sign) K(hypot) K(fmod) K(remainder) K(atan2) K(expm1) K(log1p)
K(atan) K(acos) K(sinh) K(tanh) K(round) K(rint) K(trunc) K(fabs) K(copysign) K(fmax) K(fmin)
#define T(n, a, r, tf, td) {#n, a, (void *)r, tf, td, t_##n##_float, t_##n##_double}
static struct test tests[] = {
  T(sinpi, 1, r_sinpi, 4, 4), T(cospi, 1, r_cospi, 4, 4), T(tanpi, 1, r_tanpi, 6, 6),
  T(asinpi, 1, r_asinpi, 5, 5), T(acospi, 1, r_acospi, 5, 5), T(atanpi, 1, r_atanpi, 5, 5),
  T(atan2pi, 2, r_atan2pi, 6, 6), T(powr, 2, r_powr, 16, 16), T(pow, 2, r_pow, 16, 16),
  T(nextafter, 2, nextafterl, 0, 0), T(maxmag, 2, r_maxmag, 0, 0), T(minmag, 2, r_minmag, 0, 0),
  T(fdim, 2, fdiml, 0, 0), T(logb, 1, logbl, 0, 0), T(rsqrt, 1, r_rsqrt, 2, 2),
  T(sin, 1, sinl, 4, 4), T(cos, 1, cosl, 4, 4), T(tan, 1, tanl, 5, 5), T(exp10, 1, r_exp10, 3, 3),
  T(exp, 1, expl, 3, 3), T(log, 1, logl, 3, 3), T(cbrt, 1, cbrtl, 2, 2), T(erf, 1, erfl, 16, 16),
  T(tgamma, 1, tgammal, 16, 16), T(asinh, 1, asinhl, 4, 4), T(sign, 1, r_sign, 0, 0),
  T(hypot, 2, hypotl, 4, 4), T(fmod, 2, fmodl, 0, 0), T(remainder, 2, remainderl, 0, 0),
  T(atan2, 2, atan2l, 6, 6), T(expm1, 1, expm1l, 3, 3), T(log1p, 1, log1pl, 2, 2),
  T(atan, 1, atanl, 5, 5), T(acos, 1, acosl, 4, 4), T(sinh, 1, sinhl, 4, 4), T(tanh, 1, tanhl, 5, 5),
  T(round, 1, roundl, 0, 0), T(rint, 1, rintl, 0, 0), T(trunc, 1, truncl, 0, 0), T(fabs, 1, fabsl, 0, 0),
  T(copysign, 2, copysignl, 0, 0), T(fmax, 2, fmaxl, 0, 0), T(fmin, 2, fminl, 0, 0),
};
// clang-format on

/* ULP error of got (a float/double) against the exact value ref. */
static double ulp_err(long double got, long double ref, int dbl) {
  if (isnan(ref))
    return isnan(got) ? 0 : 1e30;
  long double rr = dbl ? (long double)(double)ref : (long double)(float)ref;
  if (isinf(rr) || isinf(got))
    return got == rr ? 0 : 1e30;
  if (got == ref)
    return 0;
  int e = ilogbl(ref);
  int emin = dbl ? -1022 : -126, mant = dbl ? 52 : 23;
  if (ref == 0)
    e = emin;
  if (e < emin)
    e = emin;
  return (double)(fabsl(got - ref) / ldexpl(1.0L, e - mant));
}

static float rand_f(int i, uint64_t r) {
  static const float sp[] = {0.0f,  -0.0f,       1.0f,       -1.0f,   0.5f,     -0.5f,
                             1.5f,  2.0f,        -3.0f,      0.25f,   4.5f,     -7.5f,
                             1e30f, -1e30f,      1e-40f,     -1e-40f, INFINITY, -INFINITY,
                             NAN,   16777216.0f, 8388609.0f, 3.0e38f};
  if (i < (int)(sizeof sp / sizeof sp[0]))
    return sp[i];
  float f;
  switch (r % 4) {
  case 0: {
    uint32_t b = (uint32_t)(r >> 16);
    memcpy(&f, &b, 4);
    return f;
  }
  case 1:
    return (float)((int64_t)(r >> 20) % 20000) / 1000.0f;
  case 2:
    return ldexpf((float)((r >> 40) & 0xffffff) / 16777216.0f, (int)((r >> 8) % 60) - 30) *
           ((r & 32) ? -1 : 1);
  default:
    return (float)((int64_t)(r >> 12) % 64) * 0.5f;
  }
}
static double rand_d(int i, uint64_t r) {
  static const double sp[] = {0.0,
                              -0.0,
                              1.0,
                              -1.0,
                              0.5,
                              -0.5,
                              1.5,
                              2.0,
                              -3.0,
                              0.25,
                              4.5,
                              -7.5,
                              1e300,
                              -1e300,
                              1e-310,
                              -1e-310,
                              INFINITY,
                              -INFINITY,
                              NAN,
                              9007199254740992.0,
                              4503599627370497.0,
                              1.7e308};
  if (i < (int)(sizeof sp / sizeof sp[0]))
    return sp[i];
  double f;
  switch (r % 4) {
  case 0:
    memcpy(&f, &r, 8);
    return f;
  case 1:
    return (double)((int64_t)(r >> 20) % 20000000) / 1000000.0;
  case 2:
    return ldexp((double)(r >> 11) / 9007199254740992.0, (int)((r >> 3) % 80) - 40) *
           ((r & 32) ? -1 : 1);
  default:
    return (double)((int64_t)(r >> 12) % 64) * 0.5;
  }
}

static int failures;
static void report(const char *what, const char *type, long double x, long double y,
                   long double got, long double want, double err) {
  printf("  %s(%s): x=%.17Lg y=%.17Lg got %.17Lg want %.20Lg (%.1f ulp)\n", what, type, x, y, got,
         want, err);
}

static void run_unary_binary(void) {
  static float xf[N], yf[N], rf[N];
  static double xd[N], yd[N], rd[N];
  for (int i = 0; i < N; ++i) {
    xf[i] = rand_f(i, rnd());
    yf[i] = rand_f((i * 7) % N, rnd());
    xd[i] = rand_d(i, rnd());
    yd[i] = rand_d((i * 7) % N, rnd());
  }
  for (size_t t = 0; t < sizeof tests / sizeof tests[0]; ++t) {
    struct test *ts = &tests[t];
    for (int dbl = 0; dbl < 2; ++dbl) {
      int vbad = dbl ? ts->kd(xd, yd, rd, N) : ts->kf(xf, yf, rf, N);
      int bad = 0;
      double worst = 0;
      for (int i = 0; i < N; ++i) {
        long double x = dbl ? xd[i] : xf[i], y = dbl ? yd[i] : yf[i], got = dbl ? rd[i] : rf[i];
        skip = 0;
        long double want = ts->arity == 1 ? ((ref1)ts->ref)(x) : ((ref2)ts->ref)(x, y);
        if (skip)
          continue;
        if (!strcmp(ts->name, "nextafter"))
          want = dbl ? (long double)nextafter((double)x, (double)y)
                     : (long double)nextafterf((float)x, (float)y);
        if (!strcmp(ts->name, "fdim"))
          want = dbl ? (long double)fdim((double)x, (double)y)
                     : (long double)fdimf((float)x, (float)y);
        double tol = dbl ? ts->tol_d : ts->tol_f;
        if (tol == 0 && !isnan(want))
          want = dbl ? (long double)(double)want : (long double)(float)want;
        double err = ulp_err(got, want, dbl);
        /* exact functions must also get the sign of zero right */
        if (err == 0 && got == 0 && want == 0 && signbit(got) != signbit(want) &&
            strcmp(ts->name, "fdim"))
          err = 1e30;
        if (err > worst && err < 1e29)
          worst = err;
        if (err > tol) {
          if (bad < 3)
            report(ts->name, dbl ? "double" : "float", x, y, got, want, err);
          ++bad;
        }
      }
      if (bad || vbad)
        printf("%s(%s): %d out of tolerance, %d vector lanes differ\n", ts->name,
               dbl ? "double" : "float", bad, vbad);
      if (getenv("FCL_VERBOSE"))
        printf("%-10s %-6s worst %.2f ulp\n", ts->name, dbl ? "double" : "float", worst);
      failures += bad + vbad;
    }
  }
}

int t_misc_float(const float *, const float *, const int *, float *, int *, int);
int t_misc_double(const double *, const double *, const int *, double *, int *, int);
static void run_misc(void) {
  static float xf[N], yf[N], rf[N * 8];
  static double xd[N], yd[N], rd[N * 8];
  static int m[N], ri[N * 8];
  for (int dbl = 0; dbl < 2; ++dbl) {
    for (int i = 0; i < N; ++i) {
      uint64_t r = rnd();
      m[i] = i < 16 ? i - 8 : (int)(r % 41) - 20;
      if (dbl) {
        xd[i] = rand_d(i, r);
        yd[i] = (r & 3) ? xd[i] / ((double)(r % 1000) + 0.7) : rand_d(i, rnd());
      } else {
        xf[i] = rand_f(i, r);
        yf[i] = (r & 3) ? xf[i] / ((float)(r % 1000) + 0.7f) : rand_f(i, rnd());
      }
    }
    const char *ty = dbl ? "double" : "float";
    int vbad = dbl ? t_misc_double(xd, yd, m, rd, ri, N) : t_misc_float(xf, yf, m, rf, ri, N);
    int bad = 0;
    for (int i = 0; i < N; ++i) {
      long double x = dbl ? xd[i] : xf[i], y = dbl ? yd[i] : yf[i];
      long double *dummy = 0;
      (void)dummy;
#define GOT(k) (dbl ? (long double)rd[i * 8 + k] : (long double)rf[i * 8 + k])
#define CHECK(cond, what, got, want)                                                               \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      if (bad < 12)                                                                                \
        report(what, ty, x, y, got, want, 0);                                                      \
      ++bad;                                                                                       \
    }                                                                                              \
  } while (0)
      int n = m[i];
      /* rootn */
      long double want;
      if (n == 0 || (x < 0 && !(n & 1)))
        want = NAN;
      else
        want = (n & 1) ? copysignl(powl(fabsl(x), 1.0L / n), x) : powl(fabsl(x), 1.0L / n);
      double e = ulp_err(GOT(0), want, dbl);
      CHECK(e <= (dbl ? 2 : 16) || (x == 0 || isinf(x)) && GOT(0) == want, "rootn", GOT(0), want);
      /* pown */
      want = powl(x, n);
      e = ulp_err(GOT(1), want, dbl);
      CHECK(e <= (dbl ? 2 : 16), "pown", GOT(1), want);
      /* remquo: remainder exact, low 7 bits of the quotient with its sign */
      long double rr = remainderl(x, y);
      CHECK(ulp_err(GOT(2), rr, dbl) == 0, "remquo", GOT(2), rr);
      if (isfinite(x) && isfinite(y) && y != 0 && fabsl(x / y) < (dbl ? 1024.0L : 1e9L)) {
        long double k = (x - rr) / y;
        int q = (int)fmodl(fabsl(k), 128.0L);
        if ((x < 0) != (y < 0))
          q = -q;
        CHECK((ri[i * 8] & 127) == (q & 127) && (q == 0 || (ri[i * 8] < 0) == (q < 0)),
              "remquo quo", ri[i * 8], q);
      }
      /* fract */
      if (isnan(x))
        CHECK(isnan(GOT(3)), "fract", GOT(3), x);
      else if (isinf(x))
        CHECK(GOT(3) == 0 && signbit(GOT(3)) == signbit(x) && GOT(4) == x, "fract inf", GOT(3), x);
      else {
        long double fl = floorl(x), fr = x - fl;
        long double mx = dbl ? 0x1.fffffffffffffp-1L : 0x1.fffffep-1L;
        if (fr > mx)
          fr = mx;
        fr = dbl ? (double)fr : (float)fr;
        CHECK(GOT(3) == fr && GOT(4) == fl, "fract", GOT(3), fr);
      }
      /* modf */
      long double ip;
      long double fp = modfl(x, &ip);
      CHECK((isnan(x) && isnan(GOT(5))) ||
                (GOT(5) == fp && signbit(GOT(5)) == signbit(fp) && GOT(6) == ip),
            "modf", GOT(5), fp);
      /* frexp, ilogb */
      int ex;
      long double mn = frexpl(x, &ex);
      CHECK((isnan(x) && isnan(GOT(7))) || (GOT(7) == mn && (!isfinite(x) || ri[i * 8 + 1] == ex)),
            "frexp", GOT(7), mn);
      int il = isnan(x) ? INT_MAX : isinf(x) ? INT_MAX : x == 0 ? INT_MIN : ilogbl(x);
      CHECK(ri[i * 8 + 2] == il, "ilogb", ri[i * 8 + 2], il);
      CHECK(ri[i * 8 + 3], "ldexp", 0, 0);
      int sg;
      lgammal_r(x, &sg);
      CHECK(isnan(x) || x == 0 || isinf(x) || (x < 0 && floorl(x) == x) || ri[i * 8 + 4] == sg,
            "lgamma_r sign", ri[i * 8 + 4], sg);
      CHECK(ri[i * 8 + 5], "lgamma_r value", 0, 0);
      int nrm = dbl ? !!isnormal((double)x) : !!isnormal((float)x);
      int cls = !!isnan(x) * 1 + !!isinf(x) * 2 + !!isfinite(x) * 4 + nrm * 8 + !!signbit(x) * 16 +
                !!isless(x, y) * 32 + !!islessgreater(x, y) * 64 + !!isunordered(x, y) * 128;
      CHECK(ri[i * 8 + 6] == cls, "classification", ri[i * 8 + 6], cls);
    }
    if (bad || vbad)
      printf("misc(%s): %d wrong, %d vector lanes differ\n", ty, bad, vbad);
    failures += bad + vbad;
  }
}

void t_geo_float(const float *, const float *, float *, int);
void t_geo_double(const double *, const double *, double *, int);
static void run_geo(void) {
  static float xf[N], yf[N], rf[N * 8];
  static double xd[N], yd[N], rd[N * 8];
  for (int i = 0; i < N; ++i) {
    uint64_t r = rnd();
    int sc = (int)(r % 7);
    double big = sc == 0 ? 1e37 : sc == 1 ? 1e-38 : sc == 2 ? 1e300 : sc == 3 ? 1e-310 : 1;
    xd[i] = (double)((int64_t)(rnd() % 2000001) - 1000000) / 100000.0;
    yd[i] = (double)((int64_t)(rnd() % 2000001) - 1000000) / 100000.0;
    xd[i] *= big;
    yd[i] *= big;
    xf[i] = (float)(sc == 2 || sc == 3 ? xd[i] / big : xd[i]);
    yf[i] = (float)(sc == 2 || sc == 3 ? yd[i] / big : yd[i]);
  }
  t_geo_float(xf, yf, rf, N);
  t_geo_double(xd, yd, rd, N);
  for (int dbl = 0; dbl < 2; ++dbl) {
    int bad = 0;
    const char *ty = dbl ? "double" : "float";
    for (int i = 0; i + 4 <= N; i += 4) {
      long double p[4], q[4];
      for (int k = 0; k < 4; ++k) {
        p[k] = dbl ? xd[i + k] : xf[i + k];
        q[k] = dbl ? yd[i + k] : yf[i + k];
      }
#define G(k) (dbl ? (long double)rd[i * 8 + k] : (long double)rf[i * 8 + k])
      long double x = p[0], y = q[0];
      long double tmax = dbl ? DBL_MAX : FLT_MAX, tmin = dbl ? 0x1p-1074L : 0x1p-149L;
      for (int w = 1; w <= 4; ++w) {
        long double s = 0;
        for (int k = 0; k < w; ++k)
          s += p[k] * p[k];
        long double want = sqrtl(s);
        CHECK(ulp_err(G(w - 1), want, dbl) <= 3, "length", G(w - 1), want);
      }
      long double s3 = 0;
      for (int k = 0; k < 3; ++k)
        s3 += (p[k] - q[k]) * (p[k] - q[k]);
      CHECK(ulp_err(G(5), sqrtl(s3), dbl) <= 4, "distance", G(5), sqrtl(s3));
      long double s4 = 0;
      for (int k = 0; k < 4; ++k)
        s4 += p[k] * p[k];
      CHECK(ulp_err(G(6), p[0] / sqrtl(s4), dbl) <= 4 && ulp_err(G(7), p[3] / sqrtl(s4), dbl) <= 4,
            "normalize", G(6), p[0] / sqrtl(s4));
      long double s3p = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
      CHECK(ulp_err(G(11), p[1] / sqrtl(s3p), dbl) <= 4, "normalize3", G(11), p[1] / sqrtl(s3p));
      long double d = 0, mag = 0;
      for (int k = 0; k < 4; ++k) {
        d += p[k] * q[k];
        mag += fabsl(p[k] * q[k]);
      }
      CHECK(mag > tmax || fabsl(G(4) - d) <= mag * (dbl ? 1e-15 : 1e-6) + tmin, "dot", G(4), d);
      long double c0 = p[1] * q[2] - p[2] * q[1];
      CHECK(fabsl(p[1] * q[2]) + fabsl(p[2] * q[1]) > tmax ||
                fabsl(G(8) - c0) <=
                    (fabsl(p[1] * q[2]) + fabsl(p[2] * q[1])) * (dbl ? 1e-15 : 1e-6) + tmin,
            "cross", G(8), c0);
    }
    if (bad)
      printf("geometric(%s): %d wrong\n", ty, bad);
    failures += bad;
  }
}

/* half reference: all finite positive halves as long double. */
static long double hval(unsigned b) {
  unsigned e = (b >> 10) & 31, m = b & 1023;
  long double v = e == 0 ? ldexpl(m, -24) : ldexpl(1024 + m, (int)e - 25);
  if (e == 31)
    v = m ? NAN : INFINITY;
  return (b & 0x8000) ? -v : v;
}
static unsigned to_half(long double x, int mode) { /* 0 rte 1 rtz 2 rtp 3 rtn */
  if (isnan(x))
    return 0x7e00;
  unsigned sign = signbit(x) ? 0x8000 : 0;
  long double a = fabsl(x);
  if (isinf(a))
    return sign | 0x7c00;
  unsigned lo = 0, hi = 0x7bff;
  if (a >= hval(0x7bff))
    lo = 0x7bff;
  else {
    while (lo < hi) {
      unsigned mid = (lo + hi + 1) / 2;
      if (hval(mid) <= a)
        lo = mid;
      else
        hi = mid - 1;
    }
  }
  if (hval(lo) == a)
    return sign | lo;
  unsigned up = lo + 1;
  long double vup = up == 0x7c00 ? 65536.0L : hval(up);
  unsigned r;
  int away = (mode == 2 && !sign) || (mode == 3 && sign);
  if (mode == 0)
    r = (a - hval(lo) < vup - a) ? lo : (a - hval(lo) > vup - a) ? up : ((lo & 1) ? up : lo);
  else
    r = away ? up : lo;
  return sign | r;
}
void t_half_load(const uint16_t *, float *, int);
void t_half_store_f(const float *, uint16_t *, int);
void t_half_store_d(const double *, uint16_t *, int);
int t_half_vec(const float *, uint16_t *, uint16_t *, int);
static void run_half(void) {
  static uint16_t h[65536], hs[N * 4], h2[N];
  static float f[65536], xf[N];
  static double xd[N];
  int bad = 0;
  for (int i = 0; i < 65536; ++i)
    h[i] = (uint16_t)i;
  t_half_load(h, f, 65536);
  for (int i = 0; i < 65536; ++i) {
    long double w = hval(i);
    if (isnan(w) ? !isnan(f[i]) : (f[i] != w || signbit(f[i]) != signbit(w))) {
      if (bad < 3)
        printf("  vload_half %#x: got %g\n", i, f[i]);
      ++bad;
    }
  }
  for (int i = 0; i < N; ++i) {
    uint64_t r = rnd();
    if (i < 2048) { /* around half values and midpoints */
      long double v = hval((unsigned)(r % 0x7c00)), v2 = hval((unsigned)(r % 0x7c00) + 1);
      long double c = (r & 0x10000) ? (v + v2) / 2 : v;
      if (r & 0x20000)
        c = nextafterl(c, (r & 0x40000) ? INFINITY : 0);
      xd[i] = (double)c;
      if (r & 1)
        xd[i] = -xd[i];
      xf[i] = (float)xd[i];
    } else {
      xf[i] = rand_f(i - 2048, r);
      xd[i] = rand_d(i - 2048, r) * ((r & 8) ? 1e-290 : 1);
      if (r & 16)
        xd[i] = ldexp(xd[i], -300);
    }
    if (i % 5 == 0)
      xd[i] = xf[i] * (1.0 + 0x1p-30);
  }
  t_half_store_f(xf, hs, N);
  for (int i = 0; i < N; ++i)
    for (int m = 0; m < 4; ++m) {
      unsigned want = to_half(xf[i], m), got = hs[i * 4 + m];
      int ok = (want & 0x7fff) > 0x7c00 ? (got & 0x7fff) > 0x7c00 : got == want;
      if (!ok) {
        if (bad < 6)
          printf("  vstore_half(float %a, mode %d): got %#x want %#x\n", xf[i], m, got, want);
        ++bad;
      }
    }
  t_half_store_d(xd, hs, N);
  for (int i = 0; i < N; ++i)
    for (int m = 0; m < 4; ++m) {
      unsigned want = to_half(xd[i], m), got = hs[i * 4 + m];
      int ok = (want & 0x7fff) > 0x7c00 ? (got & 0x7fff) > 0x7c00 : got == want;
      if (!ok) {
        if (bad < 9)
          printf("  vstore_half(double %a, mode %d): got %#x want %#x\n", xd[i], m, got, want);
        ++bad;
      }
    }
  int vbad = t_half_vec(xf, hs, h2, N);
  if (bad || vbad)
    printf("half: %d wrong, %d vector mismatches\n", bad, vbad);
  failures += bad + vbad;
}

int main(void) {
  run_unary_binary();
  run_misc();
  run_geo();
  run_half();
  printf("math: %s (%d failures)\n", failures ? "FAIL" : "PASS", failures);
  return failures != 0;
}

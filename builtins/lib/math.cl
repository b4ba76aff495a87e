/* Math functions (OpenCL C 3.0 s6.15.2) for float and double, scalars and
 * vectors, including half_* and native_* (float only).
 *
 * Most functions map to LLVM intrinsics or C library calls through Clang
 * builtins (glibc's float and double functions are within the OpenCL ULP
 * bounds); vector overloads use Clang's elementwise builtins where one exists
 * (vector IR), otherwise they are split into scalar calls. Functions the C
 * library lacks or gets wrong for OpenCL are written here: sinpi, cospi,
 * tanpi (exact argument reduction), *pi inverses, powr, pown, rootn, remquo
 * (7 quotient bits), ilogb (FP_ILOGBNAN = INT_MAX), fract, modf, nextafter,
 * maxmag, minmag, fdim, nan.
 *
 * half_* and native_* functions are implemented with the full-precision ones.
 */
#include "fcl_vec.h"

/* C library function whose name clashes with an OpenCL overload. (The float
 * version goes through it too: LLVM's TargetLibraryInfo, which the FiberCL
 * compiler uses to accept C library calls, does not know lgammaf_r.) */
double fcl_libm_lgamma_r(double, __private int *) __asm__("lgamma_r");
FCL_INLINE float fcl_lgammaf_r(float x, __private int *s) {
  return (float)fcl_libm_lgamma_r((double)x, s);
}

/* Per-type constants and names. */
#define FCL_IT_float int
#define FCL_IT_double long
#define FCL_UIT_float uint
#define FCL_UIT_double ulong
#define FCL_SFX_float f
#define FCL_SFX_double
#define FCL_MANT_float 23
#define FCL_MANT_double 52
#define FCL_BIAS_float 127
#define FCL_BIAS_double 1023
#define FCL_ABSMASK_float 0x7fffffff
#define FCL_ABSMASK_double 0x7fffffffffffffffL
#define FCL_EXPMASK_float 0x7f800000
#define FCL_EXPMASK_double 0x7ff0000000000000L
#define FCL_MINNORM_float 0x00800000
#define FCL_MINNORM_double 0x0010000000000000L
#define FCL_QNAN_float 0x7fc00000u
#define FCL_QNAN_double 0x7ff8000000000000UL
#define FCL_ONE_BELOW_float 0x1.fffffep-1f
#define FCL_ONE_BELOW_double 0x1.fffffffffffffp-1
#define FCL_DENORM_SCALE_float 0x1p23f
#define FCL_DENORM_SCALE_double 0x1p52

/* A libm function name for type S: FCL_LIBM(sin, float) -> __builtin_sinf. */
#define FCL_LIBM(NAME, S) FCL_CAT(FCL_CAT(__builtin_, NAME), FCL_SFX_##S)

/* ------------------------------------------------------------------------- */
/* 1. Element-wise builtins: one definition per width, vector IR.            */
#define FCL_EW1(W, S, NAME, BUILTIN)                                                       \
  FCL_CONST S##W NAME(S##W x) { return BUILTIN(x); }
#define FCL_EW2(W, S, NAME, BUILTIN)                                                       \
  FCL_CONST S##W NAME(S##W x, S##W y) { return BUILTIN(x, y); }

#define FCL_MATH_EW(W, S)                                                                  \
  FCL_EW1(W, S, fabs, __builtin_elementwise_abs)                                           \
  FCL_EW1(W, S, ceil, __builtin_elementwise_ceil)                                          \
  FCL_EW1(W, S, floor, __builtin_elementwise_floor)                                        \
  FCL_EW1(W, S, trunc, __builtin_elementwise_trunc)                                        \
  FCL_EW1(W, S, rint, __builtin_elementwise_rint)                                          \
  FCL_EW1(W, S, round, __builtin_elementwise_round)                                        \
  FCL_EW1(W, S, sqrt, __builtin_elementwise_sqrt)                                          \
  FCL_EW1(W, S, sin, __builtin_elementwise_sin)                                            \
  FCL_EW1(W, S, cos, __builtin_elementwise_cos)                                            \
  FCL_EW1(W, S, tan, __builtin_elementwise_tan)                                            \
  FCL_EW1(W, S, asin, __builtin_elementwise_asin)                                          \
  FCL_EW1(W, S, acos, __builtin_elementwise_acos)                                          \
  FCL_EW1(W, S, atan, __builtin_elementwise_atan)                                          \
  FCL_EW1(W, S, sinh, __builtin_elementwise_sinh)                                          \
  FCL_EW1(W, S, cosh, __builtin_elementwise_cosh)                                          \
  FCL_EW1(W, S, tanh, __builtin_elementwise_tanh)                                          \
  FCL_EW1(W, S, exp, __builtin_elementwise_exp)                                            \
  FCL_EW1(W, S, exp2, __builtin_elementwise_exp2)                                          \
  FCL_EW1(W, S, log, __builtin_elementwise_log)                                            \
  FCL_EW1(W, S, log2, __builtin_elementwise_log2)                                          \
  FCL_EW1(W, S, log10, __builtin_elementwise_log10)                                        \
  FCL_EW2(W, S, pow, __builtin_elementwise_pow)                                            \
  FCL_EW2(W, S, copysign, __builtin_elementwise_copysign)                                  \
  FCL_EW2(W, S, fmax, __builtin_elementwise_max)                                           \
  FCL_EW2(W, S, fmin, __builtin_elementwise_min)                                           \
  FCL_CONST S##W fma(S##W a, S##W b, S##W c) { return __builtin_elementwise_fma(a, b, c); } \
  FCL_CONST S##W mad(S##W a, S##W b, S##W c) { return a * b + c; }                         \
  FCL_CONST S##W rsqrt(S##W x) { return (S)1 / __builtin_elementwise_sqrt(x); }            \
  FCL_CONST S##W asinpi(S##W x) { return __builtin_elementwise_asin(x) * (S)M_1_PI; }      \
  FCL_CONST S##W acospi(S##W x) { return __builtin_elementwise_acos(x) * (S)M_1_PI; }      \
  FCL_CONST S##W atanpi(S##W x) { return __builtin_elementwise_atan(x) * (S)M_1_PI; }      \
  FCL_CONST S##W maxmag(S##W x, S##W y) {                                                  \
    S##W ax = __builtin_elementwise_abs(x), ay = __builtin_elementwise_abs(y);             \
    return ax > ay ? x : ay > ax ? y : __builtin_elementwise_max(x, y);                    \
  }                                                                                        \
  FCL_CONST S##W minmag(S##W x, S##W y) {                                                  \
    S##W ax = __builtin_elementwise_abs(x), ay = __builtin_elementwise_abs(y);             \
    return ax < ay ? x : ay < ax ? y : __builtin_elementwise_min(x, y);                    \
  }                                                                                        \
  FCL_CONST S##W fdim(S##W x, S##W y) {                                                    \
    S##W r = x > y ? x - y : (S##W)(S)0;                                                   \
    return x != x ? x : y != y ? y : r;                                                    \
  }                                                                                        \
  FCL_CONST S##W hypot(S##W x, S##W y) { FCL_HYPOT_##S(W) }                                \
  FCL_CONST S##W nextafter(S##W x, S##W y) {                                               \
    typedef FCL_CAT(FCL_IT_##S, W) it_t;                                                   \
    it_t ix = FCL_AS(it_t, x);                                                             \
    it_t d = ((x < y) ^ (x < (S)0)) ? (it_t)(FCL_IT_##S)1 : (it_t)(FCL_IT_##S)-1;           \
    S##W r = FCL_AS(S##W, ix + d);                                                         \
    r = x == (S)0 ? __builtin_elementwise_copysign(FCL_AS(S##W, (it_t)(FCL_IT_##S)1), y) : r; \
    r = x == y ? y : r;                                                                    \
    return (x != x) | (y != y) ? x + y : r;                                                \
  }                                                                                        \
  FCL_CONST S##W powr(S##W x, S##W y) {                                                    \
    /* x^y for x >= 0 only; the special cases of s6.15.2.1 that differ from pow. */       \
    S##W r = __builtin_elementwise_pow(__builtin_elementwise_abs(x), y);                   \
    S##W ay = __builtin_elementwise_abs(y);                                                \
    return (x < (S)0) | (x != x) | (y != y) | ((x == (S)0) & (y == (S)0)) |                \
                   ((x == (S)INFINITY) & (y == (S)0)) | ((x == (S)1) & (ay == (S)INFINITY)) \
               ? (S##W)(S)NAN                                                              \
               : r;                                                                        \
  }                                                                                        \
  FCL_CONST S##W nan(FCL_CAT(FCL_UIT_##S, W) c) {                                          \
    return FCL_AS(S##W, c | (FCL_UIT_##S)FCL_QNAN_##S);                                    \
  }                                                                                        \
  FCL_CONST FCL_CAT(int, W) ilogb(S##W x) {                                                \
    typedef FCL_CAT(FCL_IT_##S, W) it_t;                                                   \
    it_t ax = FCL_AS(it_t, x) & (FCL_IT_##S)FCL_ABSMASK_##S;                               \
    it_t e = (ax >> (FCL_IT_##S)FCL_MANT_##S) - (FCL_IT_##S)FCL_BIAS_##S;                  \
    it_t as = FCL_AS(it_t, x * (S)FCL_DENORM_SCALE_##S) & (FCL_IT_##S)FCL_ABSMASK_##S;     \
    it_t es = (as >> (FCL_IT_##S)FCL_MANT_##S) - (FCL_IT_##S)(FCL_BIAS_##S + FCL_MANT_##S); \
    e = ax < (FCL_IT_##S)FCL_MINNORM_##S ? es : e;                                         \
    e = ax == (FCL_IT_##S)0 ? (it_t)(FCL_IT_##S)INT_MIN : e;                               \
    e = ax >= (FCL_IT_##S)FCL_EXPMASK_##S ? (it_t)(FCL_IT_##S)INT_MAX : e;                 \
    return FCL_CVT(W, e, FCL_CAT(int, W));                                                 \
  }                                                                                        \
  FCL_CONST S##W logb(S##W x) {                                                            \
    S##W r = FCL_CVT(W, ilogb(x), S##W);                                                   \
    r = x == (S)0 ? (S##W)(-(S)INFINITY) : r;                                              \
    return __builtin_elementwise_abs(x) == (S)INFINITY ? (S##W)(S)INFINITY                 \
           : x != x                                    ? x                                 \
                                                       : r;                                \
  }                                                                                        \
  FCL_PI_FUNCS(W, S)                                                                       \
  FCL_POWN_ROOTN(W, S)                                                                     \
  FCL_OUT_FUNCS(W, S)

/* hypot without the C library (whose hypot LLVM's TargetLibraryInfo does not
 * know). float: exact squares in double. double: scaled by a power of two when
 * the larger magnitude is beyond 2^+-500. Infinities win over NaN. */
#define FCL_HYPOT_float(W)                                                                 \
  double##W xd = FCL_CVT(W, x, double##W), yd = FCL_CVT(W, y, double##W);                  \
  float##W r = FCL_CVT(W, __builtin_elementwise_sqrt(xd * xd + yd * yd), float##W);        \
  return (__builtin_elementwise_abs(x) == INFINITY) | (__builtin_elementwise_abs(y) == INFINITY) \
             ? (float##W)INFINITY                                                          \
             : r;
#define FCL_HYPOT_double(W)                                                                \
  double##W ax = __builtin_elementwise_abs(x), ay = __builtin_elementwise_abs(y);          \
  double##W m = __builtin_elementwise_max(ax, ay), n = __builtin_elementwise_min(ax, ay);  \
  /* powers of two: no rounding; the squares neither overflow nor vanish */                \
  double##W s = m > 0x1p500 ? (double##W)0x1p-600 : m < 0x1p-500 ? (double##W)0x1p600 : (double##W)1.0; \
  double##W ms = m * s, ns = n * s;                                                        \
  double##W r = __builtin_elementwise_sqrt(ms * ms + ns * ns) / s;                         \
  r = (x != x) | (y != y) ? x + y : r;                                                     \
  return m == INFINITY ? (double##W)INFINITY : r;

/* sinpi, cospi, tanpi: exact reduction x = (k/2 + f) with |f| <= 1/4 in double,
 * then sin/cos of pi*f in double (the float versions are thus correctly
 * rounded in practice; the double ones are within ~2 ulp). */
#define FCL_PI_FUNCS(W, S)                                                                 \
  FCL_INLINE void fcl_pi_reduce(S##W x, FCL_CAT(double, W) * s, FCL_CAT(double, W) * c,     \
                                FCL_CAT(double, W) * k) {                                  \
    typedef FCL_CAT(double, W) d_t;                                                        \
    d_t ax = __builtin_elementwise_abs(FCL_CVT(W, x, d_t));                                \
    /* |x| >= 2^53 is an even integer (and ax * 2 may overflow): same as 0 */              \
    ax = (ax >= 0x1p53) & (ax < INFINITY) ? (d_t)0.0 : ax;                                 \
    d_t n = __builtin_elementwise_rint(ax * 2.0);                                          \
    d_t f = ax - n * 0.5;                                                                  \
    *k = n - 4.0 * __builtin_elementwise_floor(n * 0.25);                                  \
    *s = __builtin_elementwise_sin(f * M_PI);                                              \
    *c = __builtin_elementwise_cos(f * M_PI);                                              \
  }                                                                                        \
  FCL_INLINE FCL_CAT(double, W) fcl_sinpi_d(S##W x, FCL_CAT(double, W) s,                   \
                                            FCL_CAT(double, W) c, FCL_CAT(double, W) k) {  \
    typedef FCL_CAT(double, W) d_t;                                                        \
    d_t r = k == 0.0 ? s : k == 1.0 ? c : k == 2.0 ? -s : -c;                              \
    d_t xd = FCL_CVT(W, x, d_t);                                                           \
    r = xd < 0.0 ? -r : r;                                                                 \
    return r == 0.0 ? __builtin_elementwise_copysign((d_t)0.0, xd) : r;                     \
  }                                                                                        \
  FCL_INLINE FCL_CAT(double, W) fcl_cospi_d(S##W x, FCL_CAT(double, W) s, FCL_CAT(double, W) c,     \
                                            FCL_CAT(double, W) k) {                        \
    typedef FCL_CAT(double, W) d_t;                                                        \
    return (k == 0.0 ? c : k == 1.0 ? -s : k == 2.0 ? -c : s) + 0.0;                        \
  }                                                                                        \
  FCL_CONST S##W sinpi(S##W x) {                                                           \
    FCL_CAT(double, W) s, c, k;                                                            \
    fcl_pi_reduce(x, &s, &c, &k);                                                          \
    return FCL_CVT(W, fcl_sinpi_d(x, s, c, k), S##W);                                      \
  }                                                                                        \
  FCL_CONST S##W cospi(S##W x) {                                                           \
    FCL_CAT(double, W) s, c, k;                                                            \
    fcl_pi_reduce(x, &s, &c, &k);                                                          \
    return FCL_CVT(W, fcl_cospi_d(x, s, c, k), S##W);                                         \
  }                                                                                        \
  FCL_CONST S##W tanpi(S##W x) {                                                           \
    FCL_CAT(double, W) s, c, k;                                                            \
    fcl_pi_reduce(x, &s, &c, &k);                                                          \
    return FCL_CVT(W, fcl_sinpi_d(x, s, c, k) / fcl_cospi_d(x, s, c, k), S##W);               \
  }

/* pown and rootn. float: exact in double. double: pow with an exact integer
 * exponent; rootn refines pow(|x|, 1/n) with one Newton step, since 1/n is
 * rounded. */
#define FCL_POWN_ROOTN(W, S) FCL_POWN_ROOTN_##S(W)
#define FCL_POWN_ROOTN_float(W)                                                            \
  FCL_CONST float##W pown(float##W x, int##W n) {                                          \
    return FCL_CVT(W,                                                                      \
                   __builtin_elementwise_pow(FCL_CVT(W, x, double##W),                     \
                                             FCL_CVT(W, n, double##W)),                    \
                   float##W);                                                              \
  }                                                                                        \
  FCL_CONST float##W rootn(float##W x, int##W n) {                                         \
    double##W xd = FCL_CVT(W, x, double##W);                                               \
    double##W nd = FCL_CVT(W, n, double##W);                                               \
    double##W r = __builtin_elementwise_pow(__builtin_elementwise_abs(xd), 1.0 / nd);      \
    /* odd n keeps the sign; x < 0 with even n, and n == 0, are NaN */                     \
    long##W odd = FCL_CVT(W, (n & 1) != 0, long##W);                                       \
    r = odd ? __builtin_elementwise_copysign(r, xd) : r;                                   \
    r = (nd == 0.0) | ((xd < 0.0) & !odd) ? (double##W)NAN : r;                            \
    return FCL_CVT(W, r, float##W);                                                        \
  }
#define FCL_POWN_ROOTN_double(W)                                                           \
  FCL_CONST double##W pown(double##W x, int##W n) {                                        \
    return __builtin_elementwise_pow(x, FCL_CVT(W, n, double##W));                         \
  }                                                                                        \
  FCL_CONST double##W rootn(double##W x, int##W n) {                                       \
    double##W nd = FCL_CVT(W, n, double##W);                                               \
    double##W an = __builtin_elementwise_abs(nd);                                          \
    double##W ax = __builtin_elementwise_abs(x);                                           \
    double##W r = __builtin_elementwise_pow(ax, 1.0 / nd);                                 \
    /* Newton: r -= r * (r^n / |x| - 1) / n. For subnormal |x|, r^n would be             \
     * subnormal too: compute it scaled by 2^(s*|n|), s = ceil(54/|n|), exactly. */       \
    /* (also near DBL_MIN / DBL_MAX, where r^n may fall just outside the normal range) */ \
    double##W s = an > 600.0     ? (double##W)0.0                                          \
                  : ax < 0x1p-1000 ? __builtin_elementwise_ceil(54.0 / an)                 \
                  : ax > 0x1p1000  ? -__builtin_elementwise_ceil(54.0 / an)                \
                                   : (double##W)0.0;                                       \
    double##W rs = r * __builtin_elementwise_exp2(nd < 0.0 ? -s : s);                      \
    double##W p = __builtin_elementwise_pow(rs, nd);                                       \
    double##W q = p / (ax * __builtin_elementwise_exp2(s * an));                           \
    double##W rn = r - r * (q - 1.0) / nd;                                                 \
    r = (p >= DBL_MIN) & (p < INFINITY) & (q == q) & (ax < INFINITY) ? rn : r;             \
    long##W odd = FCL_CVT(W, (n & 1) != 0, long##W);                                       \
    r = odd ? __builtin_elementwise_copysign(r, x) : r;                                    \
    return (nd == 0.0) | ((x < 0.0) & !odd) ? (double##W)NAN : r;                          \
  }

/* Out-parameter functions with a vector-wide formulation: fract, modf, sincos
 * (the __private overload; other spaces below). */
#define FCL_OUT_FUNCS(W, S)                                                                \
  FCL_OVL S##W fract(S##W x, __private S##W *ip) {                                         \
    S##W fl = __builtin_elementwise_floor(x);                                              \
    S##W r = __builtin_elementwise_min(x - fl, (S##W)FCL_ONE_BELOW_##S);                   \
    r = __builtin_elementwise_abs(x) == (S)INFINITY                                        \
            ? __builtin_elementwise_copysign((S##W)(S)0, x)                                \
            : r;                                                                           \
    r = x == (S)0 ? x : r; /* fract(-0) = -0 (s7.5.1) */                                   \
    *ip = fl;                                                                              \
    return x != x ? x : r;                                                                 \
  }                                                                                        \
  FCL_OVL S##W modf(S##W x, __private S##W *ip) {                                          \
    S##W i = __builtin_elementwise_trunc(x);                                               \
    *ip = i;                                                                               \
    return __builtin_elementwise_copysign(                                                 \
        __builtin_elementwise_abs(x) == (S)INFINITY ? (S##W)(S)0 : x - i, x);              \
  }                                                                                        \
  FCL_OVL S##W sincos(S##W x, __private S##W *c) {                                         \
    *c = __builtin_elementwise_cos(x);                                                     \
    return __builtin_elementwise_sin(x);                                                   \
  }

FCL_FLOAT_TYPES(FCL_ALLW, FCL_MATH_EW)

/* ------------------------------------------------------------------------- */
/* 2. C library functions without an element-wise builtin: scalar + split.   */
#define FCL_MATH_LIBM(S)                                                                   \
  FCL_LIBM1(S, acosh) FCL_LIBM1(S, asinh) FCL_LIBM1(S, atanh) FCL_CBRT_##S           \
  FCL_LIBM1(S, erf) FCL_LIBM1(S, erfc) FCL_LIBM1(S, expm1) FCL_LIBM1(S, log1p)             \
  FCL_LGAMMA_##S FCL_LIBM1(S, tgamma) FCL_LIBM1(S, exp10)                            \
  FCL_LIBM2(S, atan2) FCL_LIBM2(S, fmod) FCL_LIBM2(S, remainder)       \
  FCL_CONST S ldexp(S x, int n) { return FCL_LIBM(ldexp, S)(x, n); }                        \
  FCL_SPLIT2(FCL_CONST, S, ldexp, S, int)                                                  \
  FCL_SPLIT2_SCALAR(FCL_CONST, S, ldexp, S, int)                                           \
  FCL_OVL S frexp(S x, __private int *e) { return FCL_LIBM(frexp, S)(x, e); }              \
  FCL_SPLIT_OUT(FCL_OVL, S, frexp, S, int)                                                 \
  FCL_OVL S lgamma_r(S x, __private int *sg) {                                             \
    S r = FCL_LGAMMA_R_##S(x, sg);                                                         \
    /* s7.5.1: 0 in *signp when x is zero or a negative integer */                         \
    if (x == (S)0 || (x < (S)0 && __builtin_elementwise_floor(x) == x)) *sg = 0;            \
    return r;                                                                              \
  }                                                                                        \
  FCL_SPLIT_OUT(FCL_OVL, S, lgamma_r, S, int)                                              \
  FCL_OVL S remquo(S x, S y, __private int *q) {                                           \
    /* r = x - k*y with k nearest x/y; *q = the low 7 bits of |k|, sign of x/y. */        \
    S r = FCL_LIBM(remainder, S)(x, y);                                                    \
    S ax = fabs(x), ay = fabs(y);                                                          \
    S big = ay * (S)128;                                                                   \
    S r1 = big == (S)INFINITY ? ax : FCL_LIBM(fmod, S)(ax, big); /* ax mod 128|y| */       \
    S rr = FCL_LIBM(remainder, S)(r1, ay);                                                 \
    double m = __builtin_rint(((double)r1 - (double)rr) / (double)ay);                    \
    int k = (int)(m == m && fabs(m) < 1024.0 ? m : 0.0) & 127;                             \
    *q = (x < (S)0) != (y < (S)0) ? -k : k;                                                \
    return r;                                                                              \
  }                                                                                        \
  FCL_SPLIT2_OUT(FCL_OVL, S, remquo, S, int)                                               \
  FCL_CONST S atan2pi(S y, S x) { return FCL_LIBM(atan2, S)(y, x) * (S)M_1_PI; }           \
  FCL_SPLIT2(FCL_CONST, S, atan2pi, S, S)
#define FCL_CBRT_float FCL_LIBM1(float, cbrt)
/* glibc's cbrt is up to ~3 ulp; OpenCL wants 2: one Newton step with an exact
 * residual r^3 - x (fma-based double-double product). */
#define FCL_CBRT_double                                                                    \
  FCL_CONST double cbrt(double x) {                                                        \
    if (x == 0.0 || !__builtin_isfinite(x))                                                \
      return x;                                                                            \
    int k = ilogb(x) / 3; /* x = xs * 2^(3k), xs in [2^-2, 2^3) */                         \
    double xs = __builtin_ldexp(x, -3 * k);                                                \
    double r = __builtin_cbrt(xs);                                                         \
    double hi = r * r, lo = __builtin_fma(r, r, -hi);                                      \
    double c = hi * r, cl = __builtin_fma(hi, r, -c) + lo * r;                             \
    return __builtin_ldexp(r - ((c - xs) + cl) / (3.0 * hi), k);                           \
  }                                                                                        \
  FCL_SPLIT1(FCL_CONST, double, cbrt, double)
#define FCL_LGAMMA_R_float fcl_lgammaf_r
/* float lgamma through double, like lgamma_r (same results for both). */
#define FCL_LGAMMA_float                                                                   \
  FCL_CONST float lgamma(float x) { return (float)__builtin_lgamma((double)x); }           \
  FCL_SPLIT1(FCL_CONST, float, lgamma, float)
#define FCL_LGAMMA_double FCL_LIBM1(double, lgamma)
#define FCL_LGAMMA_R_double fcl_libm_lgamma_r
#define FCL_LIBM1(S, NAME)                                                                 \
  FCL_CONST S NAME(S x) { return FCL_LIBM(NAME, S)(x); }                                   \
  FCL_SPLIT1(FCL_CONST, S, NAME, S)
#define FCL_LIBM2(S, NAME)                                                                 \
  FCL_CONST S NAME(S x, S y) { return FCL_LIBM(NAME, S)(x, y); }                           \
  FCL_SPLIT2(FCL_CONST, S, NAME, S, S)

FCL_MATH_LIBM(float)
FCL_MATH_LIBM(double)

/* Vector fmax/fmin with a scalar second operand. */
#define FCL_FMINMAX_SCALAR(W, S)                                                           \
  FCL_CONST S##W fmax(S##W x, S y) { return __builtin_elementwise_max(x, (S##W)(y)); }     \
  FCL_CONST S##W fmin(S##W x, S y) { return __builtin_elementwise_min(x, (S##W)(y)); }
FCL_FLOAT_TYPES(FCL_ALLVW, FCL_FMINMAX_SCALAR)

/* ------------------------------------------------------------------------- */
/* 3. Out-parameter functions in the other address spaces.                   */
FCL_FLOAT_TYPES(FCL_ALLW, FCL_OUT_ALL)

/* ------------------------------------------------------------------------- */
/* 4. half_* and native_* (float): the full-precision functions.             */
#define FCL_HALF_NATIVE(W, PFX)                                                            \
  FCL_CONST float##W PFX##cos(float##W x) { return cos(x); }                               \
  FCL_CONST float##W PFX##sin(float##W x) { return sin(x); }                               \
  FCL_CONST float##W PFX##tan(float##W x) { return tan(x); }                               \
  FCL_CONST float##W PFX##exp(float##W x) { return exp(x); }                               \
  FCL_CONST float##W PFX##exp2(float##W x) { return exp2(x); }                             \
  FCL_CONST float##W PFX##exp10(float##W x) { return exp10(x); }                           \
  FCL_CONST float##W PFX##log(float##W x) { return log(x); }                               \
  FCL_CONST float##W PFX##log2(float##W x) { return log2(x); }                             \
  FCL_CONST float##W PFX##log10(float##W x) { return log10(x); }                           \
  FCL_CONST float##W PFX##sqrt(float##W x) { return sqrt(x); }                             \
  FCL_CONST float##W PFX##rsqrt(float##W x) { return rsqrt(x); }                           \
  FCL_CONST float##W PFX##recip(float##W x) { return 1.0f / x; }                           \
  FCL_CONST float##W PFX##divide(float##W x, float##W y) { return x / y; }                 \
  FCL_CONST float##W PFX##powr(float##W x, float##W y) { return powr(x, y); }
FCL_WIDTHS(FCL_HALF_NATIVE, half_)
FCL_WIDTHS(FCL_HALF_NATIVE, native_)

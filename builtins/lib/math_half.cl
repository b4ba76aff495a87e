/* Math, common and geometric functions for half (cl_khr_fp16), scalars and
 * vectors.
 *
 * A half function is its float twin on the exactly widened arguments, rounded
 * once to half (to nearest even). float carries 13 more significant bits than
 * half, so the result is within the half ULP bounds of the specification, and
 * correctly rounded wherever the float function is exact or correctly rounded
 * (sqrt, fmod, remainder, ldexp, floor, ...; half + - * / are compiled the same
 * way by LLVM). Written here: fma (one rounding of the exact a*b + c),
 * fract (clamped below 1 in half), nextafter and nan (on half bit patterns).
 * Comparisons, min/max and sign changes are exact in half and stay in half.
 */
#include "fcl_vec.h"

#define FCL_H2F(W, x) FCL_CVT(W, x, float##W)
#define FCL_F2H(W, x) FCL_CVT(W, x, half##W)
#define FCL_HALF_ONE_BELOW 0x1.ffcp-1f /* the largest half below 1 */

/* ---- through float --------------------------------------------------------------- */
/* Each definition declares the float overload it calls first: an overload
 * defined in this file hides the builtin table's declarations of its name. */
#define FCL_HF1(W, NAME)                                                                   \
  FCL_CONST float##W NAME(float##W);                                                       \
  FCL_CONST half##W NAME(half##W x) { return FCL_F2H(W, NAME(FCL_H2F(W, x))); }
#define FCL_HF2(W, NAME)                                                                   \
  FCL_CONST float##W NAME(float##W, float##W);                                             \
  FCL_CONST half##W NAME(half##W x, half##W y) {                                           \
    return FCL_F2H(W, NAME(FCL_H2F(W, x), FCL_H2F(W, y)));                                 \
  }
#define FCL_HFI(W, NAME)                                                                   \
  FCL_CONST float##W NAME(float##W, int##W);                                               \
  FCL_CONST half##W NAME(half##W x, int##W n) { return FCL_F2H(W, NAME(FCL_H2F(W, x), n)); }

#define FCL_HALF_MATH(W, _)                                                                \
  FCL_HF1(W, acos) FCL_HF1(W, acosh) FCL_HF1(W, acospi) FCL_HF1(W, asin) FCL_HF1(W, asinh) \
  FCL_HF1(W, asinpi) FCL_HF1(W, atan) FCL_HF1(W, atanh) FCL_HF1(W, atanpi)                 \
  FCL_HF1(W, cbrt) FCL_HF1(W, cos) FCL_HF1(W, cosh) FCL_HF1(W, cospi) FCL_HF1(W, erf)      \
  FCL_HF1(W, erfc) FCL_HF1(W, exp) FCL_HF1(W, exp10) FCL_HF1(W, exp2) FCL_HF1(W, expm1)    \
  FCL_HF1(W, lgamma) FCL_HF1(W, log) FCL_HF1(W, log10) FCL_HF1(W, log1p) FCL_HF1(W, log2)  \
  FCL_HF1(W, logb) FCL_HF1(W, rsqrt) FCL_HF1(W, sin) FCL_HF1(W, sinh) FCL_HF1(W, sinpi)    \
  FCL_HF1(W, sqrt) FCL_HF1(W, tan) FCL_HF1(W, tanh) FCL_HF1(W, tanpi) FCL_HF1(W, tgamma)   \
  FCL_HF1(W, degrees) FCL_HF1(W, radians)                                                  \
  FCL_HF2(W, atan2) FCL_HF2(W, atan2pi) FCL_HF2(W, fdim) FCL_HF2(W, fmod) FCL_HF2(W, hypot) \
  FCL_HF2(W, pow) FCL_HF2(W, powr) FCL_HF2(W, remainder)                                   \
  FCL_HFI(W, ldexp) FCL_HFI(W, pown) FCL_HFI(W, rootn)                                     \
  FCL_CONST half##W mad(half##W a, half##W b, half##W c) {                                 \
    return FCL_F2H(W, FCL_H2F(W, a) * FCL_H2F(W, b) + FCL_H2F(W, c));                      \
  }                                                                                        \
  FCL_CONST int##W ilogb(float##W);                                                        \
  FCL_OVL float##W frexp(float##W, __private int##W *);                                    \
  FCL_OVL float##W lgamma_r(float##W, __private int##W *);                                 \
  FCL_OVL float##W remquo(float##W, float##W, __private int##W *);                         \
  FCL_OVL float##W sincos(float##W, __private float##W *);                                 \
  FCL_OVL float##W modf(float##W, __private float##W *);                                   \
  FCL_OVL float##W fract(float##W, __private float##W *);                                  \
  FCL_CONST int##W ilogb(half##W x) { return ilogb(FCL_H2F(W, x)); }                       \
  FCL_OVL half##W frexp(half##W x, __private int##W *e) {                                  \
    return FCL_F2H(W, frexp(FCL_H2F(W, x), e));                                            \
  }                                                                                        \
  FCL_OVL half##W lgamma_r(half##W x, __private int##W *s) {                               \
    return FCL_F2H(W, lgamma_r(FCL_H2F(W, x), s));                                         \
  }                                                                                        \
  FCL_OVL half##W remquo(half##W x, half##W y, __private int##W *q) {                      \
    return FCL_F2H(W, remquo(FCL_H2F(W, x), FCL_H2F(W, y), q));                            \
  }                                                                                        \
  FCL_OVL half##W sincos(half##W x, __private half##W *c) {                                \
    float##W fc;                                                                           \
    float##W s = sincos(FCL_H2F(W, x), &fc);                                               \
    *c = FCL_F2H(W, fc);                                                                   \
    return FCL_F2H(W, s);                                                                  \
  }                                                                                        \
  FCL_OVL half##W modf(half##W x, __private half##W *ip) {                                 \
    float##W fi;                                                                           \
    float##W r = modf(FCL_H2F(W, x), &fi);                                                 \
    *ip = FCL_F2H(W, fi);                                                                  \
    return FCL_F2H(W, r);                                                                  \
  }                                                                                        \
  FCL_OVL half##W fract(half##W x, __private half##W *ip) {                                \
    float##W fl;                                                                           \
    float##W r = fract(FCL_H2F(W, x), &fl);                                                \
    *ip = FCL_F2H(W, fl);                                                                  \
    /* float's bound (1 - 2^-24) rounds to 1 in half; NaN stays NaN */                     \
    return FCL_F2H(W, r > FCL_HALF_ONE_BELOW ? (float##W)FCL_HALF_ONE_BELOW : r);          \
  }                                                                                        \
  FCL_CONST half##W fma(half##W a, half##W b, half##W c) { FCL_HALF_FMA(W) }               \
  FCL_CONST half##W nextafter(half##W x, half##W y) {                                      \
    short##W ix = FCL_AS(short##W, x);                                                     \
    short##W d = ((x < y) ^ (x < (half)0)) ? (short##W)1 : (short##W)-1;                   \
    half##W r = FCL_AS(half##W, (short##W)(ix + d));                                       \
    r = x == (half)0 ? __builtin_elementwise_copysign(FCL_AS(half##W, (short##W)1), y) : r; \
    r = x == y ? y : r;                                                                    \
    return (x != x) | (y != y) ? x + y : r;                                                 \
  }                                                                                        \
  FCL_CONST half##W nan(ushort##W c) { return FCL_AS(half##W, (ushort##W)(c | (ushort)0x7e00)); } \
  FCL_CONST half##W fabs(half##W x) { return __builtin_elementwise_abs(x); }               \
  FCL_CONST half##W ceil(half##W x) { return __builtin_elementwise_ceil(x); }              \
  FCL_CONST half##W floor(half##W x) { return __builtin_elementwise_floor(x); }            \
  FCL_CONST half##W trunc(half##W x) { return __builtin_elementwise_trunc(x); }            \
  FCL_CONST half##W rint(half##W x) { return __builtin_elementwise_rint(x); }              \
  FCL_CONST half##W round(half##W x) { return __builtin_elementwise_round(x); }            \
  FCL_CONST half##W copysign(half##W x, half##W y) { return __builtin_elementwise_copysign(x, y); } \
  FCL_CONST half##W fmax(half##W x, half##W y) { return __builtin_elementwise_max(x, y); } \
  FCL_CONST half##W fmin(half##W x, half##W y) { return __builtin_elementwise_min(x, y); } \
  FCL_CONST half##W maxmag(half##W x, half##W y) {                                         \
    half##W ax = __builtin_elementwise_abs(x), ay = __builtin_elementwise_abs(y);          \
    return ax > ay ? x : ay > ax ? y : __builtin_elementwise_max(x, y);                    \
  }                                                                                        \
  FCL_CONST half##W minmag(half##W x, half##W y) {                                         \
    half##W ax = __builtin_elementwise_abs(x), ay = __builtin_elementwise_abs(y);          \
    return ax < ay ? x : ay < ax ? y : __builtin_elementwise_min(x, y);                    \
  }

/* fma: a*b is exact in double (22 significant bits) and the double sum s is
 * made round-to-odd (its last bit set when the TwoSum error is not zero, so a
 * value beyond it never looks like a tie); rounding that to half is then the
 * correctly rounded a*b + c. */
#define FCL_HALF_FMA(W)                                                                    \
  double##W p = FCL_CVT(W, a, double##W) * FCL_CVT(W, b, double##W);                       \
  double##W q = FCL_CVT(W, c, double##W);                                                  \
  double##W s = p + q;                                                                     \
  double##W pb = s - q;                                                                    \
  double##W e = (p - pb) + (q - (s - pb));                                                 \
  long##W bits = FCL_AS(long##W, s);                                                       \
  long##W sticky = (e != 0.0) & (__builtin_elementwise_abs(s) < INFINITY);                 \
  /* move |s| one ulp towards the exact value when that sets its last bit */               \
  long##W toward = FCL_AS(long##W, e) ^ bits; /* sign bit set: e and s differ in sign */   \
  long##W step = toward < 0L ? (long##W)-1L : (long##W)1L;                                 \
  bits = sticky & ((bits & 1L) == 0L) ? bits + step : bits;                                \
  return FCL_CVT(W, FCL_AS(double##W, bits), half##W);

FCL_WIDTHS(FCL_HALF_MATH, _)

/* Vector overloads with scalar second operands. */
#define FCL_HALF_SCALAR_ARGS(W, _)                                                         \
  FCL_CONST half##W ldexp(half##W x, int n) { return ldexp(x, (int##W)(n)); }              \
  FCL_CONST half##W fmax(half##W x, half y) { return fmax(x, (half##W)(y)); }              \
  FCL_CONST half##W fmin(half##W x, half y) { return fmin(x, (half##W)(y)); }
FCL_VWIDTHS(FCL_HALF_SCALAR_ARGS, _)

/* Out-parameter functions in the other address spaces. */
FCL_ALLW(half, FCL_OUT_ALL)

/* ---- common functions (s6.15.4) --------------------------------------------------- */
#define FCL_HALF_COMMON(W, _)                                                              \
  FCL_CONST float##W mix(float##W, float##W, float##W);                                    \
  FCL_CONST float##W smoothstep(float##W, float##W, float##W);                             \
  FCL_CONST half##W clamp(half##W x, half##W lo, half##W hi) {                             \
    return __builtin_elementwise_min(__builtin_elementwise_max(x, lo), hi);                \
  }                                                                                        \
  FCL_CONST half##W max(half##W x, half##W y) { return __builtin_elementwise_max(x, y); }  \
  FCL_CONST half##W min(half##W x, half##W y) { return __builtin_elementwise_min(x, y); }  \
  FCL_CONST half##W mix(half##W x, half##W y, half##W a) {                                 \
    return FCL_F2H(W, mix(FCL_H2F(W, x), FCL_H2F(W, y), FCL_H2F(W, a)));                   \
  }                                                                                        \
  FCL_CONST half##W step(half##W edge, half##W x) {                                        \
    return x < edge ? (half##W)(half)0 : (half##W)(half)1;                                 \
  }                                                                                        \
  FCL_CONST half##W smoothstep(half##W e0, half##W e1, half##W x) {                        \
    return FCL_F2H(W, smoothstep(FCL_H2F(W, e0), FCL_H2F(W, e1), FCL_H2F(W, x)));          \
  }                                                                                        \
  FCL_CONST half##W sign(half##W x) {                                                      \
    return x > (half)0 ? (half##W)(half)1                                                  \
           : x < (half)0 ? (half##W)(half)-1                                               \
           : x == x      ? x                                                               \
                         : (half##W)(half)0;                                               \
  }
FCL_WIDTHS(FCL_HALF_COMMON, _)
#define FCL_HALF_COMMON_SCALAR(W, _)                                                       \
  FCL_CONST half##W clamp(half##W x, half lo, half hi) {                                   \
    return clamp(x, (half##W)(lo), (half##W)(hi));                                         \
  }                                                                                        \
  FCL_CONST half##W max(half##W x, half y) { return __builtin_elementwise_max(x, (half##W)(y)); } \
  FCL_CONST half##W min(half##W x, half y) { return __builtin_elementwise_min(x, (half##W)(y)); } \
  FCL_CONST half##W mix(half##W x, half##W y, half a) { return mix(x, y, (half##W)(a)); }  \
  FCL_CONST half##W step(half edge, half##W x) { return step((half##W)(edge), x); }        \
  FCL_CONST half##W smoothstep(half e0, half e1, half##W x) {                              \
    return smoothstep((half##W)(e0), (half##W)(e1), x);                                    \
  }
FCL_VWIDTHS(FCL_HALF_COMMON_SCALAR, _)

/* ---- geometric functions (s6.15.5): widths 1-4 ------------------------------------ */
#define FCL_HALF_GEO(W, _)                                                                 \
  FCL_CONST float dot(float##W, float##W);                                                 \
  FCL_CONST float length(float##W);                                                        \
  FCL_CONST float distance(float##W, float##W);                                            \
  FCL_CONST float##W normalize(float##W);                                                  \
  FCL_CONST half dot(half##W p, half##W q) { return (half)dot(FCL_H2F(W, p), FCL_H2F(W, q)); } \
  FCL_CONST half length(half##W p) { return (half)length(FCL_H2F(W, p)); }                 \
  FCL_CONST half distance(half##W p, half##W q) {                                          \
    return (half)distance(FCL_H2F(W, p), FCL_H2F(W, q));                                   \
  }                                                                                        \
  FCL_CONST half##W normalize(half##W p) { return FCL_F2H(W, normalize(FCL_H2F(W, p))); }
FCL_HALF_GEO(, _)
FCL_HALF_GEO(2, _)
FCL_HALF_GEO(3, _)
FCL_HALF_GEO(4, _)
FCL_CONST float3 cross(float3, float3);
FCL_CONST float4 cross(float4, float4);
FCL_CONST half3 cross(half3 a, half3 b) { return convert_half3(cross(convert_float3(a), convert_float3(b))); }
FCL_CONST half4 cross(half4 a, half4 b) { return convert_half4(cross(convert_float4(a), convert_float4(b))); }

/* Geometric functions (OpenCL C 3.0 s6.15.5) for float and double, scalars
 * and vectors of 2, 3 and 4: dot, cross, length, distance, normalize and the
 * fast_* variants (float).
 *
 * float length/normalize are computed in double (no overflow or underflow of
 * the squares, and a correctly rounded result in practice); double ones scale
 * by a power of two first when the largest component is very large or small.
 */
#include "fcl_vec.h"

/* Horizontal sum of a width-W vector. */
#define FCL_HSUM_(v) (v)
#define FCL_HSUM_2(v) ((v).s0 + (v).s1)
#define FCL_HSUM_3(v) ((v).s0 + (v).s1 + (v).s2)
#define FCL_HSUM_4(v) (((v).s0 + (v).s1) + ((v).s2 + (v).s3))
/* Horizontal max. */
#define FCL_HMAX_(v) (v)
#define FCL_HMAX_2(v) __builtin_elementwise_max((v).s0, (v).s1)
#define FCL_HMAX_3(v) __builtin_elementwise_max(__builtin_elementwise_max((v).s0, (v).s1), (v).s2)
#define FCL_HMAX_4(v)                                                                      \
  __builtin_elementwise_max(__builtin_elementwise_max((v).s0, (v).s1),                     \
                            __builtin_elementwise_max((v).s2, (v).s3))
/* Any component non-zero of a comparison result. */
#define FCL_ANY_(c) (c)
#define FCL_ANY_2(c) __builtin_reduce_or(c)
#define FCL_ANY_3(c) __builtin_reduce_or(c)
#define FCL_ANY_4(c) __builtin_reduce_or(c)

#define FCL_GEO_WIDTHS(M, ...) M(, __VA_ARGS__) M(2, __VA_ARGS__) M(3, __VA_ARGS__) M(4, __VA_ARGS__)

#define FCL_GEO(W, S)                                                                      \
  FCL_CONST S dot(S##W p, S##W q) { return FCL_HSUM_##W(p * q); }                          \
  FCL_CONST S length(S##W p) { return FCL_LENGTH_##S(W, p); }                              \
  FCL_CONST S distance(S##W p, S##W q) { return length(p - q); }                           \
  FCL_CONST S##W normalize(S##W p) { FCL_NORMALIZE_##S(W, p) }

#define FCL_LENGTH_float(W, p)                                                             \
  ((float)__builtin_elementwise_sqrt(FCL_HSUM_##W(FCL_CVT(W, p, double##W) *                \
                                                  FCL_CVT(W, p, double##W))))
#define FCL_NORMALIZE_float(W, p)                                                          \
  double##W d = FCL_CVT(W, p, double##W);                                                  \
  /* infinite components count as +-1, the others as +-0 */                                \
  long##W inf = __builtin_elementwise_abs(d) == INFINITY;                                  \
  d = FCL_ANY_##W(inf) ? __builtin_elementwise_copysign(inf ? (double##W)1.0 : (double##W)0.0, d) \
                       : d;                                                                \
  double l2 = FCL_HSUM_##W(d * d);                                                         \
  return l2 == 0.0 ? p : FCL_CVT(W, d / __builtin_elementwise_sqrt(l2), float##W);

/* double: scale by 2^-600 / 2^600 when the largest magnitude is beyond 2^+-500. */
#define FCL_DSCALE(m) ((m) > 0x1p500 ? 0x1p-600 : (m) < 0x1p-500 ? 0x1p600 : 1.0)
#define FCL_LENGTH_double(W, p) fcl_length_d(p)
#define FCL_NORMALIZE_double(W, p)                                                         \
  long##W inf = __builtin_elementwise_abs(p) == INFINITY;                                  \
  double##W d = FCL_ANY_##W(inf)                                                           \
                    ? __builtin_elementwise_copysign(inf ? (double##W)1.0 : (double##W)0.0, p) \
                    : p;                                                                   \
  double m = FCL_HMAX_##W(__builtin_elementwise_abs(d));                                   \
  /* large: scale the largest component to [2, 4) (2^-600 would flush components far    \
     below it whose normalized value is still normal) */                                   \
  double sc = m > 0x1p500 ? __builtin_astype((2047UL - (__builtin_astype(m, ulong) >> 52)) << 52, double) \
                          : FCL_DSCALE(m);                                                 \
  d = d * sc;                                                                              \
  double l2 = FCL_HSUM_##W(d * d);                                                         \
  return l2 == 0.0 ? p : d / __builtin_elementwise_sqrt(l2);

#define FCL_LENGTH_D_HELPER(W, S)                                                          \
  FCL_INLINE double fcl_length_d(double##W p) {                                            \
    double m = FCL_HMAX_##W(__builtin_elementwise_abs(p));                                 \
    double s = FCL_DSCALE(m);                                                              \
    double##W q = p * s;                                                                   \
    return __builtin_elementwise_sqrt(FCL_HSUM_##W(q * q)) / s;                            \
  }
FCL_GEO_WIDTHS(FCL_LENGTH_D_HELPER, double)
FCL_GEO_WIDTHS(FCL_GEO, float)
FCL_GEO_WIDTHS(FCL_GEO, double)

#define FCL_CROSS(S)                                                                       \
  FCL_CONST S##3 cross(S##3 a, S##3 b) {                                                   \
    return (S##3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);    \
  }                                                                                        \
  FCL_CONST S##4 cross(S##4 a, S##4 b) {                                                   \
    return (S##4)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x,     \
                  (S)0);                                                                   \
  }
FCL_CROSS(float)
FCL_CROSS(double)

/* fast_*: float only, plain single precision. */
#define FCL_FAST(W, S)                                                                     \
  FCL_CONST float fast_length(float##W p) { return __builtin_sqrtf(dot(p, p)); }           \
  FCL_CONST float fast_distance(float##W p, float##W q) { return fast_length(p - q); }     \
  FCL_CONST float##W fast_normalize(float##W p) {                                          \
    float l2 = dot(p, p);                                                                  \
    return l2 == 0.0f ? p : p * (1.0f / __builtin_sqrtf(l2));                              \
  }
FCL_GEO_WIDTHS(FCL_FAST, float)

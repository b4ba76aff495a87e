/* Integer functions (OpenCL C 3.0 s6.15.3) for char, uchar, short, ushort, int,
 * uint, long, ulong, scalars and vectors of 2, 3, 4, 8 and 16.
 *
 * Written once per type as expressions valid for both scalars and vectors
 * (scalar char/short arithmetic promotes to int, hence the casts back to T),
 * so vector overloads are vector IR. Constants are cast to the element type
 * because OpenCL forbids mixing a vector with a scalar of greater rank.
 */
#include "fcl_vec.h"

/* ---- functions whose formulation is identical for every width ------------------ */
#define FCL_INT_GENERIC(W, S)                                                              \
  FCL_INT_GENERIC_X(S##W, S, FCL_UTYPE(S), FCL_CAT(FCL_UTYPE(S), W), FCL_BITS_##S,           \
                   FCL_SIGNED_##S, W)

#define FCL_INT_GENERIC_X(...) FCL_INT_GENERIC_(__VA_ARGS__)
#define FCL_INT_GENERIC_(T, S, US, UT, BITS, SIGNED, W)                                    \
  FCL_CONST UT abs(T x) {                                                                  \
    return SIGNED ? FCL_AS(UT, (T)(x < (S)0 ? (T)0 - x : x)) : FCL_AS(UT, x);                     \
  }                                                                                        \
  FCL_CONST UT abs_diff(T x, T y) {                                                        \
    UT ux = FCL_AS(UT, x), uy = FCL_AS(UT, y);                                                   \
    return x > y ? (UT)(ux - uy) : (UT)(uy - ux);                                          \
  }                                                                                        \
  FCL_CONST T add_sat(T x, T y) { FCL_ADD_SAT_##W(T, S, SIGNED) }                          \
  FCL_CONST T sub_sat(T x, T y) { FCL_SUB_SAT_##W(T, S, SIGNED) }                          \
  FCL_CONST T hadd(T x, T y) { return (T)((x >> (S)1) + (y >> (S)1) + (x & y & (S)1)); }   \
  FCL_CONST T rhadd(T x, T y) {                                                            \
    return (T)((x >> (S)1) + (y >> (S)1) + ((x | y) & (S)1));                              \
  }                                                                                        \
  FCL_CONST T max(T x, T y) { return __builtin_elementwise_max(x, y); }                    \
  FCL_CONST T min(T x, T y) { return __builtin_elementwise_min(x, y); }                    \
  FCL_CONST T clamp(T x, T lo, T hi) {                                                     \
    return __builtin_elementwise_min(__builtin_elementwise_max(x, lo), hi);                \
  }                                                                                        \
  FCL_CONST T mad_hi(T a, T b, T c) { return (T)(mul_hi(a, b) + c); }                      \
  FCL_CONST T rotate(T v, T i) {                                                           \
    UT u = FCL_AS(UT, v);                                                                     \
    UT n = FCL_AS(UT, i) & (US)(BITS - 1);                                                    \
    return FCL_AS(T, (UT)((UT)(u << n) | (UT)(u >> ((UT)((US)BITS - n) & (US)(BITS - 1)))));  \
  }

/* Saturating add/sub: the element-wise builtins for vectors; scalars would be
 * promoted to int first, so they use the overflow builtins. */
#define FCL_ADD_SAT_(T, S, SIGNED)                                                         \
  S r;                                                                                     \
  if (__builtin_add_overflow(x, y, &r))                                                    \
    return SIGNED ? (x < (S)0 ? (S)FCL_MIN_##S : (S)FCL_MAX_##S) : (S)FCL_MAX_##S;         \
  return r;
#define FCL_SUB_SAT_(T, S, SIGNED)                                                         \
  S r;                                                                                     \
  if (__builtin_sub_overflow(x, y, &r))                                                    \
    return SIGNED ? (x < (S)0 ? (S)FCL_MIN_##S : (S)FCL_MAX_##S) : (S)0;                   \
  return r;
#define FCL_ADD_SAT_V(T, S, SIGNED) return __builtin_elementwise_add_sat(x, y);
#define FCL_SUB_SAT_V(T, S, SIGNED) return __builtin_elementwise_sub_sat(x, y);
#define FCL_ADD_SAT_2 FCL_ADD_SAT_V
#define FCL_ADD_SAT_3 FCL_ADD_SAT_V
#define FCL_ADD_SAT_4 FCL_ADD_SAT_V
#define FCL_ADD_SAT_8 FCL_ADD_SAT_V
#define FCL_ADD_SAT_16 FCL_ADD_SAT_V
#define FCL_SUB_SAT_2 FCL_SUB_SAT_V
#define FCL_SUB_SAT_3 FCL_SUB_SAT_V
#define FCL_SUB_SAT_4 FCL_SUB_SAT_V
#define FCL_SUB_SAT_8 FCL_SUB_SAT_V
#define FCL_SUB_SAT_16 FCL_SUB_SAT_V

/* Vector overloads of max/min/clamp taking a scalar. */
#define FCL_INT_SCALAR_ARG(W, S)                                                           \
  FCL_CONST S##W max(S##W x, S y) { return __builtin_elementwise_max(x, (S##W)(y)); }      \
  FCL_CONST S##W min(S##W x, S y) { return __builtin_elementwise_min(x, (S##W)(y)); }      \
  FCL_CONST S##W clamp(S##W x, S lo, S hi) {                                               \
    return __builtin_elementwise_min(__builtin_elementwise_max(x, (S##W)(lo)), (S##W)(hi)); \
  }

FCL_INT_TYPES(FCL_ALLW, FCL_INT_GENERIC)

/* ---- clz, ctz, popcount: scalar bit operations, split for vectors ------------- */
/* Counting on the 32/64-bit value: char/short zero-extend and correct. */
#define FCL_BITCOUNT(S, WIDE, CLZ, CTZ, POP, WBITS)                                        \
  FCL_CONST S clz(S x) {                                                                   \
    WIDE w = (WIDE)(FCL_UTYPE(S))x;                                                        \
    return (S)((w == 0 ? WBITS : CLZ(w)) - (WBITS - FCL_BITS_##S));                         \
  }                                                                                        \
  FCL_CONST S ctz(S x) {                                                                   \
    WIDE w = (WIDE)(FCL_UTYPE(S))x;                                                        \
    return (S)(w == 0 ? FCL_BITS_##S : CTZ(w));                                            \
  }                                                                                        \
  FCL_CONST S popcount(S x) { return (S)POP((WIDE)(FCL_UTYPE(S))x); }                       \
  FCL_SPLIT1(FCL_CONST, S, clz, S)                                                         \
  FCL_SPLIT1(FCL_CONST, S, ctz, S)                                                         \
  FCL_SPLIT1(FCL_CONST, S, popcount, S)

FCL_BITCOUNT(char, uint, __builtin_clz, __builtin_ctz, __builtin_popcount, 32)
FCL_BITCOUNT(uchar, uint, __builtin_clz, __builtin_ctz, __builtin_popcount, 32)
FCL_BITCOUNT(short, uint, __builtin_clz, __builtin_ctz, __builtin_popcount, 32)
FCL_BITCOUNT(ushort, uint, __builtin_clz, __builtin_ctz, __builtin_popcount, 32)
FCL_BITCOUNT(int, uint, __builtin_clz, __builtin_ctz, __builtin_popcount, 32)
FCL_BITCOUNT(uint, uint, __builtin_clz, __builtin_ctz, __builtin_popcount, 32)
FCL_BITCOUNT(long, ulong, __builtin_clzl, __builtin_ctzl, __builtin_popcountl, 64)
FCL_BITCOUNT(ulong, ulong, __builtin_clzl, __builtin_ctzl, __builtin_popcountl, 64)

/* ---- mul_hi, mad_sat, upsample: through the double-width type ------------------- */
/* S -> wide type WS (signed or unsigned to match), for 8/16/32-bit elements. */
#define FCL_WIDE_char short
#define FCL_WIDE_uchar ushort
#define FCL_WIDE_short int
#define FCL_WIDE_ushort uint
#define FCL_WIDE_int long
#define FCL_WIDE_uint ulong

#define FCL_MULHI_NARROW(W, S)                                                             \
  FCL_CONST S##W mul_hi(S##W a, S##W b) {                                                  \
    typedef FCL_CAT(FCL_WIDE_##S, W) wide_t;                                               \
    wide_t p = FCL_CVT(W, a, wide_t) * FCL_CVT(W, b, wide_t);                              \
    return FCL_CVT(W, p >> (FCL_WIDE_##S)FCL_BITS_##S, S##W);                              \
  }                                                                                        \
  FCL_CONST S##W mad_sat(S##W a, S##W b, S##W c) {                                         \
    /* |a*b + c| < 2^(2*bits-1): exact in the wide (or, for int, long) type. */            \
    typedef FCL_CAT(FCL_MADW_##S, W) wide_t;                                               \
    wide_t r = FCL_CVT(W, a, wide_t) * FCL_CVT(W, b, wide_t) + FCL_CVT(W, c, wide_t);      \
    r = __builtin_elementwise_min(                                                         \
        __builtin_elementwise_max(r, (wide_t)(FCL_MADW_##S)FCL_MIN_##S),                   \
        (wide_t)(FCL_MADW_##S)FCL_MAX_##S);                                                \
    return FCL_CVT(W, r, S##W);                                                            \
  }
/* mad_sat's intermediate: (2^31)^2 + 2^31 overflows neither long nor ulong. */
#define FCL_MADW_char int
#define FCL_MADW_uchar uint
#define FCL_MADW_short int
#define FCL_MADW_ushort uint
#define FCL_MADW_int long
#define FCL_MADW_uint ulong
/* uchar/ushort products fit in uint, char/short ones in int (mad_sat above uses
 * int/uint; the largest case 65535*65535 + 65535 < 2^32). */

FCL_WIDTHS(FCL_MULHI_NARROW, char)
FCL_WIDTHS(FCL_MULHI_NARROW, uchar)
FCL_WIDTHS(FCL_MULHI_NARROW, short)
FCL_WIDTHS(FCL_MULHI_NARROW, ushort)
FCL_WIDTHS(FCL_MULHI_NARROW, int)
FCL_WIDTHS(FCL_MULHI_NARROW, uint)

/* 64-bit: scalar __int128 arithmetic, split for vectors. */
FCL_CONST long mul_hi(long a, long b) { return (long)(((__int128)a * (__int128)b) >> 64); }
FCL_CONST ulong mul_hi(ulong a, ulong b) {
  return (ulong)(((unsigned __int128)a * (unsigned __int128)b) >> 64);
}
FCL_CONST long mad_sat(long a, long b, long c) {
  __int128 r = (__int128)a * (__int128)b + (__int128)c;
  r = r > (__int128)LONG_MAX ? (__int128)LONG_MAX : r;
  r = r < (__int128)LONG_MIN ? (__int128)LONG_MIN : r;
  return (long)r;
}
FCL_CONST ulong mad_sat(ulong a, ulong b, ulong c) {
  unsigned __int128 r = (unsigned __int128)a * (unsigned __int128)b + (unsigned __int128)c;
  return r > (unsigned __int128)ULONG_MAX ? ULONG_MAX : (ulong)r;
}
FCL_SPLIT2(FCL_CONST, long, mul_hi, long, long)
FCL_SPLIT2(FCL_CONST, ulong, mul_hi, ulong, ulong)
FCL_SPLIT3(FCL_CONST, long, mad_sat, long, long, long)
FCL_SPLIT3(FCL_CONST, ulong, mad_sat, ulong, ulong, ulong)

/* upsample(hi, lo) = hi << bits | lo (lo unsigned). */
#define FCL_UPSAMPLE(W, S, WS)                                                             \
  FCL_CONST WS##W upsample(S##W hi, FCL_CAT(FCL_UTYPE(S), W) lo) {                          \
    return (WS##W)(FCL_CVT(W, hi, WS##W) << (WS)FCL_BITS_##S) |                            \
           FCL_CVT(W, FCL_CVT(W, lo, FCL_CAT(FCL_UTYPE(WS), W)), WS##W);                    \
  }
FCL_WIDTHS(FCL_UPSAMPLE, char, short)
FCL_WIDTHS(FCL_UPSAMPLE, uchar, ushort)
FCL_WIDTHS(FCL_UPSAMPLE, short, int)
FCL_WIDTHS(FCL_UPSAMPLE, ushort, uint)
FCL_WIDTHS(FCL_UPSAMPLE, int, long)
FCL_WIDTHS(FCL_UPSAMPLE, uint, ulong)

/* mul24/mad24: operands are defined only in 24-bit range; a full multiply is
 * exact there. */
#define FCL_MUL24(W, S)                                                                    \
  FCL_CONST S##W mul24(S##W a, S##W b) { return a * b; }                                   \
  FCL_CONST S##W mad24(S##W a, S##W b, S##W c) { return a * b + c; }
FCL_WIDTHS(FCL_MUL24, int)
FCL_WIDTHS(FCL_MUL24, uint)

/* Vector max/min/clamp with a scalar operand. */
FCL_INT_TYPES(FCL_ALLVW, FCL_INT_SCALAR_ARG)

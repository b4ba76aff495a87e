/* FiberCL builtins library: macros that stamp out the vector widths.
 *
 * Conventions: T is a scalar type name (float, int, ...); `T##2` ... `T##16` are
 * its vector types. The FCL_SPLIT* macros define the vector overloads of a
 * builtin whose scalar overload is already declared, by splitting a vector
 * into halves (3 = 2 + 1) until the scalar overload is reached; after
 * inlining this is N scalar operations, which the JIT's optimiser may pack
 * again. Use them only where no vector-wide formulation exists.
 */
#ifndef FIBERCL_BUILTINS_VEC_H
#define FIBERCL_BUILTINS_VEC_H

#include "fcl_internal.h"

#define FCL_CAT_(a, b) a##b
#define FCL_CAT(a, b) FCL_CAT_(a, b)
/* as_<type>(x) for any type name, typedefs included. */
#define FCL_AS(T, x) __builtin_astype((x), T)

/* M(suffix) for the scalar (empty suffix) and every vector width. */
#define FCL_WIDTHS(M, ...)                                                                 \
  M(, __VA_ARGS__) M(2, __VA_ARGS__) M(3, __VA_ARGS__) M(4, __VA_ARGS__)                    \
  M(8, __VA_ARGS__) M(16, __VA_ARGS__)
#define FCL_VWIDTHS(M, ...)                                                                \
  M(2, __VA_ARGS__) M(3, __VA_ARGS__) M(4, __VA_ARGS__) M(8, __VA_ARGS__) M(16, __VA_ARGS__)

/* For type-list macros: FCL_INT_TYPES(FCL_ALLW, M) calls M(W, T) for every type
 * and width (FCL_ALLVW: vector widths only). */
#define FCL_ALLW(T, M) FCL_WIDTHS(M, T)
#define FCL_ALLVW(T, M) FCL_VWIDTHS(M, T)

#define FCL_INT_TYPES(M, ...)                                                              \
  M(char, __VA_ARGS__) M(uchar, __VA_ARGS__) M(short, __VA_ARGS__)                         \
  M(ushort, __VA_ARGS__) M(int, __VA_ARGS__) M(uint, __VA_ARGS__) M(long, __VA_ARGS__)     \
  M(ulong, __VA_ARGS__)
#define FCL_FLOAT_TYPES(M, ...) M(float, __VA_ARGS__) M(double, __VA_ARGS__)

/* Unsigned / signed counterpart of each scalar type. */
#define FCL_U_char uchar
#define FCL_U_uchar uchar
#define FCL_U_short ushort
#define FCL_U_ushort ushort
#define FCL_U_int uint
#define FCL_U_uint uint
#define FCL_U_long ulong
#define FCL_U_ulong ulong
#define FCL_S_char char
#define FCL_S_uchar char
#define FCL_S_short short
#define FCL_S_ushort short
#define FCL_S_int int
#define FCL_S_uint int
#define FCL_S_long long
#define FCL_S_ulong long
#define FCL_S_float int
#define FCL_S_double long
#define FCL_S_half short
#define FCL_U_float uint
#define FCL_U_double ulong
#define FCL_U_half ushort
#define FCL_UTYPE(T) FCL_CAT(FCL_U_, T)
#define FCL_STYPE(T) FCL_CAT(FCL_S_, T)
/* Bits per element. */
#define FCL_BITS_char 8
#define FCL_BITS_uchar 8
#define FCL_BITS_short 16
#define FCL_BITS_ushort 16
#define FCL_BITS_int 32
#define FCL_BITS_uint 32
#define FCL_BITS_long 64
#define FCL_BITS_ulong 64
#define FCL_BITS_float 32
#define FCL_BITS_double 64
#define FCL_BITS_half 16
/* 1 for signed integer types. */
#define FCL_SIGNED_char 1
#define FCL_SIGNED_uchar 0
#define FCL_SIGNED_short 1
#define FCL_SIGNED_ushort 0
#define FCL_SIGNED_int 1
#define FCL_SIGNED_uint 0
#define FCL_SIGNED_long 1
#define FCL_SIGNED_ulong 0
/* Limits. */
#define FCL_MIN_char CHAR_MIN
#define FCL_MAX_char CHAR_MAX
#define FCL_MIN_uchar 0
#define FCL_MAX_uchar UCHAR_MAX
#define FCL_MIN_short SHRT_MIN
#define FCL_MAX_short SHRT_MAX
#define FCL_MIN_ushort 0
#define FCL_MAX_ushort USHRT_MAX
#define FCL_MIN_int INT_MIN
#define FCL_MAX_int INT_MAX
#define FCL_MIN_uint 0
#define FCL_MAX_uint UINT_MAX
#define FCL_MIN_long LONG_MIN
#define FCL_MAX_long LONG_MAX
#define FCL_MIN_ulong 0
#define FCL_MAX_ulong ULONG_MAX

/* Element-type conversion that works for scalars and vectors: the vector form
 * needs __builtin_convertvector, the scalar one a cast. W is the width suffix. */
#define FCL_CVT_(x, T) ((T)(x))
#define FCL_CVT_2(x, T) __builtin_convertvector((x), T)
#define FCL_CVT_3(x, T) __builtin_convertvector((x), T)
#define FCL_CVT_4(x, T) __builtin_convertvector((x), T)
#define FCL_CVT_8(x, T) __builtin_convertvector((x), T)
#define FCL_CVT_16(x, T) __builtin_convertvector((x), T)
#define FCL_CVT(W, x, T) FCL_CVT_##W(x, T)
/* A comparison result turned into an all-ones / zero mask of integer type T:
 * scalar comparisons give 1/0, vector ones -1/0 of the operands' element size. */
#define FCL_MASK_(c, T) ((T)(-(c)))
#define FCL_MASK_2(c, T) __builtin_convertvector((c), T)
#define FCL_MASK_3(c, T) __builtin_convertvector((c), T)
#define FCL_MASK_4(c, T) __builtin_convertvector((c), T)
#define FCL_MASK_8(c, T) __builtin_convertvector((c), T)
#define FCL_MASK_16(c, T) __builtin_convertvector((c), T)
#define FCL_MASK(W, c, T) FCL_MASK_##W(c, T)
/* A boolean result in OpenCL form: scalar 1/0 (int), vector -1/0. */

/* Vector overloads by splitting, for 1, 2 and 3 arguments. R = result element
 * type, A/B/C = argument element types. */
#define FCL_SPLIT1(ATTR, R, NAME, A)                                                       \
  ATTR R##2 NAME(A##2 x) { return (R##2)(NAME(x.s0), NAME(x.s1)); }                        \
  ATTR R##3 NAME(A##3 x) { return (R##3)(NAME(x.s01), NAME(x.s2)); }                       \
  ATTR R##4 NAME(A##4 x) { return (R##4)(NAME(x.lo), NAME(x.hi)); }                        \
  ATTR R##8 NAME(A##8 x) { return (R##8)(NAME(x.lo), NAME(x.hi)); }                        \
  ATTR R##16 NAME(A##16 x) { return (R##16)(NAME(x.lo), NAME(x.hi)); }

#define FCL_SPLIT2(ATTR, R, NAME, A, B)                                                    \
  ATTR R##2 NAME(A##2 x, B##2 y) { return (R##2)(NAME(x.s0, y.s0), NAME(x.s1, y.s1)); }    \
  ATTR R##3 NAME(A##3 x, B##3 y) { return (R##3)(NAME(x.s01, y.s01), NAME(x.s2, y.s2)); }  \
  ATTR R##4 NAME(A##4 x, B##4 y) { return (R##4)(NAME(x.lo, y.lo), NAME(x.hi, y.hi)); }    \
  ATTR R##8 NAME(A##8 x, B##8 y) { return (R##8)(NAME(x.lo, y.lo), NAME(x.hi, y.hi)); }    \
  ATTR R##16 NAME(A##16 x, B##16 y) { return (R##16)(NAME(x.lo, y.lo), NAME(x.hi, y.hi)); }

/* Second argument scalar (e.g. ldexp(floatn, int)): broadcast. */
#define FCL_SPLIT2_SCALAR(ATTR, R, NAME, A, B)                                             \
  ATTR R##2 NAME(A##2 x, B y) { return NAME(x, (B##2)(y)); }                               \
  ATTR R##3 NAME(A##3 x, B y) { return NAME(x, (B##3)(y)); }                               \
  ATTR R##4 NAME(A##4 x, B y) { return NAME(x, (B##4)(y)); }                               \
  ATTR R##8 NAME(A##8 x, B y) { return NAME(x, (B##8)(y)); }                               \
  ATTR R##16 NAME(A##16 x, B y) { return NAME(x, (B##16)(y)); }

#define FCL_SPLIT3(ATTR, R, NAME, A, B, C)                                                 \
  ATTR R##2 NAME(A##2 x, B##2 y, C##2 z) {                                                 \
    return (R##2)(NAME(x.s0, y.s0, z.s0), NAME(x.s1, y.s1, z.s1));                         \
  }                                                                                        \
  ATTR R##3 NAME(A##3 x, B##3 y, C##3 z) {                                                 \
    return (R##3)(NAME(x.s01, y.s01, z.s01), NAME(x.s2, y.s2, z.s2));                      \
  }                                                                                        \
  ATTR R##4 NAME(A##4 x, B##4 y, C##4 z) {                                                 \
    return (R##4)(NAME(x.lo, y.lo, z.lo), NAME(x.hi, y.hi, z.hi));                         \
  }                                                                                        \
  ATTR R##8 NAME(A##8 x, B##8 y, C##8 z) {                                                 \
    return (R##8)(NAME(x.lo, y.lo, z.lo), NAME(x.hi, y.hi, z.hi));                         \
  }                                                                                        \
  ATTR R##16 NAME(A##16 x, B##16 y, C##16 z) {                                             \
    return (R##16)(NAME(x.lo, y.lo, z.lo), NAME(x.hi, y.hi, z.hi));                        \
  }

/* Builtins with a pointer out-parameter, R NAME(A x, AS P *out): the __private
 * overload is the implementation (split into halves for vectors); the other
 * address spaces go through a private temporary. */
#define FCL_SPLIT_OUT(ATTR, R, NAME, A, P)                                                 \
  ATTR R##2 NAME(A##2 x, __private P##2 *o) {                                              \
    P a, b;                                                                                \
    R r0 = NAME(x.s0, &a), r1 = NAME(x.s1, &b);                                            \
    *o = (P##2)(a, b);                                                                     \
    return (R##2)(r0, r1);                                                                 \
  }                                                                                        \
  ATTR R##3 NAME(A##3 x, __private P##3 *o) {                                              \
    P##2 a;                                                                                \
    P b;                                                                                   \
    R##2 r0 = NAME(x.s01, &a);                                                             \
    R r1 = NAME(x.s2, &b);                                                                 \
    *o = (P##3)(a, b);                                                                     \
    return (R##3)(r0, r1);                                                                 \
  }                                                                                        \
  FCL_SPLIT_OUT_HALF(ATTR, R, NAME, A, P, 4, 2)                                            \
  FCL_SPLIT_OUT_HALF(ATTR, R, NAME, A, P, 8, 4)                                            \
  FCL_SPLIT_OUT_HALF(ATTR, R, NAME, A, P, 16, 8)
#define FCL_SPLIT_OUT_HALF(ATTR, R, NAME, A, P, N, H)                                      \
  ATTR R##N NAME(A##N x, __private P##N *o) {                                              \
    P##H a, b;                                                                             \
    R##H r0 = NAME(x.lo, &a), r1 = NAME(x.hi, &b);                                         \
    *o = (P##N)(a, b);                                                                     \
    return (R##N)(r0, r1);                                                                 \
  }

/* Same for two value arguments and an out-parameter (remquo). */
#define FCL_SPLIT2_OUT(ATTR, R, NAME, A, P)                                                \
  ATTR R##2 NAME(A##2 x, A##2 y, __private P##2 *o) {                                      \
    P a, b;                                                                                \
    R r0 = NAME(x.s0, y.s0, &a), r1 = NAME(x.s1, y.s1, &b);                                \
    *o = (P##2)(a, b);                                                                     \
    return (R##2)(r0, r1);                                                                 \
  }                                                                                        \
  ATTR R##3 NAME(A##3 x, A##3 y, __private P##3 *o) {                                      \
    P##2 a;                                                                                \
    P b;                                                                                   \
    R##2 r0 = NAME(x.s01, y.s01, &a);                                                      \
    R r1 = NAME(x.s2, y.s2, &b);                                                           \
    *o = (P##3)(a, b);                                                                     \
    return (R##3)(r0, r1);                                                                 \
  }                                                                                        \
  FCL_SPLIT2_OUT_HALF(ATTR, R, NAME, A, P, 4, 2)                                           \
  FCL_SPLIT2_OUT_HALF(ATTR, R, NAME, A, P, 8, 4)                                           \
  FCL_SPLIT2_OUT_HALF(ATTR, R, NAME, A, P, 16, 8)
#define FCL_SPLIT2_OUT_HALF(ATTR, R, NAME, A, P, N, H)                                     \
  ATTR R##N NAME(A##N x, A##N y, __private P##N *o) {                                      \
    P##H a, b;                                                                             \
    R##H r0 = NAME(x.lo, y.lo, &a), r1 = NAME(x.hi, y.hi, &b);                             \
    *o = (P##N)(a, b);                                                                     \
    return (R##N)(r0, r1);                                                                 \
  }

/* The non-private address spaces of an out-parameter builtin, for one full type
 * (scalar or vector) RT NAME(AT x, AS PT *o), via a private temporary. */
#define FCL_OUT_AS1(ATTR, RT, NAME, AT, PT, AS)                                            \
  ATTR RT NAME(AT x, AS PT *o) {                                                           \
    PT t;                                                                                  \
    RT r = NAME(x, &t);                                                                    \
    *o = t;                                                                                \
    return r;                                                                              \
  }
#define FCL_OUT2_AS1(ATTR, RT, NAME, AT, PT, AS)                                           \
  ATTR RT NAME(AT x, AT y, AS PT *o) {                                                     \
    PT t;                                                                                  \
    RT r = NAME(x, y, &t);                                                                 \
    *o = t;                                                                                \
    return r;                                                                              \
  }
#ifdef __opencl_c_generic_address_space
#define FCL_OUT_SPACES(M, ...)                                                             \
  M(__VA_ARGS__, __global) M(__VA_ARGS__, __local) M(__VA_ARGS__, __generic)
#else
#define FCL_OUT_SPACES(M, ...) M(__VA_ARGS__, __global) M(__VA_ARGS__, __local)
#endif

/* Every non-private address space of the out-parameter math functions of floating
 * type S, width W (the __private overloads are the implementations). */
#define FCL_OUT_ALL(W, S)                                                                  \
  FCL_OUT_SPACES(FCL_OUT_AS1, FCL_OVL, S##W, fract, S##W, S##W)                            \
  FCL_OUT_SPACES(FCL_OUT_AS1, FCL_OVL, S##W, modf, S##W, S##W)                             \
  FCL_OUT_SPACES(FCL_OUT_AS1, FCL_OVL, S##W, sincos, S##W, S##W)                           \
  FCL_OUT_SPACES(FCL_OUT_AS1, FCL_OVL, S##W, frexp, S##W, int##W)                          \
  FCL_OUT_SPACES(FCL_OUT_AS1, FCL_OVL, S##W, lgamma_r, S##W, int##W)                       \
  FCL_OUT_SPACES(FCL_OUT2_AS1, FCL_OVL, S##W, remquo, S##W, int##W)

#endif

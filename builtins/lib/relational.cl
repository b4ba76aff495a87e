/* Relational functions (OpenCL C 3.0 s6.15.6).
 *
 * OpenCL's comparison operators already give the required results: 1/0 (int)
 * for scalars, -1/0 of the element size for vectors, so every predicate is one
 * expression valid for both. select and bitselect likewise.
 */
#include "fcl_vec.h"

#define FCL_REL(W, S)                                                                      \
  FCL_REL_X(S##W, S, FCL_CAT(FCL_CAT(FCL_S_, S), W), FCL_CAT(FCL_CAT(FCL_U_, S), W), W)
#define FCL_REL_X(...) FCL_REL_(__VA_ARGS__)
/* T: the float type; IT/UT: integer types of the same shape (the vector result
 * type; scalars return int). */
#define FCL_REL_(T, S, IT, UT, W)                                                          \
  FCL_CONST FCL_RES_##W(IT) isequal(T x, T y) { return x == y; }                           \
  FCL_CONST FCL_RES_##W(IT) isnotequal(T x, T y) { return x != y; }                        \
  FCL_CONST FCL_RES_##W(IT) isgreater(T x, T y) { return x > y; }                          \
  FCL_CONST FCL_RES_##W(IT) isgreaterequal(T x, T y) { return x >= y; }                    \
  FCL_CONST FCL_RES_##W(IT) isless(T x, T y) { return x < y; }                             \
  FCL_CONST FCL_RES_##W(IT) islessequal(T x, T y) { return x <= y; }                       \
  FCL_CONST FCL_RES_##W(IT) islessgreater(T x, T y) { return (x < y) | (x > y); }          \
  FCL_CONST FCL_RES_##W(IT) isfinite(T x) { return __builtin_elementwise_abs(x) < (S)INFINITY; } \
  FCL_CONST FCL_RES_##W(IT) isinf(T x) { return __builtin_elementwise_abs(x) == (S)INFINITY; } \
  FCL_CONST FCL_RES_##W(IT) isnan(T x) { return x != x; }                                  \
  FCL_CONST FCL_RES_##W(IT) isnormal(T x) {                                                \
    T a = __builtin_elementwise_abs(x);                                                    \
    return (a >= FCL_MIN_NORMAL_##S) & (a < (S)INFINITY);                                  \
  }                                                                                        \
  FCL_CONST FCL_RES_##W(IT) isordered(T x, T y) { return (x == x) & (y == y); }            \
  FCL_CONST FCL_RES_##W(IT) isunordered(T x, T y) { return (x != x) | (y != y); }          \
  FCL_CONST FCL_RES_##W(IT) signbit(T x) { return FCL_AS(IT, x) < (FCL_S_##S)0; }          \
  FCL_CONST T bitselect(T a, T b, T c) {                                                   \
    /* (UT): ushort operands are promoted to int */                                      \
    return FCL_AS(T, (UT)((FCL_AS(UT, a) & ~FCL_AS(UT, c)) | (FCL_AS(UT, b) & FCL_AS(UT, c)))); \
  }                                                                                        \
  FCL_CONST T select(T a, T b, IT c) { return FCL_SELECT_##W(a, b, c, IT); }               \
  FCL_CONST T select(T a, T b, UT c) { return FCL_SELECT_##W(a, b, c, IT); }
#define FCL_MIN_NORMAL_float FLT_MIN
#define FCL_MIN_NORMAL_double DBL_MIN
#define FCL_MIN_NORMAL_half ((half)0x1p-14f)

/* Scalar predicates return int, vector ones the signed integer vector. */
#define FCL_RES_(IT) int
#define FCL_RES_2(IT) IT
#define FCL_RES_3(IT) IT
#define FCL_RES_4(IT) IT
#define FCL_RES_8(IT) IT
#define FCL_RES_16(IT) IT

/* select: scalar c != 0; vector: most significant bit of each component. */
#define FCL_SELECT_(a, b, c, IT) ((c) ? (b) : (a))
#define FCL_SELECT_V(a, b, c, IT) (FCL_AS(IT, c) < (IT)0 ? (b) : (a))
#define FCL_SELECT_2 FCL_SELECT_V
#define FCL_SELECT_3 FCL_SELECT_V
#define FCL_SELECT_4 FCL_SELECT_V
#define FCL_SELECT_8 FCL_SELECT_V
#define FCL_SELECT_16 FCL_SELECT_V

FCL_FLOAT_TYPES(FCL_ALLW, FCL_REL)
FCL_ALLW(half, FCL_REL) /* cl_khr_fp16: predicates return short vectors */

/* Integer types: bitselect, select; any/all on signed types (MSB test). */
#define FCL_REL_INT(W, S)                                                                  \
  FCL_REL_INT_X(S##W, S, FCL_CAT(FCL_CAT(FCL_S_, S), W), FCL_CAT(FCL_CAT(FCL_U_, S), W), W)
#define FCL_REL_INT_X(...) FCL_REL_INT_(__VA_ARGS__)
#define FCL_REL_INT_(T, S, IT, UT, W)                                                      \
  FCL_CONST T bitselect(T a, T b, T c) { return (T)((a & ~c) | (b & c)); }                 \
  FCL_CONST T select(T a, T b, IT c) { return FCL_SELECT_##W(a, b, c, IT); }               \
  FCL_CONST T select(T a, T b, UT c) { return FCL_SELECT_##W(a, b, c, IT); }
FCL_INT_TYPES(FCL_ALLW, FCL_REL_INT)

#define FCL_ANYALL(S)                                                                      \
  FCL_CONST int any(S x) { return x < (S)0; }                                              \
  FCL_CONST int all(S x) { return x < (S)0; }                                              \
  FCL_ANYALL_V(S, 2) FCL_ANYALL_V(S, 3) FCL_ANYALL_V(S, 4) FCL_ANYALL_V(S, 8) FCL_ANYALL_V(S, 16)
#define FCL_ANYALL_V(S, N)                                                                 \
  FCL_CONST int any(S##N x) { return __builtin_reduce_or(x) < (S)0; }                      \
  FCL_CONST int all(S##N x) { return __builtin_reduce_and(x) < (S)0; }
FCL_ANYALL(char)
FCL_ANYALL(short)
FCL_ANYALL(int)
FCL_ANYALL(long)

/* shuffle and shuffle2 (OpenCL C 3.0 s6.15.13) for every element type, input
 * and result widths 2, 4, 8, 16. Only the low log2(width) (shuffle2:
 * log2(2*width)) bits of each mask component are used, as specified. With a
 * constant mask, the unrolled loop folds into one shufflevector. */
#include "fcl_vec.h"

#define FCL_MASKT_char uchar
#define FCL_MASKT_uchar uchar
#define FCL_MASKT_short ushort
#define FCL_MASKT_ushort ushort
#define FCL_MASKT_int uint
#define FCL_MASKT_uint uint
#define FCL_MASKT_long ulong
#define FCL_MASKT_ulong ulong
#define FCL_MASKT_float uint
#define FCL_MASKT_double ulong
#define FCL_MASKT_half ushort

#define FCL_SHUFFLE_MN(T, M, N, U)                                                         \
  FCL_CONST T##N shuffle(T##M x, U##N mask) {                                              \
    T##N r;                                                                                \
    for (int i = 0; i < N; ++i)                                                            \
      r[i] = x[mask[i] & (U)(M - 1)];                                                      \
    return r;                                                                              \
  }                                                                                        \
  FCL_CONST T##N shuffle2(T##M x, T##M y, U##N mask) {                                     \
    T##N r;                                                                                \
    for (int i = 0; i < N; ++i) {                                                          \
      U k = mask[i] & (U)(2 * M - 1);                                                      \
      r[i] = k < (U)M ? x[k] : y[k - (U)M];                                                \
    }                                                                                      \
    return r;                                                                              \
  }
#define FCL_SHUFFLE_M(T, M, U)                                                             \
  FCL_SHUFFLE_MN(T, M, 2, U) FCL_SHUFFLE_MN(T, M, 4, U) FCL_SHUFFLE_MN(T, M, 8, U)         \
  FCL_SHUFFLE_MN(T, M, 16, U)
#define FCL_SHUFFLE_T(T, _)                                                                \
  FCL_SHUFFLE_M(T, 2, FCL_MASKT_##T) FCL_SHUFFLE_M(T, 4, FCL_MASKT_##T)                    \
  FCL_SHUFFLE_M(T, 8, FCL_MASKT_##T) FCL_SHUFFLE_M(T, 16, FCL_MASKT_##T)
FCL_INT_TYPES(FCL_SHUFFLE_T, _)
FCL_FLOAT_TYPES(FCL_SHUFFLE_T, _)
FCL_SHUFFLE_T(half, _)

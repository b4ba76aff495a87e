/* Common functions (OpenCL C 3.0 s6.15.4) for float and double, scalars and
 * vectors: clamp, degrees, max, min, mix, radians, step, smoothstep, sign.
 * Every body is a vector-wide expression. */
#include "fcl_vec.h"

#define FCL_COMMON(W, S)                                                                   \
  FCL_CONST S##W clamp(S##W x, S##W lo, S##W hi) {                                         \
    return __builtin_elementwise_min(__builtin_elementwise_max(x, lo), hi);                \
  }                                                                                        \
  FCL_CONST S##W degrees(S##W r) { return r * (S)(180.0 / M_PI); }                         \
  FCL_CONST S##W radians(S##W d) { return d * (S)(M_PI / 180.0); }                         \
  FCL_CONST S##W max(S##W x, S##W y) { return __builtin_elementwise_max(x, y); }           \
  FCL_CONST S##W min(S##W x, S##W y) { return __builtin_elementwise_min(x, y); }           \
  FCL_CONST S##W mix(S##W x, S##W y, S##W a) { return x + (y - x) * a; }                   \
  FCL_CONST S##W step(S##W edge, S##W x) { return x < edge ? (S##W)(S)0 : (S##W)(S)1; }    \
  FCL_CONST S##W smoothstep(S##W e0, S##W e1, S##W x) {                                    \
    S##W t = __builtin_elementwise_min(                                                    \
        __builtin_elementwise_max((x - e0) / (e1 - e0), (S##W)(S)0), (S##W)(S)1);          \
    return t * t * ((S)3 - (S)2 * t);                                                      \
  }                                                                                        \
  /* 1 / -1 for x > 0 / x < 0; +-0 for +-0; 0 for NaN. */                                  \
  FCL_CONST S##W sign(S##W x) {                                                            \
    return x > (S)0 ? (S##W)(S)1 : x < (S)0 ? (S##W)(S)-1 : x == x ? x : (S##W)(S)0;       \
  }

/* Vector overloads taking scalar bounds / factors / edges. */
#define FCL_COMMON_SCALAR(W, S)                                                            \
  FCL_CONST S##W clamp(S##W x, S lo, S hi) { return clamp(x, (S##W)(lo), (S##W)(hi)); }    \
  FCL_CONST S##W max(S##W x, S y) { return __builtin_elementwise_max(x, (S##W)(y)); }      \
  FCL_CONST S##W min(S##W x, S y) { return __builtin_elementwise_min(x, (S##W)(y)); }      \
  FCL_CONST S##W mix(S##W x, S##W y, S a) { return x + (y - x) * a; }                      \
  FCL_CONST S##W step(S edge, S##W x) { return step((S##W)(edge), x); }                    \
  FCL_CONST S##W smoothstep(S e0, S e1, S##W x) {                                          \
    return smoothstep((S##W)(e0), (S##W)(e1), x);                                          \
  }

FCL_FLOAT_TYPES(FCL_ALLW, FCL_COMMON)
FCL_FLOAT_TYPES(FCL_ALLVW, FCL_COMMON_SCALAR)

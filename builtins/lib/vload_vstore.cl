/* Vector data load and store functions (OpenCL C 3.0 s6.15.11): vloadN /
 * vstoreN for every scalar element type, vload_half[N], vloada_half[N],
 * vstore_half[N][_rte|_rtz|_rtp|_rtn], vstorea_half[N][...], in every address
 * space (named ones for OpenCL C 1.2 callers, generic for 2.0+).
 *
 * vloadN/vstoreN only require element alignment: they go through vector types
 * with element alignment. 3-element accesses touch exactly three elements.
 * half values are handled as their bit patterns (cl_khr_fp16 is not needed):
 * the conversions are exact bit manipulations, vector-wide, and round as the
 * suffix says (default: to nearest even).
 */
#include "fcl_vec.h"

/* Element-aligned vector types. */
#define FCL_UA_TYPES(W, T) typedef T##W __attribute__((aligned(sizeof(T)))) fcl_ua_##T##W;
#define FCL_UA_ALL(T, _) FCL_UA_TYPES(2, T) FCL_UA_TYPES(4, T) FCL_UA_TYPES(8, T) FCL_UA_TYPES(16, T)
FCL_INT_TYPES(FCL_UA_ALL, _)
FCL_FLOAT_TYPES(FCL_UA_ALL, _)
FCL_UA_ALL(half, _)

#ifdef __opencl_c_generic_address_space
#define FCL_LOAD_SPACES(M, ...)                                                            \
  M(__VA_ARGS__, __global) M(__VA_ARGS__, __local) M(__VA_ARGS__, __private)               \
  M(__VA_ARGS__, __constant) M(__VA_ARGS__, __generic)
#define FCL_STORE_SPACES(M, ...)                                                           \
  M(__VA_ARGS__, __global) M(__VA_ARGS__, __local) M(__VA_ARGS__, __private)               \
  M(__VA_ARGS__, __generic)
#else
#define FCL_LOAD_SPACES(M, ...)                                                            \
  M(__VA_ARGS__, __global) M(__VA_ARGS__, __local) M(__VA_ARGS__, __private)               \
  M(__VA_ARGS__, __constant)
#define FCL_STORE_SPACES(M, ...)                                                           \
  M(__VA_ARGS__, __global) M(__VA_ARGS__, __local) M(__VA_ARGS__, __private)
#endif

/* ---- vloadN / vstoreN ------------------------------------------------------------ */
#define FCL_VLOAD_N(N, T, AS)                                                              \
  FCL_PURE T##N vload##N(size_t i, const AS T *p) {                                        \
    return *(const AS fcl_ua_##T##N *)(p + i * N);                                         \
  }                                                                                        \
  FCL_OVL void vstore##N(T##N v, size_t i, AS T *p) { *(AS fcl_ua_##T##N *)(p + i * N) = v; }
#define FCL_VLOAD3(T, AS)                                                                  \
  FCL_PURE T##3 vload3(size_t i, const AS T *p) {                                          \
    const AS T *q = p + i * 3;                                                             \
    return (T##3)(q[0], q[1], q[2]);                                                       \
  }
#define FCL_VSTORE3(T, AS)                                                                 \
  FCL_OVL void vstore3(T##3 v, size_t i, AS T *p) {                                        \
    AS T *q = p + i * 3;                                                                   \
    q[0] = v.s0;                                                                           \
    q[1] = v.s1;                                                                           \
    q[2] = v.s2;                                                                           \
  }
#define FCL_VLOAD_ONLY(N, T, AS)                                                           \
  FCL_PURE T##N vload##N(size_t i, const AS T *p) {                                        \
    return *(const AS fcl_ua_##T##N *)(p + i * N);                                         \
  }
#define FCL_VSTORE_ONLY(N, T, AS)                                                          \
  FCL_OVL void vstore##N(T##N v, size_t i, AS T *p) { *(AS fcl_ua_##T##N *)(p + i * N) = v; }

#define FCL_VLS_TYPE(T, _)                                                                 \
  FCL_LOAD_SPACES(FCL_VLOAD_ONLY, 2, T) FCL_LOAD_SPACES(FCL_VLOAD_ONLY, 4, T)              \
  FCL_LOAD_SPACES(FCL_VLOAD_ONLY, 8, T) FCL_LOAD_SPACES(FCL_VLOAD_ONLY, 16, T)             \
  FCL_LOAD_SPACES(FCL_VLOAD3, T)                                                           \
  FCL_STORE_SPACES(FCL_VSTORE_ONLY, 2, T) FCL_STORE_SPACES(FCL_VSTORE_ONLY, 4, T)          \
  FCL_STORE_SPACES(FCL_VSTORE_ONLY, 8, T) FCL_STORE_SPACES(FCL_VSTORE_ONLY, 16, T)         \
  FCL_STORE_SPACES(FCL_VSTORE3, T)
FCL_INT_TYPES(FCL_VLS_TYPE, _)
FCL_FLOAT_TYPES(FCL_VLS_TYPE, _)
FCL_VLS_TYPE(half, _) /* cl_khr_fp16 */

/* ---- half <-> float bit conversions (vector-wide) ------------------------------- */
#define FCL_RTE 0
#define FCL_RTZ 1
#define FCL_RTP 2
#define FCL_RTN 3

#define FCL_HALF_CVT(W, _)                                                                 \
  /* half bits -> float, exact */                                                          \
  FCL_INLINE float##W fcl_h2f(ushort##W h) {                                               \
    uint##W u = FCL_CVT(W, h, uint##W);                                                    \
    uint##W em = u & 0x7fffu;                                                              \
    float##W f = em < 0x400u ? FCL_CVT(W, em, float##W) * 0x1p-24f                         \
                             : FCL_AS(float##W, (em << 13) + 0x38000000u);                 \
    f = em >= 0x7c00u ? FCL_AS(float##W, (em << 13) | 0x7f800000u) : f;                    \
    return FCL_AS(float##W, FCL_AS(uint##W, f) | ((u & 0x8000u) << 16));                   \
  }                                                                                        \
  /* float -> half bits with rounding `mode` (a constant after inlining) */                \
  FCL_INLINE ushort##W fcl_f2h(float##W x, int mode) {                                     \
    uint##W u = FCL_AS(uint##W, x);                                                        \
    uint##W a = u & 0x7fffffffu;                                                           \
    uint##W neg = u >> 31;                                                                 \
    /* lanes rounding away from zero for directed modes */                                 \
    uint##W away = mode == FCL_RTP   ? FCL_CVT(W, neg == 0u, uint##W)                      \
                  : mode == FCL_RTN ? FCL_CVT(W, neg != 0u, uint##W)                      \
                                    : (uint##W)0u; \
    uint##W inc = mode == FCL_RTE ? 0xfffu + ((a >> 13) & 1u) : away ? 0x1fffu : (uint##W)0u; \
    uint##W hn = (a - 0x38000000u + inc) >> 13;                                            \
    uint##W ovf = mode == FCL_RTE ? (uint##W)0x7c00u : away ? 0x7c00u : (uint##W)0x7bffu;  \
    hn = hn >= 0x7c00u ? ovf : hn;                                                         \
    float##W q = FCL_AS(float##W, a) * 0x1p24f; /* exact below 2^-14 */                    \
    float##W qr = mode == FCL_RTE ? __builtin_elementwise_rint(q)                          \
                  : mode == FCL_RTZ ? __builtin_elementwise_trunc(q)                       \
                                    : (FCL_AS(int##W, away) != 0 ? __builtin_elementwise_ceil(q) \
                                                                 : __builtin_elementwise_trunc(q)); \
    uint##W hd = FCL_CVT(W, qr, uint##W);                                                  \
    uint##W h = a < 0x38800000u ? hd : hn;                                                 \
    h = a == 0x7f800000u ? (uint##W)0x7c00u : h;                                           \
    h = a > 0x7f800000u ? 0x7e00u | ((a >> 13) & 0x3ffu) : h;                              \
    return FCL_CVT(W, h | ((u >> 16) & 0x8000u), ushort##W);                               \
  }                                                                                        \
  /* double -> half bits, rounding directly from double */                                 \
  FCL_INLINE ushort##W fcl_d2h(double##W x, int mode) {                                    \
    ulong##W u = FCL_AS(ulong##W, x);                                                      \
    ulong##W a = u & 0x7fffffffffffffffUL;                                                 \
    ulong##W neg = u >> 63;                                                                \
    ulong##W away = mode == FCL_RTP   ? FCL_CVT(W, neg == 0UL, ulong##W)                  \
                   : mode == FCL_RTN ? FCL_CVT(W, neg != 0UL, ulong##W)                  \
                                     : (ulong##W)0UL; \
    ulong##W inc = mode == FCL_RTE ? 0x1ffffffffffUL + ((a >> 42) & 1UL)                   \
                   : away          ? 0x3ffffffffffUL                                       \
                                   : (ulong##W)0UL;                                        \
    ulong##W hn = (a - 0x3f00000000000000UL + inc) >> 42;                                  \
    ulong##W ovf = mode == FCL_RTE ? (ulong##W)0x7c00UL : away ? 0x7c00UL : (ulong##W)0x7bffUL; \
    hn = hn >= 0x7c00UL ? ovf : hn;                                                        \
    double##W q = FCL_AS(double##W, a) * 0x1p24;                                           \
    double##W qr = mode == FCL_RTE ? __builtin_elementwise_rint(q)                         \
                   : mode == FCL_RTZ ? __builtin_elementwise_trunc(q)                      \
                                     : (FCL_AS(long##W, away) != 0 ? __builtin_elementwise_ceil(q) \
                                                                   : __builtin_elementwise_trunc(q)); \
    ulong##W hd = FCL_CVT(W, qr, ulong##W);                                                \
    ulong##W h = a < 0x3f10000000000000UL ? hd : hn;                                       \
    h = a == 0x7ff0000000000000UL ? (ulong##W)0x7c00UL : h;                                \
    h = a > 0x7ff0000000000000UL ? 0x7e00UL | ((a >> 42) & 0x3ffUL) : h;                   \
    return FCL_CVT(W, h | ((u >> 48) & 0x8000UL), ushort##W);                              \
  }
FCL_WIDTHS(FCL_HALF_CVT, _)

/* ---- vload_half / vloada_half ---------------------------------------------------- */
#define FCL_VLOAD_HALF(_, AS)                                                                 \
  FCL_PURE float vload_half(size_t i, const AS half *p) {                                  \
    return fcl_h2f(((const AS ushort *)p)[i]);                                             \
  }                                                                                        \
  FCL_PURE float vloada_half(size_t i, const AS half *p) {                                 \
    return fcl_h2f(((const AS ushort *)p)[i]);                                             \
  }                                                                                        \
  FCL_PURE float3 vload_half3(size_t i, const AS half *p) {                                \
    const AS ushort *q = (const AS ushort *)p + i * 3;                                     \
    return fcl_h2f((ushort3)(q[0], q[1], q[2]));                                           \
  }                                                                                        \
  FCL_PURE float3 vloada_half3(size_t i, const AS half *p) {                               \
    const AS ushort *q = (const AS ushort *)p + i * 4;                                     \
    return fcl_h2f((ushort3)(q[0], q[1], q[2]));                                           \
  }                                                                                        \
  FCL_VLOAD_HALF_N(AS, 2) FCL_VLOAD_HALF_N(AS, 4) FCL_VLOAD_HALF_N(AS, 8)                  \
  FCL_VLOAD_HALF_N(AS, 16)
#define FCL_VLOAD_HALF_N(AS, N)                                                            \
  FCL_PURE float##N vload_half##N(size_t i, const AS half *p) {                            \
    return fcl_h2f(*(const AS fcl_ua_ushort##N *)((const AS ushort *)p + i * N));           \
  }                                                                                        \
  FCL_PURE float##N vloada_half##N(size_t i, const AS half *p) {                           \
    return fcl_h2f(*(const AS ushort##N *)((const AS ushort *)p + i * N));                 \
  }
FCL_LOAD_SPACES(FCL_VLOAD_HALF, _)

/* ---- vstore_half / vstorea_half -------------------------------------------------- */
#define FCL_VSTORE_HALF_MODE(AS, SFX, MODE, S, CV)                                         \
  FCL_OVL void vstore_half##SFX(S v, size_t i, AS half *p) {                               \
    ((AS ushort *)p)[i] = CV(v, MODE);                                                     \
  }                                                                                        \
  FCL_OVL void vstorea_half##SFX(S v, size_t i, AS half *p) {                              \
    ((AS ushort *)p)[i] = CV(v, MODE);                                                     \
  }                                                                                        \
  FCL_OVL void vstore_half3##SFX(S##3 v, size_t i, AS half *p) {                           \
    ushort3 h = CV(v, MODE);                                                               \
    AS ushort *q = (AS ushort *)p + i * 3;                                                 \
    q[0] = h.s0;                                                                           \
    q[1] = h.s1;                                                                           \
    q[2] = h.s2;                                                                           \
  }                                                                                        \
  FCL_OVL void vstorea_half3##SFX(S##3 v, size_t i, AS half *p) {                          \
    ushort3 h = CV(v, MODE);                                                               \
    AS ushort *q = (AS ushort *)p + i * 4;                                                 \
    q[0] = h.s0;                                                                           \
    q[1] = h.s1;                                                                           \
    q[2] = h.s2;                                                                           \
  }                                                                                        \
  FCL_VSTORE_HALF_N(AS, SFX, MODE, S, CV, 2) FCL_VSTORE_HALF_N(AS, SFX, MODE, S, CV, 4)    \
  FCL_VSTORE_HALF_N(AS, SFX, MODE, S, CV, 8) FCL_VSTORE_HALF_N(AS, SFX, MODE, S, CV, 16)
#define FCL_VSTORE_HALF_N(AS, SFX, MODE, S, CV, N)                                         \
  FCL_OVL void vstore_half##N##SFX(S##N v, size_t i, AS half *p) {                         \
    *(AS fcl_ua_ushort##N *)((AS ushort *)p + i * N) = CV(v, MODE);                         \
  }                                                                                        \
  FCL_OVL void vstorea_half##N##SFX(S##N v, size_t i, AS half *p) {                        \
    *(AS ushort##N *)((AS ushort *)p + i * N) = CV(v, MODE);                               \
  }
#define FCL_VSTORE_HALF(S, CV, AS)                                                         \
  FCL_VSTORE_HALF_MODE(AS, , FCL_RTE, S, CV)                                               \
  FCL_VSTORE_HALF_MODE(AS, _rte, FCL_RTE, S, CV)                                           \
  FCL_VSTORE_HALF_MODE(AS, _rtz, FCL_RTZ, S, CV)                                           \
  FCL_VSTORE_HALF_MODE(AS, _rtp, FCL_RTP, S, CV)                                           \
  FCL_VSTORE_HALF_MODE(AS, _rtn, FCL_RTN, S, CV)
FCL_STORE_SPACES(FCL_VSTORE_HALF, float, fcl_f2h)
FCL_STORE_SPACES(FCL_VSTORE_HALF, double, fcl_d2h)

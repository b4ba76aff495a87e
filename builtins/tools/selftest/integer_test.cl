/* Self-test kernels for integer functions: 20 results per input triple, and
 * vector-vs-scalar lane comparisons (widths 2, 3, 4, 8, 16). */
#define NR 20
#define ONE(T, U, o, a, b, c)                                                              \
  o[0] = as_##T(abs(a)); o[1] = as_##T(abs_diff(a, b)); o[2] = add_sat(a, b);              \
  o[3] = sub_sat(a, b); o[4] = hadd(a, b); o[5] = rhadd(a, b); o[6] = clamp(a, b, c);      \
  o[7] = clz(a); o[8] = ctz(a); o[9] = mad_hi(a, b, c); o[10] = mad_sat(a, b, c);          \
  o[11] = max(a, b); o[12] = min(a, b); o[13] = mul_hi(a, b); o[14] = rotate(a, b);        \
  o[15] = popcount(a); o[16] = select(a, b, c); o[17] = bitselect(a, b, c);                \
  o[18] = (T)any(a); o[19] = (T)all(a);
#define VEC(T, U, N, a, b, c, r)                                                           \
  r[0] = as_##T##N(abs(a)); r[1] = as_##T##N(abs_diff(a, b)); r[2] = add_sat(a, b);        \
  r[3] = sub_sat(a, b); r[4] = hadd(a, b); r[5] = rhadd(a, b); r[6] = clamp(a, b, c);      \
  r[7] = clz(a); r[8] = ctz(a); r[9] = mad_hi(a, b, c); r[10] = mad_sat(a, b, c);          \
  r[11] = max(a, b); r[12] = min(a, b); r[13] = mul_hi(a, b); r[14] = rotate(a, b);        \
  r[15] = popcount(a); r[16] = select(a, b, as_##U##N(c)); r[17] = bitselect(a, b, c);    \
  r[18] = clamp(a, b.s0, c.s0); r[19] = max(a, b.s0);
#define SCALAR_OF_VEC(T, U, a, b, c, bs, cs, s)                                            \
  s[0] = as_##T(abs(a)); s[1] = as_##T(abs_diff(a, b)); s[2] = add_sat(a, b);              \
  s[3] = sub_sat(a, b); s[4] = hadd(a, b); s[5] = rhadd(a, b); s[6] = clamp(a, b, c);      \
  s[7] = clz(a); s[8] = ctz(a); s[9] = mad_hi(a, b, c); s[10] = mad_sat(a, b, c);          \
  s[11] = max(a, b); s[12] = min(a, b); s[13] = mul_hi(a, b); s[14] = rotate(a, b);        \
  s[15] = popcount(a); s[16] = (as_##U(c) >> (8 * sizeof(T) - 1)) ? b : a;                 \
  s[17] = bitselect(a, b, c); s[18] = clamp(a, bs, cs); s[19] = max(a, bs);

#define VCHK(T, U, N)                                                                      \
  for (int i = 0; i + N <= n; i += N) {                                                    \
    T##N a = vload##N(0, x + i), b = vload##N(0, y + i), c = vload##N(0, z + i);           \
    T##N r[NR];                                                                            \
    VEC(T, U, N, a, b, c, r)                                                               \
    for (int k = 0; k < N; ++k) {                                                          \
      T s[NR];                                                                             \
      SCALAR_OF_VEC(T, U, x[i + k], y[i + k], z[i + k], y[i], z[i], s)                     \
      for (int j = 0; j < NR; ++j) bad += r[j][k] != s[j];                                 \
    }                                                                                      \
  }
#define TI(T, U)                                                                           \
  int t_int_##T(const __global T *x, const __global T *y, const __global T *z,             \
                __global T *out, int n) {                                                  \
    int bad = 0;                                                                           \
    for (int i = 0; i < n; ++i) {                                                          \
      __global T *o = out + i * NR;                                                        \
      ONE(T, U, o, x[i], y[i], z[i])                                                       \
    }                                                                                      \
    VCHK(T, U, 2) VCHK(T, U, 3) VCHK(T, U, 4) VCHK(T, U, 8) VCHK(T, U, 16)                 \
    return bad;                                                                            \
  }
/* any/all exist for signed types only: give unsigned ones 0 there. */
#define any(v) fcl_any(v)
#define all(v) fcl_all(v)
#define ANYALL(T, S) int __attribute__((overloadable)) fcl_any(T v) { return any_((S)v); } \
                     int __attribute__((overloadable)) fcl_all(T v) { return all_((S)v); }
#undef any
#undef all
int __attribute__((overloadable)) fcl_any(char v) { return any(v); }
int __attribute__((overloadable)) fcl_any(short v) { return any(v); }
int __attribute__((overloadable)) fcl_any(int v) { return any(v); }
int __attribute__((overloadable)) fcl_any(long v) { return any(v); }
int __attribute__((overloadable)) fcl_any(uchar v) { return 0; }
int __attribute__((overloadable)) fcl_any(ushort v) { return 0; }
int __attribute__((overloadable)) fcl_any(uint v) { return 0; }
int __attribute__((overloadable)) fcl_any(ulong v) { return 0; }
int __attribute__((overloadable)) fcl_all(char v) { return all(v); }
int __attribute__((overloadable)) fcl_all(short v) { return all(v); }
int __attribute__((overloadable)) fcl_all(int v) { return all(v); }
int __attribute__((overloadable)) fcl_all(long v) { return all(v); }
int __attribute__((overloadable)) fcl_all(uchar v) { return 0; }
int __attribute__((overloadable)) fcl_all(ushort v) { return 0; }
int __attribute__((overloadable)) fcl_all(uint v) { return 0; }
int __attribute__((overloadable)) fcl_all(ulong v) { return 0; }
#define any fcl_any
#define all fcl_all
TI(char, uchar) TI(uchar, uchar) TI(short, ushort) TI(ushort, ushort) TI(int, uint)
TI(uint, uint) TI(long, ulong) TI(ulong, ulong)
#undef any
#undef all

/* any/all on vectors, upsample, mul24/mad24. */
int t_int_misc(__global long *out) {
  int bad = 0;
  char4 a = (char4)(1, -2, 3, 4);
  bad += any(a) != 1 || all(a) != 0 || all((char4)(-1, -2, -3, -4)) != 1 || any((int16)(0)) != 0;
  bad += any((long3)(0, 0, -5)) != 1 || all((short8)(-1)) != 1 || all((long2)(-1, 1)) != 0;
  bad += upsample((char)-1, (uchar)2) != (short)0xff02 || upsample((uint)0x12345678, (uint)0x9abcdef0) != 0x123456789abcdef0UL;
  bad += upsample((int2)(-1, 2), (uint2)(3, 4)).s0 != (long)0xffffffff00000003L;
  bad += mul24(1000, -2000) != -2000000 || mad24(3u, 4u, 5u) != 17u;
  bad += any(isnan((float4)(1.0f, NAN, 0.0f, 2.0f))) != 1 || all(isfinite((double3)(1.0, 2.0, 3.0))) != 1;
  return bad;
}

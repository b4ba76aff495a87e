/* Self-test kernels for conversions: scalar results of every variant, and the
 * number of vector lanes that differ from the scalar result. */
#define NV_INT 10
#define NV_FLT 5

#define VEC_CHECK(D, S, SFX, bad)                                                         \
  {                                                                                        \
    for (int i = 0; i + 16 <= n; i += 16) {                                                \
      S##16 v = vload16(0, in + i);                                                        \
      D##16 r16 = convert_##D##16##SFX(v);                                                             \
      D##8 r8 = convert_##D##8##SFX(v.lo);                                                             \
      D##4 r4 = convert_##D##4##SFX(v.lo.lo);                                                          \
      D##3 r3 = convert_##D##3##SFX(v.lo.lo.xyz);                                                      \
      D##2 r2 = convert_##D##2##SFX(v.lo.lo.lo);                                                       \
      for (int k = 0; k < 16; ++k) {                                                       \
        D s = convert_##D##SFX(in[i + k]);                                                             \
        bad += !same_##D(r16[k], s);                                                       \
        if (k < 8) bad += !same_##D(r8[k], s);                                             \
        if (k < 4) bad += !same_##D(r4[k], s);                                             \
        if (k < 3) bad += !same_##D(r3[k], s);                                             \
        if (k < 2) bad += !same_##D(r2[k], s);                                             \
      }                                                                                    \
    }                                                                                      \
  }

#define SAME_INT(T) int same_##T(T a, T b) { return a == b; }
SAME_INT(char) SAME_INT(uchar) SAME_INT(short) SAME_INT(ushort) SAME_INT(int) SAME_INT(uint)
SAME_INT(long) SAME_INT(ulong)
int same_float(float a, float b) { return as_uint(a) == as_uint(b); }
int same_double(double a, double b) { return as_ulong(a) == as_ulong(b); }

#define T_INTDST(D, S)                                                                     \
  int t_conv_##D##_##S(const __global S *in, __global D *out, int n) {                     \
    int bad = 0;                                                                           \
    for (int i = 0; i < n; ++i) {                                                          \
      S x = in[i];                                                                         \
      __global D *o = out + i * NV_INT;                                                    \
      o[0] = convert_##D(x); o[1] = convert_##D##_rte(x); o[2] = convert_##D##_rtz(x);     \
      o[3] = convert_##D##_rtp(x); o[4] = convert_##D##_rtn(x);                            \
      o[5] = convert_##D##_sat(x); o[6] = convert_##D##_sat_rte(x);                        \
      o[7] = convert_##D##_sat_rtz(x); o[8] = convert_##D##_sat_rtp(x);                    \
      o[9] = convert_##D##_sat_rtn(x);                                                     \
    }                                                                                      \
    VEC_CHECK(D, S, _sat_rte, bad)                                            \
    VEC_CHECK(D, S, _sat, bad)                                                \
    VEC_CHECK(D, S, _sat_rtp, bad)                                            \
    VEC_CHECK(D, S, _sat_rtn, bad)                                            \
    return bad;                                                                            \
  }
#define T_FLTDST(D, S)                                                                     \
  int t_conv_##D##_##S(const __global S *in, __global D *out, int n) {                     \
    int bad = 0;                                                                           \
    for (int i = 0; i < n; ++i) {                                                          \
      S x = in[i];                                                                         \
      __global D *o = out + i * NV_FLT;                                                    \
      o[0] = convert_##D(x); o[1] = convert_##D##_rte(x); o[2] = convert_##D##_rtz(x);     \
      o[3] = convert_##D##_rtp(x); o[4] = convert_##D##_rtn(x);                            \
    }                                                                                      \
    VEC_CHECK(D, S, , bad)                                                      \
    VEC_CHECK(D, S, _rtz, bad)                                                \
    VEC_CHECK(D, S, _rtp, bad)                                                \
    VEC_CHECK(D, S, _rtn, bad)                                                \
    return bad;                                                                            \
  }
#define T_SRC(S)                                                                           \
  T_INTDST(char, S) T_INTDST(uchar, S) T_INTDST(short, S) T_INTDST(ushort, S)              \
  T_INTDST(int, S) T_INTDST(uint, S) T_INTDST(long, S) T_INTDST(ulong, S)                  \
  T_FLTDST(float, S) T_FLTDST(double, S)
T_SRC(char) T_SRC(uchar) T_SRC(short) T_SRC(ushort) T_SRC(int) T_SRC(uint) T_SRC(long)
T_SRC(ulong) T_SRC(float) T_SRC(double)

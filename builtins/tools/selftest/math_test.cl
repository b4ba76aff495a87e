/* Self-test kernels for math, common, geometric and relational functions:
 * scalar results for the C checker, plus vector-vs-scalar lane comparisons. */
int same_f(float a, float b) { return as_uint(a) == as_uint(b) || (isnan(a) && isnan(b)); }
int same_d(double a, double b) { return as_ulong(a) == as_ulong(b) || (isnan(a) && isnan(b)); }

#define VCHK1(T, F, NAME)                                                                  \
  for (int i = 0; i + 16 <= n; i += 16) {                                                  \
    T##16 v = vload16(0, x + i);                                                           \
    T##16 r16 = NAME(v); T##8 r8 = NAME(v.lo); T##4 r4 = NAME(v.lo.lo);                    \
    T##3 r3 = NAME(v.lo.lo.xyz); T##2 r2 = NAME(v.lo.lo.lo);                               \
    for (int k = 0; k < 16; ++k) {                                                         \
      T s = NAME(x[i + k]);                                                                \
      bad += !same_##F(r16[k], s) + (k < 8 && !same_##F(r8[k], s)) +                      \
             (k < 4 && !same_##F(r4[k], s)) + (k < 3 && !same_##F(r3[k], s)) +             \
             (k < 2 && !same_##F(r2[k], s));                                               \
    }                                                                                      \
  }
#define VCHK2(T, F, NAME)                                                                  \
  for (int i = 0; i + 16 <= n; i += 16) {                                                  \
    T##16 v = vload16(0, x + i), w = vload16(0, y + i);                                    \
    T##16 r16 = NAME(v, w); T##8 r8 = NAME(v.lo, w.lo); T##4 r4 = NAME(v.lo.lo, w.lo.lo);  \
    T##3 r3 = NAME(v.lo.lo.xyz, w.lo.lo.xyz); T##2 r2 = NAME(v.lo.lo.lo, w.lo.lo.lo);      \
    for (int k = 0; k < 16; ++k) {                                                         \
      T s = NAME(x[i + k], y[i + k]);                                                      \
      bad += !same_##F(r16[k], s) + (k < 8 && !same_##F(r8[k], s)) +                      \
             (k < 4 && !same_##F(r4[k], s)) + (k < 3 && !same_##F(r3[k], s)) +             \
             (k < 2 && !same_##F(r2[k], s));                                               \
    }                                                                                      \
  }

#define T1(T, F, NAME)                                                                     \
  int t_##NAME##_##T(const __global T *x, const __global T *y, __global T *r, int n) {     \
    int bad = 0;                                                                           \
    for (int i = 0; i < n; ++i) r[i] = NAME(x[i]);                                         \
    VCHK1(T, F, NAME)                                                                      \
    return bad;                                                                            \
  }
#define T2(T, F, NAME)                                                                     \
  int t_##NAME##_##T(const __global T *x, const __global T *y, __global T *r, int n) {     \
    int bad = 0;                                                                           \
    for (int i = 0; i < n; ++i) r[i] = NAME(x[i], y[i]);                                   \
    VCHK2(T, F, NAME)                                                                      \
    return bad;                                                                            \
  }
#define ALL(T, F)                                                                          \
  T1(T, F, sinpi) T1(T, F, cospi) T1(T, F, tanpi) T1(T, F, asinpi) T1(T, F, acospi)        \
  T1(T, F, atanpi) T2(T, F, atan2pi) T2(T, F, powr) T2(T, F, pow) T2(T, F, nextafter)      \
  T2(T, F, maxmag) T2(T, F, minmag) T2(T, F, fdim) T1(T, F, logb) T1(T, F, rsqrt)          \
  T1(T, F, sin) T1(T, F, cos) T1(T, F, tan) T1(T, F, exp10) T1(T, F, exp) T1(T, F, log)    \
  T1(T, F, cbrt) T1(T, F, erf) T1(T, F, tgamma) T1(T, F, asinh) T1(T, F, sign)             \
  T2(T, F, hypot) T2(T, F, fmod) T2(T, F, remainder) T2(T, F, atan2) T1(T, F, expm1)       \
  T1(T, F, log1p) T1(T, F, atan) T1(T, F, acos) T1(T, F, sinh) T1(T, F, tanh)              \
  T1(T, F, round) T1(T, F, rint) T1(T, F, trunc) T1(T, F, fabs) T2(T, F, copysign)          \
  T2(T, F, fmax) T2(T, F, fmin)
ALL(float, f)
ALL(double, d)

/* int-taking / int-returning / out-parameter functions: scalar only here, with
 * the out values stored after the results. */
#define TX(T, F, IT)                                                                       \
  int t_misc_##T(const __global T *x, const __global T *y, const __global int *m,          \
                 __global T *r, __global int *ri, int n) {                                 \
    int bad = 0;                                                                           \
    for (int i = 0; i < n; ++i) {                                                          \
      int q;                                                                               \
      T t;                                                                                 \
      r[i * 8 + 0] = rootn(x[i], m[i]);                                                    \
      r[i * 8 + 1] = pown(x[i], m[i]);                                                     \
      r[i * 8 + 2] = remquo(x[i], y[i], &q);                                               \
      ri[i * 8 + 0] = q;                                                                   \
      r[i * 8 + 3] = fract(x[i], &t);                                                      \
      r[i * 8 + 4] = t;                                                                    \
      r[i * 8 + 5] = modf(x[i], &t);                                                       \
      r[i * 8 + 6] = t;                                                                    \
      r[i * 8 + 7] = frexp(x[i], &q);                                                      \
      ri[i * 8 + 1] = q;                                                                   \
      ri[i * 8 + 2] = ilogb(x[i]);                                                         \
      ri[i * 8 + 3] = as_##IT(ldexp(x[i], m[i])) == as_##IT((T)__builtin_ldexp(x[i], m[i])); \
      T lg = lgamma_r(x[i], &q);                                                           \
      ri[i * 8 + 4] = q;                                                                   \
      ri[i * 8 + 5] = same_##F(lg, lgamma(x[i]));                                          \
      ri[i * 8 + 6] = isnan(x[i]) * 1 + isinf(x[i]) * 2 + isfinite(x[i]) * 4 +             \
                      isnormal(x[i]) * 8 + signbit(x[i]) * 16 + isless(x[i], y[i]) * 32 +  \
                      islessgreater(x[i], y[i]) * 64 + isunordered(x[i], y[i]) * 128;      \
    }                                                                                      \
    /* vector versions of the out-parameter / int functions */                             \
    for (int i = 0; i + 4 <= n; i += 4) {                                                  \
      T##4 v = vload4(0, x + i), w = vload4(0, y + i);                                     \
      int4 mm = vload4(0, m + i), q4, e4;                                                  \
      T##4 t4, f4;                                                                         \
      T##4 rq = remquo(v, w, &q4);                                                         \
      T##4 rf = fract(v, &t4);                                                             \
      T##4 rx = frexp(v, &e4);                                                             \
      int4 il = ilogb(v);                                                                  \
      T##4 rn = rootn(v, mm), pn = pown(v, mm);                                            \
      T##4 sc = sincos(v, &f4);                                                            \
      for (int k = 0; k < 4; ++k) {                                                        \
        int q;                                                                             \
        T t;                                                                               \
        bad += !same_##F(rq[k], remquo(x[i + k], y[i + k], &q)) + (q4[k] != q);            \
        bad += !same_##F(rf[k], fract(x[i + k], &t)) + !same_##F(t4[k], t);                \
        bad += !same_##F(rx[k], frexp(x[i + k], &q)) + (e4[k] != q);                       \
        bad += (il[k] != ilogb(x[i + k]));                                                 \
        bad += !same_##F(rn[k], rootn(x[i + k], m[i + k])) +                               \
               !same_##F(pn[k], pown(x[i + k], m[i + k]));                                 \
        bad += !same_##F(sc[k], sin(x[i + k])) + !same_##F(f4[k], cos(x[i + k]));          \
      }                                                                                    \
      __typeof__(isnan(v)) isn = isnan(v), sb = signbit(v), le = isless(v, w);                           \
      for (int k = 0; k < 4; ++k)                                                          \
        bad += isn[k] != -isnan(x[i + k]) || sb[k] != -signbit(x[i + k]) ||                \
               le[k] != -isless(x[i + k], y[i + k]);                                       \
    }                                                                                      \
    return bad;                                                                            \
  }
TX(float, f, uint)
TX(double, d, ulong)

/* Geometric: results for widths 1..4 on consecutive elements. */
#define TG(T)                                                                              \
  void t_geo_##T(const __global T *x, const __global T *y, __global T *r, int n) {         \
    for (int i = 0; i + 4 <= n; i += 4) {                                                  \
      T##4 p = vload4(0, x + i), q = vload4(0, y + i);                                     \
      __global T *o = r + i * 8;                                                           \
      o[0] = length(p.x); o[1] = length(p.xy); o[2] = length(p.xyz); o[3] = length(p);     \
      o[4] = dot(p, q); o[5] = distance(p.xyz, q.xyz);                                     \
      T##4 nn = normalize(p);                                                              \
      o[6] = nn.x; o[7] = nn.w;                                                            \
      T##3 c = cross(p.xyz, q.xyz);                                                        \
      o[8] = c.x; o[9] = c.y; o[10] = c.z;                                                 \
      T##3 n3 = normalize(p.xyz);                                                          \
      o[11] = n3.y;                                                                        \
      T##4 ss = smoothstep(q, p, (T##4)(T)0.25);                                           \
      o[12] = ss.x; o[13] = mix(p.x, q.x, (T)0.5);                                         \
      o[14] = clamp(p.y, (T)-1, (T)1); o[15] = step(p.z, q.z);                             \
    }                                                                                      \
  }
TG(float)
TG(double)

/* half conversions: all 65536 patterns up, and float/double -> half in 4 modes. */
void t_half_load(const __global half *h, __global float *f, int n) {
  for (int i = 0; i < n; i += 16) vstore16(vload_half16(0, h + i), 0, f + i);
}
void t_half_store_f(const __global float *f, __global half *h, int n) {
  for (int i = 0; i < n; ++i) {
    vstore_half_rte(f[i], i * 4 + 0, h); vstore_half_rtz(f[i], i * 4 + 1, h);
    vstore_half_rtp(f[i], i * 4 + 2, h); vstore_half_rtn(f[i], i * 4 + 3, h);
  }
}
void t_half_store_d(const __global double *f, __global half *h, int n) {
  for (int i = 0; i < n; ++i) {
    vstore_half_rte(f[i], i * 4 + 0, h); vstore_half_rtz(f[i], i * 4 + 1, h);
    vstore_half_rtp(f[i], i * 4 + 2, h); vstore_half_rtn(f[i], i * 4 + 3, h);
  }
}
int t_half_vec(const __global float *f, __global half *h, __global half *h2, int n) {
  int bad = 0;
  for (int i = 0; i + 16 <= n; i += 16) {
    float16 v = vload16(0, f + i);
    vstore_half16_rtp(v, i / 16, h);
    vstore_half3_rtn(v.s012, 0, h2 + i);
    vstorea_half4_rtz(v.lo.lo, 0, h2 + i + 4);
    vstore_half2(v.lo.lo.lo, 0, h2 + i + 8);
    float3 back = vload_half3(0, h2 + i);
    float4 back4 = vloada_half4(0, h2 + i + 4);
    for (int k = 0; k < 16; ++k) {
      vstore_half_rtp(v[k], 0, h2 + i + 12);
      bad += ((const __global ushort *)h)[i + k] != ((const __global ushort *)h2)[i + 12];
    }
    for (int k = 0; k < 3; ++k) {
      vstore_half_rtn(v[k], 0, h2 + i + 13);
      bad += as_uint(back[k]) != as_uint(vload_half(0, h2 + i + 13));
    }
    for (int k = 0; k < 4; ++k) {
      vstore_half_rtz(v[k], 0, h2 + i + 13);
      bad += as_uint(back4[k]) != as_uint(vload_half(0, h2 + i + 13));
    }
  }
  return bad;
}

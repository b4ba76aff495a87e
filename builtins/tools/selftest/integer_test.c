/* Reference checker for integer_test.cl. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
unsigned __fibercl_local_id(unsigned d) { return 0; }
void *__fibercl_ctx(void) { return 0; }
void __fibercl_barrier(unsigned f) {}

#define N 4096
#define NR 20
static uint64_t rng = 0x2545F4914F6CDD1DULL;
static uint64_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}
typedef __int128 i128;

static int failures;
static const char *fname[NR] = {"abs",      "abs_diff", "add_sat",   "sub_sat", "hadd",
                                "rhadd",    "clamp",    "clz",       "ctz",     "mad_hi",
                                "mad_sat",  "max",      "min",       "mul_hi",  "rotate",
                                "popcount", "select",   "bitselect", "any",     "all"};

/* value of bits as signed/unsigned of width w */
static i128 val(uint64_t b, int w, int sgn) {
  if (w < 64)
    b &= (1ULL << w) - 1;
  if (sgn && (b >> (w - 1)) & 1)
    return (i128)b - ((i128)1 << w);
  return (i128)b;
}
static uint64_t wrap(i128 v, int w) {
  uint64_t b = (uint64_t)v;
  return w < 64 ? b & ((1ULL << w) - 1) : b;
}
static i128 sat(i128 v, int w, int sgn) {
  i128 lo = sgn ? -((i128)1 << (w - 1)) : 0,
       hi = sgn ? ((i128)1 << (w - 1)) - 1 : ((i128)1 << w) - 1;
  return v < lo ? lo : v > hi ? hi : v;
}
static i128 floordiv2(i128 v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

static uint64_t ref(int f, uint64_t A, uint64_t B, uint64_t C, int w, int sgn) {
  i128 a = val(A, w, sgn), b = val(B, w, sgn), c = val(C, w, sgn);
  uint64_t ua = wrap(a, w);
  switch (f) {
  case 0:
    return wrap(a < 0 ? -a : a, w);
  case 1:
    return wrap(a > b ? a - b : b - a, w);
  case 2:
    return wrap(sat(a + b, w, sgn), w);
  case 3:
    return wrap(sat(a - b, w, sgn), w);
  case 4:
    return wrap(floordiv2(a + b), w);
  case 5:
    return wrap(floordiv2(a + b + 1), w);
  case 6: {
    i128 r = a > b ? a : b;
    r = r < c ? r : c;
    return wrap(r, w);
  }
  case 7: {
    int n = 0;
    for (int i = w - 1; i >= 0 && !((ua >> i) & 1); --i)
      ++n;
    return n;
  }
  case 8: {
    int n = 0;
    for (int i = 0; i < w && !((ua >> i) & 1); ++i)
      ++n;
    return n;
  }
  case 9: {
    i128 p = a * b;
    i128 hi = p >> w; /* arithmetic shift on i128: floor */
    return wrap(hi + c, w);
  }
  case 10: {
    if (w == 64) { /* a*b may overflow i128 for ulong: use long double-free check */
      unsigned __int128 ua2 = (unsigned __int128)(sgn ? (uint64_t)(a < 0 ? -a : a) : (uint64_t)a);
      (void)ua2;
    }
    i128 p;
    if (w == 64 && !sgn) {
      unsigned __int128 q = (unsigned __int128)(uint64_t)a * (uint64_t)b + (uint64_t)c;
      int carry = q < (unsigned __int128)(uint64_t)c; /* cannot overflow 128 actually */
      return (q >> 64) || carry ? UINT64_MAX : (uint64_t)q;
    }
    p = a * b + c;
    return wrap(sat(p, w, sgn), w);
  }
  case 11:
    return wrap(a > b ? a : b, w);
  case 12:
    return wrap(a < b ? a : b, w);
  case 13: {
    i128 p;
    if (w == 64 && !sgn) {
      unsigned __int128 q = (unsigned __int128)(uint64_t)a * (uint64_t)b;
      return (uint64_t)(q >> 64);
    }
    p = a * b;
    return wrap(p >> w, w);
  }
  case 14: {
    int s = (int)(wrap(b, w) % w);
    uint64_t r = s ? (ua << s) | (ua >> (w - s)) : ua;
    return wrap(r, w);
  }
  case 15:
    return __builtin_popcountll(ua);
  case 16:
    return wrap(c ? b : a, w);
  case 17:
    return wrap((wrap(a, w) & ~wrap(c, w)) | (wrap(b, w) & wrap(c, w)), w);
  case 18:
  case 19:
    return sgn ? (a < 0) : 0;
  }
  return 0;
}

#define DECL(T) int t_int_##T(const void *, const void *, const void *, void *, int);
// clang-format off: declaring macros without semicolons, several to a line
DECL(char) DECL(uchar) DECL(short) DECL(ushort) DECL(int) DECL(uint) DECL(long) DECL(ulong)
int t_int_misc(long *);
typedef int (*fn)(const void *, const void *, const void *, void *, int);
static fn fns[] = {t_int_char, t_int_uchar, t_int_short, t_int_ushort, t_int_int, t_int_uint, t_int_long, t_int_ulong};
static const char *tn[] = {"char","uchar","short","ushort","int","uint","long","ulong"};
// clang-format on

int main(void) {
  static uint8_t x[N * 8], y[N * 8], z[N * 8], out[N * 8 * NR];
  for (int t = 0; t < 8; ++t) {
    int w = 8 << (t / 2), sgn = !(t & 1), bytes = w / 8;
    for (int i = 0; i < N; ++i) {
      uint64_t a = rnd(), b = rnd(), c = rnd();
      if (i % 4 == 1) {
        a >>= a % 64;
        b >>= b % 64;
      }
      if (i % 8 == 2) {
        a = (i & 16) ? 0 : ~0ULL;
        b = 1ULL << (w - 1);
      }
      if (i % 8 == 3) {
        a = 1ULL << (w - 1);
        b = ~0ULL;
        c = 1ULL << (w - 1);
      }
      memcpy(x + i * bytes, &a, bytes);
      memcpy(y + i * bytes, &b, bytes);
      memcpy(z + i * bytes, &c, bytes);
    }
    int vbad = fns[t](x, y, z, out, N), bad = 0;
    for (int i = 0; i < N; ++i) {
      uint64_t a = 0, b = 0, c = 0;
      memcpy(&a, x + i * bytes, bytes);
      memcpy(&b, y + i * bytes, bytes);
      memcpy(&c, z + i * bytes, bytes);
      for (int f = 0; f < NR; ++f) {
        uint64_t got = 0;
        memcpy(&got, out + ((size_t)i * NR + f) * bytes, bytes);
        uint64_t want = wrap(ref(f, a, b, c, w, sgn), w);
        if (got != want) {
          if (bad < 5)
            printf("  %s(%s %#llx, %#llx, %#llx): got %#llx want %#llx\n", fname[f], tn[t],
                   (unsigned long long)a, (unsigned long long)b, (unsigned long long)c,
                   (unsigned long long)got, (unsigned long long)want);
          ++bad;
        }
      }
    }
    if (bad || vbad)
      printf("%s: %d wrong, %d vector lanes differ\n", tn[t], bad, vbad);
    failures += bad + vbad;
  }
  long dummy;
  int mb = t_int_misc(&dummy);
  if (mb)
    printf("misc integer/relational checks: %d wrong\n", mb);
  failures += mb;
  printf("integer: %s (%d failures)\n", failures ? "FAIL" : "PASS", failures);
  return failures != 0;
}

// Math builtins (OpenCL C 3.0 s6.15.2) for float and double, every vector width,
// against host references with the ULP bounds of the OpenCL C specification
// (s7.4, tables "ULP values for single precision built-in math functions" and
// "... double-precision ..."), special values per s7.5 (C99 F.9 and the additional
// requirements of s7.5.1), half_* per s7.4 / s7.5.1 (8192 ulp, restricted domains,
// denormals may be flushed), native_* (implementation-defined: see nativeFns()).
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdlib>

#include "harness.hpp"
#include "refs.hpp"

namespace fclconf {
namespace {

enum class Sig {
  F,    // T f(T)
  FF,   // T f(T, T)
  FFF,  // T f(T, T, T)
  FS,   // Tn f(Tn, T)        (fmax, fmin with a scalar; widths > 1)
  FI,   // Tn f(Tn, intn)     (ldexp, pown, rootn)
  Fi,   // Tn f(Tn, int)      (ldexp with a scalar exponent; widths > 1)
  IF,   // intn ilogb(Tn)
  NaN,  // Tn nan(uintn / ulongn)
  FpF,  // T f(T, T *)        (fract, modf, sincos)
  FpI,  // T f(T, int *)      (frexp, lgamma_r)
  FFpI, // T remquo(T, T, int *)
};

using RefF = std::function<double(double, double, double)>;
using RefD = std::function<long double(long double, long double, long double)>;
using Rnd = std::function<Val(Rng &, Ty)>;
using Pred = std::function<bool(long double, long double, long double)>;
using Custom = std::function<Verdict(Ty, const std::vector<Val> &, const std::vector<Val> &)>;

struct MathFn {
  std::string name;
  std::string category;
  Sig sig;
  Tol tolF, tolD;
  RefF rf;
  RefD rd;
  std::vector<Rnd> rnd; // per value operand
  Pred prescribed;      // inputs whose result s7.5 / C99 F.9 prescribe exactly
  std::function<bool(Ty, long double, long double, long double)> skip; // undefined inputs
  Custom custom;             // replaces the reference comparison
  bool zeroSignFree = false; // +0 and -0 both accepted when the result is zero
  bool floatOnly = false;
  bool ftz = false;     // half_*: denormal inputs / results may be flushed
  int nativeSanity = 0; // native_*: sanity bound instead of a spec bound
};

#define REF(E)                                                                                     \
  [](double a, double b, double c) -> double {                                                     \
    (void)a;                                                                                       \
    (void)b;                                                                                       \
    (void)c;                                                                                       \
    return E;                                                                                      \
  },                                                                                               \
      [](long double a, long double b, long double c) -> long double {                             \
        (void)a;                                                                                   \
        (void)b;                                                                                   \
        (void)c;                                                                                   \
        return E;                                                                                  \
      }

// Random inputs. Every float operand gets, half of the time, any bit pattern (all
// exponents, NaNs, infinities), otherwise a value from the function's interesting
// domain.
Rnd mix(Rnd a, Rnd b) {
  return [a, b](Rng &r, Ty t) { return r.coin() ? a(r, t) : b(r, t); };
}
Rnd anyBits() {
  return [](Rng &r, Ty t) { return r.anyBits(t); };
}
Rnd uni(double lo, double hi) {
  return [lo, hi](Rng &r, Ty t) { return r.uniformFp(t, lo, hi); };
}
Rnd uniFD(double lof, double hif, double lod, double hid) {
  return [=](Rng &r, Ty t) {
    return t == Ty::Float ? r.uniformFp(t, lof, hif) : r.uniformFp(t, lod, hid);
  };
}
Rnd logu(int emin, int emax, bool neg = true) {
  return [=](Rng &r, Ty t) { return r.logUniform(t, emin, emax, neg); };
}
// Positive values of every exponent, denormals included.
Rnd posAll() {
  return [](Rng &r, Ty t) { return r.logUniform(t, minExp(t) - mantBits(t), maxExp(t), false); };
}
Rnd anyMix(double lo, double hi) { return mix(anyBits(), uni(lo, hi)); }
Rnd anyLog(int emin, int emax) { return mix(anyBits(), logu(emin, emax)); }
Rnd intRange(int lo, int hi) {
  return [=](Rng &r, Ty) { return Val::i(Ty::Int, r.range(lo, hi)); };
}
Rnd intRangeFD(int lof, int hif, int lod, int hid) {
  return [=](Rng &r, Ty t) {
    return t == Ty::Float ? Val::i(Ty::Int, r.range(lof, hif)) : Val::i(Ty::Int, r.range(lod, hid));
  };
}

bool special(long double x) { return x == 0 || std::isinf(x) || std::isnan(x); }
bool isInt(long double x) { return std::isfinite(x) && std::floor(x) == x; }

Tol ulp(double u) { return Tol::ulp(u); }
Tol cr() { return Tol::ulp(0.5); } // "correctly rounded"
Tol exact() { return Tol::exact(); }

std::vector<MathFn> mathFns() {
  std::vector<MathFn> v;
  auto add = [&](MathFn f) { v.push_back(std::move(f)); };
  auto zeroIn = [](long double a, long double, long double) { return a == 0; };

  // ---- trigonometric -----------------------------------------------------------
  add({"acos", "trig", Sig::F, ulp(4), ulp(4), REF(std::acos(a)), {anyMix(-1, 1)}});
  add({"acospi", "trig", Sig::F, ulp(5), ulp(5), REF(ref::acospi(a)), {anyMix(-1, 1)}});
  add({"asin", "trig", Sig::F, ulp(4), ulp(4), REF(std::asin(a)), {anyMix(-1, 1)}});
  add({"asinpi", "trig", Sig::F, ulp(5), ulp(5), REF(ref::asinpi(a)), {anyMix(-1, 1)}});
  add({"atan", "trig", Sig::F, ulp(5), ulp(5), REF(std::atan(a)), {anyLog(-30, 30)}});
  add({"atanpi",
       "trig",
       Sig::F,
       ulp(5),
       ulp(5),
       REF(ref::atanpi(a)),
       {anyLog(-30, 30)},
       [](long double a, long double, long double) { return std::isinf(a); }});
  add({"atan2",
       "trig",
       Sig::FF,
       ulp(6),
       ulp(6),
       REF(std::atan2(a, b)),
       {anyLog(-30, 30), anyLog(-30, 30)}});
  add({"atan2pi",
       "trig",
       Sig::FF,
       ulp(6),
       ulp(6),
       REF(ref::atan2pi(a, b)),
       {anyLog(-30, 30), anyLog(-30, 30)},
       [](long double a, long double b, long double) { return special(a) || special(b); }});
  add({"acosh",
       "trig",
       Sig::F,
       ulp(4),
       ulp(4),
       REF(std::acosh(a)),
       {mix(anyBits(), logu(0, 40, false))}});
  add({"asinh", "trig", Sig::F, ulp(4), ulp(4), REF(std::asinh(a)), {anyLog(-30, 40)}});
  add({"atanh", "trig", Sig::F, ulp(5), ulp(5), REF(std::atanh(a)), {anyMix(-1, 1)}});
  add({"cos", "trig", Sig::F, ulp(4), ulp(4), REF(std::cos(a)), {anyMix(-100, 100)}, zeroIn});
  add({"cosh",
       "trig",
       Sig::F,
       ulp(4),
       ulp(4),
       REF(std::cosh(a)),
       {mix(anyBits(), uniFD(-90, 90, -711, 711))},
       zeroIn});
  add({"cospi",
       "trig",
       Sig::F,
       ulp(4),
       ulp(4),
       REF(ref::cospi(a)),
       {anyMix(-10, 10)},
       [](long double a, long double, long double) { return a == 0 || isInt(a - 0.5L); }});
  add({"sin", "trig", Sig::F, ulp(4), ulp(4), REF(std::sin(a)), {anyMix(-100, 100)}});
  add({"sinh",
       "trig",
       Sig::F,
       ulp(4),
       ulp(4),
       REF(std::sinh(a)),
       {mix(anyBits(), uniFD(-90, 90, -711, 711))}});
  add({"sinpi",
       "trig",
       Sig::F,
       ulp(4),
       ulp(4),
       REF(ref::sinpi(a)),
       {anyMix(-10, 10)},
       [](long double a, long double, long double) { return isInt(a); }});
  add({"tan", "trig", Sig::F, ulp(5), ulp(5), REF(std::tan(a)), {anyMix(-100, 100)}});
  add({"tanh",
       "trig",
       Sig::F,
       ulp(5),
       ulp(5),
       REF(std::tanh(a)),
       {anyMix(-20, 20)},
       [](long double a, long double, long double) { return std::isinf(a); }});
  add({"tanpi",
       "trig",
       Sig::F,
       ulp(6),
       ulp(6),
       REF(ref::tanpi(a)),
       {anyMix(-10, 10)},
       [](long double a, long double, long double) { return isInt(a) || isInt(a - 0.5L); }});
  {
    MathFn f{"sincos", "trig", Sig::FpF, ulp(4), ulp(4), REF(std::sin(a)), {anyMix(-100, 100)}};
    f.custom = [](Ty t, const std::vector<Val> &in, const std::vector<Val> &out) {
      long double x = in[0].asLD();
      long double s = t == Ty::Float ? std::sin(static_cast<double>(x)) : std::sin(x);
      long double c = t == Ty::Float ? std::cos(static_cast<double>(x)) : std::cos(x);
      Verdict vs = checkFp(t, s, out[0], Tol::ulp(4));
      Tol tc = x == 0 ? Tol::exact() : Tol::ulp(4); // cos(+-0) = 1 (C99 F.9.1.5)
      Verdict vc = checkFp(t, c, out[1], tc);
      if (!vs.ok) {
        vs.note += " (sine value)";
        return vs;
      }
      if (!vc.ok) {
        vc.note += " (cosine value, stored through the pointer)";
        return vc;
      }
      return Verdict::pass(std::max(vs.err, vc.err));
    };
    add(f);
  }

  // ---- exponential, logarithm, power, roots --------------------------------------
  add({"exp",
       "explog",
       Sig::F,
       ulp(3),
       ulp(3),
       REF(std::exp(a)),
       {mix(anyBits(), uniFD(-110, 90, -750, 710))},
       zeroIn});
  add({"exp2",
       "explog",
       Sig::F,
       ulp(3),
       ulp(3),
       REF(std::exp2(a)),
       {mix(anyBits(), uniFD(-155, 130, -1080, 1030))},
       zeroIn});
  add({"exp10",
       "explog",
       Sig::F,
       ulp(3),
       ulp(3),
       REF(ref::exp10_(a)),
       {mix(anyBits(), uniFD(-46, 40, -330, 310))},
       zeroIn});
  add({"expm1",
       "explog",
       Sig::F,
       ulp(3),
       ulp(3),
       REF(std::expm1(a)),
       {mix(anyBits(), uniFD(-20, 90, -40, 710))}});
  add({"log", "explog", Sig::F, ulp(3), ulp(3), REF(std::log(a)), {mix(anyBits(), posAll())}});
  add({"log2", "explog", Sig::F, ulp(3), ulp(3), REF(std::log2(a)), {mix(anyBits(), posAll())}});
  add({"log10", "explog", Sig::F, ulp(3), ulp(3), REF(std::log10(a)), {mix(anyBits(), posAll())}});
  add({"log1p",
       "explog",
       Sig::F,
       ulp(2),
       ulp(2),
       REF(std::log1p(a)),
       {mix(anyBits(), mix(uni(-1, 1), posAll()))}});
  add({"logb", "explog", Sig::F, exact(), exact(), REF(std::logb(a)), {anyBits()}});
  add({"pow",
       "explog",
       Sig::FF,
       ulp(16),
       ulp(16),
       REF(std::pow(a, b)),
       {mix(anyBits(), logu(-20, 20)), mix(anyBits(), uni(-40, 40))},
       [](long double a, long double b, long double) {
         return b == 0 || a == 1 ||
                std::isinf(b); // pow(x, +-0) = 1, pow(1, y) = 1, pow(-1, +-inf) = 1
       }});
  {
    // pow with x < 0 and integral y, where the result is defined.
    MathFn f{"pow",
             "explog",
             Sig::FF,
             ulp(16),
             ulp(16),
             REF(std::pow(a, b)),
             {logu(-8, 8),
              [](Rng &r, Ty t) { return Val::fp(t, static_cast<long double>(r.range(-60, 60))); }}};
    f.name = "pow";
    f.category = "explog2";
    add(f);
  }
  add({"powr",
       "explog",
       Sig::FF,
       ulp(16),
       ulp(16),
       REF(ref::powr(a, b)),
       {mix(anyBits(), logu(-20, 20, false)), mix(anyBits(), uni(-40, 40))},
       [](long double a, long double b, long double) {
         return (b == 0 && a > 0 && std::isfinite(a)) || (a == 1 && std::isfinite(b));
       }});
  add({"pown",
       "explog",
       Sig::FI,
       ulp(16),
       ulp(16),
       REF(ref::pown(a, b)),
       {mix(anyBits(), logu(-20, 20)), intRange(-60, 60)},
       [](long double, long double b, long double) { return b == 0; }});
  add({"rootn",
       "explog",
       Sig::FI,
       ulp(16),
       ulp(16),
       REF(ref::rootn(a, b)),
       {mix(anyBits(), posAll()), intRange(-12, 12)}});
  add({"sqrt", "explog", Sig::F, ulp(3), cr(), REF(std::sqrt(a)), {mix(anyBits(), posAll())}});
  add({"rsqrt", "explog", Sig::F, ulp(2), ulp(2), REF(ref::rsqrt(a)), {mix(anyBits(), posAll())}});
  add({"cbrt", "explog", Sig::F, ulp(2), ulp(2), REF(std::cbrt(a)), {anyLog(-60, 60)}});
  add({"hypot",
       "explog",
       Sig::FF,
       ulp(4),
       ulp(4),
       REF(std::hypot(a, b)),
       {anyLog(-60, 60), anyLog(-60, 60)}});

  // ---- special functions ----------------------------------------------------------
  add({"erf",
       "special",
       Sig::F,
       ulp(16),
       ulp(16),
       REF(std::erf(a)),
       {anyMix(-6, 6)},
       [](long double a, long double, long double) { return std::isinf(a); }});
  add({"erfc",
       "special",
       Sig::F,
       ulp(16),
       ulp(16),
       REF(std::erfc(a)),
       {mix(anyBits(), uniFD(-5, 12, -7, 28))},
       [](long double a, long double, long double) { return std::isinf(a); }});
  add({"tgamma",
       "special",
       Sig::F,
       ulp(16),
       ulp(16),
       REF(std::tgamma(a)),
       {mix(anyBits(), uniFD(-40, 36, -180, 172))}});
  {
    // lgamma: "Undefined" accuracy (s7.4); only the values C99 F.9.5.3 prescribes are
    // checked (lgamma(1) = lgamma(2) = +0, +inf at non-positive integers and +-inf).
    MathFn f{"lgamma",
             "special",
             Sig::F,
             Tol::any(),
             Tol::any(),
             REF(std::lgamma(a)),
             {anyMix(-50, 50)},
             [](long double a, long double, long double) {
               return a == 1 || a == 2 || std::isinf(a) || std::isnan(a) || (a <= 0 && isInt(a));
             }};
    add(f);
    MathFn g{"lgamma_r", "special",           Sig::FpI,         Tol::any(),
             Tol::any(), REF(std::lgamma(a)), {anyMix(-50, 50)}};
    g.custom = [](Ty t, const std::vector<Val> &in, const std::vector<Val> &out) {
      long double x = in[0].asLD();
      bool presc = x == 1 || x == 2 || std::isinf(x) || std::isnan(x) || (x <= 0 && isInt(x));
      long double r = t == Ty::Float ? std::lgamma(static_cast<double>(x)) : std::lgamma(x);
      Verdict v = checkFp(t, r, out[0], presc ? Tol::exact() : Tol::any());
      if (!v.ok)
        return v;
      int32_t s = static_cast<int32_t>(out[1].asI());
      if (std::isnan(x) || std::isinf(x))
        return v; // sign unspecified there
      int want =
          (x <= 0 && isInt(x)) ? 0 : ref::gammaSign(x); // s7.5.1: 0 at zero and negative integers
      if (s != want)
        return Verdict::fail("sign " + std::to_string(want), "value stored in *signp");
      return v;
    };
    add(g);
  }

  // ---- exact functions ------------------------------------------------------------
  add({"ceil", "exact", Sig::F, exact(), exact(), REF(std::ceil(a)), {anyMix(-100, 100)}});
  add({"floor", "exact", Sig::F, exact(), exact(), REF(std::floor(a)), {anyMix(-100, 100)}});
  add({"trunc", "exact", Sig::F, exact(), exact(), REF(std::trunc(a)), {anyMix(-100, 100)}});
  add({"round", "exact", Sig::F, exact(), exact(), REF(std::round(a)), {anyMix(-100, 100)}});
  add({"rint", "exact", Sig::F, exact(), exact(), REF(std::rint(a)), {anyMix(-100, 100)}});
  add({"fabs", "exact", Sig::F, exact(), exact(), REF(std::fabs(a)), {anyBits()}});
  add({"copysign",
       "exact",
       Sig::FF,
       exact(),
       exact(),
       REF(std::copysign(a, b)),
       {anyBits(), anyBits()}});
  add({"fmod",
       "exact",
       Sig::FF,
       exact(),
       exact(),
       REF(std::fmod(a, b)),
       {anyLog(-20, 60), anyLog(-20, 20)}});
  add({"remainder",
       "exact",
       Sig::FF,
       exact(),
       exact(),
       REF(std::remainder(a, b)),
       {anyLog(-20, 60), anyLog(-20, 20)}});
  add({"fmax",
       "exact",
       Sig::FF,
       exact(),
       exact(),
       REF(std::fmax(a, b)),
       {anyMix(-4, 4), anyMix(-4, 4)}});
  add({"fmin",
       "exact",
       Sig::FF,
       exact(),
       exact(),
       REF(std::fmin(a, b)),
       {anyMix(-4, 4), anyMix(-4, 4)}});
  v[v.size() - 2].zeroSignFree = v[v.size() - 1].zeroSignFree =
      true; // C99 F.9.9.2: sign of zero not required
  {
    MathFn f{"fmax",
             "exact",
             Sig::FS,
             exact(),
             exact(),
             REF(std::fmax(a, b)),
             {anyMix(-4, 4), anyMix(-4, 4)}};
    f.zeroSignFree = true;
    add(f);
    f.name = "fmin";
    f.rf = [](double a, double b, double) { return std::fmin(a, b); };
    f.rd = [](long double a, long double b, long double) { return std::fmin(a, b); };
    add(f);
  }
  add({"maxmag",
       "exact",
       Sig::FF,
       exact(),
       exact(),
       REF(ref::maxmag(a, b)),
       {anyMix(-4, 4), anyMix(-4, 4)}});
  add({"minmag",
       "exact",
       Sig::FF,
       exact(),
       exact(),
       REF(ref::minmag(a, b)),
       {anyMix(-4, 4), anyMix(-4, 4)}});
  v[v.size() - 2].zeroSignFree = v[v.size() - 1].zeroSignFree = true; // ties are fmax / fmin
  add({"fdim",
       "exact",
       Sig::FF,
       cr(),
       cr(),
       REF(ref::fdim(a, b)),
       {anyLog(-30, 30), anyLog(-30, 30)}});
  {
    // nextafter in the type itself (the result is exact).
    MathFn f{"nextafter",
             "exact",
             Sig::FF,
             exact(),
             exact(),
             [](double a, double b, double) -> double {
               return std::nextafter(static_cast<float>(a), static_cast<float>(b));
             },
             [](long double a, long double b, long double) -> long double {
               return std::nextafter(static_cast<double>(a), static_cast<double>(b));
             },
             {anyBits(), anyBits()}};
    add(f);
  }
  add({"ldexp",
       "exact",
       Sig::FI,
       cr(),
       cr(),
       REF(std::ldexp(a, static_cast<int>(b))),
       {anyBits(), intRangeFD(-300, 300, -2200, 2200)}});
  add({"ldexp",
       "exact",
       Sig::Fi,
       cr(),
       cr(),
       REF(std::ldexp(a, static_cast<int>(b))),
       {anyBits(), intRangeFD(-300, 300, -2200, 2200)}});
  {
    MathFn f{"fma",
             "exact",
             Sig::FFF,
             exact(),
             exact(),
             [](double a, double b, double c) -> double {
               return std::fma(static_cast<float>(a), static_cast<float>(b), static_cast<float>(c));
             },
             [](long double a, long double b, long double c) -> long double {
               return std::fma(static_cast<double>(a), static_cast<double>(b),
                               static_cast<double>(c));
             },
             {anyLog(-30, 30), anyLog(-30, 30), anyLog(-60, 60)}};
    add(f);
    // fma where c nearly cancels a*b: only a fused operation gets these right.
    f.category = "exact2";
    f.rnd = {logu(-10, 10), logu(-10, 10), nullptr};
    add(f);
  }
  {
    // mad: float "either a correctly rounded fma or a multiply followed by an add both
    // of which are correctly rounded"; double "any value allowed (infinite ulp)".
    MathFn f{"mad",
             "exact",
             Sig::FFF,
             exact(),
             Tol::any(),
             REF(a),
             {anyLog(-30, 30), anyLog(-30, 30), anyLog(-60, 60)}};
    f.custom = [](Ty t, const std::vector<Val> &in, const std::vector<Val> &out) {
      if (t == Ty::Double)
        return Verdict::pass();
      float a = in[0].asF(), b = in[1].asF(), c = in[2].asF();
      volatile float p = a * b;
      float sep = p + c;
      float fused = std::fma(a, b, c);
      Val g = out[0];
      if (checkExact(Val::f(sep), g).ok || checkExact(Val::f(fused), g).ok)
        return Verdict::pass();
      return Verdict::fail(Val::f(fused).str() + " (fma) or " + Val::f(sep).str() + " (mul + add)");
    };
    add(f);
  }
  {
    MathFn f{"fract", "exact", Sig::FpF, cr(), cr(), REF(a), {anyMix(-100, 100)}};
    f.custom = [](Ty t, const std::vector<Val> &in, const std::vector<Val> &out) {
      long double x = in[0].asLD();
      long double fl = std::floor(x);
      long double fr;
      if (std::isnan(x))
        fr = NAN;
      else if (std::isinf(x))
        fr = std::copysign(0.0L, x);
      else {
        // "shall not return a value greater than or equal to 1.0": min(x - floor(x), 1 - ulp)
        long double below1 = t == Ty::Float ? 0x1.fffffep-1L : 0x1.fffffffffffffp-1L;
        long double d = x - fl; // exact in long double for |x| < 2^64, else 0
        long double rounded = Val::fp(t, d).asLD();
        fr = std::min(rounded, below1);
        if (x == 0)
          fr = x; // fract(+-0) = +-0
      }
      Verdict v = checkExact(Val::fp(t, fr), out[0]);
      if (!v.ok) {
        v.note = "fractional part";
        return v;
      }
      Verdict w = checkExact(Val::fp(t, std::isnan(x) ? x : fl), out[1]);
      if (!w.ok)
        w.note = "*iptr (floor)";
      return w;
    };
    add(f);
  }
  {
    MathFn f{"modf", "exact", Sig::FpF, exact(), exact(), REF(a), {anyMix(-100, 100)}};
    f.custom = [](Ty t, const std::vector<Val> &in, const std::vector<Val> &out) {
      long double x = in[0].asLD();
      long double ip = std::trunc(x);
      long double fr = std::copysign(std::isinf(x) ? 0.0L : x - ip, x); // s7.5.2
      if (std::isnan(x))
        fr = ip = NAN;
      Verdict v = checkExact(Val::fp(t, fr), out[0]);
      if (!v.ok) {
        v.note = "fractional part";
        return v;
      }
      Verdict w = checkExact(Val::fp(t, ip), out[1]);
      if (!w.ok)
        w.note = "*iptr (integral part)";
      return w;
    };
    add(f);
  }
  {
    MathFn f{"frexp", "exact", Sig::FpI, exact(), exact(), REF(a), {anyBits()}};
    f.custom = [](Ty t, const std::vector<Val> &in, const std::vector<Val> &out) {
      long double x = in[0].asLD();
      int e = 0;
      long double m = std::frexp(x, &e);
      if (!std::isfinite(x))
        e = 0; // s7.5.1: frexp(+-inf / NaN) stores 0
      Verdict v = checkExact(Val::fp(t, m), out[0]);
      if (!v.ok) {
        v.note = "mantissa";
        return v;
      }
      if (static_cast<int32_t>(out[1].asI()) != e)
        return Verdict::fail("exponent " + std::to_string(e), "*exp");
      return v;
    };
    add(f);
  }
  {
    MathFn f{
        "remquo", "exact", Sig::FFpI, exact(), exact(), REF(a), {anyLog(-20, 60), anyLog(-20, 20)}};
    f.custom = [](Ty t, const std::vector<Val> &in, const std::vector<Val> &out) {
      long double x = in[0].asLD(), y = in[1].asLD();
      long double r = std::remainder(x, y);
      Verdict v = checkExact(Val::fp(t, r), out[0]);
      if (!v.ok) {
        v.note = "remainder";
        return v;
      }
      int32_t q = static_cast<int32_t>(out[1].asI());
      if (std::isnan(r)) {
        // s7.5.1: NaN and 0 in quo for x = +-inf, y = 0 (other non-NaN), or a NaN argument
        if (q != 0)
          return Verdict::fail("quo 0", "*quo for a NaN result");
        return v;
      }
      // The low 7 bits of the integral quotient k (x = k*y + r), sign of x/y.
      long double ay = std::fabs(y), ax = std::fabs(x);
      long double r1 = std::fmod(ax, 128 * ay); // exact
      long double rr = std::remainder(r1, ay);  // exact
      long double m = (r1 - rr) / ay;           // exact, 0..128
      int k = static_cast<int>(m) & 127;
      bool neg = std::signbit(x) != std::signbit(y);
      int want = neg ? -k : k;
      if (q != want && !(k == 0 && q == 0))
        return Verdict::fail("quo " + std::to_string(want),
                             "*quo: low 7 bits of the quotient, sign of x/y");
      return v;
    };
    add(f);
  }
  {
    MathFn f{"ilogb", "exact", Sig::IF, exact(), exact(), REF(a), {anyBits()}};
    add(f);
  }
  {
    MathFn f{"nan", "exact", Sig::NaN, exact(), exact(), REF(a), {anyBits()}};
    add(f);
  }
  return v;
}

// half_*: s7.4 "<= 8192 ulp"; s6.15.2: half_cos/sin/tan need |x| <= 2^16, half_powr
// x >= 0; s7.5.1: same edge cases as the full functions; denormals optional.
std::vector<MathFn> halfFns() {
  std::vector<MathFn> v;
  auto add = [&](MathFn f) {
    f.category = "half";
    f.floatOnly = true;
    f.ftz = true;
    f.name = "half_" + f.name;
    v.push_back(std::move(f));
  };
  auto trigDom = [](Ty, long double a, long double, long double) {
    return std::isfinite(a) && std::fabs(a) > 0x1p16L;
  };
  auto zeroIn = [](long double a, long double, long double) { return a == 0; };
  Tol t = ulp(8192);
  MathFn f;
  f = {"cos", "", Sig::F, t, t, REF(std::cos(a)), {anyMix(-70000, 70000)}, zeroIn, trigDom};
  add(f);
  f = {"sin", "", Sig::F, t, t, REF(std::sin(a)), {anyMix(-70000, 70000)}, nullptr, trigDom};
  add(f);
  f = {"tan", "", Sig::F, t, t, REF(std::tan(a)), {anyMix(-70000, 70000)}, nullptr, trigDom};
  add(f);
  f = {"divide", "", Sig::FF, t, t, REF(a / b), {anyLog(-60, 60), anyLog(-60, 60)}};
  add(f);
  f = {"exp", "", Sig::F, t, t, REF(std::exp(a)), {mix(anyBits(), uni(-110, 90))}, zeroIn};
  add(f);
  f = {"exp2", "", Sig::F, t, t, REF(std::exp2(a)), {mix(anyBits(), uni(-155, 130))}, zeroIn};
  add(f);
  f = {"exp10", "", Sig::F, t, t, REF(ref::exp10_(a)), {mix(anyBits(), uni(-46, 40))}, zeroIn};
  add(f);
  f = {"log", "", Sig::F, t, t, REF(std::log(a)), {mix(anyBits(), posAll())}};
  add(f);
  f = {"log2", "", Sig::F, t, t, REF(std::log2(a)), {mix(anyBits(), posAll())}};
  add(f);
  f = {"log10", "", Sig::F, t, t, REF(std::log10(a)), {mix(anyBits(), posAll())}};
  add(f);
  f = {"powr",
       "",
       Sig::FF,
       t,
       t,
       REF(ref::powr(a, b)),
       {mix(anyBits(), logu(-20, 20, false)), mix(anyBits(), uni(-40, 40))},
       [](long double a, long double b, long double) {
         return (b == 0 && a > 0 && std::isfinite(a)) || (a == 1 && std::isfinite(b));
       },
       [](Ty, long double a, long double, long double) { return a < 0; }};
  add(f);
  f = {"recip", "", Sig::F, t, t, REF(1 / a), {anyLog(-130, 130)}};
  add(f);
  f = {"rsqrt", "", Sig::F, t, t, REF(ref::rsqrt(a)), {mix(anyBits(), posAll())}};
  add(f);
  f = {"sqrt", "", Sig::F, t, t, REF(std::sqrt(a)), {mix(anyBits(), posAll())}};
  add(f);
  return v;
}

// native_*: range and accuracy are implementation-defined (s6.15.2, s7.4). The suite
// only checks, over a moderate domain chosen here (not by the specification), that
// results are finite where the function is and within a sanity bound of 2^-10
// relative (or 2^-20 absolute); it is not a conformance requirement.
std::vector<MathFn> nativeFns() {
  std::vector<MathFn> v;
  auto add = [&](MathFn f) {
    f.category = "native";
    f.floatOnly = true;
    f.nativeSanity = 1;
    f.name = "native_" + f.name;
    v.push_back(std::move(f));
  };
  Tol t = Tol::any();
  MathFn f;
  f = {"cos", "", Sig::F, t, t, REF(std::cos(a)), {uni(-1000, 1000)}};
  add(f);
  f = {"sin", "", Sig::F, t, t, REF(std::sin(a)), {uni(-1000, 1000)}};
  add(f);
  f = {"tan", "", Sig::F, t, t, REF(std::tan(a)), {uni(-1.5, 1.5)}};
  add(f);
  f = {"divide", "", Sig::FF, t, t, REF(a / b), {logu(-60, 60), logu(-60, 60)}};
  add(f);
  f = {"exp", "", Sig::F, t, t, REF(std::exp(a)), {uni(-80, 80)}};
  add(f);
  f = {"exp2", "", Sig::F, t, t, REF(std::exp2(a)), {uni(-120, 120)}};
  add(f);
  f = {"exp10", "", Sig::F, t, t, REF(ref::exp10_(a)), {uni(-35, 35)}};
  add(f);
  f = {"log", "", Sig::F, t, t, REF(std::log(a)), {logu(-120, 120, false)}};
  add(f);
  f = {"log2", "", Sig::F, t, t, REF(std::log2(a)), {logu(-120, 120, false)}};
  add(f);
  f = {"log10", "", Sig::F, t, t, REF(std::log10(a)), {logu(-120, 120, false)}};
  add(f);
  f = {"powr", "", Sig::FF, t, t, REF(std::pow(a, b)), {logu(-10, 10, false), uni(-8, 8)}};
  add(f);
  f = {"recip", "", Sig::F, t, t, REF(1 / a), {logu(-120, 120)}};
  add(f);
  f = {"rsqrt", "", Sig::F, t, t, REF(ref::rsqrt(a)), {logu(-120, 120, false)}};
  add(f);
  f = {"sqrt", "", Sig::F, t, t, REF(std::sqrt(a)), {logu(-120, 120, false)}};
  add(f);
  return v;
}

// ---------------------------------------------------------------------------------
// Ops for one function, type and width.
Verdict ftzRetry(const MathFn &fn, Ty t, const std::vector<long double> &args, const Val &got,
                 const Tol &tol) {
  // s7.5.3 (edge case behaviour in flush to zero mode), allowed for half_*: a
  // denormal input may be flushed to zero (either sign), a denormal result may be
  // flushed to zero; the sign of a flushed zero is undefined.
  long double mn = minNormal(t);
  std::vector<std::vector<long double>> variants = {args};
  for (size_t k = 0; k < args.size(); ++k) {
    if (args[k] != 0 && std::fabs(args[k]) < mn) {
      std::vector<std::vector<long double>> more;
      for (auto &a : variants)
        for (long double z : {0.0L, -0.0L}) {
          auto b = a;
          b[k] = z;
          more.push_back(b);
        }
      variants.insert(variants.end(), more.begin(), more.end());
    }
  }
  Verdict first;
  for (size_t i = 0; i < variants.size(); ++i) {
    auto &a = variants[i];
    long double a1 = a.size() > 1 ? a[1] : 0, a2 = a.size() > 2 ? a[2] : 0;
    long double ref =
        t == Ty::Float
            ? static_cast<long double>(fn.rf(static_cast<double>(a[0]), static_cast<double>(a1),
                                             static_cast<double>(a2)))
            : fn.rd(a[0], a1, a2);
    Verdict v = checkFp(t, ref, got, tol, i > 0);
    if (v.ok)
      return v;
    if (std::fabs(ref) < mn && got.isZero())
      return Verdict::pass();
    if (i == 0)
      first = v;
  }
  return first;
}

Verdict checkMathLane(const MathFn &fn, Ty t, const std::vector<long double> &args,
                      const Val &got) {
  long double a = args[0], b = args.size() > 1 ? args[1] : 0, c = args.size() > 2 ? args[2] : 0;
  if (fn.skip && fn.skip(t, a, b, c))
    return Verdict::skip();
  long double ref =
      t == Ty::Float ? static_cast<long double>(fn.rf(
                           static_cast<double>(a), static_cast<double>(b), static_cast<double>(c)))
                     : fn.rd(a, b, c);
  if (fn.nativeSanity) {
    if (!std::isfinite(ref) || std::fabs(ref) < minNormal(t) || std::fabs(ref) > maxFinite(t))
      return Verdict::skip();
    long double g = got.asLD();
    long double e = std::fabs(g - ref);
    if (std::isfinite(g) && (e <= std::fabs(ref) * 0x1p-10L || e <= 0x1p-20L))
      return Verdict::pass(static_cast<double>(e / std::fabs(ref)));
    return Verdict::fail(fmtLD(ref), "native_* sanity bound (not a spec requirement)");
  }
  Tol tol = t == Ty::Float ? fn.tolF : fn.tolD;
  bool anySpecial = false;
  for (long double x : args)
    anySpecial |= special(x);
  bool presc = (fn.prescribed && fn.prescribed(a, b, c)) ||
               (anySpecial && (ref == 0 || std::isinf(ref) || std::isnan(ref)));
  if (presc && tol.kind != Tol::Exact) {
    // Values s7.5 / C99 F.9 prescribe: exactly, no rounding allowance.
    Verdict v = checkFp(t, ref, got, Tol::exact(), fn.zeroSignFree);
    if (!v.ok)
      v.note += (v.note.empty() ? "" : "; ") + std::string("prescribed special value (s7.5)");
    if (!v.ok && fn.ftz)
      return ftzRetry(fn, t, args, got, Tol::exact());
    return v;
  }
  if (tol.kind == Tol::Any) {
    Verdict v = Verdict::pass();
    if (std::isfinite(ref) && std::isfinite(got.asLD()))
      v.err = ulpError(t, ref, got);
    return v;
  }
  // A zero reference outside the prescribed cases is an underflow: the ulp bound
  // measures |got - ref|, so for approximate functions either zero is within it.
  bool zsf = fn.zeroSignFree || (tol.kind == Tol::Ulp && tol.v > 0.5);
  Verdict v = checkFp(t, ref, got, tol, zsf);
  if (!v.ok && fn.ftz)
    return ftzRetry(fn, t, args, got, tol);
  return v;
}

std::string specTol(const MathFn &fn, Ty t) {
  if (fn.nativeSanity)
    return "impl-defined; sanity 2^-10 rel";
  Tol tol = t == Ty::Float ? fn.tolF : fn.tolD;
  if (tol.kind == Tol::Ulp && tol.v == 0.5)
    return "correctly rounded";
  if (fn.name == "lgamma" || fn.name == "lgamma_r")
    return "undefined; special values exact";
  if (fn.name == "mad")
    return t == Ty::Float ? "fma or mul+add" : "any value";
  return tol.str();
}

void addMathOps(std::vector<Op> &ops, const MathFn &fn, Ty t, int w) {
  std::string T = vecName(t, w);
  std::string IT = vecName(Ty::Int, w);
  Ty ity = t == Ty::Float ? Ty::UInt : Ty::ULong;
  std::vector<Val> fe = floatEdges(t), fs = floatEdgesSmall(t);
  if (fn.nativeSanity)
    fe.clear(), fs.clear(); // implementation-defined range: no edges
  std::vector<Val> ie;
  for (int64_t n : {0LL, 1LL, -1LL, 2LL, -2LL, 3LL, -3LL, 4LL, 5LL, -5LL, 24LL, -24LL, 150LL,
                    -150LL, 1100LL, -1100LL, (long long)INT_MAX, (long long)INT_MIN})
    ie.push_back(Val::i(Ty::Int, n));

  auto rndT = [&](size_t k) -> std::function<Val(Rng &)> {
    Rnd r = fn.rnd.size() > k ? fn.rnd[k] : anyBits();
    if (!r)
      r = anyBits();
    return [r, t](Rng &g) { return r(g, t); };
  };
  auto rndI = [&](size_t k) -> std::function<Val(Rng &)> {
    Rnd r = fn.rnd.size() > k && fn.rnd[k] ? fn.rnd[k] : intRange(-100, 100);
    return [r, t](Rng &g) { return r(g, t); };
  };

  Op base;
  base.func = fn.name;
  base.width = w;
  base.tolerance = specTol(fn, t);
  base.reportErr = true;

  auto laneCheckFloat = [fn, t](size_t nargs) {
    return [fn, t, nargs](const std::vector<Val> &in, const std::vector<Val> &out) {
      std::vector<long double> args;
      for (size_t k = 0; k < nargs; ++k)
        args.push_back(in[k].asLD());
      if (fn.custom)
        return fn.custom(t, in, out);
      return checkMathLane(fn, t, args, out[0]);
    };
  };

  switch (fn.sig) {
  case Sig::F:
  case Sig::FF:
  case Sig::FFF: {
    size_t n = fn.sig == Sig::F ? 1 : fn.sig == Sig::FF ? 2 : 3;
    Op op = base;
    op.label = T;
    std::string args;
    for (size_t k = 0; k < n; ++k) {
      op.in.push_back({t});
      args += (k ? ", $i" : "$i") + std::to_string(k);
    }
    op.out = {{t}};
    op.body = "$o0 = " + fn.name + "(" + args + ");";
    std::vector<std::vector<Val>> edges(n, n == 3 ? fs : fe);
    std::vector<std::function<Val(Rng &)>> rnd;
    for (size_t k = 0; k < n; ++k)
      rnd.push_back(rndT(k));
    if (fn.category == "exact2") {
      // fma with c ~ -(a*b): the cancellation exposes an unfused multiply-add.
      edges.assign(3, {});
      op.func = "fma";
      op.label = T + " (c ~ -a*b)";
      op.gen = [t](Rng &r, size_t, int, std::vector<std::vector<Val>> &in) {
        for (size_t i = 0; i < in[0].size(); ++i) {
          Val a = r.logUniform(t, -10, 10), b = r.logUniform(t, -10, 10);
          long double p = a.asLD() * b.asLD();
          Val c = Val::fp(t, -p);
          // perturb by a few ulps
          int64_t d = r.range(-4, 4);
          c = Val::raw(t, c.bits + static_cast<uint64_t>(d));
          in[0][i] = a;
          in[1][i] = b;
          in[2][i] = c;
        }
      };
      op.minLanes = kRandomLanes;
    } else {
      op.gen = edgeThenRandom(edges, rnd);
      op.minLanes = cartesianSize(edges) + kRandomLanes;
    }
    if (fn.category == "explog2")
      op.label = T + " (x < 0, integral y)";
    op.laneCheck = laneCheckFloat(n);
    ops.push_back(op);
    break;
  }
  case Sig::FS:
  case Sig::Fi: {
    if (w == 1)
      return;
    bool isInt = fn.sig == Sig::Fi;
    Op op = base;
    op.label = T + "," + (isInt ? "int" : tyName(t));
    op.in = {{t}, {isInt ? Ty::Int : t, true}};
    op.out = {{t}};
    op.body = "$o0 = " + fn.name + "($i0, $i1);";
    std::vector<std::vector<Val>> edges = {fs, isInt ? ie : fs};
    op.gen = edgeThenRandom(edges, {rndT(0), isInt ? rndI(1) : rndT(1)});
    op.minLanes = cartesianSize(edges) * static_cast<size_t>(w) + kRandomLanes;
    op.laneCheck = laneCheckFloat(2);
    ops.push_back(op);
    break;
  }
  case Sig::FI: {
    Op op = base;
    op.label = T + "," + IT;
    op.in = {{t}, {Ty::Int}};
    op.out = {{t}};
    op.body = "$o0 = " + fn.name + "($i0, $i1);";
    std::vector<std::vector<Val>> edges = {fe, ie};
    op.gen = edgeThenRandom(edges, {rndT(0), rndI(1)});
    op.minLanes = cartesianSize(edges) + kRandomLanes;
    op.laneCheck = laneCheckFloat(2);
    ops.push_back(op);
    break;
  }
  case Sig::IF: {
    Op op = base;
    op.label = T;
    op.in = {{t}};
    op.out = {{Ty::Int}, {Ty::Int}, {Ty::Int}};
    op.body = "$o0 = ilogb($i0); $o1 = (" + IT + ")(FP_ILOGB0); $o2 = (" + IT + ")(FP_ILOGBNAN);";
    op.gen = edgeThenRandom({fe}, {rndT(0)});
    op.minLanes = fe.size() + kRandomLanes;
    op.reportErr = false;
    op.laneCheck = [](const std::vector<Val> &in, const std::vector<Val> &out) {
      int32_t z = static_cast<int32_t>(out[1].asI()), nn = static_cast<int32_t>(out[2].asI());
      if (z != INT_MIN && z != -INT_MAX)
        return Verdict::fail("INT_MIN or -INT_MAX", "FP_ILOGB0 (s6.15.2.1)");
      if (nn != INT_MAX && nn != INT_MIN)
        return Verdict::fail("INT_MAX or INT_MIN", "FP_ILOGBNAN (s6.15.2.1)");
      long double x = in[0].asLD();
      int32_t want = x == 0 ? z : std::isnan(x) ? nn : std::isinf(x) ? INT_MAX : std::ilogb(x);
      if (static_cast<int32_t>(out[0].asI()) == want)
        return Verdict::pass();
      return Verdict::fail(std::to_string(want));
    };
    ops.push_back(op);
    break;
  }
  case Sig::NaN: {
    Op op = base;
    op.label = vecName(ity, w);
    op.in = {{ity}};
    op.out = {{t}};
    op.body = "$o0 = nan($i0);";
    op.gen = edgeThenRandom({intEdges(ity)}, {[ity](Rng &r) { return r.anyBits(ity); }});
    op.reportErr = false;
    op.tolerance = "a quiet NaN";
    op.laneCheck = [](const std::vector<Val> &, const std::vector<Val> &out) {
      if (out[0].isNaN())
        return Verdict::pass();
      return Verdict::fail("NaN");
    };
    ops.push_back(op);
    break;
  }
  case Sig::FpF:
  case Sig::FpI:
  case Sig::FFpI: {
    bool two = fn.sig == Sig::FFpI;
    Ty pt = fn.sig == Sig::FpF ? t : Ty::Int;
    std::string PT = vecName(pt, w);
    std::vector<std::vector<Val>> edges =
        two ? std::vector<std::vector<Val>>{fe, fe} : std::vector<std::vector<Val>>{fe};
    std::vector<std::function<Val(Rng &)>> rnd = {rndT(0)};
    if (two)
      rnd.push_back(rndT(1));
    std::string args = two ? "$i0, $i1" : "$i0";
    // The pointer argument in three address spaces: private, global (the result
    // buffer itself) and generic (pointing to a private variable).
    for (int space = 0; space < 3; ++space) {
      Op op = base;
      op.label = T + (space == 0 ? ", private *" : space == 1 ? ", global *" : ", generic *");
      op.in = {{t}};
      if (two)
        op.in.push_back({t});
      op.out = {{t}, {pt}};
      if (space == 0) {
        op.body = "$o0 = " + fn.name + "(" + args + ", &$o1);";
      } else if (space == 1) {
        op.out[1].raw = true;
        op.out[1].stride = w == 3 ? 4 : w; // a __global T3 * steps by 4 elements
        op.body = "$o0 = " + fn.name + "(" + args + ", ((__global " + PT + "*)$O1) + gid);";
      } else {
        op.body = "{ " + PT + " t; " + PT + " *g = &t; $o0 = " + fn.name + "(" + args +
                  ", g); $o1 = t; }";
      }
      op.gen = edgeThenRandom(edges, rnd);
      op.minLanes = cartesianSize(edges) + kRandomLanes;
      Custom cu = fn.custom;
      op.laneCheck = [cu, t](const std::vector<Val> &in, const std::vector<Val> &out) {
        return cu(t, in, out);
      };
      ops.push_back(op);
    }
    break;
  }
  }
}

struct Param {
  std::string category;
  Ty ty;
};

class Math : public Suite, public ::testing::WithParamInterface<Param> {};

TEST_P(Math, AgainstReference) {
  const Param &p = GetParam();
  std::vector<MathFn> fns = p.category == "half"     ? halfFns()
                            : p.category == "native" ? nativeFns()
                                                     : mathFns();
  // Without CL_FP_DENORM the flush-to-zero allowances of s7.5.3 apply to every function.
  bool ftz = !denormsSupported(p.ty);
  std::vector<Op> ops;
  for (MathFn fn : fns) {
    std::string cat = fn.category == "explog2"  ? "explog"
                      : fn.category == "exact2" ? "exact"
                                                : fn.category;
    if (cat != p.category)
      continue;
    if (fn.floatOnly && p.ty != Ty::Float)
      continue;
    fn.ftz |= ftz;
    for (int w : kWidths)
      addMathOps(ops, fn, p.ty, w);
  }
  ASSERT_FALSE(ops.empty());
  runOps(ops, 1); // one builtin per kernel, as applications call them
  summary(("math " + p.category + " " + tyName(p.ty)).c_str());
}

INSTANTIATE_TEST_SUITE_P(Builtins, Math,
                         ::testing::Values(Param{"trig", Ty::Float}, Param{"trig", Ty::Double},
                                           Param{"explog", Ty::Float}, Param{"explog", Ty::Double},
                                           Param{"special", Ty::Float},
                                           Param{"special", Ty::Double}, Param{"exact", Ty::Float},
                                           Param{"exact", Ty::Double}, Param{"half", Ty::Float},
                                           Param{"native", Ty::Float}),
                         [](const ::testing::TestParamInfo<Param> &i) {
                           return i.param.category + "_" + tyName(i.param.ty);
                         });

} // namespace
} // namespace fclconf

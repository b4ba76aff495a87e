// Explicit conversions (OpenCL C 3.0 s6.4.3): convert_<dst><n>[_sat][_rte|_rtz|_rtp|_rtn]
// for every source and destination type (integer <-> integer, integer <-> float /
// double, float <-> double) and vector width; as_<type> reinterpretation (s6.4.4);
// vload_half / vloada_half / vstore_half / vstorea_half in every rounding mode
// (s6.15.11). Conversions must be correctly rounded (s7.4); float-to-integer without
// _sat is undefined out of range (s6.4.3.3), such inputs are skipped.
#include <cfloat>
#include <climits>
#include <cmath>

#include "harness.hpp"

namespace fclconf {
namespace {

using LD = long double;
using I128 = __int128;

enum Mode { Def, Rte, Rtz, Rtp, Rtn };
const char *kModeSfx[] = {"", "_rte", "_rtz", "_rtp", "_rtn"};

I128 tmin(Ty t) { return tyIsSigned(t) ? -(static_cast<I128>(1) << (tyBits(t) - 1)) : 0; }
I128 tmax(Ty t) {
  return tyIsSigned(t) ? (static_cast<I128>(1) << (tyBits(t) - 1)) - 1
                       : (static_cast<I128>(1) << tyBits(t)) - 1;
}
I128 ival(const Val &v) {
  return tyIsSigned(v.ty) ? static_cast<I128>(v.asI()) : static_cast<I128>(v.asU());
}
Val mkInt(Ty t, I128 x) {
  return Val::u(t, static_cast<uint64_t>(static_cast<unsigned __int128>(x)));
}

// v rounded to float / double in the given mode (v is exact in long double).
Val roundFp(Ty dst, LD v, Mode m) {
  if (std::isnan(v))
    return Val::fp(dst, v);
  Val r = Val::fp(dst, v); // round to nearest even
  if (m == Def || m == Rte)
    return r;
  LD rv = r.asLD();
  if (rv == v)
    return r;
  auto step = [&](bool up) {
    if (dst == Ty::Float)
      return Val::f(std::nextafter(r.asF(), up ? INFINITY : -INFINITY));
    return Val::d(std::nextafter(r.asD(), up ? INFINITY : -INFINITY));
  };
  if (m == Rtp && rv < v)
    return step(true);
  if (m == Rtn && rv > v)
    return step(false);
  if (m == Rtz && std::fabs(rv) > std::fabs(v))
    return step(rv < 0);
  return r;
}

LD roundInt(LD x, Mode m) {
  switch (m) {
  case Rte:
    return std::nearbyint(x); // the host runs in round-to-nearest-even
  case Rtp:
    return std::ceil(x);
  case Rtn:
    return std::floor(x);
  default:
    return std::trunc(x); // float -> integer default is _rtz (s6.4.3.1)
  }
}

// Expected result of convert_<dst>[_sat]<mode>(x); nullopt when undefined.
std::optional<Val> convRef(Ty dst, Ty src, bool sat, Mode m, const Val &x) {
  if (!tyIsFloat(dst)) {
    if (!tyIsFloat(src)) {
      I128 v = ival(x);
      if (sat)
        v = v < tmin(dst) ? tmin(dst) : v > tmax(dst) ? tmax(dst) : v;
      return mkInt(dst, v); // modulo 2^bits otherwise
    }
    LD f = x.asLD();
    if (std::isnan(f)) {
      if (sat)
        return mkInt(dst, 0); // _sat: NaN -> 0 (s6.4.3.3)
      return std::nullopt;
    }
    LD r = roundInt(f, m);
    if (r < static_cast<LD>(tmin(dst)) || r > static_cast<LD>(tmax(dst))) {
      if (!sat)
        return std::nullopt; // out of range without _sat: undefined
      return mkInt(dst, r < 0 ? tmin(dst) : tmax(dst));
    }
    return mkInt(dst, static_cast<I128>(r));
  }
  return roundFp(dst, x.asLD(), m);
}

// ---------------------------------------------------------------------------------
// Inputs.
std::vector<Val> convEdges(Ty dst, Ty src) {
  std::vector<Val> e;
  if (!tyIsFloat(src)) {
    e = intEdges(src);
    if (tyIsFloat(dst) && tyBits(src) >= 32) {
      // around the rounding boundaries of float (2^24) and double (2^53)
      for (int k : {24, 25, 31, 53, 54, 62, 63})
        for (int d : {-1, 1, 3}) {
          if (k >= tyBits(src) - (tyIsSigned(src) ? 1 : 0))
            continue;
          I128 v = (static_cast<I128>(1) << k) + d;
          e.push_back(mkInt(src, v));
          if (tyIsSigned(src))
            e.push_back(mkInt(src, -v));
        }
      // a tie and its neighbours at 2^24 + 1 (float) / 2^53 + 1 (double) scaled up
      I128 big = tyBits(src) == 64 ? (static_cast<I128>(0x7fffffffffffff) << 8)
                                   : static_cast<I128>(0x7fffff) << 8;
      for (int d : {0x7f, 0x80, 0x81, 0x180})
        e.push_back(mkInt(src, big + d));
    }
    return e;
  }
  for (const Val &v : floatEdges(src))
    e.push_back(v);
  auto add = [&](LD x) {
    Val v = Val::fp(src, x);
    e.push_back(v);
    if (std::isfinite(v.asLD())) {
      e.push_back(src == Ty::Float ? Val::f(std::nextafter(v.asF(), INFINITY))
                                   : Val::d(std::nextafter(v.asD(), INFINITY)));
      e.push_back(src == Ty::Float ? Val::f(std::nextafter(v.asF(), -INFINITY))
                                   : Val::d(std::nextafter(v.asD(), -INFINITY)));
    }
  };
  for (LD x : {0.5L, -0.5L, 1.5L, -1.5L, 2.5L, -2.5L, 3.5L, -0.25L, 0.75L})
    add(x);
  if (!tyIsFloat(dst)) {
    for (LD b : {static_cast<LD>(tmin(dst)), static_cast<LD>(tmax(dst))})
      for (LD d : {-1.0L, -0.5L, 0.0L, 0.5L, 1.0L})
        add(b + d);
  } else if (dst == Ty::Float && src == Ty::Double) {
    for (LD x :
         {(LD)FLT_MAX, (LD)FLT_MIN, (LD)FLT_TRUE_MIN, 0x1p128L, 0x1.ffffffp127L, 0x1.fffffefp127L,
          0x1p-150L, 0x1.8p-149L, 0x1.000001p0L, 0x1.0000011p0L, 0x1.0000030p0L})
      for (LD s : {1.0L, -1.0L})
        add(s * x);
  }
  return e;
}

std::function<Val(Rng &)> convRandom(Ty dst, Ty src) {
  if (!tyIsFloat(src)) {
    return [src](Rng &r) {
      // all magnitudes: random bits shifted right by a random amount, random sign
      uint64_t b = r.bits() >> r.range(0, tyBits(src) - 1);
      Val v = Val::u(src, b);
      if (tyIsSigned(src) && r.coin())
        v = Val::i(src, -v.asI());
      return v;
    };
  }
  if (!tyIsFloat(dst)) {
    LD lo = static_cast<LD>(tmin(dst)) - 4, hi = static_cast<LD>(tmax(dst)) + 4;
    return [src, lo, hi](Rng &r) {
      double c = r.uniform(0, 1);
      if (c < 0.3)
        return r.anyBits(src);
      if (c < 0.6)
        return r.logUniform(src, -4, 70);
      LD x = lo + (hi - lo) * static_cast<LD>(r.uniform(0, 1));
      if (r.coin())
        x = std::round(x * 4) / 4; // quarters: ties and exact integers
      if (std::fabs(x) < 64 && r.coin())
        x = static_cast<LD>(r.range(-256, 256)) / 4;
      return Val::fp(src, x);
    };
  }
  if (dst == Ty::Float && src == Ty::Double) {
    return [](Rng &r) {
      // a float, moved by a multiple of 1/8 of its ulp (exact ties included), or anything
      if (r.coin(0.3))
        return r.anyBits(Ty::Double);
      Val f = r.anyBits(Ty::Float);
      while (!std::isfinite(f.asLD()))
        f = r.anyBits(Ty::Float);
      LD u = ulpOf(Ty::Float, f.asLD());
      return Val::d(static_cast<double>(f.asLD() + u * static_cast<LD>(r.range(-8, 8)) / 8));
    };
  }
  return [src](Rng &r) { return r.anyBits(src); };
}

void addConvOps(std::vector<Op> &ops, Ty dst, Ty src, int w) {
  std::vector<Val> edges = convEdges(dst, src);
  auto rnd = convRandom(dst, src);
  for (int sat = 0; sat < 2; ++sat) {
    if (sat && tyIsFloat(dst))
      continue; // _sat applies to integer destinations only
    for (int mi = 0; mi < 5; ++mi) {
      Mode m = static_cast<Mode>(mi);
      std::string name = "convert_" + vecName(dst, w) + (sat ? "_sat" : "") + kModeSfx[mi];
      Op op;
      op.func = name;
      op.width = w;
      op.label = "from " + vecName(src, w);
      op.in = {{src}};
      op.out = {{dst}};
      op.body = "$o0 = " + name + "($i0);";
      op.tolerance = "correctly rounded";
      op.gen = edgeThenRandom({edges}, {rnd});
      op.minLanes = edges.size() + kRandomLanes;
      op.laneCheck = [dst, src, sat, m](const std::vector<Val> &in, const std::vector<Val> &out) {
        std::optional<Val> want = convRef(dst, src, sat != 0, m, in[0]);
        if (!want)
          return Verdict::skip();
        return checkExact(*want, out[0]);
      };
      ops.push_back(op);
    }
  }
}

class Convert : public Suite, public ::testing::WithParamInterface<Ty> {};

TEST_P(Convert, FromType) {
  Ty src = GetParam();
  std::vector<Op> ops;
  for (int w : kWidths) {
    for (Ty dst : kIntTypes)
      addConvOps(ops, dst, src, w);
    addConvOps(ops, Ty::Float, src, w);
    addConvOps(ops, Ty::Double, src, w);
  }
  runOps(ops);
  summary((std::string("convert from ") + tyName(src)).c_str());
}

INSTANTIATE_TEST_SUITE_P(Builtins, Convert,
                         ::testing::Values(Ty::Char, Ty::UChar, Ty::Short, Ty::UShort, Ty::Int,
                                           Ty::UInt, Ty::Long, Ty::ULong, Ty::Float, Ty::Double),
                         [](const ::testing::TestParamInfo<Ty> &i) {
                           return std::string(tyName(i.param));
                         });

// ---------------------------------------------------------------------------------
// as_<type>: the bits are reinterpreted unchanged (s6.4.4). Every pair of types of
// the same size among a representative set of scalar and vector types.
class AsType : public Suite {};

TEST_F(AsType, BitsUnchanged) {
  struct Shape {
    Ty t;
    int w;
  };
  std::vector<Shape> shapes;
  for (Ty t : {Ty::Char, Ty::UChar, Ty::Short, Ty::UShort, Ty::Int, Ty::UInt, Ty::Long, Ty::ULong,
               Ty::Float, Ty::Double})
    for (int w : {1, 2, 4, 8, 16})
      shapes.push_back({t, w});
  std::vector<Op> ops;
  for (const Shape &a : shapes)
    for (const Shape &b : shapes) {
      if (tySize(a.t) * static_cast<size_t>(a.w) != tySize(b.t) * static_cast<size_t>(b.w))
        continue;
      if (a.t == b.t && a.w == b.w)
        continue;
      // keep it proportionate: pairs whose element types differ in kind or size, and
      // the same-size signed / unsigned / float reinterpretations
      Op op;
      op.func = "as_" + vecName(b.t, b.w);
      op.label = "from " + vecName(a.t, a.w);
      op.width = 1;
      op.in = {{a.t, false, true, a.w}};
      op.out = {{b.t, false, true, b.w}};
      // raw operands: load / store through the slot pointers
      std::string A = vecName(a.t, a.w), B = vecName(b.t, b.w);
      std::string ld = a.w == 1 ? "$I0[gid]" : "vload" + std::to_string(a.w) + "(gid, $I0)";
      std::string st =
          b.w == 1 ? "$O0[gid] = r;" : "vstore" + std::to_string(b.w) + "(r, gid, $O0);";
      op.body = A + " x = " + ld + "; " + B + " r = as_" + B + "(x); " + st;
      op.tolerance = "bit-exact";
      Ty at = a.t;
      op.gen = [at](Rng &r, size_t, int, std::vector<std::vector<Val>> &in) {
        for (auto &v : in[0])
          v = r.anyBits(at);
      };
      op.minLanes = 512;
      op.itemCheck = [](const Item &it, const std::function<void(int, const Verdict &)> &report) {
        // compare byte images
        std::vector<uint8_t> a, b;
        for (const Val &v : it.in[0])
          for (size_t k = 0; k < tySize(v.ty); ++k)
            a.push_back(static_cast<uint8_t>(v.bits >> (8 * k)));
        for (const Val &v : it.out[0])
          for (size_t k = 0; k < tySize(v.ty); ++k)
            b.push_back(static_cast<uint8_t>(v.bits >> (8 * k)));
        report(0, a == b ? Verdict::pass() : Verdict::fail("the same bytes"));
      };
      ops.push_back(op);
    }
  // 3-component vectors (s6.4.4: as_typen between 3- and 4-component vectors of the
  // same element size is allowed; here 3 <-> 3 of equal size)
  for (auto [a, b] : std::vector<std::pair<Ty, Ty>>{{Ty::Float, Ty::Int},
                                                    {Ty::Int, Ty::Float},
                                                    {Ty::Double, Ty::Long},
                                                    {Ty::ULong, Ty::Double},
                                                    {Ty::Short, Ty::UShort},
                                                    {Ty::Char, Ty::UChar}}) {
    Op op;
    op.func = "as_" + vecName(b, 3);
    op.label = "from " + vecName(a, 3);
    op.width = 3;
    op.in = {{a}};
    op.out = {{b}};
    op.body = "$o0 = as_" + vecName(b, 3) + "($i0);";
    op.tolerance = "bit-exact";
    Ty at = a;
    op.gen = [at](Rng &r, size_t, int, std::vector<std::vector<Val>> &in) {
      for (auto &v : in[0])
        v = r.anyBits(at);
    };
    op.minLanes = 1536;
    op.laneCheck = [](const std::vector<Val> &in, const std::vector<Val> &out) {
      return in[0].bits == out[0].bits ? Verdict::pass()
                                       : Verdict::fail(Val::raw(out[0].ty, in[0].bits).str());
    };
    ops.push_back(op);
  }
  runOps(ops);
  summary("as_type");
}

// ---------------------------------------------------------------------------------
// Half conversions. Reference: exact half -> float; float / double -> half correctly
// rounded in each mode (s7.4, s6.15.11: the default is round to nearest even).
LD halfToLD(uint16_t h) {
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  LD v;
  if (e == 0)
    v = std::ldexp(static_cast<LD>(m), -24);
  else if (e == 31)
    v = m ? NAN : INFINITY;
  else
    v = std::ldexp(static_cast<LD>(m | 0x400), e - 25);
  return (h & 0x8000) ? -v : v;
}

uint16_t ldToHalf(LD v, Mode mode) {
  if (std::isnan(v))
    return 0x7e00;
  uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  LD a = std::fabs(v);
  if (std::isinf(a))
    return sign | 0x7c00;
  // exact value in units of the half ulp at its exponent
  int e = a == 0 ? -24 : std::max(std::ilogb(a) - 10, -24); // ulp exponent (denormals: 2^-24)
  LD q = std::ldexp(a, -e); // in [1024, 2048) or < 1024 for denormals
  LD lo = std::floor(q);
  LD frac = q - lo;
  bool up;
  bool neg = sign != 0;
  switch (mode) {
  case Rtz:
    up = false;
    break;
  case Rtp:
    up = frac > 0 && !neg;
    break;
  case Rtn:
    up = frac > 0 && neg;
    break;
  default:
    up = frac > 0.5L || (frac == 0.5L && std::fmod(lo, 2) != 0);
  }
  LD mag = std::ldexp(lo + (up ? 1 : 0), e);
  // overflow: beyond 65504
  if (mag > 65504) {
    bool toInf = mode == Def || mode == Rte || (mode == Rtp && !neg) || (mode == Rtn && neg);
    return sign | (toInf ? 0x7c00 : 0x7bff);
  }
  // encode
  if (mag == 0)
    return sign;
  int ee = std::ilogb(mag);
  if (ee < -14)
    return sign | static_cast<uint16_t>(std::ldexp(mag, 24)); // denormal
  uint16_t m = static_cast<uint16_t>(std::ldexp(mag, 10 - ee)) & 0x3ff;
  return sign | static_cast<uint16_t>((ee + 15) << 10) | m;
}

class Half : public Suite {};

TEST_F(Half, VloadHalf) {
  // Every one of the 65536 half values, through vload_half<n> / vloada_half<n>.
  std::vector<Op> ops;
  for (int aligned = 0; aligned < 2; ++aligned)
    for (int n : {1, 2, 3, 4, 8, 16}) {
      if (aligned && n == 1)
        continue; // vloada_half<n> exists for n = 2, 3, 4, 8, 16 (s6.15.11)
      int stride = (aligned && n == 3) ? 4 : n; // vloada_half3 reads 4-element slots
      std::string name =
          std::string(aligned ? "vloada_half" : "vload_half") + (n == 1 ? "" : std::to_string(n));
      Op op;
      op.func = name;
      op.label = "float" + (n == 1 ? std::string() : std::to_string(n));
      op.width = n;
      op.in = {{Ty::Half, false, true, stride}};
      op.out = {{Ty::Float}};
      op.body = "$o0 = " + name + "(gid, (__global const half*)$I0);";
      op.tolerance = "exact";
      op.minLanes = static_cast<size_t>(65536) / static_cast<size_t>(n) * static_cast<size_t>(n) +
                    static_cast<size_t>(n);
      op.gen = [stride, n](Rng &r, size_t items, int, std::vector<std::vector<Val>> &in) {
        size_t k = 0;
        for (size_t i = 0; i < items; ++i)
          for (int j = 0; j < stride; ++j) {
            uint16_t h =
                j < n ? static_cast<uint16_t>(k++ & 0xffff) : static_cast<uint16_t>(r.bits());
            in[0][i * static_cast<size_t>(stride) + static_cast<size_t>(j)] = Val::raw(Ty::Half, h);
          }
      };
      op.laneCheck = [](const std::vector<Val> &in, const std::vector<Val> &out) {
        return checkExact(Val::fp(Ty::Float, halfToLD(static_cast<uint16_t>(in[0].bits))), out[0]);
      };
      ops.push_back(op);
    }
  runOps(ops);
  summary("vload_half");
}

TEST_F(Half, VstoreHalf) {
  std::vector<Op> ops;
  for (Ty src : {Ty::Float, Ty::Double})
    for (int aligned = 0; aligned < 2; ++aligned)
      for (int n : {1, 2, 3, 4, 8, 16})
        for (int mi = 0; mi < 5; ++mi) {
          if (aligned && n == 1)
            continue; // vstorea_half<n>: n = 2, 3, 4, 8, 16 (s6.15.11)
          Mode m = static_cast<Mode>(mi);
          int stride = (aligned && n == 3) ? 4 : n;
          std::string name = std::string(aligned ? "vstorea_half" : "vstore_half") +
                             (n == 1 ? "" : std::to_string(n)) + kModeSfx[mi];
          Op op;
          op.func = name;
          op.label = "from " + vecName(src, n);
          op.width = n;
          op.in = {{src}};
          op.out = {{Ty::Half, false, true, stride}};
          op.body = name + "($i0, gid, (__global half*)$O0);";
          op.tolerance = "correctly rounded";
          // edges: ties, overflow thresholds, denormal boundaries, specials
          std::vector<Val> e = floatEdges(src);
          for (LD x : {65504.0L, 65519.0L, 65520.0L, 65536.0L, 0x1p-14L, 0x1p-24L, 0x1p-25L,
                       0x1.8p-25L, 0x1p-26L, 0x1.ff8p-15L, 1.0L + 0x1p-11L, 1.0L + 0x1.8p-11L,
                       1.0L + 0x1p-12L, 2049.0L, 2051.0L, 0.1L})
            for (LD s : {1.0L, -1.0L}) {
              e.push_back(Val::fp(src, s * x));
              e.push_back(src == Ty::Float
                              ? Val::f(std::nextafter(static_cast<float>(s * x), 0.0f))
                              : Val::d(std::nextafter(static_cast<double>(s * x), 0.0)));
            }
          op.gen = edgeThenRandom(
              {e}, {[src](Rng &r) {
                double c = r.uniform(0, 1);
                if (c < 0.2)
                  return r.anyBits(src);
                if (c < 0.6)
                  return r.logUniform(src, -27, 17);
                // a half value plus k/8 of its ulp (ties included)
                uint16_t h = static_cast<uint16_t>(r.bits() & 0x7bff);
                LD v = halfToLD(h);
                LD u = std::ldexp(1.0L, std::max(std::ilogb(v == 0 ? 0x1p-24L : v) - 10, -24));
                v += u * static_cast<LD>(r.range(-8, 8)) / 8;
                return Val::fp(src, r.coin() ? v : -v);
              }});
          op.minLanes = e.size() + kRandomLanes;
          op.laneCheck = [m](const std::vector<Val> &in, const std::vector<Val> &out) {
            uint16_t want = ldToHalf(in[0].asLD(), m);
            uint16_t got = static_cast<uint16_t>(out[0].bits);
            bool nanOk = (want & 0x7fff) > 0x7c00 && (got & 0x7fff) > 0x7c00;
            if (got == want || nanOk)
              return Verdict::pass();
            char buf[32];
            std::snprintf(buf, sizeof buf, "half 0x%04x", want);
            return Verdict::fail(buf);
          };
          ops.push_back(op);
        }
  runOps(ops);
  summary("vstore_half");
}

} // namespace
} // namespace fclconf

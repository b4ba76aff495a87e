// Common (OpenCL C 3.0 s6.15.4) and geometric (s6.15.5) builtins for float and double,
// with the tolerances of s7.4 (tables "ULP values for single / double precision
// built-in math functions", which list clamp, degrees, mix, smoothstep, dot, cross,
// length, distance, normalize and the fast_* functions).
#include <cfloat>
#include <cmath>

#include "harness.hpp"

namespace fclconf {
namespace {

using LD = long double;
constexpr LD kPiL = 3.141592653589793238462643383279502884L;

// ---------------------------------------------------------------------------------
// Common functions.
Val rndFinite(Rng &r, Ty t) {
  // finite values of every magnitude, and often small ones
  if (r.coin(0.3))
    return r.uniformFp(t, -10, 10);
  Val v = r.anyBits(t);
  while (!std::isfinite(v.asLD()))
    v = r.anyBits(t);
  return v;
}
std::vector<Val> finiteEdges(Ty t) {
  std::vector<Val> e;
  for (const Val &v : floatEdges(t))
    if (std::isfinite(v.asLD()))
      e.push_back(v);
  return e;
}

struct CommonFn {
  std::string name;
  int arity;
  // per-operand: scalar in the (W > 1) scalar-argument overload
  std::vector<bool> scalarForm; // empty: no such overload
};

void addCommonOps(std::vector<Op> &ops, Ty t, int w) {
  std::string T = vecName(t, w), S = tyName(t);
  bool f = t == Ty::Float;
  std::vector<Val> fe = floatEdges(t), fs = floatEdgesSmall(t), fin = finiteEdges(t);
  auto any = [t](Rng &r) { return r.coin() ? r.anyBits(t) : r.uniformFp(t, -1000, 1000); };
  auto finite = [t](Rng &r) { return rndFinite(r, t); };
  auto unit = [t](Rng &r) { return r.uniformFp(t, 0, 1); };
  auto mid = [t](Rng &r) { return r.uniformFp(t, -100, 100); };

  auto mkop = [&](const std::string &fn, std::vector<Operand> in, const std::string &label,
                  std::vector<std::vector<Val>> edges, std::vector<std::function<Val(Rng &)>> rnd,
                  LaneCheck chk, const std::string &tol) {
    Op op;
    op.func = fn;
    op.width = w;
    op.label = label;
    op.in = std::move(in);
    op.out = {{t}};
    std::string args;
    for (size_t k = 0; k < op.in.size(); ++k)
      args += (k ? ", $i" : "$i") + std::to_string(k);
    op.body = "$o0 = " + fn + "(" + args + ");";
    bool perItem = false;
    for (auto &o : op.in)
      perItem |= o.perItem;
    op.gen = edgeThenRandom(edges, rnd);
    op.minLanes = cartesianSize(edges) * (perItem ? static_cast<size_t>(w) : 1) + kRandomLanes;
    op.laneCheck = std::move(chk);
    op.tolerance = tol;
    op.reportErr = true;
    op.errUnit = tol.find("abs") != std::string::npos ? "abs" : "ulp";
    ops.push_back(op);
  };
  for (int sv = 0; sv < 2; ++sv) {
    if (sv && w == 1)
      continue;
    std::string lab2 = sv ? T + "," + S : T;
    std::string lab3 = sv ? T + "," + S + "," + S : T;
    // clamp: fmin(fmax(x, lo), hi), 0 ulp; undefined for lo > hi (ordered here).
    {
      auto chk = [t](const std::vector<Val> &in, const std::vector<Val> &out) {
        LD x = in[0].asLD(), lo = in[1].asLD(), hi = in[2].asLD();
        return checkExact(Val::fp(t, std::fmin(std::fmax(x, lo), hi)), out[0], true);
      };
      std::vector<Val> bounds;
      for (LD b : {0.0L, -0.0L, 1.0L, -1.0L, -2.5L, maxFinite(t), -maxFinite(t), minNormal(t)})
        bounds.push_back(Val::fp(t, b));
      mkop("clamp", {{t}, {t, sv == 1}, {t, sv == 1}}, lab3, {fs, bounds, bounds},
           {any, finite, finite}, chk, "0 ulp");
      Generator base = ops.back().gen;
      ops.back().gen = [base](Rng &r, size_t items, int width, std::vector<std::vector<Val>> &in) {
        base(r, items, width, in);
        for (size_t i = 0; i < in[1].size(); ++i) // lo <= hi
          if (in[1][i].asLD() > in[2][i].asLD())
            std::swap(in[1][i], in[2][i]);
      };
    }
    // max / min: y if x < y else x; undefined for infinite or NaN arguments.
    for (const char *fn : {"max", "min"}) {
      bool isMax = std::string(fn) == "max";
      auto chk = [t, isMax](const std::vector<Val> &in, const std::vector<Val> &out) {
        LD x = in[0].asLD(), y = in[1].asLD();
        LD r = isMax ? (x < y ? y : x) : (y < x ? y : x);
        return checkExact(Val::fp(t, r), out[0], true);
      };
      mkop(fn, {{t}, {t, sv == 1}}, lab2, {fin, fin}, {finite, finite}, chk, "0 ulp");
    }
    // mix: x + (y - x) * a, a in [0, 1]. float: absolute error <= 1e-3 (s7.4);
    // double: implementation-defined (the float bound is used as a sanity check).
    {
      auto chk = [t](const std::vector<Val> &in, const std::vector<Val> &out) {
        LD x = in[0].asLD(), y = in[1].asLD(), a = in[2].asLD();
        return checkFp(t, x + (y - x) * a, out[0], Tol::abs(1e-3), true);
      };
      std::vector<Val> me = {Val::fp(t, 0), Val::fp(t, 1), Val::fp(t, -100), Val::fp(t, 100),
                             Val::fp(t, 0.5)};
      std::vector<Val> ae = {Val::fp(t, 0), Val::fp(t, 1), Val::fp(t, 0.5), Val::fp(t, 0.25)};
      mkop("mix", {{t}, {t}, {t, sv == 1}}, sv ? T + "," + T + "," + S : T, {me, me, ae},
           {mid, mid, unit}, chk, f ? "abs <= 1e-3" : "impl-defined; sanity abs 1e-3");
    }
    // step: 0.0 if x < edge else 1.0, exact.
    {
      auto chk = [t](const std::vector<Val> &in, const std::vector<Val> &out) {
        LD e = in[0].asLD(), x = in[1].asLD();
        return checkExact(Val::fp(t, x < e ? 0.0L : 1.0L), out[0]);
      };
      mkop("step", {{t, sv == 1}, {t}}, sv ? S + "," + T : T, {fe, fe}, {any, any}, chk, "0 ulp");
    }
    // smoothstep: float absolute error <= 1e-5 (s7.4); undefined for e0 >= e1 or NaN.
    {
      auto chk = [t](const std::vector<Val> &in, const std::vector<Val> &out) {
        LD e0 = in[0].asLD(), e1 = in[1].asLD(), x = in[2].asLD();
        LD u = (x - e0) / (e1 - e0);
        u = std::fmin(std::fmax(u, 0.0L), 1.0L);
        return checkFp(t, u * u * (3 - 2 * u), out[0], Tol::abs(1e-5), true);
      };
      mkop("smoothstep", {{t, sv == 1}, {t, sv == 1}, {t}}, sv ? S + "," + S + "," + T : T, {},
           {mid, mid, mid}, chk, f ? "abs <= 1e-5" : "impl-defined; sanity abs 1e-5");
      Generator base = ops.back().gen;
      ops.back().gen = [base, t](Rng &r, size_t items, int width,
                                 std::vector<std::vector<Val>> &in) {
        base(r, items, width, in);
        for (size_t i = 0; i < in[0].size(); ++i) {
          if (in[0][i].asLD() > in[1][i].asLD())
            std::swap(in[0][i], in[1][i]);
          if (in[0][i].asLD() == in[1][i].asLD())
            in[1][i] = Val::fp(t, in[1][i].asLD() + 1);
        }
        // x often exactly on / beyond the edges
        size_t per = in[2].size() / in[0].size();
        for (size_t i = 0; i < in[2].size(); i += 7)
          in[2][i] = in[0][i / per];
        for (size_t i = 3; i < in[2].size(); i += 7)
          in[2][i] = in[1][i / per];
      };
    }
    if (sv)
      continue;
    // degrees / radians: <= 2 ulp.
    {
      auto deg = [t](const std::vector<Val> &in, const std::vector<Val> &out) {
        return checkFp(t, in[0].asLD() * (180 / kPiL), out[0], Tol::ulp(2));
      };
      auto rad = [t](const std::vector<Val> &in, const std::vector<Val> &out) {
        return checkFp(t, in[0].asLD() * (kPiL / 180), out[0], Tol::ulp(2));
      };
      mkop("degrees", {{t}}, T, {fe}, {any}, deg, "<= 2 ulp");
      mkop("radians", {{t}}, T, {fe}, {any}, rad, "<= 2 ulp");
    }
    // sign: 1.0, -1.0, +-0 for +-0, 0.0 for NaN; exact.
    {
      auto chk = [t](const std::vector<Val> &in, const std::vector<Val> &out) {
        LD x = in[0].asLD();
        if (std::isnan(x))
          return checkExact(Val::fp(t, 0), out[0], true);
        LD r = x > 0 ? 1 : x < 0 ? -1 : x;
        return checkExact(Val::fp(t, r), out[0]);
      };
      mkop("sign", {{t}}, T, {fe}, {any}, chk, "0 ulp");
    }
  }
}

// ---------------------------------------------------------------------------------
// Geometric functions: gentype is a scalar or a vector of 2, 3 or 4.
struct GeoGen {
  // Fills one item's vector (n components) with a pattern: item index selects special
  // patterns first, then random values of moderate magnitude.
  static void fill(Rng &r, Ty t, size_t item, int n, Val *p, int emin, int emax, bool specials) {
    bool f = t == Ty::Float;
    int kind = specials ? static_cast<int>(item % 40) : 99;
    for (int j = 0; j < n; ++j) {
      LD v;
      switch (kind) {
      case 0:
        v = 0;
        break; // zero vector
      case 1:
        v = j == 0 ? (LD)NAN : r.logUniform(t, -4, 4).asLD();
        break; // NaN component
      case 2:
        v = j == n - 1 ? (LD)INFINITY : r.logUniform(t, -4, 4).asLD();
        break; // +inf
      case 3:
        v = j == 0 ? -(LD)INFINITY : 0;
        break;
      case 4:
        v = r.logUniform(t, f ? 120 : 1015, f ? 127 : 1023).asLD();
        break; // huge
      case 5:
        v = r.logUniform(t, f ? -149 : -1074, f ? -130 : -1030).asLD();
        break; // tiny / denormal
      case 6:
        v = j == 0 ? r.logUniform(t, f ? 60 : 500, f ? 70 : 510).asLD()
                   : r.logUniform(t, f ? -70 : -510, f ? -60 : -500).asLD();
        break; // mixed
      case 7:
        v = j == 0 ? -0.0L : 0.0L;
        break;
      case 8:
        v = f ? FLT_MAX : DBL_MAX;
        break;
      default:
        v = r.logUniform(t, emin, emax).asLD();
      }
      p[j] = Val::fp(t, v);
    }
  }
};

void addGeoOps(std::vector<Op> &ops, Ty t, int n) {
  bool f = t == Ty::Float;
  std::string T = vecName(t, n);
  LD eps = FLT_EPSILON; // s7.4 uses FLT_EPSILON for dot and cross in both tables
  auto vecOf = [](const std::vector<Val> &v) {
    std::vector<LD> r;
    for (const Val &x : v)
      r.push_back(x.asLD());
    return r;
  };
  auto base = [&](const std::string &fn, int nin, bool vecOut, const std::string &tol) {
    Op op;
    op.func = fn;
    op.width = n;
    op.label = T;
    for (int k = 0; k < nin; ++k)
      op.in.push_back({t});
    op.out = {{t, !vecOut}};
    op.body = "$o0 = " + fn + "($i0" + (nin == 2 ? ", $i1" : "") + ");";
    op.tolerance = tol;
    op.reportErr = true;
    op.minLanes = kRandomLanes * static_cast<size_t>(n); // 4096 vectors
    return op;
  };
  auto gen = [t, n](int emin, int emax, bool specials) {
    return
        [t, n, emin, emax, specials](Rng &r, size_t items, int, std::vector<std::vector<Val>> &in) {
          for (size_t k = 0; k < in.size(); ++k)
            for (size_t i = 0; i < items; ++i)
              GeoGen::fill(r, t, i + k * 7, n, &in[k][i * static_cast<size_t>(n)], emin, emax,
                           specials);
        };
  };

  // dot: absolute error <= max * max * (2n - 1) * FLT_EPSILON, max = largest |component|.
  {
    Op op = base("dot", 2, false, "abs <= max^2*(2n-1)*FLT_EPSILON");
    op.errUnit = "x bound";
    op.gen = gen(-20, 20, true);
    op.itemCheck = [t, n, eps, vecOf](const Item &it,
                                      const std::function<void(int, const Verdict &)> &report) {
      auto p = vecOf(it.in[0]), q = vecOf(it.in[1]);
      LD s = 0, mx = 0;
      for (int j = 0; j < n; ++j) {
        s += p[j] * q[j];
        mx = std::fmax(mx, std::fmax(std::fabs(p[j]), std::fabs(q[j])));
      }
      LD bound = mx * mx * (2 * n - 1) * eps;
      if (!std::isfinite(s) || !std::isfinite(bound) || bound > maxFinite(t)) {
        // special values: NaN must be NaN, an infinite sum must be that infinity
        if (std::isnan(s) || std::isinf(s))
          report(0, checkFp(t, s, it.out[0][0], Tol::exact()));
        else
          report(0, Verdict::skip());
        return;
      }
      Verdict v = checkFp(t, s, it.out[0][0], Tol::abs(static_cast<double>(bound)), true);
      v.err = bound > 0 ? static_cast<double>(std::fabs(it.out[0][0].asLD() - s) / bound) : 0;
      report(0, v);
    };
    ops.push_back(op);
  }
  // length / distance: <= 2.75 + 0.5n / 2.5 + 2n ulp (float), 5.5 + n / 5.5 + 2n (double);
  // "without overflow or extraordinary precision loss due to underflow" (s7.5.1).
  for (int dist = 0; dist < 2; ++dist) {
    double u = f ? (dist ? 2.5 + 2 * n : 2.75 + 0.5 * n) : (dist ? 5.5 + 2 * n : 5.5 + n);
    char tol[64];
    std::snprintf(tol, sizeof tol, "<= %g ulp", u);
    Op op = base(dist ? "distance" : "length", dist ? 2 : 1, false, tol);
    op.gen = gen(-30, 30, true);
    op.itemCheck = [t, n, u, dist, vecOf](const Item &it,
                                          const std::function<void(int, const Verdict &)> &report) {
      auto p = vecOf(it.in[0]);
      if (dist) {
        auto q = vecOf(it.in[1]);
        for (int j = 0; j < n; ++j)
          p[j] -= q[j];
      }
      bool hasInf = false, hasNaN = false;
      LD s = 0;
      for (int j = 0; j < n; ++j) {
        hasInf |= std::isinf(p[j]);
        hasNaN |= std::isnan(p[j]);
        s += p[j] * p[j];
      }
      if (hasInf && hasNaN) {
        report(0, Verdict::skip());
        return;
      } // not specified
      LD ref = hasInf ? INFINITY : std::sqrt(s);
      report(0, checkFp(t, ref, it.out[0][0], Tol::ulp(u)));
    };
    ops.push_back(op);
  }
  // normalize: <= 2 + n (float) / 4.5 + n (double) ulp per component; s7.5.1: p for a
  // zero vector, all NaN if a component is NaN, infinities replaced by +-1 and the
  // other components by +-0.
  {
    double u = f ? 2 + n : 4.5 + n;
    char tol[64];
    std::snprintf(tol, sizeof tol, "<= %g ulp", u);
    Op op = base("normalize", 1, true, tol);
    op.gen = gen(-30, 30, true);
    op.itemCheck = [t, n, u, vecOf](const Item &it,
                                    const std::function<void(int, const Verdict &)> &report) {
      auto p = vecOf(it.in[0]);
      bool nan = false, inf = false, zero = true;
      for (LD x : p) {
        nan |= std::isnan(x);
        inf |= std::isinf(x);
        zero &= x == 0;
      }
      if (zero) {
        for (int j = 0; j < n; ++j)
          report(j, checkExact(it.in[0][j], it.out[0][j]));
        return;
      }
      if (nan) {
        for (int j = 0; j < n; ++j)
          report(j, checkFp(t, NAN, it.out[0][j], Tol::exact()));
        return;
      }
      if (inf)
        for (LD &x : p)
          x = std::isinf(x) ? std::copysign(1.0L, x) : 0.0L * x;
      LD s = 0;
      for (LD x : p)
        s += x * x;
      LD l = std::sqrt(s);
      for (int j = 0; j < n; ++j)
        report(j, checkFp(t, p[j] / l, it.out[0][j], Tol::ulp(u)));
    };
    ops.push_back(op);
  }
  // cross (3 and 4 components): absolute error <= max * max * 3 * FLT_EPSILON per
  // component; the w component of the 4-component result is 0.
  if (n == 3 || n == 4) {
    Op op = base("cross", 2, true, "abs <= max^2*3*FLT_EPSILON");
    op.errUnit = "x bound";
    op.gen = gen(-20, 20, false);
    op.itemCheck = [t, n, eps, vecOf](const Item &it,
                                      const std::function<void(int, const Verdict &)> &report) {
      auto a = vecOf(it.in[0]), b = vecOf(it.in[1]);
      LD mx = 0;
      for (int j = 0; j < 3; ++j)
        mx = std::fmax(mx, std::fmax(std::fabs(a[j]), std::fabs(b[j])));
      LD c[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
      LD bound = mx * mx * 3 * eps;
      for (int j = 0; j < 3; ++j) {
        Verdict v = checkFp(t, c[j], it.out[0][j], Tol::abs(static_cast<double>(bound)), true);
        v.err = bound > 0 ? static_cast<double>(std::fabs(it.out[0][j].asLD() - c[j]) / bound) : 0;
        report(j, v);
      }
      if (n == 4)
        report(3, checkExact(Val::fp(t, 0), it.out[0][3], true));
    };
    ops.push_back(op);
  }
  // fast_length / fast_distance / fast_normalize (float): <= 8191.5 + n, 8191.5 + 2n,
  // 8192 + n ulp. Undefined when the sum of squares exceeds FLT_MAX; below FLT_MIN
  // fast_normalize may return p: inputs keep the sum of squares in range.
  if (f) {
    for (int kind = 0; kind < 3; ++kind) {
      double u = kind == 0 ? 8191.5 + n : kind == 1 ? 8191.5 + 2 * n : 8192 + n;
      char tol[64];
      std::snprintf(tol, sizeof tol, "<= %g ulp", u);
      const char *name = kind == 0 ? "fast_length" : kind == 1 ? "fast_distance" : "fast_normalize";
      Op op = base(name, kind == 1 ? 2 : 1, kind == 2, tol);
      op.gen = [t, n, kind](Rng &r, size_t items, int, std::vector<std::vector<Val>> &in) {
        for (size_t k = 0; k < in.size(); ++k)
          for (size_t i = 0; i < items; ++i) {
            GeoGen::fill(r, t, i, n, &in[k][i * static_cast<size_t>(n)], -50, 50, false);
            if (kind == 2 && i % 50 == 0) // zero vector: result p
              for (int j = 0; j < n; ++j)
                in[k][i * static_cast<size_t>(n) + static_cast<size_t>(j)] =
                    Val::f(j % 2 ? -0.0f : 0.0f);
          }
        if (kind == 1) // keep p0 - p1 away from cancellation below FLT_MIN
          for (size_t i = 0; i < in[1].size(); ++i)
            in[1][i] = Val::f(in[1][i].asF() * 0.5f);
      };
      op.itemCheck = [t, n, u, kind, vecOf](
                         const Item &it, const std::function<void(int, const Verdict &)> &report) {
        auto p = vecOf(it.in[0]);
        if (kind == 1) {
          auto q = vecOf(it.in[1]);
          for (int j = 0; j < n; ++j)
            p[j] = static_cast<LD>(static_cast<float>(p[j] - q[j]));
        }
        LD s = 0;
        for (LD x : p)
          s += x * x;
        if (kind == 2) {
          if (s == 0) {
            for (int j = 0; j < n; ++j)
              report(j, checkExact(it.in[0][j], it.out[0][j]));
            return;
          }
          if (s < FLT_MIN || s > FLT_MAX) {
            for (int j = 0; j < n; ++j)
              report(j, Verdict::skip());
            return;
          }
          LD l = std::sqrt(s);
          for (int j = 0; j < n; ++j)
            report(j, checkFp(t, p[j] / l, it.out[0][j], Tol::ulp(u)));
          return;
        }
        if (s > FLT_MAX || s < FLT_MIN) {
          report(0, Verdict::skip());
          return;
        }
        report(0, checkFp(t, std::sqrt(s), it.out[0][0], Tol::ulp(u)));
      };
      ops.push_back(op);
    }
  }
}

class Common : public Suite, public ::testing::WithParamInterface<Ty> {};
TEST_P(Common, AgainstReference) {
  std::vector<Op> ops;
  for (int w : kWidths)
    addCommonOps(ops, GetParam(), w);
  runOps(ops);
  summary((std::string("common ") + tyName(GetParam())).c_str());
}
INSTANTIATE_TEST_SUITE_P(Builtins, Common, ::testing::Values(Ty::Float, Ty::Double),
                         [](const ::testing::TestParamInfo<Ty> &i) {
                           return std::string(tyName(i.param));
                         });

class Geometric : public Suite, public ::testing::WithParamInterface<Ty> {};
TEST_P(Geometric, AgainstReference) {
  std::vector<Op> ops;
  for (int n : {1, 2, 3, 4})
    addGeoOps(ops, GetParam(), n);
  runOps(ops);
  summary((std::string("geometric ") + tyName(GetParam())).c_str());
}
INSTANTIATE_TEST_SUITE_P(Builtins, Geometric, ::testing::Values(Ty::Float, Ty::Double),
                         [](const ::testing::TestParamInfo<Ty> &i) {
                           return std::string(tyName(i.param));
                         });

} // namespace
} // namespace fclconf

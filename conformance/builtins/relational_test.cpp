// Relational builtins (OpenCL C 3.0 s6.15.6): the float / double predicates with the
// result convention of s6.15.6 (scalar: 1 for true, vector: -1, i.e. all bits set,
// in an int / long vector), any / all, bitselect and select (with signed and
// unsigned masks), for every type and vector width. Exact.
#include <cmath>

#include "harness.hpp"

namespace fclconf {
namespace {

using LD = long double;

// The result type of a predicate on t with width w: int for scalars, intn for float
// vectors, longn for double vectors.
Ty predResult(Ty t, int w) { return w == 1 ? Ty::Int : tyIntOf(t); }

Val truth(Ty rt, int w, bool b) { return b ? Val::i(rt, w == 1 ? 1 : -1) : Val::i(rt, 0); }

void addPredicates(std::vector<Op> &ops, Ty t, int w) {
  std::string T = vecName(t, w);
  Ty rt = predResult(t, w);
  std::vector<Val> fe = floatEdges(t);
  auto rnd = [t](Rng &r) {
    double c = r.uniform(0, 1);
    if (c < 0.4)
      return r.anyBits(t);
    return r.uniformFp(t, -4, 4);
  };
  struct P2 {
    const char *name;
    std::function<bool(LD, LD)> f;
  };
  std::vector<P2> two = {
      {"isequal", [](LD x, LD y) { return x == y; }},
      {"isnotequal", [](LD x, LD y) { return x != y; }},
      {"isgreater", [](LD x, LD y) { return x > y; }},
      {"isgreaterequal", [](LD x, LD y) { return x >= y; }},
      {"isless", [](LD x, LD y) { return x < y; }},
      {"islessequal", [](LD x, LD y) { return x <= y; }},
      {"islessgreater", [](LD x, LD y) { return x < y || x > y; }},
      {"isordered", [](LD x, LD y) { return x == x && y == y; }},
      {"isunordered", [](LD x, LD y) { return x != x || y != y; }},
  };
  for (const P2 &p : two) {
    Op op;
    op.func = p.name;
    op.width = w;
    op.label = T;
    op.in = {{t}, {t}};
    op.out = {{rt}};
    op.body = std::string("$o0 = ") + p.name + "($i0, $i1);";
    op.tolerance = w == 1 ? "exact, 1 / 0" : "exact, -1 / 0";
    Generator base = edgeThenRandom({fe, fe}, {rnd, rnd});
    op.gen = [base](Rng &r, size_t items, int width, std::vector<std::vector<Val>> &in) {
      base(r, items, width, in);
      for (size_t i = 2; i < in[0].size(); i += 5)
        in[1][i] = in[0][i]; // equal operands
    };
    op.minLanes = fe.size() * fe.size() + kRandomLanes;
    auto f = p.f;
    op.laneCheck = [f, rt, w](const std::vector<Val> &in, const std::vector<Val> &out) {
      return checkExact(truth(rt, w, f(in[0].asLD(), in[1].asLD())), out[0]);
    };
    ops.push_back(op);
  }
  struct P1 {
    const char *name;
    std::function<bool(Val)> f;
  };
  std::vector<P1> one = {
      {"isfinite", [](Val v) { return std::isfinite(v.asLD()); }},
      {"isinf", [](Val v) { return std::isinf(v.asLD()); }},
      {"isnan", [](Val v) { return std::isnan(v.asLD()); }},
      {"isnormal",
       [](Val v) { return v.ty == Ty::Float ? std::isnormal(v.asF()) : std::isnormal(v.asD()); }},
      {"signbit", [](Val v) { return v.signBit(); }},
  };
  for (const P1 &p : one) {
    Op op;
    op.func = p.name;
    op.width = w;
    op.label = T;
    op.in = {{t}};
    op.out = {{rt}};
    op.body = std::string("$o0 = ") + p.name + "($i0);";
    op.tolerance = w == 1 ? "exact, 1 / 0" : "exact, -1 / 0";
    op.gen = edgeThenRandom({fe}, {rnd});
    op.minLanes = fe.size() + kRandomLanes;
    auto f = p.f;
    op.laneCheck = [f, rt, w](const std::vector<Val> &in, const std::vector<Val> &out) {
      return checkExact(truth(rt, w, f(in[0])), out[0]);
    };
    ops.push_back(op);
  }
}

// any / all on signed integer types: the most significant bit of each component.
void addAnyAll(std::vector<Op> &ops, Ty t, int w) {
  for (int isAll = 0; isAll < 2; ++isAll) {
    Op op;
    op.func = isAll ? "all" : "any";
    op.width = w;
    op.label = vecName(t, w) + (w == 1 ? " (scalar: deprecated in 3.0)" : "");
    op.in = {{t}};
    op.out = {{Ty::Int, true}};
    op.body = std::string("$o0 = ") + op.func + "($i0);";
    op.tolerance = "exact, 1 / 0";
    // mostly sign patterns, so that every lane count of set MSBs appears
    op.gen = [t](Rng &r, size_t items, int width, std::vector<std::vector<Val>> &in) {
      for (size_t i = 0; i < items; ++i) {
        double pneg = (i % 5) / 4.0; // 0, .25, .5, .75, 1
        for (int j = 0; j < width; ++j) {
          Val v = r.anyBits(t);
          bool neg = r.coin(pneg);
          uint64_t top = 1ULL << (tyBits(t) - 1);
          v.bits = neg ? (v.bits | top) : (v.bits & ~top);
          in[0][i * static_cast<size_t>(width) + static_cast<size_t>(j)] = v;
        }
      }
    };
    op.itemCheck = [isAll](const Item &it,
                           const std::function<void(int, const Verdict &)> &report) {
      bool a = false, l = true;
      for (const Val &v : it.in[0]) {
        a |= v.signBit();
        l &= v.signBit();
      }
      report(0, checkExact(Val::i(Ty::Int, (isAll ? l : a) ? 1 : 0), it.out[0][0]));
    };
    ops.push_back(op);
  }
}

// bitselect: each bit from b where c has a 1, else from a. select: vectors take b
// where the MSB of c is set, scalars where c != 0.
void addSelects(std::vector<Op> &ops, Ty t, int w) {
  std::string T = vecName(t, w);
  Ty ut = tyUnsigned(t);
  auto rnd = [t](Rng &r) { return r.anyBits(t); };
  {
    Op op;
    op.func = "bitselect";
    op.width = w;
    op.label = T;
    op.in = {{t}, {t}, {t}};
    op.out = {{t}};
    op.body = "$o0 = bitselect($i0, $i1, $i2);";
    op.tolerance = "exact";
    op.gen = edgeThenRandom({}, {rnd, rnd, rnd});
    op.laneCheck = [t](const std::vector<Val> &in, const std::vector<Val> &out) {
      uint64_t a = in[0].bits, b = in[1].bits, c = in[2].bits;
      return checkExact(Val::raw(t, (a & ~c) | (b & c)), out[0]);
    };
    ops.push_back(op);
  }
  for (int uns = 0; uns < 2; ++uns) {
    Ty ct = uns ? ut : tySigned(tyIntOf(t));
    if (tyIsFloat(t))
      ct = uns ? tyUnsigned(tyIntOf(t)) : tyIntOf(t);
    Op op;
    op.func = "select";
    op.width = w;
    op.label = T + "," + vecName(ct, w);
    op.in = {{t}, {t}, {ct}};
    op.out = {{t}};
    op.body = "$o0 = select($i0, $i1, $i2);";
    op.tolerance = w == 1 ? "exact, c != 0" : "exact, MSB of c";
    op.gen = [t, ct, w](Rng &r, size_t, int, std::vector<std::vector<Val>> &in) {
      for (size_t i = 0; i < in[0].size(); ++i) {
        in[0][i] = r.anyBits(t);
        in[1][i] = r.anyBits(t);
        // c: random bits, and often 0, 1 or -1 / just the MSB (scalar and vector rules differ)
        int k = static_cast<int>(r.range(0, 5));
        uint64_t top = 1ULL << (tyBits(ct) - 1);
        uint64_t c = k == 0 ? 0 : k == 1 ? 1 : k == 2 ? ~0ULL : k == 3 ? top : r.bits();
        in[2][i] = Val::u(ct, c);
      }
      (void)w;
    };
    op.laneCheck = [t, w](const std::vector<Val> &in, const std::vector<Val> &out) {
      bool takeB = w == 1 ? in[2].bits != 0 : in[2].signBit();
      return checkExact(takeB ? in[1] : in[0], out[0]);
    };
    ops.push_back(op);
  }
}

class Relational : public Suite, public ::testing::WithParamInterface<std::string> {};

TEST_P(Relational, Exact) {
  std::vector<Op> ops;
  const std::string &which = GetParam();
  if (which == "predicates") {
    for (Ty t : {Ty::Float, Ty::Double})
      for (int w : kWidths)
        addPredicates(ops, t, w);
  } else {
    for (Ty t : {Ty::Char, Ty::Short, Ty::Int, Ty::Long})
      for (int w : kWidths)
        addAnyAll(ops, t, w);
    for (Ty t : {Ty::Char, Ty::UChar, Ty::Short, Ty::UShort, Ty::Int, Ty::UInt, Ty::Long, Ty::ULong,
                 Ty::Float, Ty::Double})
      for (int w : kWidths)
        addSelects(ops, t, w);
  }
  runOps(ops);
  summary(("relational " + which).c_str());
}

INSTANTIATE_TEST_SUITE_P(Builtins, Relational, ::testing::Values("predicates", "select_anyall"),
                         [](const ::testing::TestParamInfo<std::string> &i) { return i.param; });

} // namespace
} // namespace fclconf

// Integer builtins (OpenCL C 3.0 s6.15.3) for char, uchar, short, ushort, int, uint,
// long, ulong and every vector width, exact, against __int128 references.
#include <climits>

#include "harness.hpp"

namespace fclconf {
namespace {

using I128 = __int128;

// Value of a lane as a mathematical integer.
I128 iv(const Val &v) {
  return tyIsSigned(v.ty) ? static_cast<I128>(v.asI()) : static_cast<I128>(v.asU());
}
I128 tmin(Ty t) { return tyIsSigned(t) ? -(static_cast<I128>(1) << (tyBits(t) - 1)) : 0; }
I128 tmax(Ty t) {
  return tyIsSigned(t) ? (static_cast<I128>(1) << (tyBits(t) - 1)) - 1
                       : (static_cast<I128>(1) << tyBits(t)) - 1;
}
I128 sat(Ty t, I128 x) { return x < tmin(t) ? tmin(t) : x > tmax(t) ? tmax(t) : x; }
Val mk(Ty t, I128 x) { return Val::u(t, static_cast<uint64_t>(static_cast<unsigned __int128>(x))); }
// floor(x / 2^k) for a signed 128-bit value
I128 floorShift(I128 x, int k) { return x >> k; }

// High half of the double-width product.
I128 mulHi(Ty t, const Val &a, const Val &b) {
  if (t == Ty::ULong)
    return static_cast<I128>((static_cast<unsigned __int128>(a.asU()) * b.asU()) >> 64);
  return floorShift(iv(a) * iv(b), tyBits(t));
}

Ty wider(Ty t) {
  switch (t) {
  case Ty::Char:
    return Ty::Short;
  case Ty::UChar:
    return Ty::UShort;
  case Ty::Short:
    return Ty::Int;
  case Ty::UShort:
    return Ty::UInt;
  case Ty::Int:
    return Ty::Long;
  case Ty::UInt:
    return Ty::ULong;
  default:
    return t;
  }
}

using Ref = std::function<Val(Ty, const std::vector<Val> &)>;

struct IntFn {
  std::string name;
  int arity;
  Ref ref; // expected result of one lane
  enum Kind { Plain, ResultUnsigned, Clamp, Upsample, Bits24 } kind = Plain;
};

std::vector<IntFn> intFns() {
  std::vector<IntFn> v;
  v.push_back({"abs", 1,
               [](Ty t, const std::vector<Val> &a) {
                 I128 x = iv(a[0]);
                 return mk(tyUnsigned(t), x < 0 ? -x : x);
               },
               IntFn::ResultUnsigned});
  v.push_back({"abs_diff", 2,
               [](Ty t, const std::vector<Val> &a) {
                 I128 d = iv(a[0]) - iv(a[1]);
                 return mk(tyUnsigned(t), d < 0 ? -d : d);
               },
               IntFn::ResultUnsigned});
  v.push_back({"add_sat", 2,
               [](Ty t, const std::vector<Val> &a) { return mk(t, sat(t, iv(a[0]) + iv(a[1]))); }});
  v.push_back({"sub_sat", 2,
               [](Ty t, const std::vector<Val> &a) { return mk(t, sat(t, iv(a[0]) - iv(a[1]))); }});
  // hadd: (x + y) >> 1 without overflow; rhadd: (x + y + 1) >> 1
  v.push_back({"hadd", 2, [](Ty t, const std::vector<Val> &a) {
                 return mk(t, floorShift(iv(a[0]) + iv(a[1]), 1));
               }});
  v.push_back({"rhadd", 2, [](Ty t, const std::vector<Val> &a) {
                 return mk(t, floorShift(iv(a[0]) + iv(a[1]) + 1, 1));
               }});
  v.push_back({"max", 2, [](Ty t, const std::vector<Val> &a) {
                 return mk(t, std::max(iv(a[0]), iv(a[1])));
               }});
  v.push_back({"min", 2, [](Ty t, const std::vector<Val> &a) {
                 return mk(t, std::min(iv(a[0]), iv(a[1])));
               }});
  // clamp: min(max(x, lo), hi); undefined for lo > hi (inputs are ordered)
  v.push_back({"clamp", 3,
               [](Ty t, const std::vector<Val> &a) {
                 return mk(t, std::min(std::max(iv(a[0]), iv(a[1])), iv(a[2])));
               },
               IntFn::Clamp});
  v.push_back({"clz", 1, [](Ty t, const std::vector<Val> &a) {
                 uint64_t u = a[0].asU();
                 int n = 0;
                 for (int b = tyBits(t) - 1; b >= 0 && !((u >> b) & 1); --b)
                   ++n;
                 return mk(t, n);
               }});
  v.push_back({"ctz", 1, [](Ty t, const std::vector<Val> &a) {
                 uint64_t u = a[0].asU();
                 int n = 0;
                 for (int b = 0; b < tyBits(t) && !((u >> b) & 1); ++b)
                   ++n;
                 return mk(t, n);
               }});
  v.push_back({"popcount", 1, [](Ty t, const std::vector<Val> &a) {
                 return mk(t, __builtin_popcountll(a[0].asU()));
               }});
  v.push_back(
      {"mul_hi", 2, [](Ty t, const std::vector<Val> &a) { return mk(t, mulHi(t, a[0], a[1])); }});
  v.push_back({"mad_hi", 3, [](Ty t, const std::vector<Val> &a) {
                 return mk(t, mulHi(t, a[0], a[1]) + iv(a[2]));
               }});
  v.push_back({"mad_sat", 3, [](Ty t, const std::vector<Val> &a) {
                 if (t == Ty::ULong) { // a*b + c may exceed 2^128
                   unsigned __int128 p = static_cast<unsigned __int128>(a[0].asU()) * a[1].asU(), r;
                   if (__builtin_add_overflow(p, static_cast<unsigned __int128>(a[2].asU()), &r) ||
                       r > ULLONG_MAX)
                     return Val::u(t, ULLONG_MAX);
                   return Val::u(t, static_cast<uint64_t>(r));
                 }
                 // |a*b + c| < 2^127 for the other types
                 return mk(t, sat(t, iv(a[0]) * iv(a[1]) + iv(a[2])));
               }});
  v.push_back({"rotate", 2, [](Ty t, const std::vector<Val> &a) {
                 int b = tyBits(t);
                 uint64_t u = a[0].asU();
                 int n = static_cast<int>(a[1].asU() & static_cast<uint64_t>(b - 1));
                 uint64_t m = b == 64 ? ~0ULL : ((1ULL << b) - 1);
                 uint64_t r = n == 0 ? u : ((u << n) | (u >> (b - n))) & m;
                 return Val::u(t, r);
               }});
  v.push_back({"upsample", 2,
               [](Ty t, const std::vector<Val> &a) {
                 Ty w = wider(t);
                 uint64_t r = (a[0].asU() << tyBits(t)) | a[1].asU();
                 return Val::u(w, r);
               },
               IntFn::Upsample});
  v.push_back({"mul24", 2,
               [](Ty t, const std::vector<Val> &a) { return mk(t, iv(a[0]) * iv(a[1])); },
               IntFn::Bits24});
  v.push_back(
      {"mad24", 3,
       [](Ty t, const std::vector<Val> &a) { return mk(t, iv(a[0]) * iv(a[1]) + iv(a[2])); },
       IntFn::Bits24});
  return v;
}

// Operands of mul24 / mad24 are defined only in [-2^23, 2^23 - 1] (signed) or
// [0, 2^24 - 1] (unsigned) (s6.15.3).
Val rand24(Rng &r, Ty t) {
  return tyIsSigned(t) ? Val::i(t, r.range(-(1 << 23), (1 << 23) - 1))
                       : Val::u(t, static_cast<uint64_t>(r.range(0, (1 << 24) - 1)));
}
std::vector<Val> edges24(Ty t) {
  std::vector<Val> e;
  if (tyIsSigned(t))
    for (int64_t x : {0LL, 1LL, -1LL, 2LL, -(1LL << 23), (1LL << 23) - 1, 4095LL, -4096LL})
      e.push_back(Val::i(t, x));
  else
    for (uint64_t x : {0ULL, 1ULL, 2ULL, (1ULL << 24) - 1, 4096ULL, 65535ULL})
      e.push_back(Val::u(t, x));
  return e;
}

void addIntOps(std::vector<Op> &ops, const IntFn &fn, Ty t, int w) {
  if (fn.kind == IntFn::Upsample && tyBits(t) == 64)
    return;
  if (fn.kind == IntFn::Bits24 && t != Ty::Int && t != Ty::UInt)
    return;
  std::string T = vecName(t, w);
  auto anyRnd = [t](Rng &r) { return r.anyBits(t); };
  auto check = [fn, t](Ty rt) {
    return [fn, t, rt](const std::vector<Val> &in, const std::vector<Val> &out) {
      Val want = fn.ref(t, in);
      (void)rt;
      return checkExact(want, out[0]);
    };
  };
  // Variants: all-vector arguments, and (widths > 1) the overloads taking scalars.
  for (int scalarVariant = 0; scalarVariant < 2; ++scalarVariant) {
    bool hasScalarForm = fn.name == "max" || fn.name == "min" || fn.name == "clamp";
    if (scalarVariant && (!hasScalarForm || w == 1))
      continue;
    Op op;
    op.func = fn.name;
    op.width = w;
    op.tolerance = "exact";
    Ty rt = fn.kind == IntFn::ResultUnsigned ? tyUnsigned(t)
            : fn.kind == IntFn::Upsample     ? wider(t)
                                             : t;
    std::vector<std::vector<Val>> edges;
    std::vector<std::function<Val(Rng &)>> rnd;
    std::string args;
    for (int k = 0; k < fn.arity; ++k) {
      Ty at = (fn.kind == IntFn::Upsample && k == 1) ? tyUnsigned(t) : t;
      bool perItem = scalarVariant && k >= 1;
      op.in.push_back({at, perItem});
      if (fn.kind == IntFn::Bits24 && k < 2) {
        edges.push_back(edges24(at));
        rnd.push_back([at](Rng &r) { return rand24(r, at); });
      } else {
        edges.push_back(intEdges(at));
        rnd.push_back([at](Rng &r) { return r.anyBits(at); });
      }
      args += (k ? ", $i" : "$i") + std::to_string(k);
    }
    (void)anyRnd;
    op.label = T;
    if (scalarVariant)
      op.label = T + "," + tyName(t) + (fn.arity == 3 ? std::string(",") + tyName(t) : "");
    if (fn.kind == IntFn::Upsample)
      op.label = T + "," + vecName(tyUnsigned(t), w);
    op.out = {{rt}};
    op.body = "$o0 = " + fn.name + "(" + args + ");";
    if (fn.kind == IntFn::Clamp) {
      // lo <= hi: edge tuples and random values are ordered before use
      size_t nt = cartesianSize(edges);
      auto base = edgeThenRandom(edges, rnd);
      op.gen = [base, t](Rng &r, size_t items, int width, std::vector<std::vector<Val>> &in) {
        base(r, items, width, in);
        // swap lo / hi where needed (per lane, or per item for scalar bounds)
        size_t n = in[1].size();
        for (size_t i = 0; i < n; ++i) {
          I128 lo =
              tyIsSigned(t) ? static_cast<I128>(in[1][i].asI()) : static_cast<I128>(in[1][i].asU());
          I128 hi =
              tyIsSigned(t) ? static_cast<I128>(in[2][i].asI()) : static_cast<I128>(in[2][i].asU());
          if (lo > hi)
            std::swap(in[1][i], in[2][i]);
        }
      };
      op.minLanes = nt * (scalarVariant ? static_cast<size_t>(w) : 1) + kRandomLanes;
    } else {
      op.gen = edgeThenRandom(edges, rnd);
      op.minLanes =
          cartesianSize(edges) * (scalarVariant ? static_cast<size_t>(w) : 1) + kRandomLanes;
    }
    op.laneCheck = check(rt);
    ops.push_back(op);
  }
}

class Integer : public Suite, public ::testing::WithParamInterface<Ty> {};

TEST_P(Integer, Exact) {
  Ty t = GetParam();
  std::vector<Op> ops;
  for (const IntFn &fn : intFns())
    for (int w : kWidths)
      addIntOps(ops, fn, t, w);
  runOps(ops);
  summary((std::string("integer ") + tyName(t)).c_str());
}

INSTANTIATE_TEST_SUITE_P(Builtins, Integer, ::testing::ValuesIn(kIntTypes),
                         [](const ::testing::TestParamInfo<Ty> &i) {
                           return std::string(tyName(i.param));
                         });

} // namespace
} // namespace fclconf

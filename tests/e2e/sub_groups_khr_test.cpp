// The cl_khr_subgroup_* extensions against the host, at S = 8, 16 and 32 (ballot also
// at 64, where masks span two words), in work-groups of 2S + 5: two full sub-groups and
// a partial one of 5 work-items. Functions of the non-uniform extensions are called in
// divergent code, where they act on the active work-items: those of the sub-group that
// reach the call. Results of work-items that did not call are checked to be untouched.
// Layout, core collectives and barriers: sub_groups_test.cpp.
#include <climits>
#include <cmath>
#include <cstdlib>

#include "sub_groups_support.hpp"

namespace fcltest {
namespace {

using namespace subgroups;

class SubGroupKhr : public SubGroupTest, public ::testing::WithParamInterface<cl_uint> {
protected:
  // 3 work-groups of 2S + 5 work-items: sub-groups of S, S and 5.
  size_t localSize() const { return 2 * GetParam() + 5; }
  size_t globalSize() const { return 3 * localSize(); }
  Layout launchLayout() const { return layoutOf({globalSize()}, {localSize()}, GetParam()); }
  cl_kernel kernelFor(const std::string &src, const char *name) {
    return kernelAt(GetParam(), SizeFrom::Attribute, src, name);
  }
  void launch(cl_kernel k) { run(k, {globalSize()}, {localSize()}); }
};

// Ballot also at S = 64.
class SubGroupBallot : public SubGroupKhr {};

// Bits 0 to k-1.
uint64_t below(size_t k) { return k >= 64 ? ~uint64_t(0) : (uint64_t(1) << k) - 1; }
cl_uint popc(uint64_t v) { return cl_uint(__builtin_popcountll(v)); }
cl_uint lsb(uint64_t v) { return v ? cl_uint(__builtin_ctzll(v)) : 64u; }
cl_uint msb(uint64_t v) { return v ? cl_uint(63 - __builtin_clzll(v)) : 64u; }

std::vector<cl_int> values(size_t n, int mod, int shift) {
  std::vector<cl_int> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = cl_int((i * 7919 + 13) % size_t(mod)) - shift;
  return v;
}

// --- cl_khr_subgroup_ballot --------------------------------------------------------------

const char *kBallotSrc = R"CLC(
#ifndef cl_khr_subgroup_ballot
#error "cl_khr_subgroup_ballot is not defined"
#endif
SG_ATTR __kernel void ballot(__global const int* in, uint4 pattern, __global uint4* masks,
                             __global uint* out, __global int* bc) {
  size_t g = get_global_id(0);
  uint lane = get_sub_group_local_id(), size = get_sub_group_size();
  int x = in[g];
  uint4 d = (uint4)(0xdeadbeefu);
  int first = -12345, nb = -12345;
  if (x % 3 != 0) {
    d = sub_group_ballot(x > 0);
    first = sub_group_broadcast_first(x);
  }
  if (lane % 2 == 1)
    nb = sub_group_non_uniform_broadcast(x, 3u);
  uint4 all = sub_group_ballot(x > 0);
  uint4 some = sub_group_ballot(x > 0 || lane == size / 2);
  masks[7 * g + 0] = d;
  masks[7 * g + 1] = all;
  masks[7 * g + 2] = get_sub_group_eq_mask();
  masks[7 * g + 3] = get_sub_group_ge_mask();
  masks[7 * g + 4] = get_sub_group_gt_mask();
  masks[7 * g + 5] = get_sub_group_le_mask();
  masks[7 * g + 6] = get_sub_group_lt_mask();
  __global uint* o = out + 12 * g;
  o[0] = sub_group_ballot_bit_count(all);
  o[1] = sub_group_ballot_inclusive_scan(all);
  o[2] = sub_group_ballot_exclusive_scan(all);
  o[3] = sub_group_ballot_find_lsb(some);
  o[4] = sub_group_ballot_find_msb(some);
  o[5] = sub_group_ballot_bit_count(pattern);
  o[6] = sub_group_ballot_inclusive_scan(pattern);
  o[7] = sub_group_ballot_exclusive_scan(pattern);
  o[8] = sub_group_ballot_find_lsb(pattern);
  o[9] = sub_group_ballot_find_msb(pattern);
  o[10] = sub_group_inverse_ballot(pattern);
  o[11] = sub_group_ballot_bit_extract(pattern, (lane * 7 + 3) % size);
  bc[2 * g] = first;
  bc[2 * g + 1] = nb;
})CLC";

// ballot in divergent code (inactive work-items' bits clear), broadcast_first and
// non_uniform_broadcast there; bit_count, scans, find_lsb/msb of ballots and of a mask
// with bits beyond the maximum sub-group size (ignored); inverse_ballot, bit_extract;
// the eq/ge/gt/le/lt masks (ge and gt up to the maximum sub-group size, as the CTS has
// them, also in the partial sub-group).
TEST_P(SubGroupBallot, BallotFunctionsMatchTheHost) {
  SKIP_UNLESS_EXTENSION("cl_khr_subgroup_ballot");
  const cl_uint S = GetParam();
  SKIP_UNLESS_SIZE(S, SizeFrom::Attribute);
  cl_kernel k = kernelFor(kBallotSrc, "ballot");
  Layout L = launchLayout();
  const size_t n = L.items.size();
  std::vector<cl_int> in = values(n, 201, 100);
  cl_uint4 pattern = {{0x9A5C3E71u, S == 64 ? 0x0F0F1235u : 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu}};
  cl_mem din = bufferFrom(in), masks = buffer(7 * n * sizeof(cl_uint4)),
         out = buffer(12 * n * sizeof(cl_uint)), bc = buffer(2 * n * sizeof(cl_int));
  setArgs(k, din, pattern, masks, out, bc);
  launch(k);
  std::vector<cl_uint4> gm = read<cl_uint4>(masks, 7 * n);
  std::vector<cl_uint> go = read<cl_uint>(out, 12 * n);
  std::vector<cl_int> gb = read<cl_int>(bc, 2 * n);

  Mismatches m;
  auto mask = [&](const cl_uint4 &got, uint64_t want, const char *what, size_t g) {
    m.eq<uint64_t>(bits64(got), want, what, g);
    m.eq<cl_uint>(got.s[2] | got.s[3], 0u, what, g); // words z and w: no work-items there
  };
  const uint64_t P = bits64(pattern);
  for (const std::vector<size_t> &sg : L.subGroups) {
    const size_t size = sg.size();
    const uint64_t within = below(size);
    uint64_t divergent = 0, all = 0, some = 0;
    int first = 0;
    bool haveFirst = false;
    for (size_t lane = 0; lane < size; ++lane) {
      const cl_int x = in[sg[lane]];
      if (x % 3 != 0) {
        divergent |= uint64_t(x > 0) << lane;
        if (!haveFirst)
          first = x, haveFirst = true;
      }
      all |= uint64_t(x > 0) << lane;
      some |= uint64_t(x > 0 || lane == size / 2) << lane;
    }
    const uint64_t p = P & within;
    for (size_t lane = 0; lane < size; ++lane) {
      const size_t g = sg[lane];
      const cl_int x = in[g];
      const cl_uint4 *gmask = &gm[7 * g];
      if (x % 3 != 0) {
        mask(gmask[0], divergent, "sub_group_ballot in divergent code", g);
        m.eq(gb[2 * g], first, "sub_group_broadcast_first in divergent code", g);
      } else {
        for (int w = 0; w < 4; ++w)
          m.eq<cl_uint>(gmask[0].s[w], 0xdeadbeefu, "untouched ballot of an inactive work-item", g);
        m.eq(gb[2 * g], -12345, "untouched broadcast_first of an inactive work-item", g);
      }
      m.eq(gb[2 * g + 1], lane % 2 == 1 ? in[sg[3]] : -12345,
           "sub_group_non_uniform_broadcast(x, 3) in odd lanes", g);
      mask(gmask[1], all, "sub_group_ballot", g);
      const uint64_t maxBits = below(L.items[g].maxSize);
      mask(gmask[2], uint64_t(1) << lane, "get_sub_group_eq_mask", g);
      mask(gmask[3], maxBits & ~below(lane), "get_sub_group_ge_mask", g);
      mask(gmask[4], maxBits & ~below(lane + 1), "get_sub_group_gt_mask", g);
      mask(gmask[5], below(lane + 1), "get_sub_group_le_mask", g);
      mask(gmask[6], below(lane), "get_sub_group_lt_mask", g);
      const cl_uint *o = &go[12 * g];
      m.eq<cl_uint>(o[0], popc(all), "bit_count(ballot)", g);
      m.eq<cl_uint>(o[1], popc(all & below(lane + 1)), "inclusive_scan(ballot)", g);
      m.eq<cl_uint>(o[2], popc(all & below(lane)), "exclusive_scan(ballot)", g);
      m.eq<cl_uint>(o[3], lsb(some), "find_lsb(ballot)", g);
      m.eq<cl_uint>(o[4], msb(some), "find_msb(ballot)", g);
      m.eq<cl_uint>(o[6], popc(p & below(lane + 1)), "inclusive_scan(pattern)", g);
      m.eq<cl_uint>(o[7], popc(p & below(lane)), "exclusive_scan(pattern)", g);
      m.eq<cl_uint>(o[8], lsb(p), "find_lsb(pattern)", g);
      // Bits at and above the maximum sub-group size are ignored. In the partial
      // sub-group, whether the bits between its size and the maximum count is read two
      // ways (the CTS: only its work-items'; FiberCL: up to the maximum): not checked.
      if (size == L.items[g].maxSize) {
        m.eq<cl_uint>(o[5], popc(p), "bit_count(pattern)", g);
        m.eq<cl_uint>(o[9], msb(p), "find_msb(pattern)", g);
      }
      m.truth(o[10], (P >> lane) & 1, "inverse_ballot(pattern)", g);
      m.truth(o[11], (P >> ((lane * 7 + 3) % size)) & 1,
              "bit_extract(pattern, (7 lane + 3) % size)", g);
    }
  }
}

// --- cl_khr_subgroup_non_uniform_vote ----------------------------------------------------

const char *kVoteSrc = R"CLC(
#ifndef cl_khr_subgroup_non_uniform_vote
#error "cl_khr_subgroup_non_uniform_vote is not defined"
#endif
SG_ATTR __kernel void vote(__global const int* in, __global const int* same, __global int* out) {
  size_t g = get_global_id(0);
  uint lane = get_sub_group_local_id();
  int x = in[g];
  __global int* o = out + 6 * g;
  o[0] = sub_group_elect();
  o[1] = o[2] = o[3] = o[4] = o[5] = -5;
  if (lane % 3 != 0) {
    o[1] = sub_group_elect();
    o[2] = sub_group_non_uniform_all(x > -1000);
    o[3] = sub_group_non_uniform_any(x == 7);
    o[4] = sub_group_non_uniform_all_equal(same[g]);
    o[5] = sub_group_non_uniform_all_equal((float)same[g] * 0.5f);
  }
})CLC";

// elect, all, any and all_equal inside `if (lane % 3 != 0)`: work-items of lanes 0, 3,
// 6, ... are inactive, and values there (a -1000, a 7, a different value) must not count.
TEST_P(SubGroupKhr, NonUniformVoteCountsOnlyActiveWorkItems) {
  SKIP_UNLESS_EXTENSION("cl_khr_subgroup_non_uniform_vote");
  const cl_uint S = GetParam();
  SKIP_UNLESS_SIZE(S, SizeFrom::Attribute);
  cl_kernel k = kernelFor(kVoteSrc, "vote");
  Layout L = launchLayout();
  const size_t n = L.items.size();
  std::vector<cl_int> in = values(n, 1999, 999), same(n, 42);
  for (cl_int &v : in)
    if (v == 7)
      v = 8;
  for (size_t j = 0; j < L.subGroups.size(); ++j) {
    const std::vector<size_t> &sg = L.subGroups[j];
    if (j % 4 == 0)
      in[sg[1]] = -1000; // active: all is false
    if (j % 4 == 1)
      in[sg[0]] = -1000; // inactive: all stays true
    if (j % 5 == 2)
      in[sg[2]] = 7; // active: any is true
    if (j % 5 == 3)
      in[sg[3]] = 7; // inactive: any stays false
    if (j % 3 == 1)
      for (size_t lane = 0; lane < sg.size(); lane += 3)
        same[sg[lane]] = int(lane) + 100; // inactive lanes differ: still all equal
    if (j % 3 == 2)
      same[sg[1]] = 43; // an active lane differs from lane 2's 42
  }
  cl_mem din = bufferFrom(in), dsame = bufferFrom(same), out = buffer(6 * n * sizeof(cl_int));
  for (const char *seed : {"", "3"}) {
    SCOPED_TRACE(std::string("FIBERCL_SEED=") + seed);
    ScopedEnv env({{"FIBERCL_SEED", *seed ? std::string(seed) : ScopedEnv::kUnset}});
    setArgs(k, din, dsame, out);
    launch(k);
    std::vector<cl_int> got = read<cl_int>(out, 6 * n);
    Mismatches m;
    for (const std::vector<size_t> &sg : L.subGroups) {
      bool all = true, any = false, equal = true;
      for (size_t lane = 1; lane < sg.size(); ++lane)
        if (lane % 3 != 0) {
          all &= in[sg[lane]] > -1000;
          any |= in[sg[lane]] == 7;
          equal &= same[sg[lane]] == same[sg[1]];
        }
      for (size_t lane = 0; lane < sg.size(); ++lane) {
        const size_t g = sg[lane];
        const cl_int *o = &got[6 * g];
        m.truth(o[0], lane == 0, "sub_group_elect", g);
        if (lane % 3 == 0) {
          for (int i = 1; i < 6; ++i)
            m.eq(o[i], -5, "untouched result of an inactive work-item", g);
          continue;
        }
        m.truth(o[1], lane == 1, "sub_group_elect in divergent code", g);
        m.truth(o[2], all, "sub_group_non_uniform_all", g);
        m.truth(o[3], any, "sub_group_non_uniform_any", g);
        m.truth(o[4], equal, "sub_group_non_uniform_all_equal(int)", g);
        m.truth(o[5], equal, "sub_group_non_uniform_all_equal(float)", g);
      }
    }
  }
}

// --- cl_khr_subgroup_non_uniform_arithmetic ----------------------------------------------

const char *kArithmeticSrc = R"CLC(
#ifndef cl_khr_subgroup_non_uniform_arithmetic
#error "cl_khr_subgroup_non_uniform_arithmetic is not defined"
#endif
#define OP(KIND, NAME) sub_group_non_uniform_##KIND##_##NAME
#define CALL(KIND, NAME, ARG) OP(KIND, NAME)(ARG)
SG_ATTR __kernel void arith(__global const int* xs, __global const int* ys, int mode, uint k,
                            __global int* o, __global float* of, __global long* ol) {
  size_t g = get_global_id(0), n = get_global_size(0);
  uint lane = get_sub_group_local_id();
  int x = xs[g], y = ys[g], p = x % 4;
  bool active = mode == 0 ? lane < k : (lane % 2) != 0;
  if (active) {
    o[0 * n + g] = CALL(KIND, add, x);
    o[1 * n + g] = CALL(KIND, mul, y);
    o[2 * n + g] = CALL(KIND, min, x);
    o[3 * n + g] = CALL(KIND, max, x);
    o[4 * n + g] = CALL(KIND, and, x);
    o[5 * n + g] = CALL(KIND, or, x);
    o[6 * n + g] = CALL(KIND, xor, x);
    o[7 * n + g] = CALL(KIND, logical_and, p);
    o[8 * n + g] = CALL(KIND, logical_or, p);
    o[9 * n + g] = CALL(KIND, logical_xor, p);
    of[g] = CALL(KIND, max, (float)x);
    ol[g] = CALL(KIND, add, (long)x * 5000000011L);
  }
})CLC";

// One operation of the extension's 10 on the host.
struct Op {
  const char *name;
  bool logical; // on predicates (non-zero: true), a truth value out
  cl_int identity;
  cl_int (*combine)(cl_int, cl_int); // on x, or y for mul, or truth values
  bool onY;
};
const Op kOps[] = {
    {"add", false, 0, [](cl_int a, cl_int b) { return a + b; }, false},
    {"mul", false, 1, [](cl_int a, cl_int b) { return a * b; }, true},
    {"min", false, INT_MAX, [](cl_int a, cl_int b) { return std::min(a, b); }, false},
    {"max", false, INT_MIN, [](cl_int a, cl_int b) { return std::max(a, b); }, false},
    {"and", false, -1, [](cl_int a, cl_int b) { return a & b; }, false},
    {"or", false, 0, [](cl_int a, cl_int b) { return a | b; }, false},
    {"xor", false, 0, [](cl_int a, cl_int b) { return a ^ b; }, false},
    {"logical_and", true, 1, [](cl_int a, cl_int b) { return cl_int(a && b); }, false},
    {"logical_or", true, 0, [](cl_int a, cl_int b) { return cl_int(a || b); }, false},
    {"logical_xor", true, 0, [](cl_int a, cl_int b) { return cl_int(!a != !b); }, false},
};

cl_int opInput(const Op &op, const std::vector<cl_int> &xs, const std::vector<cl_int> &ys,
               size_t g) {
  return op.logical ? cl_int(xs[g] % 4 != 0) : (op.onY ? ys[g] : xs[g]);
}

// Multiplicands: mostly 1 and -1, a few 2s (products stay small).
std::vector<cl_int> factors(size_t n) {
  std::vector<cl_int> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = i % 5 == 0 ? 2 : (i % 3 == 0 ? -1 : 1);
  return v;
}

// A build per kind (reduce, scan_inclusive, scan_exclusive); each launched twice.
class SubGroupArithmetic : public SubGroupTest,
                           public ::testing::WithParamInterface<std::tuple<cl_uint, const char *>> {
};

// add, mul, min, max, and, or, xor and the logical and/or/xor (on predicates x % 4, in
// -3..3: any non-zero is true), float max and long add, inside `if (lane < 3)` and
// `if (lane % 2)` (the condition chosen by a kernel argument).
TEST_P(SubGroupArithmetic, NonUniformOperationsOverActiveWorkItems) {
  SKIP_UNLESS_EXTENSION("cl_khr_subgroup_non_uniform_arithmetic");
  const auto [S, kindName] = GetParam();
  SKIP_UNLESS_SIZE(S, SizeFrom::Attribute);
  const std::string kind = kindName;
  cl_kernel k =
      kernelAt(S, SizeFrom::Attribute, "#define KIND " + kind + "\n" + kArithmeticSrc, "arith");
  const size_t local = 2 * S + 5, n = 3 * local;
  Layout L = layoutOf({n}, {local}, S);
  std::vector<cl_int> xs = values(n, 2001, 1000), ys = factors(n);
  cl_mem dx = bufferFrom(xs), dy = bufferFrom(ys);
  for (int mode = 0; mode < 2; ++mode) {
    SCOPED_TRACE(mode == 0 ? "if (lane < 3)" : "if (lane % 2)");
    auto active = [&](size_t lane) { return mode == 0 ? lane < 3 : lane % 2 == 1; };
    cl_mem o = bufferFrom(std::vector<cl_int>(10 * n, -77)),
           of = bufferFrom(std::vector<cl_float>(n, -77.0f)),
           ol = bufferFrom(std::vector<cl_long>(n, -77));
    setArgs(k, dx, dy, mode, cl_uint(3), o, of, ol);
    run(k, {n}, {local});
    std::vector<cl_int> go = read<cl_int>(o, 10 * n);
    std::vector<cl_float> gf = read<cl_float>(of, n);
    std::vector<cl_long> gl = read<cl_long>(ol, n);
    std::vector<std::string> names;
    for (const Op &op : kOps)
      names.push_back(kind + "_" + op.name);
    Mismatches m;
    for (const std::vector<size_t> &sg : L.subGroups) {
      std::vector<size_t> act; // the active work-items, by lane
      for (size_t lane = 0; lane < sg.size(); ++lane)
        if (active(lane))
          act.push_back(sg[lane]);
        else
          for (size_t i = 0; i < 10; ++i)
            m.eq(go[i * n + sg[lane]], -77, "untouched result of an inactive work-item", sg[lane]);
      for (size_t oi = 0; oi < 10; ++oi) {
        const Op &op = kOps[oi];
        cl_int total = op.identity, before = op.identity;
        for (size_t g : act)
          total = op.combine(total, opInput(op, xs, ys, g));
        for (size_t g : act) {
          const cl_int upTo = op.combine(before, opInput(op, xs, ys, g));
          const cl_int want = kind == "reduce" ? total : kind == "scan_inclusive" ? upTo : before;
          if (op.logical)
            m.truth(go[oi * n + g], want != 0, names[oi].c_str(), g);
          else
            m.eq(go[oi * n + g], want, names[oi].c_str(), g);
          before = upTo;
        }
      }
      float fmaxAll = -INFINITY, fbefore = -INFINITY;
      cl_long lsum = 0, lbefore = 0;
      for (size_t g : act) {
        fmaxAll = std::max(fmaxAll, float(xs[g]));
        lsum += cl_long(xs[g]) * 5000000011LL;
      }
      for (size_t g : act) {
        const float fupTo = std::max(fbefore, float(xs[g]));
        const cl_long lupTo = lbefore + cl_long(xs[g]) * 5000000011LL;
        m.eq(gf[g],
             kind == "reduce"           ? fmaxAll
             : kind == "scan_inclusive" ? fupTo
                                        : fbefore,
             "float max", g);
        m.eq(gl[g],
             kind == "reduce"           ? lsum
             : kind == "scan_inclusive" ? lupTo
                                        : lbefore,
             "long add", g);
        fbefore = fupTo;
        lbefore = lupTo;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, SubGroupArithmetic,
                         ::testing::Combine(::testing::Values(8u, 16u, 32u),
                                            ::testing::Values("reduce", "scan_inclusive",
                                                              "scan_exclusive")),
                         [](const ::testing::TestParamInfo<std::tuple<cl_uint, const char *>> &i) {
                           return "S" + std::to_string(std::get<0>(i.param)) + "_" +
                                  std::get<1>(i.param);
                         });

// --- A loop whose active set shrinks -----------------------------------------------------

// Lane L iterates L times: in iteration i the active work-items are the lanes above i,
// so the reduce counts them and the inclusive scan gives L - i.
TEST_P(SubGroupKhr, NonUniformLoopShrinksTheActiveSet) {
  SKIP_UNLESS_EXTENSION("cl_khr_subgroup_non_uniform_arithmetic");
  const cl_uint S = GetParam();
  SKIP_UNLESS_SIZE(S, SizeFrom::Attribute);
  cl_kernel k = kernelFor(R"CLC(
    SG_ATTR __kernel void shrink(__global int* out) {
      size_t g = get_global_id(0), n = get_global_size(0);
      uint lane = get_sub_group_local_id();
      int acc = 0, acc2 = 0;
      for (uint i = 0; i < lane; ++i) {
        acc += sub_group_non_uniform_reduce_add(1);
        acc2 += sub_group_non_uniform_scan_inclusive_add(1);
      }
      out[g] = acc;
      out[n + g] = acc2;
    })CLC",
                          "shrink");
  Layout L = launchLayout();
  const size_t n = L.items.size();
  for (const char *seed : {"", "3"}) {
    SCOPED_TRACE(std::string("FIBERCL_SEED=") + seed);
    ScopedEnv env({{"FIBERCL_SEED", *seed ? std::string(seed) : ScopedEnv::kUnset}});
    cl_mem out = bufferFrom(std::vector<cl_int>(2 * n, -1));
    setArgs(k, out);
    launch(k);
    std::vector<cl_int> got = read<cl_int>(out, 2 * n);
    Mismatches m;
    for (const std::vector<size_t> &sg : L.subGroups)
      for (size_t lane = 0; lane < sg.size(); ++lane) {
        cl_int count = 0;
        for (size_t i = 0; i < lane; ++i)
          count += cl_int(sg.size() - 1 - i); // lanes i+1 .. size-1
        m.eq(got[sg[lane]], count, "sum of reduce_add(1) over the loop", sg[lane]);
        m.eq(got[n + sg[lane]], cl_int(lane * (lane + 1) / 2),
             "sum of scan_inclusive_add(1) over the loop", sg[lane]);
      }
  }
}

// --- cl_khr_subgroup_clustered_reduce ----------------------------------------------------

// Every cluster size from 1 to S with add and max; all 10 operations (and a float add)
// with clusters of 4, in two builds.
const char *kClusterSizesSrc = R"CLC(
#ifndef cl_khr_subgroup_clustered_reduce
#error "cl_khr_subgroup_clustered_reduce is not defined"
#endif
#define CLU(C, CS)                                                    \
    o[(2 * (C)) * n + g] = sub_group_clustered_reduce_add(x, CS);     \
    o[(2 * (C) + 1) * n + g] = sub_group_clustered_reduce_max(x, CS);
SG_ATTR __kernel void sizes(__global const int* xs, __global int* o) {
  size_t g = get_global_id(0), n = get_global_size(0);
  int x = xs[g];
  CLU(0, 1) CLU(1, 2) CLU(2, 4) CLU(3, 8)
#if SGS >= 16
  CLU(4, 16)
#endif
#if SGS >= 32
  CLU(5, 32)
#endif
#if SGS >= 64
  CLU(6, 64)
#endif
})CLC";

const char *kClusterOpsSrc = R"CLC(
#ifndef cl_khr_subgroup_clustered_reduce
#error "cl_khr_subgroup_clustered_reduce is not defined"
#endif
SG_ATTR __kernel void ops(__global const int* xs, __global const int* ys, __global int* o,
                          __global float* of) {
  size_t g = get_global_id(0), n = get_global_size(0);
  int x = xs[g], y = ys[g], p = x % 4;
  o[0 * n + g] = sub_group_clustered_reduce_add(x, 4);
  o[1 * n + g] = sub_group_clustered_reduce_mul(y, 4);
  o[2 * n + g] = sub_group_clustered_reduce_min(x, 4);
  o[3 * n + g] = sub_group_clustered_reduce_max(x, 4);
  o[4 * n + g] = sub_group_clustered_reduce_and(x, 4);
  o[5 * n + g] = sub_group_clustered_reduce_or(x, 4);
  o[6 * n + g] = sub_group_clustered_reduce_xor(x, 4);
  o[7 * n + g] = sub_group_clustered_reduce_logical_and(p, 4);
  o[8 * n + g] = sub_group_clustered_reduce_logical_or(p, 4);
  o[9 * n + g] = sub_group_clustered_reduce_logical_xor(p, 4);
  of[g] = sub_group_clustered_reduce_add((float)x, 4);
})CLC";

// The clusters of a sub-group: consecutive lanes [first, first + cs), cut at its end (the
// partial sub-group of 5's last cluster has only the work-items there are).
template <typename Fn> void forEachCluster(const std::vector<size_t> &sg, size_t cs, Fn fn) {
  for (size_t first = 0; first < sg.size(); first += cs)
    fn(std::vector<size_t>(sg.begin() + first, sg.begin() + std::min(sg.size(), first + cs)));
}

TEST_P(SubGroupKhr, ClusteredReduceAtEachClusterSize) {
  SKIP_UNLESS_EXTENSION("cl_khr_subgroup_clustered_reduce");
  const cl_uint S = GetParam();
  SKIP_UNLESS_SIZE(S, SizeFrom::Attribute);
  cl_kernel k = kernelFor(kClusterSizesSrc, "sizes");
  Layout L = launchLayout();
  const size_t n = L.items.size();
  std::vector<cl_int> xs = values(n, 2001, 1000);
  cl_mem dx = bufferFrom(xs), o = buffer(14 * n * sizeof(cl_int));
  setArgs(k, dx, o);
  launch(k);
  std::vector<cl_int> go = read<cl_int>(o, 14 * n);
  std::vector<std::string> names;
  for (size_t cs = 1; cs <= 64; cs *= 2)
    for (const char *op : {"add", "max"})
      names.push_back(std::string("clustered_reduce_") + op + ", cluster size " +
                      std::to_string(cs));
  Mismatches m;
  for (const std::vector<size_t> &sg : L.subGroups)
    for (size_t c = 0, cs = 1; cs <= S; ++c, cs *= 2)
      forEachCluster(sg, cs, [&](const std::vector<size_t> &cluster) {
        cl_int sum = 0, mx = INT_MIN;
        for (size_t g : cluster) {
          sum += xs[g];
          mx = std::max(mx, xs[g]);
        }
        for (size_t g : cluster) {
          m.eq(go[2 * c * n + g], sum, names[2 * c].c_str(), g);
          m.eq(go[(2 * c + 1) * n + g], mx, names[2 * c + 1].c_str(), g);
        }
      });
}

TEST_P(SubGroupKhr, ClusteredReduceEveryOperation) {
  SKIP_UNLESS_EXTENSION("cl_khr_subgroup_clustered_reduce");
  const cl_uint S = GetParam();
  SKIP_UNLESS_SIZE(S, SizeFrom::Attribute);
  cl_kernel k = kernelFor(kClusterOpsSrc, "ops");
  Layout L = launchLayout();
  const size_t n = L.items.size();
  std::vector<cl_int> xs = values(n, 2001, 1000), ys = factors(n);
  cl_mem dx = bufferFrom(xs), dy = bufferFrom(ys), o = buffer(10 * n * sizeof(cl_int)),
         of = buffer(n * sizeof(cl_float));
  setArgs(k, dx, dy, o, of);
  launch(k);
  std::vector<cl_int> go = read<cl_int>(o, 10 * n);
  std::vector<cl_float> gf = read<cl_float>(of, n);
  std::vector<std::string> names;
  for (const Op &op : kOps)
    names.push_back(std::string("clustered_reduce_") + op.name + ", cluster size 4");
  Mismatches m;
  for (const std::vector<size_t> &sg : L.subGroups)
    forEachCluster(sg, 4, [&](const std::vector<size_t> &cluster) {
      for (size_t oi = 0; oi < 10; ++oi) {
        const Op &op = kOps[oi];
        cl_int total = op.identity;
        for (size_t g : cluster)
          total = op.combine(total, opInput(op, xs, ys, g));
        for (size_t g : cluster)
          if (op.logical)
            m.truth(go[oi * n + g], total != 0, names[oi].c_str(), g);
          else
            m.eq(go[oi * n + g], total, names[oi].c_str(), g);
      }
      float fsum = 0;
      for (size_t g : cluster)
        fsum += float(xs[g]);
      for (size_t g : cluster)
        m.eq(gf[g], fsum, "float clustered_reduce_add, cluster size 4", g);
    });
}

// --- cl_khr_subgroup_shuffle and cl_khr_subgroup_shuffle_relative ------------------------

const char *kShuffleSrc = R"CLC(
#ifndef cl_khr_subgroup_shuffle
#error "cl_khr_subgroup_shuffle is not defined"
#endif
SG_ATTR __kernel void shuffling(__global const int* in, __global const ulong* inl,
                              __global int* out, __global ulong* outl) {
  size_t g = get_global_id(0), n = get_global_size(0);
  uint lane = get_sub_group_local_id(), size = get_sub_group_size();
  int x = in[g];
  ulong xl = inl[g];
  out[0 * n + g] = sub_group_shuffle(x, (lane * 5 + 3) % size);
  out[1 * n + g] = sub_group_shuffle(x, size - 1 - lane);
  out[2 * n + g] = sub_group_shuffle_xor(x, 1u);
  out[3 * n + g] = sub_group_shuffle_xor(x, 6u);
  out[4 * n + g] = sub_group_shuffle_xor(x, SGS - 1);
  int d = -9;
  if (lane % 2 == 1) // the partners (lane ^ 2) are odd too: active
    d = sub_group_shuffle_xor(x, 2u);
  out[5 * n + g] = d;
  outl[0 * n + g] = sub_group_shuffle(xl, (lane + 2) % size);
  outl[1 * n + g] = sub_group_shuffle_xor(xl, 3u);
})CLC";

std::vector<cl_ulong> wideValues(size_t n) {
  std::vector<cl_ulong> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = cl_ulong(i + 1) << 40 | cl_ulong(i * 2654435761u);
  return v;
}

// Indices in range per the spec (an index at or past the sub-group's size is undefined;
// such results of shuffle_xor are not checked); shuffle_xor in divergent code between
// active work-items.
TEST_P(SubGroupKhr, ShuffleAndShuffleXor) {
  SKIP_UNLESS_EXTENSION("cl_khr_subgroup_shuffle");
  const cl_uint S = GetParam();
  SKIP_UNLESS_SIZE(S, SizeFrom::Attribute);
  cl_kernel k = kernelFor(kShuffleSrc, "shuffling");
  Layout L = launchLayout();
  const size_t n = L.items.size();
  std::vector<cl_int> in = values(n, 100003, 50000);
  std::vector<cl_ulong> inl = wideValues(n);
  cl_mem din = bufferFrom(in), dinl = bufferFrom(inl), out = buffer(6 * n * sizeof(cl_int)),
         outl = buffer(2 * n * sizeof(cl_ulong));
  setArgs(k, din, dinl, out, outl);
  launch(k);
  std::vector<cl_int> go = read<cl_int>(out, 6 * n);
  std::vector<cl_ulong> gl = read<cl_ulong>(outl, 2 * n);
  Mismatches m;
  for (const std::vector<size_t> &sg : L.subGroups) {
    const size_t size = sg.size();
    for (size_t lane = 0; lane < size; ++lane) {
      const size_t g = sg[lane];
      m.eq(go[g], in[sg[(lane * 5 + 3) % size]], "shuffle(x, (5 lane + 3) % size)", g);
      m.eq(go[n + g], in[sg[size - 1 - lane]], "shuffle(x, size - 1 - lane)", g);
      const size_t xors[3] = {1, 6, S - 1};
      for (int i = 0; i < 3; ++i)
        if ((lane ^ xors[i]) < size)
          m.eq(go[(2 + i) * n + g], in[sg[lane ^ xors[i]]], "shuffle_xor(x, 1 / 6 / S-1)", g);
      if (lane % 2 == 0)
        m.eq(go[5 * n + g], -9, "untouched result of an inactive work-item", g);
      else if ((lane ^ 2) < size)
        m.eq(go[5 * n + g], in[sg[lane ^ 2]], "shuffle_xor(x, 2) in odd lanes", g);
      m.eq(gl[g], inl[sg[(lane + 2) % size]], "ulong shuffle(x, (lane + 2) % size)", g);
      if ((lane ^ 3) < size)
        m.eq(gl[n + g], inl[sg[lane ^ 3]], "ulong shuffle_xor(x, 3)", g);
    }
  }
}

const char *kRelativeSrc = R"CLC(
#ifndef cl_khr_subgroup_shuffle_relative
#error "cl_khr_subgroup_shuffle_relative is not defined"
#endif
SG_ATTR __kernel void relative(__global const int* in, __global const ulong* inl,
                               __global int* out, __global ulong* outl, __global float* outf) {
  size_t g = get_global_id(0), n = get_global_size(0);
  uint lane = get_sub_group_local_id();
  int x = in[g];
  ulong xl = inl[g];
  out[0 * n + g] = sub_group_shuffle_up(x, 1u);
  out[1 * n + g] = sub_group_shuffle_up(x, 3u);
  out[2 * n + g] = sub_group_shuffle_down(x, 1u);
  out[3 * n + g] = sub_group_shuffle_down(x, 3u);
  out[4 * n + g] = sub_group_shuffle_up(x, 0u);
  int d = -9;
  if (lane % 2 == 0) // the sources (lane + 2) are even too: active
    d = sub_group_shuffle_down(x, 2u);
  out[5 * n + g] = d;
  outl[0 * n + g] = sub_group_shuffle_down(xl, 2u);
  outl[1 * n + g] = sub_group_shuffle_up(xl, SGS - 1);
  outf[g] = sub_group_shuffle_down((float)x * 0.25f, 1u);
})CLC";

// shuffle_up and shuffle_down, checked where the source lane is in the sub-group (else
// undefined); shuffle_down in divergent code between active work-items.
TEST_P(SubGroupKhr, ShuffleUpAndDown) {
  SKIP_UNLESS_EXTENSION("cl_khr_subgroup_shuffle_relative");
  const cl_uint S = GetParam();
  SKIP_UNLESS_SIZE(S, SizeFrom::Attribute);
  cl_kernel k = kernelFor(kRelativeSrc, "relative");
  Layout L = launchLayout();
  const size_t n = L.items.size();
  std::vector<cl_int> in = values(n, 100003, 50000);
  std::vector<cl_ulong> inl = wideValues(n);
  cl_mem din = bufferFrom(in), dinl = bufferFrom(inl), out = buffer(6 * n * sizeof(cl_int)),
         outl = buffer(2 * n * sizeof(cl_ulong)), outf = buffer(n * sizeof(cl_float));
  setArgs(k, din, dinl, out, outl, outf);
  launch(k);
  std::vector<cl_int> go = read<cl_int>(out, 6 * n);
  std::vector<cl_ulong> gl = read<cl_ulong>(outl, 2 * n);
  std::vector<cl_float> gf = read<cl_float>(outf, n);
  Mismatches m;
  for (const std::vector<size_t> &sg : L.subGroups) {
    const size_t size = sg.size();
    for (size_t lane = 0; lane < size; ++lane) {
      const size_t g = sg[lane];
      if (lane >= 1)
        m.eq(go[g], in[sg[lane - 1]], "shuffle_up(x, 1)", g);
      if (lane >= 3)
        m.eq(go[n + g], in[sg[lane - 3]], "shuffle_up(x, 3)", g);
      if (lane + 1 < size)
        m.eq(go[2 * n + g], in[sg[lane + 1]], "shuffle_down(x, 1)", g);
      if (lane + 3 < size)
        m.eq(go[3 * n + g], in[sg[lane + 3]], "shuffle_down(x, 3)", g);
      m.eq(go[4 * n + g], in[g], "shuffle_up(x, 0)", g);
      if (lane % 2 == 1)
        m.eq(go[5 * n + g], -9, "untouched result of an inactive work-item", g);
      else if (lane + 2 < size)
        m.eq(go[5 * n + g], in[sg[lane + 2]], "shuffle_down(x, 2) in even lanes", g);
      if (lane + 2 < size)
        m.eq(gl[g], inl[sg[lane + 2]], "ulong shuffle_down(x, 2)", g);
      if (lane >= S - 1)
        m.eq(gl[n + g], inl[sg[lane - (S - 1)]], "ulong shuffle_up(x, S - 1)", g);
      if (lane + 1 < size)
        m.eq(gf[g], float(in[sg[lane + 1]]) * 0.25f, "float shuffle_down(x, 1)", g);
    }
  }
}

// --- cl_khr_subgroup_rotate --------------------------------------------------------------

const char *kRotateSrc = R"CLC(
#ifndef cl_khr_subgroup_rotate
#error "cl_khr_subgroup_rotate is not defined"
#endif
SG_ATTR __kernel void rotating(__global const int* in, int delta, __global int* out) {
  size_t g = get_global_id(0), n = get_global_size(0);
  int x = in[g];
  out[0 * n + g] = sub_group_rotate(x, 1);
  out[1 * n + g] = sub_group_rotate(x, 3);
  out[2 * n + g] = sub_group_rotate(x, delta);
  out[3 * n + g] = sub_group_clustered_rotate(x, 1, 1u);
  out[4 * n + g] = sub_group_clustered_rotate(x, 1, 2u);
  out[5 * n + g] = sub_group_clustered_rotate(x, 1, 4u);
  out[6 * n + g] = sub_group_clustered_rotate(x, 3, 4u);
  out[7 * n + g] = sub_group_clustered_rotate(x, 1, 8u);
  out[8 * n + g] = sub_group_clustered_rotate(x, 5, 8u);
  out[9 * n + g] = sub_group_clustered_rotate(x, 3, SGS);
})CLC";

// rotate by 1, 3 and S-2 (an argument), clustered rotate by 1, 3 and 5 in clusters of 1,
// 2, 4, 8 and S. Full sub-groups: every lane, wrapping. The partial sub-group of 5:
// only lanes whose source needs no wrapping (the spec takes the rotation modulo the
// maximum sub-group size there, which leaves the wrapped sources outside the sub-group).
TEST_P(SubGroupKhr, RotateAndClusteredRotate) {
  SKIP_UNLESS_EXTENSION("cl_khr_subgroup_rotate");
  const cl_uint S = GetParam();
  SKIP_UNLESS_SIZE(S, SizeFrom::Attribute);
  cl_kernel k = kernelFor(kRotateSrc, "rotating");
  Layout L = launchLayout();
  const size_t n = L.items.size();
  std::vector<cl_int> in = values(n, 100003, 50000);
  const cl_int delta = cl_int(S) - 2;
  cl_mem din = bufferFrom(in), out = buffer(10 * n * sizeof(cl_int));
  setArgs(k, din, delta, out);
  launch(k);
  std::vector<cl_int> got = read<cl_int>(out, 10 * n);
  struct Case {
    size_t delta, cluster; // cluster 0: the whole sub-group
    const char *what;
  };
  const Case cases[10] = {{1, 0, "rotate(x, 1)"},
                          {3, 0, "rotate(x, 3)"},
                          {size_t(delta), 0, "rotate(x, S - 2)"},
                          {1, 1, "clustered_rotate(x, 1, 1)"},
                          {1, 2, "clustered_rotate(x, 1, 2)"},
                          {1, 4, "clustered_rotate(x, 1, 4)"},
                          {3, 4, "clustered_rotate(x, 3, 4)"},
                          {1, 8, "clustered_rotate(x, 1, 8)"},
                          {5, 8, "clustered_rotate(x, 5, 8)"},
                          {3, S, "clustered_rotate(x, 3, S)"}};
  Mismatches m;
  for (const std::vector<size_t> &sg : L.subGroups) {
    const size_t size = sg.size();
    for (size_t lane = 0; lane < size; ++lane)
      for (size_t c = 0; c < 10; ++c) {
        const size_t cs = cases[c].cluster ? cases[c].cluster : S;
        const size_t first = lane - lane % cs, src = first + (lane % cs + cases[c].delta) % cs;
        const bool whole = first + cs <= size; // the whole cluster is in the sub-group
        const bool noWrap = lane % cs + cases[c].delta < cs && lane + cases[c].delta < size;
        if (whole || noWrap)
          m.eq(got[c * n + sg[lane]], in[sg[src]], cases[c].what, sg[lane]);
      }
  }
}

// --- cl_khr_subgroup_extended_types ------------------------------------------------------

const char *kExtendedSrc = R"CLC(
#ifndef cl_khr_subgroup_extended_types
#error "cl_khr_subgroup_extended_types is not defined"
#endif
SG_ATTR __kernel void extended(__global const int* in, __global char* oc, __global uchar* ouc,
                               __global short* os, __global ushort* ous, __global int4* o4,
                               __global double2* od) {
  size_t g = get_global_id(0), n = get_global_size(0);
  uint size = get_sub_group_size();
  int x = in[g];
  char c = (char)(x % 4);
  uchar uc = (uchar)(x & 7);
  short s = (short)(x * 10);
  ushort us = (ushort)((x + 100) * 10);
  oc[0 * n + g] = sub_group_reduce_add(c);
  oc[1 * n + g] = sub_group_scan_exclusive_max(c);
  oc[2 * n + g] = sub_group_broadcast(c, size - 1);
  ouc[0 * n + g] = sub_group_reduce_max(uc);
  ouc[1 * n + g] = sub_group_scan_inclusive_add(uc);
  os[0 * n + g] = sub_group_scan_exclusive_add(s);
  os[1 * n + g] = sub_group_reduce_min(s);
  ous[0 * n + g] = sub_group_scan_inclusive_min(us);
  ous[1 * n + g] = sub_group_reduce_add(us);
  o4[g] = sub_group_broadcast((int4)(x, x * 2, -x, (int)g), 2u);
  od[g] = sub_group_broadcast((double2)(x * 0.5, (double)g + 0.25), size - 1);
})CLC";

// char, uchar, short and ushort reductions, scans and a broadcast (sums that fit the
// type), broadcasts of int4 and double2.
TEST_P(SubGroupKhr, ExtendedTypesMatchTheHost) {
  SKIP_UNLESS_EXTENSION("cl_khr_subgroup_extended_types");
  SKIP_UNLESS_EXTENSION("cl_khr_fp64");
  const cl_uint S = GetParam();
  SKIP_UNLESS_SIZE(S, SizeFrom::Attribute);
  cl_kernel k = kernelFor(kExtendedSrc, "extended");
  Layout L = launchLayout();
  const size_t n = L.items.size();
  std::vector<cl_int> in = values(n, 201, 100); // -100 .. 100
  cl_mem din = bufferFrom(in), oc = buffer(3 * n), ouc = buffer(2 * n), os = buffer(4 * n),
         ous = buffer(4 * n), o4 = buffer(n * sizeof(cl_int4)), od = buffer(n * sizeof(cl_double2));
  setArgs(k, din, oc, ouc, os, ous, o4, od);
  launch(k);
  std::vector<cl_char> gc = read<cl_char>(oc, 3 * n);
  std::vector<cl_uchar> guc = read<cl_uchar>(ouc, 2 * n);
  std::vector<cl_short> gs = read<cl_short>(os, 2 * n);
  std::vector<cl_ushort> gus = read<cl_ushort>(ous, 2 * n);
  std::vector<cl_int4> g4 = read<cl_int4>(o4, n);
  std::vector<cl_double2> gd = read<cl_double2>(od, n);
  auto c = [&](size_t g) { return cl_char(in[g] % 4); };
  auto uc = [&](size_t g) { return cl_uchar(in[g] & 7); };
  auto s = [&](size_t g) { return cl_short(in[g] * 10); };
  auto us = [&](size_t g) { return cl_ushort((in[g] + 100) * 10); };
  Mismatches m;
  for (const std::vector<size_t> &sg : L.subGroups) {
    int csum = 0, ucmax = 0, smin = SHRT_MAX, ussum = 0;
    for (size_t g : sg) {
      csum += c(g);
      ucmax = std::max<int>(ucmax, uc(g));
      smin = std::min<int>(smin, s(g));
      ussum += us(g);
    }
    int cmax = CHAR_MIN, ucrun = 0, srun = 0, usmin = USHRT_MAX;
    for (size_t g : sg) {
      m.eq(gc[g], cl_char(csum), "char reduce_add", g);
      m.eq(gc[n + g], cl_char(cmax), "char scan_exclusive_max", g);
      cmax = std::max<int>(cmax, c(g));
      m.eq(gc[2 * n + g], c(sg.back()), "char broadcast(size - 1)", g);

      m.eq(guc[g], cl_uchar(ucmax), "uchar reduce_max", g);
      ucrun += uc(g);
      m.eq(guc[n + g], cl_uchar(ucrun), "uchar scan_inclusive_add", g);

      m.eq(gs[g], cl_short(srun), "short scan_exclusive_add", g);
      srun += s(g);
      m.eq(gs[n + g], cl_short(smin), "short reduce_min", g);

      usmin = std::min<int>(usmin, us(g));
      m.eq(gus[g], cl_ushort(usmin), "ushort scan_inclusive_min", g);
      m.eq(gus[n + g], cl_ushort(ussum), "ushort reduce_add", g);

      const size_t b = sg[2];
      const cl_int want4[4] = {in[b], in[b] * 2, -in[b], cl_int(b)};
      for (int i = 0; i < 4; ++i)
        m.eq(g4[g].s[i], want4[i], "int4 broadcast(2)", g);
      const size_t last = sg.back();
      m.eq(gd[g].s[0], double(in[last]) * 0.5, "double2 broadcast(size - 1).x", g);
      m.eq(gd[g].s[1], double(last) + 0.25, "double2 broadcast(size - 1).y", g);
    }
  }
}

std::string sizeName(const ::testing::TestParamInfo<cl_uint> &i) {
  return "S" + std::to_string(i.param);
}

INSTANTIATE_TEST_SUITE_P(Sizes, SubGroupKhr, ::testing::Values(8u, 16u, 32u), sizeName);
INSTANTIATE_TEST_SUITE_P(Sizes, SubGroupBallot, ::testing::Values(8u, 16u, 32u, 64u), sizeName);

} // namespace
} // namespace fcltest

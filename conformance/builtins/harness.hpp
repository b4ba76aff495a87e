// Builtins conformance harness: generates OpenCL C kernels that call builtins on
// buffers of inputs, runs them through the OpenCL API (the ICD loader, as an
// application would) and hands every lane of every result to a host-side check.
//
// Vocabulary
//   Op      one builtin call for one type and vector width ("sin" on float4), with its
//           inputs, outputs, a body of OpenCL C, an input generator and a check.
//   slot    a region of the input or output buffer holding one operand of one op.
//   lane    one element of a vector operand; vector operands are loaded and stored
//           with vloadN / vstoreN (so float3 is packed, 3 elements per work-item).
//   Group   the ops of one program: every op of the same vector width shares one
//           kernel (several builtins per kernel keep builds short; failures still
//           name the builtin, type and width). If a program does not build, its ops
//           are rebuilt one by one so the builtins that fail to compile are named.
#pragma once

#include <CL/cl.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "cl_test.hpp"

namespace fclconf {

// ---------------------------------------------------------------------------------
// Types and values.
enum class Ty : uint8_t { Char, UChar, Short, UShort, Int, UInt, Long, ULong, Float, Double, Half };

const char *tyName(Ty t); // OpenCL C name ("half" for Half, used only in pointers)
size_t tySize(Ty t);
bool tyIsFloat(Ty t); // float or double (Half is a bit pattern here)
bool tyIsSigned(Ty t);
int tyBits(Ty t);
Ty tyUnsigned(Ty t);
Ty tySigned(Ty t);
// The integer type of the same size (Float -> Int, Double -> Long).
Ty tyIntOf(Ty t);
std::string vecName(Ty t, int w); // "float4", "int" for w == 1

constexpr Ty kIntTypes[] = {Ty::Char, Ty::UChar, Ty::Short, Ty::UShort,
                            Ty::Int,  Ty::UInt,  Ty::Long,  Ty::ULong};
constexpr int kWidths[] = {1, 2, 3, 4, 8, 16};

// One element of one operand: its type and raw bits (zero-extended).
struct Val {
  Ty ty = Ty::Int;
  uint64_t bits = 0;

  static Val f(float x);
  static Val d(double x);
  static Val fp(Ty t, long double x); // rounded to float / double (round to nearest)
  static Val i(Ty t, int64_t x);      // truncated to the type
  static Val u(Ty t, uint64_t x);
  static Val raw(Ty t, uint64_t bits);

  float asF() const;
  double asD() const;
  long double asLD() const; // float / double value, or the integer value
  int64_t asI() const;      // sign-extended for signed types, zero-extended otherwise
  uint64_t asU() const;     // zero-extended
  bool isNaN() const;
  bool isInf() const;
  bool isZero() const;
  bool signBit() const;
  std::string str() const; // "0x1.8p+1 (3)" / "-5 (0xfb)"
};
bool sameBits(const Val &a, const Val &b);

// ---------------------------------------------------------------------------------
// Floating-point helpers for type t (Float or Double).
int mantBits(Ty t); // 23 / 52
int minExp(Ty t);   // exponent of the smallest normal: -126 / -1022
int maxExp(Ty t);   // 127 / 1023
long double maxFinite(Ty t);
long double minNormal(Ty t);
long double ulpOf(Ty t, long double ref); // ulp of a real number in t (spec s7.4 definition)
bool representable(Ty t, long double x);

// Error of `got` against the high-precision reference in ulps of t. Overflow: an
// infinite result for a finite reference counts as the next power of two past the
// largest finite value (spec s7.4: "allowed to return infinity ... when the next
// floating-point number ... meets ULP error tolerance").
double ulpError(Ty t, long double ref, const Val &got);

// ---------------------------------------------------------------------------------
// Random numbers and edge values.
struct Rng {
  std::mt19937_64 gen;
  explicit Rng(uint64_t seed) : gen(seed) {}
  uint64_t bits() { return gen(); }
  double uniform(double lo, double hi);  // [lo, hi)
  int64_t range(int64_t lo, int64_t hi); // [lo, hi]
  bool coin(double p = 0.5);
  // A value of t: any bit pattern (NaNs included).
  Val anyBits(Ty t);
  // float/double of random sign and exponent in [emin, emax], random mantissa.
  Val logUniform(Ty t, int emin, int emax, bool allowNeg = true);
  // float/double uniform in [lo, hi].
  Val uniformFp(Ty t, double lo, double hi);
};
uint64_t suiteSeed(); // $FCL_BUILTINS_SEED or a fixed default

std::vector<Val> floatEdges(Ty t); // +-0, +-inf, NaN, denormals, limits, small integers, halves ...
std::vector<Val> floatEdgesSmall(Ty t); // a shorter list for 3-argument cartesian products
std::vector<Val> intEdges(Ty t);        // 0, +-1, MIN, MAX, MIN+1, MAX-1, powers of two ...

// ---------------------------------------------------------------------------------
// Ops.
struct Operand {
  Ty ty;
  bool perItem = false; // one scalar per work-item (a broadcast scalar argument or a
                        // scalar result such as dot()); otherwise one element per lane
  bool raw = false;     // not loaded / stored by the generator: the body uses the
                        // slot pointer $I<k> / $O<k> itself
  int stride = 0;       // raw operands: elements per work-item (0: the op's width)
};

struct Op;
// Everything a check sees for one work-item.
struct Item {
  const Op *op;
  size_t index;
  std::vector<std::vector<Val>> in, out; // [operand][lane] (perItem operands: one lane)
};

// The result of one lane's check. `ok == false` fails the op; `err` (ulps or absolute
// error) feeds the max-error summary; `expected` and `note` go into failure messages.
struct Verdict {
  bool ok = true;
  double err = 0;
  std::string expected;
  std::string note;
  bool skipped = false; // input outside the function's defined domain
  static Verdict pass(double err = 0) {
    Verdict v;
    v.err = err;
    return v;
  }
  static Verdict skip() {
    Verdict v;
    v.skipped = true;
    return v;
  }
  static Verdict fail(std::string expected, std::string note = "", double err = 0) {
    Verdict v;
    v.ok = false;
    v.expected = std::move(expected);
    v.note = std::move(note);
    v.err = err;
    return v;
  }
};

// Lane-wise check: inputs and outputs of one lane (perItem operands give their one
// value in every lane).
using LaneCheck = std::function<Verdict(const std::vector<Val> &in, const std::vector<Val> &out)>;
// Item-wise check (reductions, cross, any/all ...): one verdict per lane reported
// through `report(lane, verdict)`.
using ItemCheck =
    std::function<void(const Item &, const std::function<void(int, const Verdict &)> &)>;
// Input generator: fills in[operand][k] for k < count (count = items * width for
// lane operands, items for perItem operands). Default: edges then random.
using Generator =
    std::function<void(Rng &, size_t items, int width, std::vector<std::vector<Val>> &in)>;

struct Op {
  std::string func;  // builtin name for messages ("sin", "convert_int_sat_rte")
  std::string label; // variant ("float4", "float4,float") for messages
  int width = 1;
  std::vector<Operand> in, out;
  // OpenCL C statements. $i<k> / $o<k> are the operand values (vectors of `width` or
  // scalars), $I<k> / $O<k> the __global pointers to the slots (element type).
  std::string body;
  size_t minLanes = 0; // inputs wanted (edges + random); items = lanes / width
  Generator gen;
  LaneCheck laneCheck;
  ItemCheck itemCheck;
  std::string tolerance;  // for the summary ("<= 4 ulp", "exact", ...)
  bool reportErr = false; // summary prints the max error in ulps / absolute
  const char *errUnit = "ulp";
};

// Helpers to make the common shapes of op.
// Lanes wanted by default: the edge tuples plus this many random inputs.
constexpr size_t kRandomLanes = 4096;
constexpr size_t kMinItems = 256;

// Edge tuples (cartesian product of the per-operand lists, deterministic order) then
// random values from `rnd[k]` for operand k. perItem operands take random values.
Generator edgeThenRandom(std::vector<std::vector<Val>> edges,
                         std::vector<std::function<Val(Rng &)>> rnd);
size_t cartesianSize(const std::vector<std::vector<Val>> &edges);

// ---------------------------------------------------------------------------------
// Running ops.
struct OpStats {
  std::string func, label, tolerance;
  size_t lanes = 0, failures = 0, skipped = 0;
  double maxErr = 0;
  bool reportErr = false;
  const char *errUnit = "ulp";
  bool buildFailed = false;
};

class Suite : public fcltest::CLTest {
protected:
  void SetUp() override;
  void TearDown() override;

  // Builds the ops (ops of the same width share a kernel, `perKernel` at most; a few
  // per kernel keep builds short while the work-item loop still vectorises, which
  // needs few enough pointers for the vectoriser's run-time alias checks), runs
  // them, checks every lane. $FCL_BUILTINS_PER_KERNEL overrides `perKernel`.
  // Failures are reported as GoogleTest failures naming function, type, width,
  // inputs, expected and got values.
  void runOps(std::vector<Op> &ops, size_t perKernel = 4);

  bool denormsSupported(Ty t) const; // CL_FP_DENORM in the device's fp config
  std::string buildOptions() const { return "-cl-std=CL3.0"; }
  // Prints the per-op summary (max errors) when $FCL_BUILTINS_VERBOSE is set, and a
  // one-line count always.
  void summary(const char *family);

  Rng rng_{suiteSeed()};
  std::vector<OpStats> stats_;

private:
  struct Kernel;
  bool tryBuildKernels(const std::vector<std::vector<Op *>> &chunks, int width, size_t firstId,
                       std::vector<Kernel> &kernels, std::string *log);
  void runKernel(Kernel &k);
  void checkOp(const Op &op, size_t items, std::vector<std::vector<Val>> &in,
               std::vector<std::vector<Val>> &out);
  size_t kernelCount_ = 0;
  size_t failuresPrinted_ = 0;
};

// ---------------------------------------------------------------------------------
// Float comparisons shared by the math, common and geometric checks.
struct Tol {
  enum Kind { Exact, Ulp, Abs, Any } kind = Ulp;
  double v = 0;
  static Tol exact() { return {Exact, 0}; }
  static Tol ulp(double u) { return {Ulp, u}; }
  static Tol abs(double a) { return {Abs, a}; }
  static Tol any() { return {Any, 0}; }
  std::string str() const;
};

// Slack for the error of the host reference itself (long double for double results,
// double for float ones): 1/512 ulp, far below any tolerance of the specification.
constexpr double kRefSlack = 1.0 / 512;

// `got` against a reference computed in higher precision. NaN must be NaN; an
// infinite or zero reference must be matched exactly (sign included, C99 F.9 / spec
// s7.5.1) unless `zeroSignFree`; otherwise the error must be within tol.
Verdict checkFp(Ty t, long double ref, const Val &got, const Tol &tol, bool zeroSignFree = false);
// Bit-exact, with any NaN matching any NaN; `zeroSignFree`: +0 == -0.
Verdict checkExact(const Val &want, const Val &got, bool zeroSignFree = false);

std::string fmtLD(long double x);

} // namespace fclconf

// Builtins conformance harness (see harness.hpp).
#include "harness.hpp"

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace fclconf {

// ---------------------------------------------------------------------------------
// Types.
const char *tyName(Ty t) {
  switch (t) {
  case Ty::Char:
    return "char";
  case Ty::UChar:
    return "uchar";
  case Ty::Short:
    return "short";
  case Ty::UShort:
    return "ushort";
  case Ty::Int:
    return "int";
  case Ty::UInt:
    return "uint";
  case Ty::Long:
    return "long";
  case Ty::ULong:
    return "ulong";
  case Ty::Float:
    return "float";
  case Ty::Double:
    return "double";
  case Ty::Half:
    return "half";
  }
  return "?";
}
size_t tySize(Ty t) {
  switch (t) {
  case Ty::Char:
  case Ty::UChar:
    return 1;
  case Ty::Short:
  case Ty::UShort:
  case Ty::Half:
    return 2;
  case Ty::Int:
  case Ty::UInt:
  case Ty::Float:
    return 4;
  case Ty::Long:
  case Ty::ULong:
  case Ty::Double:
    return 8;
  }
  return 0;
}
bool tyIsFloat(Ty t) { return t == Ty::Float || t == Ty::Double; }
bool tyIsSigned(Ty t) {
  return t == Ty::Char || t == Ty::Short || t == Ty::Int || t == Ty::Long || tyIsFloat(t);
}
int tyBits(Ty t) { return static_cast<int>(tySize(t) * 8); }
Ty tyUnsigned(Ty t) {
  switch (t) {
  case Ty::Char:
    return Ty::UChar;
  case Ty::Short:
    return Ty::UShort;
  case Ty::Int:
    return Ty::UInt;
  case Ty::Long:
    return Ty::ULong;
  case Ty::Float:
    return Ty::UInt;
  case Ty::Double:
    return Ty::ULong;
  default:
    return t;
  }
}
Ty tySigned(Ty t) {
  switch (t) {
  case Ty::UChar:
    return Ty::Char;
  case Ty::UShort:
    return Ty::Short;
  case Ty::UInt:
    return Ty::Int;
  case Ty::ULong:
    return Ty::Long;
  case Ty::Float:
    return Ty::Int;
  case Ty::Double:
    return Ty::Long;
  default:
    return t;
  }
}
Ty tyIntOf(Ty t) { return tySigned(t); }
std::string vecName(Ty t, int w) {
  return w == 1 ? std::string(tyName(t)) : std::string(tyName(t)) + std::to_string(w);
}

// ---------------------------------------------------------------------------------
// Values.
static uint64_t mask(Ty t) {
  int b = tyBits(t);
  return b == 64 ? ~0ULL : ((1ULL << b) - 1);
}
Val Val::f(float x) {
  uint32_t b;
  std::memcpy(&b, &x, 4);
  return {Ty::Float, b};
}
Val Val::d(double x) {
  uint64_t b;
  std::memcpy(&b, &x, 8);
  return {Ty::Double, b};
}
Val Val::fp(Ty t, long double x) {
  return t == Ty::Float ? f(static_cast<float>(x)) : d(static_cast<double>(x));
}
Val Val::i(Ty t, int64_t x) { return {t, static_cast<uint64_t>(x) & mask(t)}; }
Val Val::u(Ty t, uint64_t x) { return {t, x & mask(t)}; }
Val Val::raw(Ty t, uint64_t b) { return {t, b & mask(t)}; }

float Val::asF() const {
  uint32_t b = static_cast<uint32_t>(bits);
  float x;
  std::memcpy(&x, &b, 4);
  return x;
}
double Val::asD() const {
  double x;
  std::memcpy(&x, &bits, 8);
  return x;
}
long double Val::asLD() const {
  if (ty == Ty::Float)
    return asF();
  if (ty == Ty::Double)
    return asD();
  if (tyIsSigned(ty))
    return static_cast<long double>(asI());
  return static_cast<long double>(asU());
}
int64_t Val::asI() const {
  if (!tyIsSigned(ty) || tyIsFloat(ty))
    return static_cast<int64_t>(bits);
  int b = tyBits(ty);
  if (b == 64)
    return static_cast<int64_t>(bits);
  uint64_t sign = 1ULL << (b - 1);
  return static_cast<int64_t>((bits ^ sign) - sign);
}
uint64_t Val::asU() const { return bits & mask(ty); }
bool Val::isNaN() const {
  return (ty == Ty::Float && std::isnan(asF())) || (ty == Ty::Double && std::isnan(asD()));
}
bool Val::isInf() const {
  return (ty == Ty::Float && std::isinf(asF())) || (ty == Ty::Double && std::isinf(asD()));
}
bool Val::isZero() const { return tyIsFloat(ty) ? asLD() == 0 : bits == 0; }
bool Val::signBit() const { return (bits >> (tyBits(ty) - 1)) & 1; }

std::string fmtLD(long double x) {
  char buf[96];
  if (std::isnan(x))
    return "nan";
  std::snprintf(buf, sizeof buf, "%La (%.21Lg)", x, x);
  return buf;
}

std::string Val::str() const {
  char buf[128];
  switch (ty) {
  case Ty::Float: {
    float x = asF();
    if (std::isnan(x))
      std::snprintf(buf, sizeof buf, "nan [0x%08x]", static_cast<unsigned>(bits));
    else
      std::snprintf(buf, sizeof buf, "%a (%.9g)", static_cast<double>(x), static_cast<double>(x));
    return buf;
  }
  case Ty::Double: {
    double x = asD();
    if (std::isnan(x))
      std::snprintf(buf, sizeof buf, "nan [0x%016llx]", static_cast<unsigned long long>(bits));
    else
      std::snprintf(buf, sizeof buf, "%a (%.17g)", x, x);
    return buf;
  }
  case Ty::Half:
    std::snprintf(buf, sizeof buf, "half 0x%04x", static_cast<unsigned>(bits));
    return buf;
  default:
    if (tyIsSigned(ty))
      std::snprintf(buf, sizeof buf, "%lld (0x%llx)", static_cast<long long>(asI()),
                    static_cast<unsigned long long>(asU()));
    else
      std::snprintf(buf, sizeof buf, "%llu (0x%llx)", static_cast<unsigned long long>(asU()),
                    static_cast<unsigned long long>(asU()));
    return buf;
  }
}
bool sameBits(const Val &a, const Val &b) { return a.ty == b.ty && a.bits == b.bits; }

// ---------------------------------------------------------------------------------
// Floating-point helpers.
int mantBits(Ty t) { return t == Ty::Float ? 23 : 52; }
int minExp(Ty t) { return t == Ty::Float ? -126 : -1022; }
int maxExp(Ty t) { return t == Ty::Float ? 127 : 1023; }
long double maxFinite(Ty t) { return t == Ty::Float ? FLT_MAX : DBL_MAX; }
long double minNormal(Ty t) { return t == Ty::Float ? FLT_MIN : DBL_MIN; }
long double ulpOf(Ty t, long double ref) {
  int e = (ref == 0 || !std::isfinite(ref)) ? minExp(t) : std::ilogb(ref);
  if (e < minExp(t))
    e = minExp(t);
  return std::ldexp(1.0L, e - mantBits(t));
}
bool representable(Ty t, long double x) {
  if (std::isnan(x))
    return true;
  return t == Ty::Float ? static_cast<long double>(static_cast<float>(x)) == x
                        : static_cast<long double>(static_cast<double>(x)) == x;
}
double ulpError(Ty t, long double ref, const Val &got) {
  long double g = got.asLD();
  if (std::isinf(g) && std::isfinite(ref)) {
    long double big = std::ldexp(1.0L, maxExp(t) + 1); // 2^128 / 2^1024
    if (std::signbit(g) == std::signbit(ref) && std::fabs(ref) >= big)
      return 0; // true overflow
    g = std::copysign(big, g);
  }
  return static_cast<double>(std::fabs(g - ref) / ulpOf(t, ref));
}

std::string Tol::str() const {
  char buf[64];
  switch (kind) {
  case Exact:
    return "exact";
  case Ulp:
    std::snprintf(buf, sizeof buf, "<= %g ulp", v);
    return buf;
  case Abs:
    std::snprintf(buf, sizeof buf, "abs <= %g", v);
    return buf;
  case Any:
    return "any value";
  }
  return "?";
}

Verdict checkExact(const Val &want, const Val &got, bool zeroSignFree) {
  if (want.isNaN() && got.isNaN())
    return Verdict::pass();
  if (sameBits(want, got))
    return Verdict::pass();
  if (zeroSignFree && tyIsFloat(want.ty) && want.isZero() && got.isZero())
    return Verdict::pass();
  return Verdict::fail(want.str());
}

Verdict checkFp(Ty t, long double ref, const Val &got, const Tol &tol, bool zeroSignFree) {
  if (tol.kind == Tol::Any)
    return Verdict::pass();
  long double g = got.asLD();
  if (std::isnan(ref)) {
    if (std::isnan(g))
      return Verdict::pass();
    return Verdict::fail("nan");
  }
  if (std::isnan(g))
    return Verdict::fail(fmtLD(ref));
  if (std::isinf(ref)) {
    if (g == ref)
      return Verdict::pass();
    return Verdict::fail(fmtLD(ref), "infinite result required");
  }
  if (ref == 0 && g == 0) {
    if (zeroSignFree || std::signbit(ref) == std::signbit(g))
      return Verdict::pass();
    return Verdict::fail(fmtLD(ref), "sign of zero");
  }
  if (tol.kind == Tol::Exact) {
    if (g == ref)
      return Verdict::pass();
    return Verdict::fail(fmtLD(ref), "", ulpError(t, ref, got));
  }
  if (tol.kind == Tol::Abs) {
    double e = static_cast<double>(std::fabs(g - ref));
    if (std::isinf(g))
      e = INFINITY;
    if (e <= tol.v)
      return Verdict::pass(e);
    return Verdict::fail(fmtLD(ref), "", e);
  }
  if (std::isinf(g) && std::signbit(g) != std::signbit(ref))
    return Verdict::fail(fmtLD(ref));
  double e = ulpError(t, ref, got);
  if (e <= tol.v + kRefSlack)
    return Verdict::pass(e);
  return Verdict::fail(fmtLD(ref), "", e);
}

// ---------------------------------------------------------------------------------
// Random numbers.
double Rng::uniform(double lo, double hi) {
  return lo + (hi - lo) * (static_cast<double>(bits() >> 11) * 0x1p-53);
}
int64_t Rng::range(int64_t lo, int64_t hi) {
  uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
  if (span == 0)
    return static_cast<int64_t>(bits());
  return static_cast<int64_t>(static_cast<uint64_t>(lo) + bits() % span);
}
bool Rng::coin(double p) { return uniform(0, 1) < p; }
Val Rng::anyBits(Ty t) { return Val::raw(t, bits()); }
Val Rng::logUniform(Ty t, int emin, int emax, bool allowNeg) {
  int e = static_cast<int>(range(emin, emax));
  long double m = 1.0L + static_cast<long double>(bits() >> 11) * 0x1p-53L;
  long double x = std::ldexp(m, e);
  if (allowNeg && coin())
    x = -x;
  return Val::fp(t, x);
}
Val Rng::uniformFp(Ty t, double lo, double hi) { return Val::fp(t, uniform(lo, hi)); }

uint64_t suiteSeed() {
  const char *e = std::getenv("FCL_BUILTINS_SEED");
  return e && *e ? std::strtoull(e, nullptr, 0) : 0x0C1B0175EEDULL;
}

std::vector<Val> floatEdges(Ty t) {
  std::vector<Val> v;
  auto add = [&](long double x) {
    v.push_back(Val::fp(t, x));
    if (x != 0 || !std::signbit(x))
      v.push_back(Val::fp(t, -x));
  };
  bool f = t == Ty::Float;
  add(0.0L);
  v.push_back(Val::fp(t, -0.0L));
  add(INFINITY);
  v.push_back(f ? Val::raw(t, 0x7fc00000) : Val::raw(t, 0x7ff8000000000000ULL));
  v.push_back(f ? Val::raw(t, 0xffc12345) : Val::raw(t, 0xfff8000000012345ULL));
  add(minNormal(t));
  add(f ? FLT_TRUE_MIN : DBL_TRUE_MIN);
  add(f ? Val::raw(t, 0x007fffff).asLD() : Val::raw(t, 0x000fffffffffffffULL).asLD());
  add(f ? Val::raw(t, 0x00012345).asLD() : Val::raw(t, 0x0000012345678901ULL).asLD());
  add(maxFinite(t));
  for (long double x : {1.0L, 0.5L, 2.0L, 1.5L, 2.5L, 3.0L, 0.25L, 0.75L, 10.0L, 100.0L, 1e10L})
    add(x);
  add(f ? 0x1.fffffep-1L : 0x1.fffffffffffffp-1L);
  add(f ? 0x1.000002p0L : 0x1.0000000000001p0L);
  add(3.14159265358979323846L);
  add(1.57079632679489661923L);
  add(f ? 0x1p23L : 0x1p52L);
  add(f ? 0x1.fffffep22L : 0x1.fffffffffffffp51L); // largest non-integer / 2 step
  add(f ? 0x1p24L : 0x1p53L);
  add(0x1p-10L);
  add(0x1p64L);
  add(f ? 88.5L : 709.5L); // near exp overflow
  add(f ? 0x1p100L : 0x1p1000L);
  return v;
}

std::vector<Val> floatEdgesSmall(Ty t) {
  bool f = t == Ty::Float;
  std::vector<Val> v;
  for (long double x :
       {0.0L, -0.0L, (long double)INFINITY, -(long double)INFINITY, 1.0L, -1.0L, 0.5L, -2.5L, 3.0L,
        maxFinite(t), -maxFinite(t), (long double)(f ? FLT_TRUE_MIN : DBL_TRUE_MIN), -minNormal(t)})
    v.push_back(Val::fp(t, x));
  v.push_back(f ? Val::raw(t, 0x7fc00000) : Val::raw(t, 0x7ff8000000000000ULL));
  return v;
}

std::vector<Val> intEdges(Ty t) {
  int b = tyBits(t);
  bool s = tyIsSigned(t);
  std::vector<uint64_t> raw = {0,
                               1,
                               2,
                               3,
                               static_cast<uint64_t>(b - 1),
                               static_cast<uint64_t>(b),
                               static_cast<uint64_t>(b + 1),
                               ~0ULL /* -1 / MAX */,
                               ~1ULL /* -2 / MAX-1 */};
  uint64_t topbit = 1ULL << (b - 1);
  raw.push_back(topbit);          // MIN (signed) / 2^(b-1)
  raw.push_back(topbit - 1);      // MAX (signed)
  raw.push_back(topbit + 1);      // MIN + 1
  raw.push_back(topbit - 2);      // MAX - 1
  raw.push_back(1ULL << (b / 2)); // middle power of two
  raw.push_back(0x5555555555555555ULL);
  raw.push_back(0xAAAAAAAAAAAAAAAAULL);
  (void)s;
  std::vector<Val> v;
  for (uint64_t r : raw) {
    Val x = Val::u(t, r);
    bool dup = false;
    for (const Val &y : v)
      dup |= y.bits == x.bits;
    if (!dup)
      v.push_back(x);
  }
  return v;
}

// ---------------------------------------------------------------------------------
// Generators.
size_t cartesianSize(const std::vector<std::vector<Val>> &edges) {
  size_t n = 1;
  bool any = false;
  for (const auto &e : edges)
    if (!e.empty()) {
      n *= e.size();
      any = true;
    }
  return any ? n : 0;
}

Generator edgeThenRandom(std::vector<std::vector<Val>> edges,
                         std::vector<std::function<Val(Rng &)>> rnd) {
  return [edges, rnd](Rng &rng, size_t items, int width, std::vector<std::vector<Val>> &in) {
    // in[k] is pre-sized by the caller; perItem operands have `items` entries.
    size_t nt = cartesianSize(edges);
    // Operands with edges and one entry per lane take tuple t at lane t; operands with
    // one entry per item take tuple t at item t (and then the lane operands of that
    // item all take tuple t too, so the combination is exercised).
    bool perItemTuples = false;
    for (size_t k = 0; k < in.size(); ++k)
      if (in[k].size() == items && k < edges.size() && !edges[k].empty() && width > 1)
        perItemTuples = true;
    auto tupleValue = [&](size_t k, size_t t) {
      size_t div = 1;
      for (size_t j = k + 1; j < edges.size(); ++j)
        if (!edges[j].empty())
          div *= edges[j].size();
      return edges[k][(t / div) % edges[k].size()];
    };
    for (size_t k = 0; k < in.size(); ++k) {
      bool hasEdges = k < edges.size() && !edges[k].empty();
      bool perItem = in[k].size() == items && width > 1;
      size_t lanesPerItem = perItem ? 1 : in[k].size() / items;
      for (size_t idx = 0; idx < in[k].size(); ++idx) {
        size_t item = idx / lanesPerItem;
        size_t t = perItemTuples ? item : idx;
        if (hasEdges && t < nt)
          in[k][idx] = tupleValue(k, t);
        else
          in[k][idx] = rnd[k](rng);
      }
    }
  };
}

// ---------------------------------------------------------------------------------
// The fixture.
void Suite::SetUp() {
  CLTest::SetUp();
  if (HasFatalFailure())
    return;
  ASSERT_TRUE(hasExtension("cl_khr_fp64")) << "the builtins suite needs cl_khr_fp64";
}

void Suite::TearDown() { CLTest::TearDown(); }

bool Suite::denormsSupported(Ty t) const {
  cl_device_fp_config c = 0;
  clGetDeviceInfo(device_,
                  t == Ty::Double ? CL_DEVICE_DOUBLE_FP_CONFIG : CL_DEVICE_SINGLE_FP_CONFIG,
                  sizeof c, &c, nullptr);
  return (c & CL_FP_DENORM) != 0;
}

struct Suite::Kernel {
  std::string name;
  int width = 1;
  std::vector<Op *> ops;
  size_t items = 0;
  size_t slotBytes = 0;
  // slot numbers of each op's operands
  std::vector<std::vector<size_t>> inSlot, outSlot;
  size_t nIn = 0, nOut = 0;
  cl_kernel kernel = nullptr;
  cl_program program = nullptr;
};

static int operandWidth(const Op &op, const Operand &o) {
  if (o.perItem)
    return 1;
  if (o.raw)
    return o.stride ? o.stride : op.width;
  return op.width;
}

static std::string substitute(const std::string &body, const std::vector<std::string> &iv,
                              const std::vector<std::string> &ov,
                              const std::vector<std::string> &ip,
                              const std::vector<std::string> &op) {
  std::string r;
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c == '$' && i + 2 < body.size() + 1 && i + 1 < body.size()) {
      char k = body[i + 1];
      size_t j = i + 2;
      size_t n = 0;
      bool digits = false;
      while (j < body.size() && body[j] >= '0' && body[j] <= '9') {
        n = n * 10 + static_cast<size_t>(body[j] - '0');
        ++j;
        digits = true;
      }
      const std::vector<std::string> *tab = k == 'i'   ? &iv
                                            : k == 'o' ? &ov
                                            : k == 'I' ? &ip
                                            : k == 'O' ? &op
                                                       : nullptr;
      if (tab && digits && n < tab->size()) {
        r += (*tab)[n];
        i = j - 1;
        continue;
      }
    }
    r += c;
  }
  return r;
}

static std::string kernelSource(Suite * /*unused*/, const std::string &name, int width,
                                const std::vector<Op *> &ops,
                                std::vector<std::vector<size_t>> &inSlot,
                                std::vector<std::vector<size_t>> &outSlot, size_t &nIn,
                                size_t &nOut) {
  std::ostringstream s;
  s << "__kernel void " << name << "(__global const uchar* inb, __global uchar* outb, ulong sb) {\n"
    << "  size_t gid = get_global_id(0);\n";
  nIn = nOut = 0;
  inSlot.clear();
  outSlot.clear();
  for (size_t n = 0; n < ops.size(); ++n) {
    const Op &op = *ops[n];
    std::vector<std::string> iv, ov, ip, opp;
    std::vector<size_t> is, os;
    s << "  { // " << op.func << " " << op.label << "\n";
    for (size_t k = 0; k < op.in.size(); ++k) {
      const Operand &o = op.in[k];
      size_t slot = nIn++;
      is.push_back(slot);
      std::string ptr = "((__global const " + std::string(tyName(o.ty)) + "*)(inb + " +
                        std::to_string(slot) + " * sb))";
      ip.push_back(ptr);
      std::string var = "i" + std::to_string(k);
      iv.push_back(var);
      if (o.raw)
        continue;
      int w = operandWidth(op, o);
      if (w == 1)
        s << "    " << tyName(o.ty) << " " << var << " = " << ptr << "[gid];\n";
      else
        s << "    " << vecName(o.ty, w) << " " << var << " = vload" << w << "(gid, " << ptr
          << ");\n";
    }
    for (size_t k = 0; k < op.out.size(); ++k) {
      const Operand &o = op.out[k];
      size_t slot = nOut++;
      os.push_back(slot);
      std::string ptr = "((__global " + std::string(tyName(o.ty)) + "*)(outb + " +
                        std::to_string(slot) + " * sb))";
      opp.push_back(ptr);
      std::string var = "o" + std::to_string(k);
      ov.push_back(var);
      if (o.raw)
        continue;
      s << "    " << vecName(o.ty, operandWidth(op, o)) << " " << var << ";\n";
    }
    s << "    " << substitute(op.body, iv, ov, ip, opp) << "\n";
    for (size_t k = 0; k < op.out.size(); ++k) {
      const Operand &o = op.out[k];
      if (o.raw)
        continue;
      int w = operandWidth(op, o);
      if (w == 1)
        s << "    " << opp[k] << "[gid] = " << ov[k] << ";\n";
      else
        s << "    vstore" << w << "(" << ov[k] << ", gid, " << opp[k] << ");\n";
    }
    s << "  }\n";
    inSlot.push_back(is);
    outSlot.push_back(os);
  }
  s << "}\n";
  (void)width;
  return s.str();
}

static size_t perItemBytes(const Op &op, const Operand &o) {
  return static_cast<size_t>(operandWidth(op, o)) * tySize(o.ty);
}

bool Suite::tryBuildKernels(const std::vector<std::vector<Op *>> &chunks, int /*width*/,
                            size_t firstId, std::vector<Kernel> &kernels, std::string *log) {
  std::string src = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  std::vector<Kernel> ks;
  for (size_t c = 0; c < chunks.size(); ++c) {
    Kernel k;
    k.ops = chunks[c];
    k.width = chunks[c].front()->width;
    k.name = "fcl_builtins_k" + std::to_string(firstId + c);
    src += kernelSource(this, k.name, k.width, k.ops, k.inSlot, k.outSlot, k.nIn, k.nOut);
    ks.push_back(std::move(k));
  }
  if (const char *dump = std::getenv("FCL_BUILTINS_DUMP")) { // program sources, for debugging
    if (FILE *f = std::fopen(dump, "a")) {
      std::fputs(src.c_str(), f);
      std::fclose(f);
    }
  }
  const char *s = src.c_str();
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(context_, 1, &s, nullptr, &err);
  fcltest::check(err, "clCreateProgramWithSource");
  err = clBuildProgram(p, 1, &device_, buildOptions().c_str(), nullptr, nullptr);
  if (err != CL_SUCCESS) {
    if (log)
      *log = buildLog(p);
    clReleaseProgram(p);
    return false;
  }
  atTearDown([p] { clReleaseProgram(p); });
  for (Kernel &k : ks) {
    k.program = p;
    k.kernel = kernel(p, k.name.c_str());
    kernels.push_back(std::move(k));
  }
  return true;
}

void Suite::runKernel(Kernel &k) {
  // Items: enough for every op's inputs, at least kMinItems.
  size_t items = kMinItems;
  for (Op *op : k.ops) {
    size_t lanes = op->minLanes ? op->minLanes : kRandomLanes;
    items = std::max(items,
                     (lanes + static_cast<size_t>(op->width) - 1) / static_cast<size_t>(op->width));
  }
  // A multiple of 256: the implementation then picks large work-groups (a prime global
  // size would give groups of one work-item) and the work-item loop runs vectorised.
  items = (items + 255) / 256 * 256;
  size_t pib = 8;
  for (Op *op : k.ops) {
    for (const Operand &o : op->in)
      pib = std::max(pib, perItemBytes(*op, o));
    for (const Operand &o : op->out)
      pib = std::max(pib, perItemBytes(*op, o));
  }
  size_t sb = (items * pib + 127) / 128 * 128;
  k.items = items;
  k.slotBytes = sb;

  // Inputs.
  std::vector<std::vector<std::vector<Val>>> ins(k.ops.size());
  std::vector<uint8_t> inBuf(std::max<size_t>(k.nIn, 1) * sb, 0);
  for (size_t n = 0; n < k.ops.size(); ++n) {
    Op &op = *k.ops[n];
    auto &in = ins[n];
    in.resize(op.in.size());
    for (size_t j = 0; j < op.in.size(); ++j)
      in[j].assign(items * static_cast<size_t>(operandWidth(op, op.in[j])), Val{op.in[j].ty, 0});
    op.gen(rng_, items, op.width, in);
    for (size_t j = 0; j < op.in.size(); ++j) {
      size_t es = tySize(op.in[j].ty);
      uint8_t *base = inBuf.data() + k.inSlot[n][j] * sb;
      for (size_t e = 0; e < in[j].size(); ++e)
        std::memcpy(base + e * es, &in[j][e].bits, es);
    }
  }
  std::vector<uint8_t> outBuf(std::max<size_t>(k.nOut, 1) * sb, 0xA5);

  cl_int err = CL_SUCCESS;
  cl_mem inMem = clCreateBuffer(context_, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, inBuf.size(),
                                inBuf.data(), &err);
  fcltest::check(err, "clCreateBuffer(in)");
  cl_mem outMem = clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, outBuf.size(),
                                 outBuf.data(), &err);
  if (err != CL_SUCCESS)
    clReleaseMemObject(inMem);
  fcltest::check(err, "clCreateBuffer(out)");
  cl_ulong sbArg = sb;
  try {
    setArgs(k.kernel, inMem, outMem, sbArg);
    run(k.kernel, {items});
    fcltest::check(clEnqueueReadBuffer(queue_, outMem, CL_TRUE, 0, outBuf.size(), outBuf.data(), 0,
                                       nullptr, nullptr),
                   "clEnqueueReadBuffer");
  } catch (...) {
    clReleaseMemObject(inMem);
    clReleaseMemObject(outMem);
    throw;
  }
  clReleaseMemObject(inMem);
  clReleaseMemObject(outMem);

  for (size_t n = 0; n < k.ops.size(); ++n) {
    Op &op = *k.ops[n];
    std::vector<std::vector<Val>> out(op.out.size());
    for (size_t j = 0; j < op.out.size(); ++j) {
      size_t cnt = items * static_cast<size_t>(operandWidth(op, op.out[j]));
      size_t es = tySize(op.out[j].ty);
      const uint8_t *base = outBuf.data() + k.outSlot[n][j] * sb;
      out[j].resize(cnt);
      for (size_t e = 0; e < cnt; ++e) {
        uint64_t b = 0;
        std::memcpy(&b, base + e * es, es);
        out[j][e] = Val::raw(op.out[j].ty, b);
      }
    }
    checkOp(op, items, ins[n], out);
  }
}

static std::string laneDesc(const Op &op, const std::vector<Val> &in, const std::vector<Val> &out) {
  std::string s = "in: ";
  for (size_t j = 0; j < in.size(); ++j)
    s += (j ? ", " : "") + in[j].str();
  s += " | got: ";
  for (size_t j = 0; j < out.size(); ++j)
    s += (j ? ", " : "") + out[j].str();
  (void)op;
  return s;
}

void Suite::checkOp(const Op &op, size_t items, std::vector<std::vector<Val>> &in,
                    std::vector<std::vector<Val>> &out) {
  OpStats st;
  st.func = op.func;
  st.label = op.label;
  st.tolerance = op.tolerance;
  st.reportErr = op.reportErr;
  st.errUnit = op.errUnit;
  size_t printed = 0;
  std::ostringstream msg;
  auto onVerdict = [&](size_t item, int lane, const Verdict &v, const std::string &desc) {
    ++st.lanes;
    if (v.skipped) {
      ++st.skipped;
      return;
    }
    if (std::isfinite(v.err))
      st.maxErr = std::max(st.maxErr, v.err);
    else if (!v.ok)
      st.maxErr = INFINITY;
    if (v.ok)
      return;
    ++st.failures;
    if (printed < 6 && failuresPrinted_ < 400) {
      ++printed;
      ++failuresPrinted_;
      msg << "  " << op.func << " (" << op.label << ") item " << item << " lane " << lane << ": "
          << desc << " | expected: " << v.expected;
      if (v.err != 0)
        msg << " | error " << v.err << " " << op.errUnit;
      if (!op.tolerance.empty())
        msg << " (tolerance " << op.tolerance << ")";
      if (!v.note.empty())
        msg << " [" << v.note << "]";
      msg << "\n";
    }
  };
  if (op.itemCheck) {
    for (size_t it = 0; it < items; ++it) {
      Item item;
      item.op = &op;
      item.index = it;
      item.in.resize(in.size());
      item.out.resize(out.size());
      for (size_t j = 0; j < in.size(); ++j) {
        size_t w = in[j].size() / items;
        item.in[j].assign(in[j].begin() + static_cast<long>(it * w),
                          in[j].begin() + static_cast<long>((it + 1) * w));
      }
      for (size_t j = 0; j < out.size(); ++j) {
        size_t w = out[j].size() / items;
        item.out[j].assign(out[j].begin() + static_cast<long>(it * w),
                           out[j].begin() + static_cast<long>((it + 1) * w));
      }
      op.itemCheck(item, [&](int lane, const Verdict &v) {
        if (v.ok && !v.skipped && printed >= 6) {
          onVerdict(it, lane, v, "");
          return;
        }
        std::string d = "in: ";
        for (size_t j = 0; j < item.in.size(); ++j) {
          d += j ? " ; (" : "(";
          for (size_t e = 0; e < item.in[j].size(); ++e)
            d += (e ? ", " : "") + item.in[j][e].str();
          d += ")";
        }
        d += " | got: ";
        for (size_t j = 0; j < item.out.size(); ++j) {
          d += j ? " ; (" : "(";
          for (size_t e = 0; e < item.out[j].size(); ++e)
            d += (e ? ", " : "") + item.out[j][e].str();
          d += ")";
        }
        onVerdict(it, lane, v, v.ok ? std::string() : d);
      });
    }
  } else {
    std::vector<Val> li(in.size()), lo(out.size());
    for (size_t it = 0; it < items; ++it) {
      for (int lane = 0; lane < op.width; ++lane) {
        for (size_t j = 0; j < in.size(); ++j) {
          size_t w = in[j].size() / items;
          li[j] = in[j][it * w + (w == 1 ? 0 : static_cast<size_t>(lane))];
        }
        for (size_t j = 0; j < out.size(); ++j) {
          size_t w = out[j].size() / items;
          lo[j] = out[j][it * w + (w == 1 ? 0 : static_cast<size_t>(lane))];
        }
        Verdict v = op.laneCheck(li, lo);
        onVerdict(it, lane, v, v.ok ? std::string() : laneDesc(op, li, lo));
      }
    }
  }
  if (st.failures) {
    ADD_FAILURE() << op.func << " (" << op.label << "): " << st.failures << " of " << st.lanes
                  << " lanes wrong"
                  << (op.tolerance.empty() ? "" : " (tolerance " + op.tolerance + ")") << "\n"
                  << msg.str();
  }
  stats_.push_back(st);
}

void Suite::runOps(std::vector<Op> &ops, size_t perKernel) {
  // $FCL_BUILTINS_ONLY=<name>: only the ops of that builtin (debugging).
  if (const char *only = std::getenv("FCL_BUILTINS_ONLY"); only && *only) {
    std::vector<Op> kept;
    for (Op &op : ops)
      if (op.func == only)
        kept.push_back(op);
    ops.swap(kept);
    if (ops.empty())
      return;
  }
  if (const char *pk = std::getenv("FCL_BUILTINS_PER_KERNEL"); pk && *pk)
    perKernel = std::max<size_t>(1, std::strtoul(pk, nullptr, 0));
  for (Op &op : ops) {
    if (op.minLanes == 0)
      op.minLanes = kRandomLanes;
  }
  // Chunks: ops of the same width, perKernel at most.
  std::map<int, std::vector<Op *>> byWidth;
  for (Op &op : ops)
    byWidth[op.width].push_back(&op);
  std::vector<std::vector<Op *>> chunks;
  for (auto &[w, list] : byWidth)
    for (size_t i = 0; i < list.size(); i += perKernel)
      chunks.emplace_back(list.begin() + static_cast<long>(i),
                          list.begin() + static_cast<long>(std::min(list.size(), i + perKernel)));

  std::vector<Kernel> kernels;
  std::string log;
  size_t first = kernelCount_;
  kernelCount_ += chunks.size();
  if (!tryBuildKernels(chunks, 0, first, kernels, &log)) {
    // Find the ops that do not compile: bisect each chunk.
    std::vector<Op *> bad;
    std::function<void(std::vector<Op *>)> bisect = [&](std::vector<Op *> list) {
      std::string l;
      std::vector<Kernel> tmp;
      size_t id = kernelCount_++;
      if (tryBuildKernels({list}, 0, id, tmp, &l))
        return;
      if (list.size() == 1) {
        bad.push_back(list[0]);
        std::string excerpt = l.substr(0, 1500);
        ADD_FAILURE() << list[0]->func << " (" << list[0]->label
                      << "): does not compile (builtin missing or wrong signature?)\n"
                      << excerpt;
        OpStats st;
        st.func = list[0]->func;
        st.label = list[0]->label;
        st.buildFailed = true;
        stats_.push_back(st);
        return;
      }
      size_t h = list.size() / 2;
      bisect(std::vector<Op *>(list.begin(), list.begin() + static_cast<long>(h)));
      bisect(std::vector<Op *>(list.begin() + static_cast<long>(h), list.end()));
    };
    for (auto &c : chunks)
      bisect(c);
    if (bad.empty()) {
      ADD_FAILURE() << "program build failed but every op builds alone:\n" << log.substr(0, 3000);
      return;
    }
    std::vector<std::vector<Op *>> good;
    for (auto &c : chunks) {
      std::vector<Op *> g;
      for (Op *o : c)
        if (std::find(bad.begin(), bad.end(), o) == bad.end())
          g.push_back(o);
      if (!g.empty())
        good.push_back(g);
    }
    kernels.clear();
    if (good.empty())
      return;
    first = kernelCount_;
    kernelCount_ += good.size();
    if (!tryBuildKernels(good, 0, first, kernels, &log)) {
      ADD_FAILURE() << "program build failed after removing the ops that fail alone:\n"
                    << log.substr(0, 3000);
      return;
    }
  }
  for (Kernel &k : kernels)
    runKernel(k);
}

void Suite::summary(const char *family) {
  size_t lanes = 0, failing = 0, buildFailed = 0;
  for (const OpStats &s : stats_) {
    lanes += s.lanes;
    if (s.failures)
      ++failing;
    if (s.buildFailed)
      ++buildFailed;
  }
  std::printf("[builtins] %s: %zu cases (function x type x width), %zu lanes checked, %zu failing, "
              "%zu not compiling\n",
              family, stats_.size(), lanes, failing, buildFailed);
  const char *v = std::getenv("FCL_BUILTINS_VERBOSE");
  if (v && *v && *v != '0') {
    for (const OpStats &s : stats_) {
      std::printf("  %-28s %-22s lanes %6zu", s.func.c_str(), s.label.c_str(), s.lanes);
      if (s.skipped)
        std::printf(" (skipped %zu)", s.skipped);
      if (s.reportErr)
        std::printf("  max err %-10.4g %s", s.maxErr, s.errUnit);
      if (!s.tolerance.empty())
        std::printf("  [%s]", s.tolerance.c_str());
      if (s.failures)
        std::printf("  FAIL %zu", s.failures);
      if (s.buildFailed)
        std::printf("  DOES NOT COMPILE");
      std::printf("\n");
    }
  }
  std::fflush(stdout);
}

} // namespace fclconf

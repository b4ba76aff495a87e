// Vector variants of math functions (vector_math.hpp): a table of the functions SLEEF
// provides under the x86 vector function ABI, filtered by what the host ISA runs and
// what the installed library actually exports.
#include "vector_math.hpp"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Target/TargetMachine.h>

#include <dlfcn.h>

#include <cstdlib>
#include <deque>
#include <string>
#include <vector>

namespace fibercl::compiler {
namespace {

// A math function as the builtins library calls it: the libm name (double flavour;
// float adds 'f'), whether LLVM has an intrinsic for it (llvm.<name>.f32/f64), and its
// arity. SLEEF's variants without suffix are its 1-ulp (or exact) ones, within every
// OpenCL C bound (s7.4: exp 3, sin 4, cbrt 2, log1p 2, pow 16 ulp, ...). sqrt, fabs,
// floor & co. are left out: they are single instructions already.
struct MathFunction {
  const char *name;
  bool intrinsic;
  unsigned arity;
};

constexpr MathFunction kFunctions[] = {
    {"sin", true, 1},   {"cos", true, 1},    {"tan", true, 1},    {"asin", true, 1},
    {"acos", true, 1},  {"atan", true, 1},   {"tanh", true, 1},   {"exp", true, 1},
    {"exp2", true, 1},  {"log", true, 1},    {"log2", true, 1},   {"log10", true, 1},
    {"exp10", false, 1}, {"expm1", false, 1}, {"atanh", false, 1}, {"cbrt", false, 1},
    {"erf", false, 1},  {"erfc", false, 1},  {"atan2", false, 2}, {"hypot", false, 2},
};
// Left out because SLEEF 3.5.1 misses the OpenCL bounds at the edges of their ranges
// (found by the CTS's math_brute_force): sinh, cosh, pow (inf just below the
// overflow threshold: cosh(-88.725f), pow(-DBL_MAX, 1)), acosh, asinh, log1p (inf for
// huge arguments: acosh(0x1p121f)), fmod (NaN when the exponents are far apart),
// tgamma (29 ulp on results near FLT_MIN).

// One x86 vector ISA of the vector function ABI: its letter and register width.
struct Isa {
  char letter;
  unsigned bits;
  const char *feature; // target feature that enables it
};

constexpr Isa kIsas[] = {{'b', 128, "+sse2"}, {'d', 256, "+avx2"}, {'e', 512, "+avx512f"}};

// FIBERCL_VECTOR_MATH=0 turns the variants off (to compare, or to rule them out).
void *vectorMathLibrary() {
  static void *lib = [] {
    const char *env = std::getenv("FIBERCL_VECTOR_MATH");
    return env && std::string(env) == "0" ? nullptr
                                          : dlopen(kVectorMathLibrary, RTLD_LAZY | RTLD_LOCAL);
  }();
  return lib;
}

// The vector variants the library exports for the host ISA. Built once: every
// TargetMachine here is the host's. TargetLibraryInfoImpl keeps StringRefs into
// `names`, so both live as long as the process.
struct VectorMathTable {
  std::deque<std::string> names;
  std::vector<llvm::VecDesc> descs;

  explicit VectorMathTable(llvm::StringRef features) {
    void *lib = vectorMathLibrary();
    if (!lib)
      return;
    auto keep = [&](std::string s) -> llvm::StringRef { return names.emplace_back(std::move(s)); };
    for (const Isa &isa : kIsas) {
      if (!llvm::is_contained(llvm::split(features, ','), isa.feature))
        continue;
      for (const MathFunction &fn : kFunctions)
        for (bool single : {true, false}) {
          unsigned lanes = isa.bits / (single ? 32 : 64);
          std::string params(fn.arity, 'v');
          std::string scalar = std::string(fn.name) + (single ? "f" : "");
          std::string vector = std::string("_ZGV") + isa.letter + "N" +
                               std::to_string(lanes) + params + "_" + scalar;
          if (!dlsym(lib, vector.c_str()))
            continue;
          llvm::StringRef vectorName = keep(vector);
          llvm::StringRef prefix = keep("_ZGV_LLVM_N" + std::to_string(lanes) + params);
          llvm::ElementCount vf = llvm::ElementCount::getFixed(lanes);
          descs.emplace_back(keep(scalar), vectorName, vf, false, prefix);
          if (fn.intrinsic)
            descs.emplace_back(keep(std::string("llvm.") + fn.name + (single ? ".f32" : ".f64")),
                               vectorName, vf, false, prefix);
        }
    }
  }
};

} // namespace

bool vectorMathAvailable() { return vectorMathLibrary() != nullptr; }

void addVectorMathFunctions(llvm::TargetLibraryInfoImpl &tlii, const llvm::TargetMachine &tm) {
  static const VectorMathTable table(tm.getTargetFeatureString());
  tlii.addVectorizableFunctions(table.descs);
}

} // namespace fibercl::compiler

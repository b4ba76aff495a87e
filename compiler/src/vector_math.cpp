// Vector variants of math functions (vector_math.hpp): a table of the functions SLEEF
// provides under the x86 vector function ABI, filtered by what the host ISA runs and
// what the installed library actually exports.
#include "vector_math.hpp"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

namespace fibercl::compiler {
namespace {

constexpr const char *kGuardPrefix = "__fibercl_guarded_";

// A math function as the builtins library calls it: the libm name (double flavour;
// float adds 'f'), whether LLVM has an intrinsic for it (llvm.<name>.f32/f64), its
// arity, and whether SLEEF's variant needs a guard. SLEEF's variants without suffix
// are its 1-ulp (or exact) ones, within every OpenCL C bound (s7.4: exp 3, sin 4,
// cbrt 2, log1p 2, pow 16 ulp, ...). sqrt, fabs, floor & co. are left out: they are
// single instructions already.
struct MathFunction {
  const char *name;
  bool intrinsic;
  unsigned arity;
  bool guarded = false;
};

// Guarded: SLEEF 3.5.1 misses the bounds at the edges of these functions' ranges
// (found by the CTS's math_brute_force) by returning inf or NaN where the result is
// finite: inf just below the overflow threshold (cosh(-88.725f), pow(-DBL_MAX, 1)),
// inf for huge arguments (acosh(0x1p121f), asinh, log1p), NaN in fmod when the
// exponents are far apart. Their calls go through a guard that recomputes every
// non-finite lane with the C library (defineGuardedMathFunctions). tgamma is left out
// altogether: 29 ulp on finite results near FLT_MIN.
constexpr MathFunction kFunctions[] = {
    {"sin", true, 1},          {"cos", true, 1},          {"tan", true, 1},
    {"asin", true, 1},         {"acos", true, 1},         {"atan", true, 1},
    {"tanh", true, 1},         {"exp", true, 1},          {"exp2", true, 1},
    {"log", true, 1},          {"log2", true, 1},         {"log10", true, 1},
    {"exp10", false, 1},       {"expm1", false, 1},       {"atanh", false, 1},
    {"cbrt", false, 1},        {"erf", false, 1},         {"erfc", false, 1},
    {"atan2", false, 2},       {"hypot", false, 2},       {"sinh", true, 1, true},
    {"cosh", true, 1, true},   {"pow", true, 2, true},    {"acosh", false, 1, true},
    {"asinh", false, 1, true}, {"log1p", false, 1, true}, {"fmod", false, 2, true},
};

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
  std::vector<llvm::VecDesc> plain;   // SLEEF's variants, called directly
  std::vector<llvm::VecDesc> guarded; // through __fibercl_guarded_<SLEEF's name>

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
          std::string vector = std::string("_ZGV") + isa.letter + "N" + std::to_string(lanes) +
                               params + "_" + scalar;
          if (!dlsym(lib, vector.c_str()))
            continue;
          llvm::StringRef vectorName = keep(fn.guarded ? kGuardPrefix + vector : vector);
          llvm::StringRef prefix = keep("_ZGV_LLVM_N" + std::to_string(lanes) + params);
          llvm::ElementCount vf = llvm::ElementCount::getFixed(lanes);
          auto &descs = fn.guarded ? guarded : plain;
          descs.emplace_back(keep(scalar), vectorName, vf, false, prefix);
          if (fn.intrinsic)
            descs.emplace_back(keep(std::string("llvm.") + fn.name + (single ? ".f32" : ".f64")),
                               vectorName, vf, false, prefix);
        }
    }
  }
};

const VectorMathTable &tableFor(const llvm::TargetMachine &tm) {
  static const VectorMathTable table(tm.getTargetFeatureString());
  return table;
}

// The body of __fibercl_guarded_<variant>: SLEEF's result, unless a lane is inf or NaN;
// then those lanes are recomputed by the scalar C library function.
void defineGuard(llvm::Function &guard, llvm::StringRef variant, llvm::StringRef scalarName) {
  llvm::Module &m = *guard.getParent();
  llvm::LLVMContext &c = m.getContext();
  auto *type = llvm::cast<llvm::FixedVectorType>(guard.getReturnType());
  llvm::Type *element = type->getElementType();
  llvm::FunctionCallee sleef = m.getOrInsertFunction(variant, guard.getFunctionType());
  std::vector<llvm::Type *> scalarParams(guard.arg_size(), element);
  llvm::FunctionCallee scalar =
      m.getOrInsertFunction(scalarName, llvm::FunctionType::get(element, scalarParams, false));

  auto *entry = llvm::BasicBlock::Create(c, "entry", &guard);
  auto *fix = llvm::BasicBlock::Create(c, "fix", &guard);
  auto *done = llvm::BasicBlock::Create(c, "done", &guard);
  llvm::IRBuilder<> b(entry);
  std::vector<llvm::Value *> args;
  for (llvm::Argument &a : guard.args())
    args.push_back(&a);
  llvm::Value *r = b.CreateCall(sleef, args);
  llvm::Value *magnitude = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, r);
  llvm::Value *inf = llvm::ConstantFP::getInfinity(type);
  llvm::Value *bad = b.CreateFCmpUEQ(magnitude, inf); // inf, or NaN (unordered)
  b.CreateCondBr(b.CreateOrReduce(bad), fix, done);

  b.SetInsertPoint(fix);
  llvm::Value *fixed = r;
  for (unsigned lane = 0; lane < type->getNumElements(); ++lane) {
    std::vector<llvm::Value *> laneArgs;
    for (llvm::Value *a : args)
      laneArgs.push_back(b.CreateExtractElement(a, lane));
    llvm::Value *exact = b.CreateCall(scalar, laneArgs);
    llvm::Value *value =
        b.CreateSelect(b.CreateExtractElement(bad, lane), exact, b.CreateExtractElement(r, lane));
    fixed = b.CreateInsertElement(fixed, value, lane);
  }
  b.CreateRet(fixed);
  b.SetInsertPoint(done);
  b.CreateRet(r);
}

// Explicit vector calls of the guarded functions (pow(float8) in the source is a call
// of llvm.pow.v8f32) become calls of their guard where one has that width; the code
// generator would otherwise split them into scalar calls.
void callGuardsForVectorIntrinsics(llvm::Module &m, const VectorMathTable &table) {
  for (llvm::Function &f : m) {
    auto *type = llvm::dyn_cast<llvm::FixedVectorType>(f.getReturnType());
    if (!f.isIntrinsic() || !type || !type->getElementType()->isFloatingPointTy())
      continue;
    std::string scalar = llvm::Intrinsic::getBaseName(f.getIntrinsicID()).str() +
                         (type->getElementType()->isFloatTy() ? ".f32" : ".f64");
    for (const llvm::VecDesc &desc : table.guarded) {
      if (desc.getScalarFnName() != scalar ||
          desc.getVectorizationFactor() != llvm::ElementCount::getFixed(type->getNumElements()))
        continue;
      llvm::FunctionCallee guard =
          m.getOrInsertFunction(desc.getVectorFnName(), f.getFunctionType());
      for (llvm::User *user : llvm::make_early_inc_range(f.users()))
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(user))
          if (call->getCalledFunction() == &f)
            call->setCalledFunction(guard);
      break;
    }
  }
}

} // namespace

bool vectorMathAvailable() { return vectorMathLibrary() != nullptr; }

void addVectorMathFunctions(llvm::TargetLibraryInfoImpl &tlii, const llvm::TargetMachine &tm,
                            bool withGuarded) {
  const VectorMathTable &table = tableFor(tm);
  tlii.addVectorizableFunctions(table.plain);
  if (withGuarded)
    tlii.addVectorizableFunctions(table.guarded);
}

void defineGuardedMathFunctions(llvm::Module &m, const llvm::TargetMachine &tm) {
  callGuardsForVectorIntrinsics(m, tableFor(tm));
  // The vectoriser lists every variant it might call in llvm.compiler.used; only the
  // guards it did call are defined, the others go.
  auto isGuard = [](const llvm::Value *v) { return v->getName().starts_with(kGuardPrefix); };
  llvm::removeFromUsedLists(m, [&](llvm::Constant *c) { return isGuard(c); });
  for (llvm::Function &f : llvm::make_early_inc_range(m)) {
    if (!f.isDeclaration() || !isGuard(&f))
      continue;
    f.removeDeadConstantUsers(); // the old llvm.compiler.used array
    if (f.use_empty()) {
      f.eraseFromParent();
      continue;
    }
    // __fibercl_guarded__ZGVdN8vv_powf: the scalar name follows the variant's '_'.
    llvm::StringRef variant = f.getName().drop_front(std::strlen(kGuardPrefix));
    llvm::StringRef scalarName = variant.drop_front(4).split('_').second;
    f.setLinkage(llvm::GlobalValue::InternalLinkage);
    f.addFnAttr(llvm::Attribute::NoInline); // the slow path stays out of the loop
    // The guard is needed even where the program promises finite values
    // (-cl-finite-math-only): SLEEF's inf comes from finite arguments and results.
    for (const char *attr : {"no-infs-fp-math", "no-nans-fp-math", "unsafe-fp-math"})
      f.removeFnAttr(attr);
    f.addFnAttr("target-cpu", tm.getTargetCPU()); // as every function of the program
    f.addFnAttr("target-features", tm.getTargetFeatureString());
    defineGuard(f, variant, scalarName);
  }
}

} // namespace fibercl::compiler

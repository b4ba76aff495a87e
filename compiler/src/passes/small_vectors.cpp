// SmallVectorScalarizerPass (passes.hpp). OpenCL C code computes in small vectors --
// complex numbers in float2 (clFFT), pixels in float4 (image filters) -- which LLVM
// keeps as 2-4 lane vector values. Its loop vectoriser then gives up on the work-item
// loop ("instruction return type cannot be vectorized"), and so does the masked
// vectoriser: the kernel runs one work-item at a time, 2-4 lanes wide. Made scalars
// (LLVM's Scalarizer, loads and stores included), the same code is widened across
// work-items, 8-16 of them per instruction, and a float2 array becomes an interleaved
// access. Measured: a complex multiply 1.25x, clFFT 2^20 (bench/RESULTS.md).
//
// Vectors wider than 4 lanes (hashcat's u32x16, float8/float16 arithmetic) already fill
// a SIMD register or more: a function that has any is left alone, as is one whose
// work-item loops cannot be vectorised anyway (kSerialItemsAttr) or have loops inside,
// where the short vectors are the only SIMD it gets.
#include "passes.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/Scalarizer.h>
#include <llvm/Transforms/Utils/LoopUtils.h>

namespace fibercl::compiler {
namespace {

constexpr unsigned kMaxSmallLanes = 4;

// Lanes of `t` if it is a fixed vector, else 0.
unsigned lanes(llvm::Type *t) {
  auto *v = llvm::dyn_cast<llvm::FixedVectorType>(t);
  return v ? v->getNumElements() : 0;
}

// Has `f` work-item loops, all without loops inside? Those are the loop vectoriser's;
// a work-item loop with loops inside goes to the masked vectoriser, which takes fewer
// shapes (scalarised pixels of an image kernel come with private arrays it refuses):
// there, scalarising would only trade 4-lane vectors for scalars.
bool hasOnlyInnermostWorkItemLoops(llvm::LoopInfo &loops) {
  bool any = false;
  for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
    if (!llvm::findOptionMDForLoop(loop, kWorkItemLoopMetadata))
      continue;
    if (!loop->getSubLoops().empty())
      return false;
    any = true;
  }
  return any;
}

// Does `f` compute in small vectors, and in no wide ones?
bool computesInSmallVectorsOnly(const llvm::Function &f) {
  bool small = false;
  for (const llvm::Instruction &i : llvm::instructions(f)) {
    unsigned n = lanes(i.getType());
    for (const llvm::Use &op : i.operands())
      n = std::max(n, lanes(op->getType()));
    if (n > kMaxSmallLanes)
      return false;
    small |= n > 1;
  }
  return small;
}

} // namespace

llvm::PreservedAnalyses SmallVectorScalarizerPass::run(llvm::Function &f,
                                                       llvm::FunctionAnalysisManager &fam) {
  if (f.hasFnAttribute(kSerialItemsAttr) || !computesInSmallVectorsOnly(f) ||
      !hasOnlyInnermostWorkItemLoops(fam.getResult<llvm::LoopAnalysis>(f)))
    return llvm::PreservedAnalyses::all();
  llvm::ScalarizerPassOptions options;
  options.ScalarizeLoadStore = true;
  llvm::PreservedAnalyses pa = llvm::ScalarizerPass(options).run(f, fam);
  fam.invalidate(f, pa);
  // The scalarizer leaves the extracts and inserts of values it split; CSE merges the
  // repeated ones before the vectorisers look.
  pa.intersect(llvm::EarlyCSEPass().run(f, fam));
  return pa;
}

} // namespace fibercl::compiler

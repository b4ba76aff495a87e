// ParallelWorkItemLoopsPass (passes.hpp). The work-items of one loop iteration of a
// work-item loop are one region of the kernel between barriers: in OpenCL, one work-item
// may read what another wrote only across a barrier (anything else is a data race), so
// the iterations do not depend on each other through memory. LLVM's loop vectoriser
// cannot prove that on its own: accesses through computed indices ("cannot identify
// array bounds", "too many SCEV assumptions") keep it from vectorising, or cost runtime
// checks. The loop is declared parallel (llvm.loop.parallel_accesses, every memory
// access in its access group) unless FiberCL's own code breaks the premise:
//  - private memory: an alloca of the work-group function is one copy shared by every
//    work-item, reused from one iteration to the next;
//  - kSerialItemsAttr: atomics on __local memory made plain operations;
//  - atomics, volatile accesses, fences and calls that touch memory (only memcpy-like
//    intrinsics on non-private memory and the inaccessible-memory ones are let in).
// LLVM keeps access groups conservatively: an access a later pass creates without one
// makes the loop not parallel again.
#include "passes.hpp"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Metadata.h>
#include <llvm/Transforms/Utils/LoopUtils.h>

namespace fibercl::compiler {
namespace {

// True if `p` may point into a private variable (an alloca).
bool mayBePrivate(const llvm::Value *p, llvm::LoopInfo &loops) {
  llvm::SmallVector<const llvm::Value *, 4> objects;
  llvm::getUnderlyingObjects(p, objects, &loops);
  for (const llvm::Value *o : objects)
    if (llvm::isa<llvm::AllocaInst>(o))
      return true;
  return false;
}

// The pointers `i` accesses memory through, or false if it may touch memory in a way
// that could order one work-item after another.
bool accessedPointers(const llvm::Instruction &i, llvm::SmallVectorImpl<const llvm::Value *> &out) {
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&i)) {
    out.push_back(load->getPointerOperand());
    return load->isSimple();
  }
  if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&i)) {
    out.push_back(store->getPointerOperand());
    return store->isSimple();
  }
  if (auto *mem = llvm::dyn_cast<llvm::MemIntrinsic>(&i)) { // memcpy, memmove, memset
    out.push_back(mem->getRawDest());
    if (auto *transfer = llvm::dyn_cast<llvm::MemTransferInst>(mem))
      out.push_back(transfer->getRawSource());
    return !mem->isVolatile();
  }
  if (auto *call = llvm::dyn_cast<llvm::CallBase>(&i))
    return call->getIntrinsicID() != llvm::Intrinsic::not_intrinsic &&
           call->onlyAccessesInaccessibleMemory(); // llvm.assume, noalias scope markers
  return false;                                    // fences, atomics
}

// The loop's memory accesses, if they may all be declared independent across
// iterations; false otherwise.
bool independentAccesses(llvm::Loop &loop, llvm::LoopInfo &loops,
                         llvm::SmallVectorImpl<llvm::Instruction *> &accesses) {
  for (llvm::BasicBlock *bb : loop.blocks())
    for (llvm::Instruction &i : *bb) {
      if (!i.mayReadOrWriteMemory())
        continue;
      llvm::SmallVector<const llvm::Value *, 2> pointers;
      if (!accessedPointers(i, pointers))
        return false;
      for (const llvm::Value *p : pointers)
        if (mayBePrivate(p, loops))
          return false;
      accesses.push_back(&i);
    }
  return true;
}

void declareParallel(llvm::Loop &loop, llvm::ArrayRef<llvm::Instruction *> accesses) {
  llvm::LLVMContext &c = loop.getHeader()->getContext();
  llvm::MDNode *group = llvm::MDNode::getDistinct(c, {});
  for (llvm::Instruction *i : accesses)
    i->setMetadata(
        llvm::LLVMContext::MD_access_group,
        llvm::uniteAccessGroups(i->getMetadata(llvm::LLVMContext::MD_access_group), group));
  llvm::MDNode *parallel =
      llvm::MDNode::get(c, {llvm::MDString::get(c, "llvm.loop.parallel_accesses"), group});
  loop.setLoopID(llvm::makePostTransformationMetadata(c, loop.getLoopID(), {}, {parallel}));
}

} // namespace

llvm::PreservedAnalyses ParallelWorkItemLoopsPass::run(llvm::Function &f,
                                                       llvm::FunctionAnalysisManager &fam) {
  if (!f.getName().starts_with("__fibercl_wg_") || f.hasFnAttribute(kSerialItemsAttr) ||
      f.hasFnAttribute(kSubGroupVectorsAttr)) // masked-vectorised, lanes talk to each other
    return llvm::PreservedAnalyses::all();
  auto &loops = fam.getResult<llvm::LoopAnalysis>(f);
  for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
    if (!llvm::findOptionMDForLoop(loop, kWorkItemLoopMetadata) || loop->isAnnotatedParallel())
      continue;
    llvm::SmallVector<llvm::Instruction *, 32> accesses;
    if (!independentAccesses(*loop, loops, accesses))
      continue;
    declareParallel(*loop, accesses);
  }
  return llvm::PreservedAnalyses::all(); // metadata only: no analysis is affected
}

} // namespace fibercl::compiler

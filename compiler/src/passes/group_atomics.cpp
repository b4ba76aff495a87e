// GroupAtomicsPass (passes.hpp): atomics on __local and private memory become plain
// operations. A work-group's work-items all run on one host thread, one at a time
// (switching only at barriers), and no other group can see that memory, so nothing
// can come between the load and the store of a read-modify-write. A locked x86
// instruction costs ~20 cycles; the plain operations cost one or two, and LLVM can
// combine them (a loop of increments becomes one add).
//
// What is given up: a seq_cst atomic on __local memory no longer orders the work-item's
// global accesses for other groups as a full fence would (x86 keeps every other
// order). Portable code does not rely on it: OpenCL orders __local atomics within the
// work-group.
#include "passes.hpp"
#include "spin_loops.hpp"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/LowerAtomic.h>

#include <vector>

namespace fibercl::compiler {

llvm::PreservedAnalyses GroupAtomicsPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  bool changed = false;
  for (llvm::Function &body : m) {
    if (!body.hasFnAttribute(kKernelAttr))
      continue;
    std::vector<llvm::Instruction *> atomics;
    for (llvm::BasicBlock &bb : body)
      for (llvm::Instruction &i : bb)
        if (i.isAtomic() && !llvm::isa<llvm::FenceInst>(i) && !isShared(accessedPointer(i)))
          atomics.push_back(&i);
    for (llvm::Instruction *i : atomics) {
      if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(i))
        llvm::lowerAtomicRMWInst(rmw);
      else if (auto *cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(i))
        llvm::lowerAtomicCmpXchgInst(cas);
      else if (auto *load = llvm::dyn_cast<llvm::LoadInst>(i))
        load->setAtomic(llvm::AtomicOrdering::NotAtomic);
      else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(i))
        store->setAtomic(llvm::AtomicOrdering::NotAtomic);
    }
    if (!atomics.empty())
      body.addFnAttr(kSerialItemsAttr); // a lowered read-modify-write is a dependence
    changed |= !atomics.empty();
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace fibercl::compiler

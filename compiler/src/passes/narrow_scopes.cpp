// NarrowScopesPass (passes.hpp): a call of the builtins' __fibercl_narrow_scope() marks
// the atomic or fence that follows it in its block as narrower than device scope.
// The marker sits behind `if (scope is narrow)`; once the scope is a constant the
// branch is gone and marker and atomic share a block. A marker still behind its branch
// (a scope computed at run time) marks nothing: the atomic counts as device scope, so
// a race may be missed but none is invented.
#include "passes.hpp"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace fibercl::compiler {

namespace {

bool isAtomicOrFence(const llvm::Instruction &i) {
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&i))
    return load->isAtomic();
  if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&i))
    return store->isAtomic();
  return llvm::isa<llvm::AtomicRMWInst, llvm::AtomicCmpXchgInst, llvm::FenceInst>(i);
}

} // namespace

llvm::PreservedAnalyses NarrowScopesPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  llvm::Function *marker = m.getFunction(kNarrowScopeMarker);
  if (!marker)
    return llvm::PreservedAnalyses::all();
  std::vector<llvm::CallInst *> calls;
  for (llvm::User *u : marker->users())
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(u))
      calls.push_back(call);
  for (llvm::CallInst *call : calls) {
    for (llvm::Instruction *i = call->getNextNode(); i; i = i->getNextNode())
      if (isAtomicOrFence(*i)) {
        i->setMetadata(kNarrowScopeMetadata, llvm::MDNode::get(m.getContext(), {}));
        break;
      }
    call->eraseFromParent();
  }
  if (marker->use_empty())
    marker->eraseFromParent();
  return llvm::PreservedAnalyses::none();
}

} // namespace fibercl::compiler

// InlinePreparationPass (passes.hpp).
#include "passes.hpp"

#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Module.h>

namespace fibercl::compiler {

llvm::PreservedAnalyses InlinePreparationPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  for (llvm::Function &f : m) {
    // Host CPU attributes are set for everything later (pipeline.cpp); the builtins
    // library was compiled for baseline x86-64 and must not constrain the kernels.
    f.removeFnAttr("target-cpu");
    f.removeFnAttr("target-features");
    f.removeFnAttr("tune-cpu");
    if (f.isDeclaration() || f.hasFnAttribute(kKernelAttr))
      continue;
    f.removeFnAttr(llvm::Attribute::OptimizeNone);
    f.removeFnAttr(llvm::Attribute::NoInline);
    f.addFnAttr(llvm::Attribute::AlwaysInline);
    f.setLinkage(llvm::GlobalValue::InternalLinkage);
    f.setVisibility(llvm::GlobalValue::DefaultVisibility);
  }
  // Call sites may carry noinline too (Clang puts it there for -O0-style code).
  for (llvm::Function &f : m)
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &i : bb)
        if (auto *call = llvm::dyn_cast<llvm::CallBase>(&i))
          call->removeFnAttr(llvm::Attribute::NoInline);
  return llvm::PreservedAnalyses::none();
}

} // namespace fibercl::compiler

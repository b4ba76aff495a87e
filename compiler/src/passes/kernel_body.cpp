// KernelBodyPass: one work-item of each kernel as an ordinary function (passes.hpp).
#include "passes.hpp"

#include <llvm/IR/DIBuilder.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "kernel_metadata.hpp"

namespace fibercl::compiler {

std::string bodyName(llvm::StringRef kernel) { return (kernel + ".fibercl.body").str(); }
std::string itemName(llvm::StringRef kernel) { return (kernel + ".fibercl.item").str(); }
std::string workGroupName(llvm::StringRef kernel) { return ("__fibercl_wg_" + kernel).str(); }

llvm::Function *findBody(llvm::Module &m, llvm::StringRef name) {
  return m.getFunction(bodyName(name));
}

llvm::DILocation *giveSubprogram(llvm::Function &f, llvm::DISubprogram *like) {
  if (!like)
    return nullptr;
  llvm::DIBuilder dib(*f.getParent(), /*AllowUnresolved=*/false, like->getUnit());
  llvm::DISubprogram *sp = dib.createFunction(
      like->getFile(), f.getName(), f.getName(), like->getFile(), like->getLine(),
      dib.createSubroutineType(dib.getOrCreateTypeArray({})), like->getLine(),
      llvm::DINode::FlagArtificial, llvm::DISubprogram::SPFlagDefinition);
  f.setSubprogram(sp);
  dib.finalizeSubprogram(sp);
  return llvm::DILocation::get(f.getContext(), like->getLine(), 0, sp);
}

llvm::PreservedAnalyses KernelBodyPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  std::vector<llvm::Function *> kernels;
  for (llvm::Function &f : m)
    if (isKernel(f))
      kernels.push_back(&f);

  llvm::LLVMContext &ctx = m.getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type *ptr = llvm::PointerType::get(ctx, 0);
  for (llvm::Function *k : kernels) {
    std::vector<llvm::Type *> params(k->getFunctionType()->param_begin(),
                                     k->getFunctionType()->param_end());
    params.insert(params.end(), {ptr, i32, i32, i32});
    auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), params, false);
    // External until the work-group functions that call it exist: the dead-function
    // elimination before inlining (pipeline.cpp) keeps it; everything but the
    // work-group functions is internalised after.
    auto *body =
        llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, bodyName(k->getName()), m);
    body->setDSOLocal(true); // as an internal function is (its clones become internal)
    body->addFnAttr(kKernelAttr, k->getName());
    uint32_t required = requiredSubGroupSize(*k);
    body->addFnAttr(kSubGroupSizeAttr, std::to_string(required ? required : defaultSubGroupSize()));
    // The caller (work-group function) owns these; nothing else aliases them.
    unsigned n = k->arg_size();
    body->getArg(n)->setName("fibercl.ctx");
    body->getArg(n + 1)->setName("fibercl.x");
    body->getArg(n + 2)->setName("fibercl.y");
    body->getArg(n + 3)->setName("fibercl.z");
    for (unsigned i = 0; i < n; ++i) {
      body->getArg(i)->setName(k->getArg(i)->getName());
      // Keep restrict (noalias) and the like: they help the vectoriser.
      if (k->hasParamAttribute(i, llvm::Attribute::NoAlias))
        body->addParamAttr(i, llvm::Attribute::NoAlias);
      if (k->hasParamAttribute(i, llvm::Attribute::ByVal))
        body->addParamAttr(i, llvm::Attribute::get(ctx, kByValAttr));
    }
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", body));
    b.SetCurrentDebugLocation(giveSubprogram(*body, k->getSubprogram()));
    std::vector<llvm::Value *> args;
    for (unsigned i = 0; i < n; ++i)
      args.push_back(body->getArg(i));
    llvm::CallInst *call = b.CreateCall(k, args);
    call->setCallingConv(k->getCallingConv());
    b.CreateRetVoid();
  }
  return llvm::PreservedAnalyses::none();
}

} // namespace fibercl::compiler

// WorkItemMarkersPass (passes.hpp): after inlining, each kernel body contains the
// builtins library's markers; they become the body's own parameters, so that in a
// work-group loop the local id is the loop's induction variable.
#include "passes.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include "fibercl/kernel_abi.h"
#include "host_functions.hpp"

namespace fibercl::compiler {

bool isHostBarrier(const llvm::Instruction *i) {
  if (auto *call = llvm::dyn_cast_or_null<llvm::CallInst>(i))
    if (llvm::Function *f = call->getCalledFunction())
      return f->getName() == FIBERCL_HOST_BARRIER || f->getName() == FIBERCL_HOST_SUB_GROUP_BARRIER;
  return false;
}

bool isBarrierFence(const llvm::Instruction &fence) {
  return isHostBarrier(fence.getPrevNonDebugInstruction()) ||
         isHostBarrier(fence.getNextNonDebugInstruction());
}

llvm::PreservedAnalyses WorkItemMarkersPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  llvm::LLVMContext &c = m.getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(c);
  llvm::FunctionCallee hostBarrier = declareHostFunction(m, HostFunction::BARRIER);
  // Never duplicated (jump threading, tail duplication, unrolling): each barrier site
  // must stay one call, or the barrier-region splitter would need a continuation per
  // copy (it fell back to fibers: "Duplicate integer as switch case").
  llvm::FunctionCallee hostSubGroupBarrier =
      declareHostFunction(m, HostFunction::SUB_GROUP_BARRIER);
  for (llvm::Value *callee : {hostBarrier.getCallee(), hostSubGroupBarrier.getCallee()})
    if (auto *f = llvm::dyn_cast<llvm::Function>(callee)) {
      f->addFnAttr(llvm::Attribute::NoDuplicate);
      f->addFnAttr(llvm::Attribute::Convergent);
    }

  // OpenCL C printf is the runtime's, not the C library's: renamed, so that LLVM does
  // not rewrite it as the libc function it knows (printf("%s\n", s) -> puts(s)).
  if (llvm::Function *printfFn = m.getFunction("printf"))
    printfFn->setName(FIBERCL_HOST_PRINTF);

  for (llvm::Function &body : m) {
    if (!body.hasFnAttribute(kKernelAttr))
      continue;
    unsigned n = body.arg_size() - 4;
    llvm::Value *ctx = body.getArg(n);
    llvm::Value *ids[3] = {body.getArg(n + 1), body.getArg(n + 2), body.getArg(n + 3)};
    bool barriers = false, printf = false;

    std::vector<llvm::CallInst *> calls;
    bool subGroupBarriers = false;
    for (llvm::BasicBlock &bb : body)
      for (llvm::Instruction &i : bb)
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(&i))
          if (llvm::Function *f = call->getCalledFunction()) {
            calls.push_back(call);
            subGroupBarriers |= f->getName() == "__fibercl_sub_group_barrier";
          }
    uint32_t width = 0;
    body.getFnAttribute(kSubGroupSizeAttr).getValueAsString().getAsInteger(10, width);
    // In a kernel with sub-group barriers every barrier goes to the runtime's
    // sub-group-aware one (host_abi.def), with the sub-group size.
    auto lowerBarrier = [&](llvm::CallInst *call, llvm::IRBuilder<> &b, bool subGroup) {
      barriers = true;
      uint32_t site = sites->add(
          body, call, subGroup ? SiteInfo::Kind::SubGroupBarrier : SiteInfo::Kind::Barrier);
      llvm::CallInst *host;
      if (subGroupBarriers)
        host = b.CreateCall(
            hostSubGroupBarrier,
            {ctx, b.getInt32(site | (subGroup ? FIBERCL_SITE_SUB_GROUP : 0)), b.getInt32(width)});
      else
        host = b.CreateCall(
            hostBarrier, {ctx, b.getInt32(site), b.CreateZExtOrTrunc(call->getArgOperand(0), i32)});
      host->setDebugLoc(call->getDebugLoc());
      call->eraseFromParent();
    };

    for (llvm::CallInst *call : calls) {
      llvm::StringRef name = call->getCalledFunction()->getName();
      llvm::IRBuilder<> b(call);
      if (name == "__fibercl_local_id") {
        llvm::Value *d = call->getArgOperand(0);
        llvm::Value *v = llvm::ConstantInt::get(i32, 0);
        for (int k = 2; k >= 0; --k)
          v = b.CreateSelect(b.CreateICmpEQ(d, llvm::ConstantInt::get(d->getType(), k)), ids[k], v);
        call->replaceAllUsesWith(b.CreateZExtOrTrunc(v, call->getType()));
        call->eraseFromParent();
      } else if (name == "__fibercl_ctx") {
        call->replaceAllUsesWith(b.CreatePointerBitCastOrAddrSpaceCast(ctx, call->getType()));
        call->eraseFromParent();
      } else if (name == "__fibercl_barrier") {
        lowerBarrier(call, b, false);
      } else if (name == "__fibercl_sub_group_barrier") {
        lowerBarrier(call, b, true);
      } else if (name == "__fibercl_sub_group_width") {
        call->replaceAllUsesWith(llvm::ConstantInt::get(call->getType(), width));
        call->eraseFromParent();
      } else if (name == FIBERCL_HOST_PRINTF) {
        printf = true;
      }
    }
    if (barriers)
      body.addFnAttr(kBarriersAttr);
    if (subGroupBarriers)
      addSubGroupYields(body, ctx, width);
    if (printf)
      body.addFnAttr(kPrintfAttr);
  }
  return llvm::PreservedAnalyses::none();
}

} // namespace fibercl::compiler

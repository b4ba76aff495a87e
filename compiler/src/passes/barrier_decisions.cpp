// Barrier decisions (barrier_decisions.hpp).
#include "barrier_decisions.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <cstddef>
#include <vector>

#include "fibercl/kernel_abi.h"
#include "host_functions.hpp"
#include "yield_state_ir.hpp"

namespace fibercl::compiler {
namespace {

constexpr const char *kMarkerName = "__fibercl_barrier_decision";

std::vector<llvm::CallInst *> markersIn(const llvm::Function &f) {
  std::vector<llvm::CallInst *> markers;
  for (const llvm::BasicBlock &bb : f)
    for (const llvm::Instruction &i : bb)
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(&i))
        if (const llvm::Function *callee = call->getCalledFunction())
          if (callee->getName() == kMarkerName)
            markers.push_back(const_cast<llvm::CallInst *>(call));
  return markers;
}

uint32_t constantArg(const llvm::CallInst *call, unsigned i) {
  return uint32_t(llvm::cast<llvm::ConstantInt>(call->getArgOperand(i))->getZExtValue());
}

} // namespace

void markBarrierDecision(const llvm::CallInst *barrier, llvm::Instruction *before, llvm::Value *ctx,
                         uint32_t yieldSite) {
  llvm::Module &m = *before->getModule();
  llvm::LLVMContext &c = m.getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(c);
  llvm::FunctionCallee marker = m.getOrInsertFunction(
      kMarkerName, llvm::FunctionType::get(llvm::Type::getVoidTy(c),
                                           {llvm::PointerType::get(c, 0), i32, i32}, false));
  llvm::IRBuilder<> b(before);
  b.SetCurrentDebugLocation(barrier->getDebugLoc());
  b.CreateCall(marker, {ctx, b.getInt32(yieldSite), barrier->getArgOperand(1)});
}

std::map<uint32_t, uint32_t> barrierDecisionSites(const llvm::Function &body) {
  std::map<uint32_t, uint32_t> sites;
  for (const llvm::CallInst *call : markersIn(body))
    sites[constantArg(call, 2)] = constantArg(call, 1);
  return sites;
}

void dropBarrierDecisions(llvm::Function &f) {
  for (llvm::CallInst *call : markersIn(f))
    call->eraseFromParent();
}

void lowerBarrierDecisions(llvm::Function &f) {
  for (llvm::CallInst *call : markersIn(f)) {
    llvm::Value *ctx = call->getArgOperand(0);
    emitYieldPoint(call, ctx, loadYieldState(call, ctx), constantArg(call, 1), call->getDebugLoc());
    call->eraseFromParent();
  }
}

llvm::Value *loadYieldState(llvm::Instruction *before, llvm::Value *ctx) {
  llvm::IRBuilder<> b(before);
  llvm::Value *field =
      b.CreateConstGEP1_64(b.getInt8Ty(), ctx, offsetof(fcl_group_ctx, yield_state));
  return b.CreateIntToPtr(b.CreateLoad(b.getInt64Ty(), field, "yield_state"), b.getPtrTy());
}

void emitYieldPoint(llvm::Instruction *before, llvm::Value *ctx, llvm::Value *state, uint32_t site,
                    const llvm::DebugLoc &loc) {
  llvm::FunctionCallee hostYield = declareHostFunction(*before->getModule(), HostFunction::YIELD);
  llvm::IRBuilder<> b(ifScheduled(state, before).then);
  b.SetCurrentDebugLocation(loc);
  llvm::Value *left = b.CreateSub(b.CreateLoad(b.getInt64Ty(), state), b.getInt64(1));
  b.CreateStore(left, state);
  llvm::Value *expired = b.CreateICmpSLE(left, b.getInt64(0));
  llvm::Instruction *then = llvm::SplitBlockAndInsertIfThen(expired, &*b.GetInsertPoint(), false);
  b.SetInsertPoint(then);
  b.CreateCall(hostYield, {ctx, b.getInt32(site)});
}

} // namespace fibercl::compiler

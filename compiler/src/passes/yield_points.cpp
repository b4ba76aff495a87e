// YieldPointsPass (passes.hpp). Each yield point is inline and cheap when it does not
// yield:
//     state = (fcl_yield_state *)ctx->yield_state        (loop-invariant, hoisted)
//     if ((int64)--state->countdown <= 0) __fibercl_host_yield(ctx, site);
// and after an atomic write that changed memory, state->progress += 1: the runtime's
// deadlock detector tells spinning groups from groups that make progress by it.
#include "passes.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <cstddef>

#include "fibercl/kernel_abi.h"

namespace fibercl::compiler {
namespace {

bool isAtomic(const llvm::Instruction &i) {
  if (llvm::isa<llvm::AtomicRMWInst>(i) || llvm::isa<llvm::AtomicCmpXchgInst>(i) ||
      llvm::isa<llvm::FenceInst>(i))
    return true;
  if (auto *l = llvm::dyn_cast<llvm::LoadInst>(&i))
    return l->isAtomic();
  if (auto *s = llvm::dyn_cast<llvm::StoreInst>(&i))
    return s->isAtomic();
  return false;
}

bool isVolatile(const llvm::Instruction &i) {
  if (auto *l = llvm::dyn_cast<llvm::LoadInst>(&i))
    return l->isVolatile();
  if (auto *s = llvm::dyn_cast<llvm::StoreInst>(&i))
    return s->isVolatile();
  return false;
}

bool isHostBarrier(const llvm::Instruction &i) {
  if (auto *call = llvm::dyn_cast<llvm::CallInst>(&i))
    if (llvm::Function *f = call->getCalledFunction())
      return f->getName() == FIBERCL_HOST_BARRIER;
  return false;
}

// The value an atomicrmw stores, computed from the value it returns: to tell whether
// it changed memory (an exchange of the value already there did not).
llvm::Value *changedByRMW(llvm::IRBuilder<> &b, llvm::AtomicRMWInst *rmw) {
  llvm::Value *old = rmw->getType()->isIntegerTy() ? static_cast<llvm::Value *>(rmw)
                                                   : nullptr;
  llvm::Value *v = rmw->getValOperand();
  if (!old) // floating-point or pointer operations: count them as changing memory
    return b.getTrue();
  llvm::Value *next;
  using Op = llvm::AtomicRMWInst::BinOp;
  switch (rmw->getOperation()) {
  case Op::Xchg: next = v; break;
  case Op::Add: next = b.CreateAdd(old, v); break;
  case Op::Sub: next = b.CreateSub(old, v); break;
  case Op::And: next = b.CreateAnd(old, v); break;
  case Op::Or: next = b.CreateOr(old, v); break;
  case Op::Xor: next = b.CreateXor(old, v); break;
  case Op::Max: next = b.CreateSelect(b.CreateICmpSGT(old, v), old, v); break;
  case Op::Min: next = b.CreateSelect(b.CreateICmpSLT(old, v), old, v); break;
  case Op::UMax: next = b.CreateSelect(b.CreateICmpUGT(old, v), old, v); break;
  case Op::UMin: next = b.CreateSelect(b.CreateICmpULT(old, v), old, v); break;
  default: return b.getTrue();
  }
  return b.CreateICmpNE(old, next);
}

class Inserter {
public:
  Inserter(llvm::Function &body, SiteTable &sites) : body_(body), sites_(sites) {
    llvm::Module &m = *body.getParent();
    llvm::LLVMContext &c = m.getContext();
    hostYield_ = m.getOrInsertFunction(
        FIBERCL_HOST_YIELD,
        llvm::FunctionType::get(llvm::Type::getVoidTy(c),
                                {llvm::PointerType::get(c, 0), llvm::Type::getInt32Ty(c)},
                                false));
    unsigned n = body.arg_size() - 4;
    ctx_ = body.getArg(n);
    llvm::IRBuilder<> b(&*body.getEntryBlock().getFirstInsertionPt());
    llvm::Value *field = b.CreateConstGEP1_64(b.getInt8Ty(), ctx_,
                                              offsetof(fcl_group_ctx, yield_state));
    state_ = b.CreateIntToPtr(b.CreateLoad(b.getInt64Ty(), field, "yield_state"),
                              b.getPtrTy());
  }

  // A yield point just before `before`.
  void poll(llvm::Instruction *before, const llvm::Instruction *at, SiteInfo::Kind kind) {
    uint32_t site = sites_.add(body_, at, kind);
    llvm::IRBuilder<> b(before);
    b.SetCurrentDebugLocation(at->getDebugLoc());
    llvm::Value *left = b.CreateSub(b.CreateLoad(b.getInt64Ty(), state_), b.getInt64(1));
    b.CreateStore(left, state_);
    llvm::Value *expired = b.CreateICmpSLE(left, b.getInt64(0));
    llvm::Instruction *then = llvm::SplitBlockAndInsertIfThen(expired, before, false);
    b.SetInsertPoint(then);
    b.CreateCall(hostYield_, {ctx_, b.getInt32(site)});
  }

  void progress(llvm::Instruction *before, llvm::Value *changed) {
    llvm::IRBuilder<> b(before);
    llvm::Value *p = b.CreateConstGEP1_64(b.getInt8Ty(), state_,
                                          offsetof(fcl_yield_state, progress));
    llvm::Value *count = b.CreateLoad(b.getInt64Ty(), p);
    b.CreateStore(b.CreateAdd(count, b.CreateZExt(changed, b.getInt64Ty())), p);
  }

  // Yield point (and progress accounting) right after atomic operation `i`.
  void afterAtomic(llvm::Instruction *i) {
    llvm::Instruction *next = i->getNextNode();
    llvm::IRBuilder<> b(next);
    SiteInfo::Kind kind = SiteInfo::Kind::AtomicRead;
    if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(i)) {
      kind = SiteInfo::Kind::AtomicWrite;
      progress(next, changedByRMW(b, rmw));
    } else if (auto *cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(i)) {
      kind = SiteInfo::Kind::AtomicWrite;
      llvm::Value *stored = b.CreateExtractValue(cas, 1);
      llvm::Value *same = b.CreateICmpEQ(cas->getCompareOperand(), cas->getNewValOperand());
      progress(next, b.CreateAnd(stored, b.CreateNot(same)));
    } else if (llvm::isa<llvm::StoreInst>(i)) {
      kind = SiteInfo::Kind::AtomicWrite;
      progress(next, b.getTrue());
    } else if (llvm::isa<llvm::FenceInst>(i)) {
      kind = SiteInfo::Kind::Fence;
    }
    poll(next, i, kind);
  }

private:
  llvm::Function &body_;
  SiteTable &sites_;
  llvm::FunctionCallee hostYield_;
  llvm::Value *ctx_;
  llvm::Value *state_;
};

} // namespace

llvm::PreservedAnalyses YieldPointsPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &mam) {
  auto &fam = mam.getResult<llvm::FunctionAnalysisManagerModuleProxy>(m).getManager();
  for (llvm::Function &body : m) {
    if (!body.hasFnAttribute(kKernelAttr))
      continue;
    std::vector<llvm::Instruction *> atomics, barriers;
    bool observes = false;
    for (llvm::BasicBlock &bb : body)
      for (llvm::Instruction &i : bb) {
        if (isAtomic(i))
          atomics.push_back(&i);
        else if (isHostBarrier(i))
          barriers.push_back(&i);
        observes |= (isAtomic(i) && !llvm::isa<llvm::FenceInst>(i)) || isVolatile(i);
      }
    // Only a kernel that can observe other work-groups (atomic or volatile accesses)
    // can wait for them; the others keep the fast path. (A fence alone observes
    // nothing: barrier() has two.)
    if (!observes)
      continue;

    // Spinning loops, found before any block is split.
    std::vector<std::pair<llvm::Instruction *, llvm::Instruction *>> latches;
    llvm::LoopInfo &loops = fam.getResult<llvm::LoopAnalysis>(body);
    for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
      bool mayspin = false;
      for (llvm::BasicBlock *bb : loop->blocks())
        for (llvm::Instruction &i : *bb)
          mayspin |= (isAtomic(i) && !llvm::isa<llvm::FenceInst>(i)) || isVolatile(i);
      if (!mayspin)
        continue;
      llvm::SmallVector<llvm::BasicBlock *, 4> loopLatches;
      loop->getLoopLatches(loopLatches);
      for (llvm::BasicBlock *latch : loopLatches)
        latches.push_back({latch->getTerminator(), latch->getTerminator()});
    }

    Inserter inserter(body, *sites);
    for (llvm::Instruction *i : atomics)
      inserter.afterAtomic(i);
    for (llvm::Instruction *call : barriers)
      inserter.poll(call->getNextNode(), call, SiteInfo::Kind::Barrier);
    for (auto [terminator, at] : latches)
      inserter.poll(terminator, at, SiteInfo::Kind::LoopPoll);
    body.addFnAttr(kMayYieldAttr);
    fam.invalidate(body, llvm::PreservedAnalyses::none());
  }
  return llvm::PreservedAnalyses::none();
}

} // namespace fibercl::compiler

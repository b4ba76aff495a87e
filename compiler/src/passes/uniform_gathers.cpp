// UniformGathersPass (passes.hpp): in the work-group functions of kernels with
// sub-group barriers, a gather whose lanes turn out, at run time, to read one address
// becomes one load and a broadcast.
//
// Sub-group collectives read values of their sub-group (builtins/lib/fcl_sub_group.h):
// every work-item of it reads the same slot, and the same sub-group mask. Vectorised
// across work-items, those reads are gathers -- one load per lane -- although, when a
// vector of work-items is one sub-group, all lanes read one address. Nothing in the IR
// says when that is (it depends on the group's size and the vector's start), so the
// check is made where the gather is:
//   if (every lane's pointer == lane 0's) value = splat(load lane 0's pointer)
//                                                 (if any lane is active)
//   else value = the gather
#include "passes.hpp"

#include <llvm/ADT/DenseMap.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

namespace fibercl::compiler {
namespace {

// On the gather left for lanes that read several addresses: not checked again (the
// work-group function's copies for a size are optimised a second time).
constexpr const char *kCheckedMetadata = "fibercl.gather_checked";

// Whether every lane of `vector` (pointers) holds lane 0's value, computed once per
// vector, where it is defined (outside the loop that reads through it, usually).
llvm::Value *allLanesEqual(llvm::Value *vector, unsigned lanes,
                           llvm::DenseMap<llvm::Value *, llvm::Value *> &cache,
                           llvm::Instruction *use) {
  if (llvm::Value *known = cache.lookup(vector))
    return known;
  llvm::BasicBlock &entry = use->getFunction()->getEntryBlock();
  llvm::Instruction *at = &*entry.getFirstInsertionPt();
  if (auto *def = llvm::dyn_cast<llvm::Instruction>(vector))
    at = llvm::isa<llvm::PHINode>(def) ? &*def->getParent()->getFirstInsertionPt()
                                       : def->getNextNode();
  llvm::IRBuilder<> b(at);
  llvm::Value *same = b.CreateICmpEQ(
      vector, b.CreateVectorSplat(lanes, b.CreateExtractElement(vector, uint64_t(0))));
  llvm::Value *bits = b.CreateBitCast(same, b.getIntNTy(lanes));
  llvm::Value *all =
      b.CreateICmpEQ(bits, llvm::Constant::getAllOnesValue(bits->getType()), "lanes.one_address");
  cache[vector] = all;
  return all;
}

void addRuntimeCheck(llvm::IntrinsicInst &gather,
                     llvm::DenseMap<llvm::Value *, llvm::Value *> &cache) {
  llvm::Value *pointers = gather.getArgOperand(0);
  auto align = llvm::cast<llvm::ConstantInt>(gather.getArgOperand(1))->getAlignValue();
  llvm::Value *mask = gather.getArgOperand(2), *passThrough = gather.getArgOperand(3);
  auto *type = llvm::cast<llvm::FixedVectorType>(gather.getType());
  unsigned lanes = type->getNumElements();

  llvm::BasicBlock *before = gather.getParent();
  llvm::BasicBlock *after = before->splitBasicBlock(&gather, "gather.join");
  llvm::LLVMContext &c = gather.getContext();
  llvm::Function &f = *before->getParent();
  auto *uniform = llvm::BasicBlock::Create(c, "gather.one_address", &f, after);
  auto *general = llvm::BasicBlock::Create(c, "gather.lanes", &f, after);

  llvm::IRBuilder<> b(before->getTerminator());
  llvm::Value *first = b.CreateExtractElement(pointers, uint64_t(0));
  // The lanes' pointers are equal where the vector of bases they are an offset from is
  // (the same offset for every lane): then one test serves every read from that base
  // -- the sub-group's slots, at each step of a loop over them.
  llvm::Value *checked = pointers;
  if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(pointers))
    if (gep->getPointerOperandType()->isVectorTy() &&
        llvm::all_of(gep->indices(), [](llvm::Value *index) {
          return !index->getType()->isVectorTy() || llvm::getSplatValue(index);
        }))
      checked = gep->getPointerOperand();
  llvm::Value *same = allLanesEqual(checked, lanes, cache, before->getTerminator());
  llvm::Value *maskBits = b.CreateBitCast(mask, b.getIntNTy(lanes));
  // One address, and some lane reads it (else the gather reads nothing).
  llvm::Value *oneAddress = b.CreateAnd(same, b.CreateICmpNE(maskBits, b.getIntN(lanes, 0)));
  before->getTerminator()->eraseFromParent();
  b.SetInsertPoint(before);
  b.CreateCondBr(oneAddress, uniform, general);

  b.SetInsertPoint(uniform);
  llvm::LoadInst *one = b.CreateAlignedLoad(type->getElementType(), first, align);
  one->copyMetadata(gather, {llvm::LLVMContext::MD_tbaa, llvm::LLVMContext::MD_alias_scope,
                             llvm::LLVMContext::MD_noalias});
  llvm::Value *broadcast = b.CreateSelect(mask, b.CreateVectorSplat(lanes, one), passThrough);
  b.CreateBr(after);

  b.SetInsertPoint(general);
  llvm::Instruction *moved = gather.clone();
  moved->setMetadata(kCheckedMetadata, llvm::MDNode::get(c, {}));
  b.Insert(moved);
  b.CreateBr(after);

  b.SetInsertPoint(&*after->begin());
  llvm::PHINode *phi = b.CreatePHI(type, 2, gather.getName());
  phi->addIncoming(broadcast, uniform);
  phi->addIncoming(moved, general);
  gather.replaceAllUsesWith(phi);
  gather.eraseFromParent();
}

} // namespace

llvm::PreservedAnalyses UniformGathersPass::run(llvm::Function &f,
                                                llvm::FunctionAnalysisManager &) {
  if (!f.hasFnAttribute(kSubGroupsAttr))
    return llvm::PreservedAnalyses::all();
  std::vector<llvm::IntrinsicInst *> gathers;
  for (llvm::BasicBlock &bb : f)
    for (llvm::Instruction &i : bb)
      if (auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&i))
        if (call->getIntrinsicID() == llvm::Intrinsic::masked_gather &&
            llvm::isa<llvm::FixedVectorType>(call->getType()) &&
            !call->getMetadata(kCheckedMetadata))
          gathers.push_back(call);
  llvm::DenseMap<llvm::Value *, llvm::Value *> checks;
  for (llvm::IntrinsicInst *g : gathers)
    addRuntimeCheck(*g, checks);
  return gathers.empty() ? llvm::PreservedAnalyses::all() : llvm::PreservedAnalyses::none();
}

} // namespace fibercl::compiler

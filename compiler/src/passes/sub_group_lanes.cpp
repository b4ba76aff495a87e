// Sub-group collectives across a vector's lanes (sub_group_lanes.hpp).
#include "sub_group_lanes.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include "fibercl/kernel_abi.h"

#include <functional>
#include <string>
#include <vector>

namespace fibercl::compiler {
namespace {

unsigned lanesOf(llvm::Value *v) {
  return unsigned(llvm::cast<llvm::FixedVectorType>(v->getType())->getNumElements());
}

// The builtins' FCL_SG_MIN / FCL_SG_MAX: (b < a ? b : a), (b > a ? b : a).
llvm::Value *combine(llvm::IRBuilder<> &b, llvm::StringRef op, bool isSigned, llvm::Value *acc,
                     llvm::Value *x) {
  bool fp = x->getType()->isFloatingPointTy();
  if (op == "add")
    return fp ? b.CreateFAdd(acc, x) : b.CreateAdd(acc, x);
  bool min = op == "min";
  llvm::Value *better;
  if (fp)
    better = min ? b.CreateFCmpOLT(x, acc) : b.CreateFCmpOGT(x, acc);
  else if (isSigned)
    better = min ? b.CreateICmpSLT(x, acc) : b.CreateICmpSGT(x, acc);
  else
    better = min ? b.CreateICmpULT(x, acc) : b.CreateICmpUGT(x, acc);
  return b.CreateSelect(better, x, acc);
}

// Integers: order does not matter, one horizontal reduction of the active lanes (the
// others set to the operation's identity).
llvm::Value *reduceIntegers(llvm::IRBuilder<> &b, llvm::StringRef op, bool isSigned,
                            llvm::Value *value, llvm::Value *mask) {
  auto *t = llvm::cast<llvm::IntegerType>(value->getType()->getScalarType());
  unsigned bits = t->getBitWidth();
  llvm::APInt identity =
      op == "add" ? llvm::APInt::getZero(bits)
      : op == "min"
          ? (isSigned ? llvm::APInt::getSignedMaxValue(bits) : llvm::APInt::getMaxValue(bits))
          : (isSigned ? llvm::APInt::getSignedMinValue(bits) : llvm::APInt::getZero(bits));
  llvm::Value *in = b.CreateSelect(
      mask, value, b.CreateVectorSplat(lanesOf(value), llvm::ConstantInt::get(t, identity)));
  if (op == "add")
    return b.CreateAddReduce(in);
  return op == "min" ? b.CreateIntMinReduce(in, isSigned) : b.CreateIntMaxReduce(in, isSigned);
}

// Floating point: lane by lane from the first active one, as the slot version folds.
llvm::Value *reduceInLaneOrder(llvm::IRBuilder<> &b, llvm::StringRef op, llvm::Value *value,
                               llvm::Value *mask) {
  llvm::Type *t = value->getType()->getScalarType();
  if (op == "add") // -0.0 + x == x for every x: the inactive lanes change nothing
    return b.CreateFAddReduce(
        llvm::ConstantFP::getNegativeZero(t),
        b.CreateSelect(mask, value,
                       b.CreateVectorSplat(lanesOf(value), llvm::ConstantFP::getNegativeZero(t))));
  llvm::Value *acc = llvm::PoisonValue::get(t);
  llvm::Value *have = b.getFalse();
  for (unsigned lane = 0; lane < lanesOf(value); ++lane) {
    llvm::Value *active = b.CreateExtractElement(mask, lane);
    llvm::Value *x = b.CreateExtractElement(value, lane);
    llvm::Value *next = b.CreateSelect(have, combine(b, op, true, acc, x), x);
    acc = b.CreateSelect(active, next, acc);
    have = b.CreateOr(have, active);
  }
  return acc;
}

} // namespace

bool isSubGroupLaneOp(const llvm::Function *callee) {
  return callee && callee->getName().starts_with(kSubGroupLaneOpPrefix);
}

llvm::Value *emitSubGroupLaneOp(llvm::IRBuilder<> &b, const llvm::CallInst &call,
                                llvm::Value *value, llvm::Value *index, llvm::Value *mask) {
  llvm::StringRef name =
      call.getCalledFunction()->getName().drop_front(llvm::StringRef(kSubGroupLaneOpPrefix).size());
  if (name == "any" || name == "all") {
    llvm::Value *set = b.CreateICmpNE(value, llvm::Constant::getNullValue(value->getType()));
    llvm::Value *result = name == "any" ? b.CreateOrReduce(b.CreateAnd(mask, set))
                                        : b.CreateAndReduce(b.CreateOr(b.CreateNot(mask), set));
    return b.CreateZExt(result, call.getType());
  }
  if (name.consume_front("broadcast_")) {
    if (index->getType()->isVectorTy()) // the same in every lane (else undefined)
      index = b.CreateExtractElement(index, uint64_t(0));
    index = b.CreateAnd(index, llvm::ConstantInt::get(index->getType(), lanesOf(value) - 1));
    return b.CreateExtractElement(value, index);
  }
  name.consume_front("reduce_");
  auto [op, type] = name.split('_');
  if (value->getType()->getScalarType()->isFloatingPointTy())
    return reduceInLaneOrder(b, op, value, mask);
  return reduceIntegers(b, op, type.starts_with("i"), value, mask);
}

namespace {

// A helper `name`(pointers, values, mask) that does `access` for each active lane, in
// lane order, looping over the mask's set bits: a vector whose store or atomic only
// one lane makes (`if (get_sub_group_local_id() == 0)`) pays for one, where a scatter
// pays for every lane. Its result: each lane's value from `access` (poison elsewhere),
// or none. Inlined by inlineLaneHelpers.
llvm::Function *laneLoop(
    llvm::Module &m, llvm::StringRef name, llvm::Type *pointers, llvm::Type *values,
    llvm::Type *mask, bool returnsValues,
    const std::function<llvm::Value *(llvm::IRBuilder<> &, llvm::Value *, llvm::Value *)> &access) {
  llvm::LLVMContext &c = m.getContext();
  llvm::Type *result = returnsValues ? values : llvm::Type::getVoidTy(c);
  auto *helper =
      llvm::Function::Create(llvm::FunctionType::get(result, {pointers, values, mask}, false),
                             llvm::GlobalValue::InternalLinkage, name, m);
  helper->addFnAttr(llvm::Attribute::NoUnwind);
  unsigned lanes = lanesOf(helper->getArg(2));
  auto *entry = llvm::BasicBlock::Create(c, "entry", helper);
  auto *loop = llvm::BasicBlock::Create(c, "lane", helper);
  auto *done = llvm::BasicBlock::Create(c, "lanes.done", helper);
  llvm::IRBuilder<> h(entry);
  llvm::Type *bitsType = h.getIntNTy(lanes);
  llvm::Value *bits = h.CreateBitCast(helper->getArg(2), bitsType);
  llvm::Value *none = llvm::PoisonValue::get(values);
  h.CreateCondBr(h.CreateICmpNE(bits, llvm::ConstantInt::get(bitsType, 0)), loop, done);
  h.SetInsertPoint(loop);
  llvm::PHINode *left = h.CreatePHI(bitsType, 2);
  llvm::PHINode *got = h.CreatePHI(values, 2);
  left->addIncoming(bits, entry);
  got->addIncoming(none, entry);
  llvm::Value *lane = h.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, left, h.getTrue());
  lane = h.CreateZExtOrTrunc(lane, h.getInt32Ty());
  llvm::Value *one = access(h, h.CreateExtractElement(helper->getArg(0), lane),
                            h.CreateExtractElement(helper->getArg(1), lane));
  llvm::Value *now = one ? h.CreateInsertElement(got, one, lane) : got;
  llvm::Value *rest = h.CreateAnd(left, h.CreateSub(left, llvm::ConstantInt::get(bitsType, 1)));
  left->addIncoming(rest, loop);
  got->addIncoming(now, loop);
  h.CreateCondBr(h.CreateICmpNE(rest, llvm::ConstantInt::get(bitsType, 0)), loop, done);
  h.SetInsertPoint(done);
  if (!returnsValues) {
    h.CreateRetVoid();
    return helper;
  }
  llvm::PHINode *out = h.CreatePHI(values, 2);
  out->addIncoming(none, entry);
  out->addIncoming(now, loop);
  h.CreateRet(out);
  return helper;
}

} // namespace

llvm::Value *emitLaneAtomics(llvm::IRBuilder<> &b, llvm::AtomicRMWInst &rmw, llvm::Value *pointers,
                             llvm::Value *values, llvm::Value *mask) {
  llvm::Function *helper =
      laneLoop(*rmw.getModule(), kLaneHelperPrefix + std::string("atomics"), pointers->getType(),
               values->getType(), mask->getType(), true,
               [&](llvm::IRBuilder<> &h, llvm::Value *pointer, llvm::Value *value) {
                 llvm::AtomicRMWInst *one =
                     h.CreateAtomicRMW(rmw.getOperation(), pointer, value, rmw.getAlign(),
                                       rmw.getOrdering(), rmw.getSyncScopeID());
                 one->setVolatile(rmw.isVolatile());
                 return one;
               });
  return b.CreateCall(helper, {pointers, values, mask});
}

llvm::Instruction *emitLaneStores(llvm::IRBuilder<> &b, llvm::StoreInst &store,
                                  llvm::Value *pointers, llvm::Value *values, llvm::Value *mask) {
  llvm::Function *helper = laneLoop(
      *store.getModule(), kLaneHelperPrefix + std::string("stores"), pointers->getType(),
      values->getType(), mask->getType(), false,
      [&](llvm::IRBuilder<> &h, llvm::Value *pointer, llvm::Value *value) {
        llvm::StoreInst *one = h.CreateAlignedStore(value, pointer, store.getAlign());
        one->copyMetadata(store, {llvm::LLVMContext::MD_tbaa, llvm::LLVMContext::MD_alias_scope,
                                  llvm::LLVMContext::MD_noalias});
        return nullptr;
      });
  return b.CreateCall(helper, {pointers, values, mask});
}

llvm::Instruction *emitLaneLoad(llvm::IRBuilder<> &b, llvm::LoadInst &load, llvm::Type *vector,
                                llvm::Value *first, llvm::Value *mask) {
  llvm::Module &m = *load.getModule();
  llvm::LLVMContext &c = m.getContext();
  auto *helper = llvm::Function::Create(
      llvm::FunctionType::get(vector, {first->getType(), mask->getType()}, false),
      llvm::GlobalValue::InternalLinkage, kLaneHelperPrefix + std::string("load"), m);
  helper->addFnAttr(llvm::Attribute::NoUnwind);
  auto *entry = llvm::BasicBlock::Create(c, "entry", helper);
  auto *all = llvm::BasicBlock::Create(c, "all.lanes", helper);
  auto *some = llvm::BasicBlock::Create(c, "some.lanes", helper);
  auto *done = llvm::BasicBlock::Create(c, "loaded", helper);
  llvm::IRBuilder<> h(entry);
  unsigned lanes = lanesOf(helper->getArg(1));
  llvm::Value *bits = h.CreateBitCast(helper->getArg(1), h.getIntNTy(lanes));
  h.CreateCondBr(h.CreateICmpEQ(bits, llvm::ConstantInt::getAllOnesValue(bits->getType())), all,
                 some);
  auto metadata = [&](llvm::Instruction *i) {
    i->copyMetadata(load, {llvm::LLVMContext::MD_tbaa, llvm::LLVMContext::MD_alias_scope,
                           llvm::LLVMContext::MD_noalias, llvm::LLVMContext::MD_nontemporal});
    return i;
  };
  h.SetInsertPoint(all);
  llvm::Value *whole = metadata(h.CreateAlignedLoad(vector, helper->getArg(0), load.getAlign()));
  h.CreateBr(done);
  h.SetInsertPoint(some);
  llvm::Value *part = metadata(llvm::cast<llvm::Instruction>(
      h.CreateMaskedLoad(vector, helper->getArg(0), load.getAlign(), helper->getArg(1))));
  h.CreateBr(done);
  h.SetInsertPoint(done);
  llvm::PHINode *v = h.CreatePHI(vector, 2);
  v->addIncoming(whole, all);
  v->addIncoming(part, some);
  h.CreateRet(v);
  return b.CreateCall(helper, {first, mask});
}

bool isLaneCheck(const llvm::Function *callee) {
  return callee && (callee->getName() == FIBERCL_HOST_CHECK_FAILED ||
                    callee->getName() == FIBERCL_HOST_CHECK_UNINIT ||
                    callee->getName() == FIBERCL_HOST_CHECK_RACE);
}

void emitLaneCalls(llvm::IRBuilder<> &b, llvm::CallInst &call, llvm::ArrayRef<llvm::Value *> args,
                   llvm::Value *mask) {
  llvm::Module &m = *call.getModule();
  llvm::LLVMContext &c = m.getContext();
  std::vector<llvm::Type *> params{mask->getType()};
  for (llvm::Value *a : args)
    params.push_back(a->getType());
  auto *helper = llvm::Function::Create(llvm::FunctionType::get(b.getVoidTy(), params, false),
                                        llvm::GlobalValue::InternalLinkage,
                                        kLaneHelperPrefix + std::string("calls"), m);
  helper->addFnAttr(llvm::Attribute::NoUnwind);
  unsigned lanes = lanesOf(helper->getArg(0));
  auto *entry = llvm::BasicBlock::Create(c, "entry", helper);
  auto *loop = llvm::BasicBlock::Create(c, "lane", helper);
  auto *done = llvm::BasicBlock::Create(c, "lanes.done", helper);
  llvm::IRBuilder<> h(entry);
  llvm::Type *bitsType = h.getIntNTy(lanes);
  llvm::Value *bits = h.CreateBitCast(helper->getArg(0), bitsType);
  h.CreateCondBr(h.CreateICmpNE(bits, llvm::ConstantInt::get(bitsType, 0)), loop, done,
                 llvm::MDBuilder(c).createBranchWeights(1, 1u << 20));
  h.SetInsertPoint(loop);
  llvm::PHINode *left = h.CreatePHI(bitsType, 2);
  left->addIncoming(bits, entry);
  llvm::Value *lane = h.CreateZExtOrTrunc(
      h.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, left, h.getTrue()), h.getInt32Ty());
  std::vector<llvm::Value *> laneArgs;
  for (unsigned k = 1; k < helper->arg_size(); ++k) {
    llvm::Value *a = helper->getArg(k);
    laneArgs.push_back(a->getType()->isVectorTy() ? h.CreateExtractElement(a, lane) : a);
  }
  h.CreateCall(call.getFunctionType(), call.getCalledOperand(), laneArgs)
      ->setAttributes(call.getAttributes());
  llvm::Value *rest = h.CreateAnd(left, h.CreateSub(left, llvm::ConstantInt::get(bitsType, 1)));
  left->addIncoming(rest, loop);
  h.CreateCondBr(h.CreateICmpNE(rest, llvm::ConstantInt::get(bitsType, 0)), loop, done);
  h.SetInsertPoint(done);
  h.CreateRetVoid();
  std::vector<llvm::Value *> callArgs{mask};
  callArgs.insert(callArgs.end(), args.begin(), args.end());
  b.CreateCall(helper, callArgs);
}

void inlineLaneHelpers(llvm::Function &f) {
  std::vector<llvm::CallInst *> calls;
  for (llvm::BasicBlock &bb : f)
    for (llvm::Instruction &i : bb)
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(&i))
        if (call->getCalledFunction() &&
            call->getCalledFunction()->getName().starts_with(kLaneHelperPrefix))
          calls.push_back(call);
  for (llvm::CallInst *call : calls) {
    llvm::Function *helper = call->getCalledFunction();
    llvm::InlineFunctionInfo info;
    llvm::InlineFunction(*call, info);
    if (helper->use_empty())
      helper->eraseFromParent();
  }
}

bool isLaneYield(const llvm::Function *callee) {
  return callee && callee->getName() == FIBERCL_HOST_YIELD;
}

// The linearised vector reaches every block: the call goes into a function that makes
// it only if some lane is active.
void emitLaneYield(llvm::IRBuilder<> &b, llvm::CallInst &call, llvm::ArrayRef<llvm::Value *> args,
                   llvm::Value *mask) {
  llvm::Module &m = *call.getModule();
  llvm::LLVMContext &c = m.getContext();
  std::vector<llvm::Type *> params{b.getInt1Ty()};
  for (llvm::Value *a : args)
    params.push_back(a->getType());
  auto *helper = llvm::Function::Create(llvm::FunctionType::get(b.getVoidTy(), params, false),
                                        llvm::GlobalValue::InternalLinkage,
                                        kLaneHelperPrefix + std::string("yield"), m);
  helper->addFnAttr(llvm::Attribute::NoUnwind);
  auto *yield = llvm::BasicBlock::Create(c, "yield", helper);
  auto *done = llvm::BasicBlock::Create(c, "done", helper);
  llvm::IRBuilder<> h(llvm::BasicBlock::Create(c, "entry", helper, yield));
  h.CreateCondBr(helper->getArg(0), yield, done);
  h.SetInsertPoint(yield);
  std::vector<llvm::Value *> forwarded;
  for (unsigned k = 1; k < helper->arg_size(); ++k)
    forwarded.push_back(helper->getArg(k));
  h.CreateCall(call.getFunctionType(), call.getCalledOperand(), forwarded)
      ->setAttributes(call.getAttributes());
  h.CreateBr(done);
  h.SetInsertPoint(done);
  h.CreateRetVoid();
  std::vector<llvm::Value *> callArgs{b.CreateOrReduce(mask)};
  callArgs.insert(callArgs.end(), args.begin(), args.end());
  b.CreateCall(helper, callArgs);
}

} // namespace fibercl::compiler

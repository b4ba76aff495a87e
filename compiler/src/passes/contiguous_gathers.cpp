// ContiguousGathersPass (passes.hpp): a gather whose lanes read, in some order, every
// element of a contiguous run -- `buf[lid + 1 == 16 ? 0 : lid + 1]` for one 16-lane
// vector of work-items once the work-group size is a constant -- becomes one vector
// load of the run and a shuffle. x86 gathers take one load per lane (and cannot take
// their data from a store just made); the load reads nothing the gather did not.
#include "passes.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <optional>
#include <vector>

namespace fibercl::compiler {
namespace {

// The constant element indices of `pointers` (a GEP of one base and a constant vector
// of indices), or nothing.
std::optional<std::vector<int64_t>> constantIndices(llvm::Value *pointers, llvm::Value *&base,
                                                    llvm::Type *&element) {
  auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(pointers);
  if (!gep || gep->getNumIndices() != 1 || gep->getPointerOperandType()->isVectorTy())
    return std::nullopt;
  auto *indices = llvm::dyn_cast<llvm::Constant>(gep->getOperand(1));
  auto *type = llvm::dyn_cast<llvm::FixedVectorType>(gep->getOperand(1)->getType());
  if (!indices || !type)
    return std::nullopt;
  std::vector<int64_t> out;
  for (unsigned i = 0; i < type->getNumElements(); ++i) {
    auto *c = llvm::dyn_cast_or_null<llvm::ConstantInt>(indices->getAggregateElement(i));
    if (!c)
      return std::nullopt;
    out.push_back(c->getSExtValue());
  }
  base = gep->getPointerOperand();
  element = gep->getSourceElementType();
  return out;
}

bool rewrite(llvm::IntrinsicInst &gather) {
  auto *mask = llvm::dyn_cast<llvm::Constant>(gather.getArgOperand(2));
  if (!mask || !mask->isAllOnesValue())
    return false;
  llvm::Value *base = nullptr;
  llvm::Type *element = nullptr;
  auto indices = constantIndices(gather.getArgOperand(0), base, element);
  auto *result = llvm::cast<llvm::FixedVectorType>(gather.getType());
  if (!indices || element != result->getElementType())
    return false;
  auto [lo, hi] = std::minmax_element(indices->begin(), indices->end());
  int64_t first = *lo, span = *hi - *lo + 1;
  if (span > int64_t(indices->size()))
    return false;
  std::vector<bool> read(span);
  for (int64_t i : *indices)
    read[i - first] = true;
  if (std::find(read.begin(), read.end(), false) != read.end())
    return false; // the load would read an element no lane reads
  llvm::IRBuilder<> b(&gather);
  llvm::Value *start = b.CreateGEP(element, base, b.getInt64(first));
  auto align = llvm::cast<llvm::ConstantInt>(gather.getArgOperand(1))->getAlignValue();
  llvm::LoadInst *run =
      b.CreateAlignedLoad(llvm::FixedVectorType::get(element, unsigned(span)), start, align);
  run->copyMetadata(gather);
  std::vector<int> lanes;
  for (int64_t i : *indices)
    lanes.push_back(int(i - first));
  gather.replaceAllUsesWith(b.CreateShuffleVector(run, lanes));
  gather.eraseFromParent();
  return true;
}

} // namespace

llvm::PreservedAnalyses ContiguousGathersPass::run(llvm::Function &f,
                                                   llvm::FunctionAnalysisManager &) {
  std::vector<llvm::IntrinsicInst *> gathers;
  for (llvm::BasicBlock &bb : f)
    for (llvm::Instruction &i : bb)
      if (auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&i))
        if (call->getIntrinsicID() == llvm::Intrinsic::masked_gather)
          gathers.push_back(call);
  bool changed = false;
  for (llvm::IntrinsicInst *g : gathers)
    changed |= rewrite(*g);
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace fibercl::compiler

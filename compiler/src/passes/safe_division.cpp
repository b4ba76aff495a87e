// SafeIntegerDivisionPass (passes.hpp).
#include "passes.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

namespace fibercl::compiler {
namespace {

// True if no element of the constant divisor `c` is 0 (nor -1 when `isSigned`).
bool isSafeConstantDivisor(const llvm::Constant *c, bool isSigned) {
  auto safe = [&](const llvm::Constant *e) {
    auto *ci = llvm::dyn_cast_or_null<llvm::ConstantInt>(e);
    return ci && !ci->isZero() && !(isSigned && ci->isMinusOne());
  };
  if (auto *vectorType = llvm::dyn_cast<llvm::FixedVectorType>(c->getType())) {
    for (unsigned i = 0; i < vectorType->getNumElements(); ++i)
      if (!safe(c->getAggregateElement(i)))
        return false;
    return true;
  }
  return safe(c);
}

} // namespace

bool mayTrapOnDivisor(const llvm::Instruction &i) {
  unsigned opcode = i.getOpcode();
  bool isSigned = opcode == llvm::Instruction::SDiv || opcode == llvm::Instruction::SRem;
  if (!isSigned && opcode != llvm::Instruction::UDiv && opcode != llvm::Instruction::URem)
    return false;
  auto *c = llvm::dyn_cast<llvm::Constant>(i.getOperand(1));
  return !c || !isSafeConstantDivisor(c, isSigned);
}

llvm::PreservedAnalyses SafeIntegerDivisionPass::run(llvm::Module &m,
                                                     llvm::ModuleAnalysisManager &) {
  std::vector<llvm::BinaryOperator *> divisions;
  for (llvm::Function &f : m)
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &i : bb)
        if (mayTrapOnDivisor(i))
          divisions.push_back(llvm::cast<llvm::BinaryOperator>(&i));
  bool changed = false;
  for (llvm::BinaryOperator *op : divisions) {
    bool isSigned =
        op->getOpcode() == llvm::Instruction::SDiv || op->getOpcode() == llvm::Instruction::SRem;
    llvm::Value *dividend = op->getOperand(0), *divisor = op->getOperand(1);
    llvm::IRBuilder<> b(op);
    llvm::Type *type = divisor->getType();
    llvm::Value *bad = b.CreateICmpEQ(divisor, llvm::Constant::getNullValue(type));
    if (isSigned) {
      auto *min =
          llvm::ConstantInt::get(type, llvm::APInt::getSignedMinValue(type->getScalarSizeInBits()));
      llvm::Value *overflow =
          b.CreateAnd(b.CreateICmpEQ(dividend, min),
                      b.CreateICmpEQ(divisor, llvm::Constant::getAllOnesValue(type)));
      bad = b.CreateOr(bad, overflow);
    }
    op->setOperand(
        1, b.CreateSelect(bad, llvm::ConstantInt::get(type, 1), divisor, "fibercl.safe.divisor"));
    changed = true;
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace fibercl::compiler

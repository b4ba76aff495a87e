// SafeIntegerDivisionPass: integer divisions and remainders that x86 would trap on (by
// zero, and MIN / -1) get a divisor of 1 there, and keep their results elsewhere.
#include <gtest/gtest.h>
#include <llvm/Analysis/ConstantFolding.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

#include <map>
#include <optional>

#include "ir_test.hpp"
#include "passes/passes.hpp"

namespace fibercl::compiler::test {
namespace {

const char *kIR = R"(
define i32 @sdiv(i32 %a, i32 %b) {
  %r = sdiv i32 %a, %b
  ret i32 %r
}
define i32 @srem(i32 %a, i32 %b) {
  %r = srem i32 %a, %b
  ret i32 %r
}
define i32 @udiv(i32 %a, i32 %b) {
  %r = udiv i32 %a, %b
  ret i32 %r
}
define i32 @urem(i32 %a, i32 %b) {
  %r = urem i32 %a, %b
  ret i32 %r
}
define i32 @sdiv_by_seven(i32 %a) {
  %r = sdiv i32 %a, 7
  ret i32 %r
}
define i32 @udiv_by_all_ones(i32 %a) {
  %r = udiv i32 %a, -1
  ret i32 %r
}
define i32 @sdiv_by_minus_one(i32 %a) {
  %r = sdiv i32 %a, -1
  ret i32 %r
}
)";

// The value `f` (straight-line code) returns for these arguments, folded instruction
// by instruction; nullopt if some instruction does not fold to an integer (a division
// by zero folds to poison).
std::optional<int64_t> evaluate(llvm::Function &f, std::initializer_list<int32_t> args) {
  const llvm::DataLayout &dl = f.getParent()->getDataLayout();
  std::map<const llvm::Value *, llvm::Constant *> values;
  auto it = args.begin();
  for (llvm::Argument &a : f.args())
    values[&a] = llvm::ConstantInt::getSigned(a.getType(), *it++);
  for (llvm::Instruction &i : f.getEntryBlock()) {
    if (auto *ret = llvm::dyn_cast<llvm::ReturnInst>(&i)) {
      auto *c = llvm::dyn_cast_or_null<llvm::ConstantInt>(values[ret->getReturnValue()]);
      return c ? std::optional<int64_t>(c->getSExtValue()) : std::nullopt;
    }
    llvm::SmallVector<llvm::Constant *, 4> ops;
    for (llvm::Value *op : i.operands()) {
      auto *c = llvm::dyn_cast<llvm::Constant>(op);
      ops.push_back(c ? c : values[op]);
      if (!ops.back())
        return std::nullopt;
    }
    values[&i] = llvm::ConstantFoldInstOperands(&i, ops, dl);
    if (!values[&i])
      return std::nullopt;
  }
  return std::nullopt;
}

class SafeDivision : public ::testing::Test {
protected:
  void SetUp() override {
    m = parseIR(context, kIR);
    ASSERT_TRUE(m);
    PassRunner().runOnModule(*m, SafeIntegerDivisionPass());
    ASSERT_EQ(verify(*m), "");
  }
  std::optional<int64_t> call(const char *name, std::initializer_list<int32_t> args) {
    return evaluate(*m->getFunction(name), args);
  }
  // The divisor of the division `name` returns.
  llvm::Value *divisorIn(const char *name) {
    auto *ret = llvm::cast<llvm::ReturnInst>(m->getFunction(name)->getEntryBlock().getTerminator());
    return llvm::cast<llvm::BinaryOperator>(ret->getReturnValue())->getOperand(1);
  }
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> m;
};

const int32_t kMin = INT32_MIN;

TEST_F(SafeDivision, DivisionByZeroGivesTheDividend) {
  EXPECT_EQ(call("sdiv", {42, 0}), 42);
  EXPECT_EQ(call("udiv", {42, 0}), 42);
}

TEST_F(SafeDivision, RemainderByZeroIsZero) {
  EXPECT_EQ(call("srem", {42, 0}), 0);
  EXPECT_EQ(call("urem", {42, 0}), 0);
}

TEST_F(SafeDivision, MinByMinusOneGivesMin) {
  EXPECT_EQ(call("sdiv", {kMin, -1}), kMin);
  EXPECT_EQ(call("srem", {kMin, -1}), 0);
}

TEST_F(SafeDivision, OtherOperandsKeepTheirResults) {
  ASSERT_TRUE(llvm::isa<llvm::SelectInst>(divisorIn("sdiv"))) << print(*m); // guarded
  EXPECT_EQ(call("sdiv", {-7, 2}), -3);
  EXPECT_EQ(call("srem", {-7, 2}), -1);
  EXPECT_EQ(call("sdiv", {kMin, 1}), kMin);
  EXPECT_EQ(call("sdiv", {5, -1}), -5);
  EXPECT_EQ(call("udiv", {-1, 2}), 0x7fffffff);
  EXPECT_EQ(call("urem", {7, 4}), 3);
}

TEST_F(SafeDivision, ConstantDivisorsThatCannotTrapAreLeftAlone) {
  EXPECT_TRUE(llvm::isa<llvm::ConstantInt>(divisorIn("sdiv_by_seven")));
  EXPECT_TRUE(llvm::isa<llvm::ConstantInt>(divisorIn("udiv_by_all_ones"))) << print(*m);
  // sdiv by -1 overflows for MIN: guarded.
  EXPECT_TRUE(llvm::isa<llvm::SelectInst>(divisorIn("sdiv_by_minus_one"))) << print(*m);
  EXPECT_EQ(call("sdiv_by_minus_one", {kMin}), kMin);
}

} // namespace
} // namespace fibercl::compiler::test

// ContiguousGathersPass: a gather of every element of a contiguous run, in any order,
// becomes one vector load and a shuffle; a gather that skips an element of its run, is
// masked, or has indices not known at compile time stays a gather.
#include <gtest/gtest.h>

#include "ir_test.hpp"
#include "passes/passes.hpp"

#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

namespace fibercl::compiler::test {
namespace {

// `indices` and `mask` are <4 x ...> constants.
std::string gatherIR(const std::string &indices, const std::string &mask,
                     const std::string &type = "<4 x i64>") {
  return std::string(kTarget) + R"(
define <4 x i32> @f(ptr addrspace(3) %buf, <4 x i64> %var) {
  %p = getelementptr inbounds i32, ptr addrspace(3) %buf, )" +
         type + " " + indices + R"(
  %v = call <4 x i32> @llvm.masked.gather.v4i32.v4p3(<4 x ptr addrspace(3)> %p, i32 4, <4 x i1> )" +
         mask + R"(, <4 x i32> poison)
  ret <4 x i32> %v
}
declare <4 x i32> @llvm.masked.gather.v4i32.v4p3(<4 x ptr addrspace(3)>, i32, <4 x i1>, <4 x i32>)
)";
}

const char *kAll = "<i1 true, i1 true, i1 true, i1 true>";

// The gathers left in @f after the pass; `shuffle` gets the shuffle it made, if any.
unsigned gathersLeft(const std::string &ir, llvm::ShuffleVectorInst **shuffle = nullptr,
                     llvm::LoadInst **load = nullptr) {
  static llvm::LLVMContext context;
  static std::vector<std::unique_ptr<llvm::Module>> keep;
  auto m = parseIR(context, ir);
  EXPECT_TRUE(m);
  if (!m)
    return ~0u;
  PassRunner().runOnFunctions(*m, ContiguousGathersPass());
  EXPECT_EQ(verify(*m), "");
  unsigned gathers = 0;
  for (llvm::Instruction &i : llvm::instructions(*m->getFunction("f"))) {
    if (auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&i))
      gathers += call->getIntrinsicID() == llvm::Intrinsic::masked_gather;
    if (shuffle && llvm::isa<llvm::ShuffleVectorInst>(i))
      *shuffle = llvm::cast<llvm::ShuffleVectorInst>(&i);
    if (load && llvm::isa<llvm::LoadInst>(i))
      *load = llvm::cast<llvm::LoadInst>(&i);
  }
  keep.push_back(std::move(m));
  return gathers;
}

TEST(ContiguousGathers, ARotationOfARunIsALoadAndAShuffle) {
  // buf[lid + 1 == 4 ? 0 : lid + 1] for lid 0..3, starting at element 5.
  llvm::ShuffleVectorInst *shuffle = nullptr;
  llvm::LoadInst *load = nullptr;
  EXPECT_EQ(gathersLeft(gatherIR("<i64 6, i64 7, i64 8, i64 5>", kAll), &shuffle, &load), 0u);
  ASSERT_TRUE(shuffle && load);
  EXPECT_EQ(shuffle->getShuffleMask(), llvm::ArrayRef<int>({1, 2, 3, 0}));
  // The load starts at the run's first element, element 5 (20 bytes in).
  auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(load->getPointerOperand());
  ASSERT_TRUE(gep);
  EXPECT_EQ(llvm::cast<llvm::ConstantInt>(gep->getOperand(1))->getSExtValue(), 5);
  EXPECT_EQ(load->getAlign().value(), 4u);
}

TEST(ContiguousGathers, ABroadcastLoadsOneElement) {
  llvm::LoadInst *load = nullptr;
  EXPECT_EQ(gathersLeft(gatherIR("<i64 3, i64 3, i64 3, i64 3>", kAll), nullptr, &load), 0u);
  ASSERT_TRUE(load);
  EXPECT_TRUE(load->getType()->isVectorTy());
  EXPECT_EQ(llvm::cast<llvm::FixedVectorType>(load->getType())->getNumElements(), 1u);
}

TEST(ContiguousGathers, GathersThatWouldReadMoreStayGathers) {
  // Element 2 of the run 0..4 is read by no lane: a load of the run could fault on it.
  EXPECT_EQ(gathersLeft(gatherIR("<i64 0, i64 1, i64 3, i64 4>", kAll)), 1u);
  // Masked lanes do not read.
  EXPECT_EQ(gathersLeft(
                gatherIR("<i64 1, i64 2, i64 3, i64 0>", "<i1 true, i1 false, i1 true, i1 true>")),
            1u);
  // Indices known only at run time.
  EXPECT_EQ(gathersLeft(gatherIR("%var", kAll)), 1u);
}

} // namespace
} // namespace fibercl::compiler::test

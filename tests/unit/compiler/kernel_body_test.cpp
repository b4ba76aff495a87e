// KernelBodyPass: every kernel K gets K.fibercl.body -- K's parameters, then ctx and
// the work-item's x, y, z -- that calls K; what helps later passes (restrict, byval)
// is carried over, and functions that are not kernels get no body.
#include <gtest/gtest.h>
#include <llvm/IR/Instructions.h>

#include "ir_test.hpp"
#include "passes/passes.hpp"

namespace fibercl::compiler::test {
namespace {

const char *kIR = R"(
%struct.S = type { i32, i32 }

define spir_kernel void @k(ptr addrspace(1) noalias %out, ptr byval(%struct.S) %s, i32 %n) {
  ret void
}

define spir_func void @helper(ptr addrspace(1) %out) {
  ret void
}
)";

class KernelBody : public ::testing::Test {
protected:
  void SetUp() override {
    m = parseIR(context, kIR);
    ASSERT_TRUE(m);
    PassRunner().runOnModule(*m, KernelBodyPass());
    ASSERT_EQ(verify(*m), "");
  }
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> m;
};

TEST_F(KernelBody, KernelGetsABodyTakingTheWorkItemCoordinates) {
  llvm::Function *body = findBody(*m, "k");
  ASSERT_TRUE(body) << print(*m);
  EXPECT_EQ(body->getName(), "k.fibercl.body");
  ASSERT_EQ(body->arg_size(), 7u);
  EXPECT_TRUE(body->getArg(3)->getType()->isPointerTy());
  for (unsigned i = 4; i < 7; ++i)
    EXPECT_TRUE(body->getArg(i)->getType()->isIntegerTy(32));
  EXPECT_EQ(body->getArg(4)->getName(), "fibercl.x");
  EXPECT_EQ(body->getFnAttribute(kKernelAttr).getValueAsString(), "k");
  // It calls the kernel with the kernel's own arguments.
  std::vector<llvm::CallBase *> calls = callsTo(*body, "k");
  ASSERT_EQ(calls.size(), 1u) << print(*m);
  for (unsigned i = 0; i < 3; ++i)
    EXPECT_EQ(calls[0]->getArgOperand(i), body->getArg(i));
  EXPECT_EQ(calls[0]->getCallingConv(), llvm::CallingConv::SPIR_KERNEL);
}

TEST_F(KernelBody, RestrictAndByValAreKept) {
  llvm::Function &body = *findBody(*m, "k");
  EXPECT_TRUE(body.hasParamAttribute(0, llvm::Attribute::NoAlias));
  EXPECT_TRUE(body.getAttributes().hasParamAttr(1, kByValAttr));
  EXPECT_FALSE(body.getAttributes().hasParamAttr(2, kByValAttr));
}

TEST_F(KernelBody, OnlyKernelsGetBodies) {
  EXPECT_FALSE(findBody(*m, "helper"));
  unsigned bodies = 0;
  for (llvm::Function &f : *m)
    bodies += f.hasFnAttribute(kKernelAttr);
  EXPECT_EQ(bodies, 1u);
}

} // namespace
} // namespace fibercl::compiler::test

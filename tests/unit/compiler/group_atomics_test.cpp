// GroupAtomicsPass: atomics on __local and private memory become plain operations (a
// group's work-items run one at a time on one thread); atomics on global memory stay.
#include <gtest/gtest.h>
#include <llvm/IR/Instructions.h>

#include "ir_test.hpp"
#include "passes/passes.hpp"

namespace fibercl::compiler::test {
namespace {

const char *kIR = R"(
@counter = internal addrspace(3) global i32 0, align 4

define void @k.fibercl.body(ptr addrspace(1) %g, ptr %ctx, i32 %x, i32 %y, i32 %z) #0 {
  %priv = alloca i32, align 4
  %a = atomicrmw add ptr addrspace(3) @counter, i32 1 seq_cst, align 4
  %b = cmpxchg ptr addrspace(3) @counter, i32 0, i32 1 seq_cst seq_cst, align 4
  %c = load atomic i32, ptr addrspace(3) @counter acquire, align 4
  store atomic i32 %c, ptr addrspace(3) @counter release, align 4
  %d = atomicrmw xchg ptr %priv, i32 %x monotonic, align 4
  %e = atomicrmw add ptr addrspace(1) %g, i32 1 seq_cst, align 4
  ret void
}

; Not a kernel body: not this pass's business.
define void @helper(ptr addrspace(3) %l) {
  %a = atomicrmw add ptr addrspace(3) %l, i32 1 seq_cst, align 4
  ret void
}

attributes #0 = { "fibercl-kernel"="k" }
)";

unsigned countAtomics(const llvm::Function &f) {
  unsigned n = 0;
  for (const llvm::BasicBlock &bb : f)
    for (const llvm::Instruction &i : bb)
      n += i.isAtomic();
  return n;
}

TEST(GroupAtomics, OnlyGlobalAtomicsStayAtomic) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> m = parseIR(context, kIR);
  ASSERT_TRUE(m);
  PassRunner().runOnModule(*m, GroupAtomicsPass());
  ASSERT_EQ(verify(*m), "");
  llvm::Function &body = *findBody(*m, "k");
  ASSERT_EQ(countAtomics(body), 1u) << print(*m);
  EXPECT_EQ(countOpcode(body, llvm::Instruction::AtomicRMW), 1u) << print(*m);
  for (const llvm::BasicBlock &bb : body)
    for (const llvm::Instruction &i : bb)
      if (i.isAtomic()) {
        EXPECT_EQ(llvm::cast<llvm::AtomicRMWInst>(i).getPointerAddressSpace(), kGlobalAddressSpace);
      }
  // A lowered read-modify-write carries a value from one work-item to the next.
  EXPECT_TRUE(body.hasFnAttribute(kSerialItemsAttr));
  EXPECT_EQ(countAtomics(*m->getFunction("helper")), 1u);
}

} // namespace
} // namespace fibercl::compiler::test

// AddressSpaceAliasPass: accesses to __global/__constant memory, to __local memory and
// to the barrier regions' frames (per-work-item arrays, uniform values) are known not
// to alias each other; private and generic accesses may still alias anything; in
// round-scope mode only the two copies of the uniform values are told apart.
#include <gtest/gtest.h>
#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/Analysis/MemoryLocation.h>
#include <llvm/Analysis/ScopedNoAliasAA.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Instructions.h>
#include <llvm/TargetParser/Triple.h>

#include "ir_test.hpp"
#include "passes/passes.hpp"

namespace fibercl::compiler::test {
namespace {

const char *kIR = R"(
define void @__fibercl_wg_k(ptr addrspace(1) %g, ptr addrspace(3) %l, ptr addrspace(2) %c, ptr %priv, ptr addrspace(4) %gen, ptr %frames) {
  %global = load i32, ptr addrspace(1) %g, align 4
  store i32 %global, ptr addrspace(3) %l, align 4
  %constant = load i32, ptr addrspace(2) %c, align 4
  store i32 %constant, ptr %priv, align 4
  %generic = load i32, ptr addrspace(4) %gen, align 4
  %items = load i32, ptr %frames, align 4, !fibercl.frame-slot !0
  store i32 %items, ptr %frames, align 4, !fibercl.frame-slot !1
  %in = load i32, ptr %frames, align 4, !fibercl.frame-slot !2
  ret void
}

!0 = !{!"items"}
!1 = !{!"uniform.out"}
!2 = !{!"uniform.in"}
)";

class AddressSpaceAlias : public ::testing::Test {
protected:
  void SetUp() override {
    m = parseIR(context, kIR);
    ASSERT_TRUE(m);
  }
  void run(bool roundScopes) {
    PassRunner().runOnModule(*m, AddressSpaceAliasPass(roundScopes));
    ASSERT_EQ(verify(*m), "");
  }
  // The memory accesses of the function, in order: 0 global load, 1 local store,
  // 2 constant load, 3 private store, 4 generic load, 5 items load, 6 uniform.out
  // store, 7 uniform.in load.
  std::vector<llvm::Instruction *> accesses() {
    std::vector<llvm::Instruction *> found;
    for (llvm::Instruction &i : m->getFunction("__fibercl_wg_k")->getEntryBlock())
      if (i.mayReadOrWriteMemory())
        found.push_back(&i);
    return found;
  }
  // Does scoped no-alias metadata alone say that `a` and `b` never overlap?
  bool disjoint(size_t a, size_t b) {
    std::vector<llvm::Instruction *> all = accesses();
    llvm::TargetLibraryInfoImpl tlii{llvm::Triple(m->getTargetTriple())};
    llvm::TargetLibraryInfo tli(tlii);
    llvm::AAResults aa(tli);
    llvm::ScopedNoAliasAAResult scoped;
    aa.addAAResult(scoped);
    return aa.isNoAlias(llvm::MemoryLocation::get(all[a]), llvm::MemoryLocation::get(all[b]));
  }
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> m;
};

TEST_F(AddressSpaceAlias, NothingIsKnownWithoutThePass) {
  EXPECT_FALSE(disjoint(0, 1));
  EXPECT_FALSE(disjoint(5, 6));
}

TEST_F(AddressSpaceAlias, GlobalLocalAndFramesNeverOverlap) {
  run(false);
  EXPECT_TRUE(disjoint(0, 1)) << print(*m); // global, local
  EXPECT_TRUE(disjoint(2, 1));              // constant, local
  EXPECT_TRUE(disjoint(0, 5));              // global, items
  EXPECT_TRUE(disjoint(1, 6));              // local, uniform
  EXPECT_TRUE(disjoint(5, 6));              // items, uniform
  // Private and generic pointers may point anywhere.
  EXPECT_FALSE(disjoint(0, 3));
  EXPECT_FALSE(disjoint(1, 3));
  EXPECT_FALSE(disjoint(4, 1));
  EXPECT_FALSE(disjoint(4, 0));
  // Both copies of the uniform values are one kind here (they swap every round).
  EXPECT_FALSE(disjoint(6, 7));
}

TEST_F(AddressSpaceAlias, RoundScopesTellTheUniformCopiesApart) {
  run(true);
  EXPECT_TRUE(disjoint(6, 7)) << print(*m);
  EXPECT_FALSE(disjoint(0, 1)); // tagged after inlining, in the other mode
  EXPECT_FALSE(disjoint(5, 6));
}

} // namespace
} // namespace fibercl::compiler::test

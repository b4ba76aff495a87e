// WorkItemRangeSplitPass: a work-item loop whose body is guarded by `x < s` (or `x >= s`)
// becomes two loops, the guard gone from both (a constant in each); other loops are
// left alone.
#include <gtest/gtest.h>
#include <llvm/Analysis/CFG.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>

#include "ir_test.hpp"
#include "passes/passes.hpp"

namespace fibercl::compiler::test {
namespace {

// for (x = 0; x < n; ++x) { if (x < s) out[x] = 1; out2[x] = 2; } -- as a work-item loop
// (fibercl.work_item_loop) in a work-group function, the same with `x >= s`, and the
// first as a plain loop.
const char *kIR = R"(
define void @__fibercl_wg_k(ptr %out, ptr %out2, i32 %s, i32 %n) {
entry:
  %any = icmp ne i32 %n, 0
  br i1 %any, label %preheader, label %end
preheader:
  br label %loop
loop:
  %x = phi i32 [ 0, %preheader ], [ %x.next, %latch ]
  %active = icmp ult i32 %x, %s
  br i1 %active, label %then, label %latch
then:
  %p = getelementptr inbounds i32, ptr %out, i32 %x
  store i32 1, ptr %p, align 4
  br label %latch
latch:
  %q = getelementptr inbounds i32, ptr %out2, i32 %x
  store i32 2, ptr %q, align 4
  %x.next = add nuw i32 %x, 1
  %last = icmp eq i32 %x.next, %n
  br i1 %last, label %exit, label %loop, !llvm.loop !0
exit:
  br label %end
end:
  ret void
}

define void @__fibercl_wg_ge(ptr %out, ptr %out2, i32 %s, i32 %n) {
entry:
  %any = icmp ne i32 %n, 0
  br i1 %any, label %preheader, label %end
preheader:
  br label %loop
loop:
  %x = phi i32 [ 0, %preheader ], [ %x.next, %latch ]
  %active = icmp uge i32 %x, %s
  br i1 %active, label %then, label %latch
then:
  %p = getelementptr inbounds i32, ptr %out, i32 %x
  store i32 1, ptr %p, align 4
  br label %latch
latch:
  %q = getelementptr inbounds i32, ptr %out2, i32 %x
  store i32 2, ptr %q, align 4
  %x.next = add nuw i32 %x, 1
  %last = icmp eq i32 %x.next, %n
  br i1 %last, label %exit, label %loop, !llvm.loop !2
exit:
  br label %end
end:
  ret void
}

define void @__fibercl_wg_plain(ptr %out, ptr %out2, i32 %s, i32 %n) {
entry:
  %any = icmp ne i32 %n, 0
  br i1 %any, label %preheader, label %end
preheader:
  br label %loop
loop:
  %x = phi i32 [ 0, %preheader ], [ %x.next, %latch ]
  %active = icmp ult i32 %x, %s
  br i1 %active, label %then, label %latch
then:
  %p = getelementptr inbounds i32, ptr %out, i32 %x
  store i32 1, ptr %p, align 4
  br label %latch
latch:
  %q = getelementptr inbounds i32, ptr %out2, i32 %x
  store i32 2, ptr %q, align 4
  %x.next = add nuw i32 %x, 1
  %last = icmp eq i32 %x.next, %n
  br i1 %last, label %exit, label %loop
exit:
  br label %end
end:
  ret void
}

!0 = distinct !{!0, !1}
!1 = !{!"fibercl.work_item_loop"}
!2 = distinct !{!2, !1}
)";

struct LoopShape {
  unsigned loops = 0;
  unsigned guardedBranches = 0; // conditional branches in a loop, other than a latch's
  unsigned stores = 0;
  // Of the stores to `out` (the guarded ones): how many are in the loop that runs first
  // (the one from which the other is reached), and in the one that runs second.
  unsigned guardedStoresFirst = 0, guardedStoresSecond = 0;
};

LoopShape shapeOf(llvm::Function &f) {
  llvm::DominatorTree dt(f);
  llvm::LoopInfo li(dt);
  LoopShape shape;
  llvm::SmallVector<llvm::Loop *, 2> loops(li.begin(), li.end());
  for (llvm::Loop *loop : loops) {
    ++shape.loops;
    bool first = loops.size() == 2 &&
                 llvm::isPotentiallyReachable(loop->getHeader(),
                                              loops[loops[0] == loop]->getHeader(), nullptr, &dt);
    for (llvm::BasicBlock *bb : loop->blocks()) {
      auto *br = llvm::dyn_cast<llvm::BranchInst>(bb->getTerminator());
      shape.guardedBranches += br && br->isConditional() && !loop->isLoopLatch(bb);
      for (llvm::Instruction &i : *bb)
        if (auto *s = llvm::dyn_cast<llvm::StoreInst>(&i)) {
          ++shape.stores;
          if (llvm::getUnderlyingObject(s->getPointerOperand()) == f.getArg(0))
            ++(first ? shape.guardedStoresFirst : shape.guardedStoresSecond);
        }
    }
  }
  return shape;
}

class RangeSplit : public ::testing::Test {
protected:
  void SetUp() override {
    m = parseIR(context, kIR);
    ASSERT_TRUE(m);
    PassRunner().runOnFunctions(*m, WorkItemRangeSplitPass());
    ASSERT_EQ(verify(*m), "");
  }
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> m;
};

TEST_F(RangeSplit, WorkItemLoopIsSplitWhereTheGuardChanges) {
  LoopShape shape = shapeOf(*m->getFunction("__fibercl_wg_k"));
  EXPECT_EQ(shape.loops, 2u) << print(*m);
  EXPECT_EQ(shape.guardedBranches, 0u) << print(*m);
  // out[x] = 1 in the first loop only; out2[x] = 2 in both.
  EXPECT_EQ(shape.stores, 3u) << print(*m);
  EXPECT_EQ(shape.guardedStoresFirst, 1u) << print(*m);
  // A loop that is not a work-item loop is not duplicated.
  LoopShape plain = shapeOf(*m->getFunction("__fibercl_wg_plain"));
  EXPECT_EQ(plain.loops, 1u);
  EXPECT_EQ(plain.guardedBranches, 1u);
  EXPECT_EQ(plain.stores, 2u);
}

TEST_F(RangeSplit, GuardFalseFirstIsSplitToo) {
  LoopShape shape = shapeOf(*m->getFunction("__fibercl_wg_ge"));
  EXPECT_EQ(shape.loops, 2u) << print(*m);
  EXPECT_EQ(shape.guardedBranches, 0u) << print(*m);
  EXPECT_EQ(shape.stores, 3u) << print(*m);
  // out[x] = 1 in the second loop only.
  EXPECT_EQ(shape.guardedStoresFirst, 0u) << print(*m);
  EXPECT_EQ(shape.guardedStoresSecond, 1u) << print(*m);
}

} // namespace
} // namespace fibercl::compiler::test

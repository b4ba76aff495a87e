// WorkItemDivergence: in a work-item loop's body, values computed from the work-item's
// index, phis where a branch on it meets again and values leaving a loop it may leave
// at different iterations differ between work-items ("varying"); the rest, inner
// loop counters included, is the same for every work-item that computes it.
#include <gtest/gtest.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/Dominators.h>
#include <llvm/Transforms/Utils/LoopUtils.h>

#include "ir_test.hpp"
#include "passes/passes.hpp"
#include "passes/work_item_divergence.hpp"

namespace fibercl::compiler::test {
namespace {

const char *kIR = R"(
define void @__fibercl_wg_k(ptr %in, ptr %out, i32 %n, i32 %u) {
entry:
  br label %items
items:
  %x = phi i32 [ 0, %entry ], [ %x.next, %latch ]
  %uniform = add i32 %u, 1
  %varying = add i32 %x, 1
  %shared = load i32, ptr %in, align 4
  %c = icmp slt i32 %x, %u
  br i1 %c, label %then, label %join
then:
  br label %join
join:
  %merged = phi i32 [ 1, %items ], [ 2, %then ]
  %cu = icmp slt i32 %u, 3
  br i1 %cu, label %then2, label %join2
then2:
  br label %join2
join2:
  %merged.uniform = phi i32 [ 1, %join ], [ 2, %then2 ]
  br label %inner
inner:
  %i = phi i32 [ 0, %join2 ], [ %i.next, %inner ]
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %x
  br i1 %more, label %inner, label %inner.exit
inner.exit:
  %i.left = phi i32 [ %i.next, %inner ]
  br label %inner2
inner2:
  %j = phi i32 [ 0, %inner.exit ], [ %j.next, %inner2 ]
  %j.next = add i32 %j, 1
  %more2 = icmp slt i32 %j.next, %u
  br i1 %more2, label %inner2, label %inner2.exit
inner2.exit:
  %j.left = phi i32 [ %j.next, %inner2 ]
  br label %latch
latch:
  %x.next = add nuw i32 %x, 1
  %again = icmp ult i32 %x.next, %n
  br i1 %again, label %items, label %done, !llvm.loop !0
done:
  ret void
}

!0 = distinct !{!0, !1}
!1 = !{!"fibercl.work_item_loop"}
)";

class Divergence : public ::testing::Test {
protected:
  void SetUp() override {
    m = parseIR(context, kIR);
    ASSERT_TRUE(m);
    f = m->getFunction("__fibercl_wg_k");
    dt = std::make_unique<llvm::DominatorTree>(*f);
    loops = std::make_unique<llvm::LoopInfo>(*dt);
    postDominators = std::make_unique<llvm::PostDominatorTree>(*f);
    for (llvm::Loop *l : loops->getLoopsInPreorder())
      if (llvm::findOptionMDForLoop(l, kWorkItemLoopMetadata))
        itemLoop = l;
    ASSERT_TRUE(itemLoop);
    divergence = std::make_unique<WorkItemDivergence>(*itemLoop, *loops, *postDominators);
  }
  bool varying(const char *name) {
    for (llvm::BasicBlock &bb : *f)
      for (llvm::Instruction &i : bb)
        if (i.getName() == name)
          return divergence->isVarying(&i);
    ADD_FAILURE() << "no value " << name;
    return false;
  }
  llvm::Loop *loopAt(const char *header) {
    for (llvm::BasicBlock &bb : *f)
      if (bb.getName() == header)
        return loops->getLoopFor(&bb);
    return nullptr;
  }
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> m;
  llvm::Function *f = nullptr;
  std::unique_ptr<llvm::DominatorTree> dt;
  std::unique_ptr<llvm::LoopInfo> loops;
  std::unique_ptr<llvm::PostDominatorTree> postDominators;
  llvm::Loop *itemLoop = nullptr;
  std::unique_ptr<WorkItemDivergence> divergence;
};

TEST_F(Divergence, WhatDependsOnTheWorkItemVaries) {
  for (const char *v : {"x", "varying", "c", "merged", "more", "i.left"})
    EXPECT_TRUE(varying(v)) << v;
  EXPECT_TRUE(divergence->hasDivergence());
}

TEST_F(Divergence, TheRestIsUniform) {
  // Every work-item still in the inner loop is at the same iteration: its counter is
  // uniform, only the value it leaves with is not.
  for (const char *v :
       {"uniform", "shared", "cu", "merged.uniform", "i", "i.next", "j", "more2", "j.left"})
    EXPECT_FALSE(varying(v)) << v;
}

TEST_F(Divergence, LoopsLeftAtDifferentIterationsAreDivergent) {
  EXPECT_TRUE(divergence->isDivergent(loopAt("inner")));
  EXPECT_FALSE(divergence->isDivergent(loopAt("inner2")));
}

} // namespace
} // namespace fibercl::compiler::test

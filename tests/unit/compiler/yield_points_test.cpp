// YieldPointsPass: a loop that waits for another work-group gets a yield point whose
// site is marked waiting, and its kernel is marked as one that may block; a loop that
// ends by itself does not.
#include <gtest/gtest.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

#include <cstddef>

#include "fibercl/kernel_abi.h"
#include "ir_test.hpp"
#include "passes/passes.hpp"

namespace fibercl::compiler::test {
namespace {

// Kernel bodies as the pass sees them (after WorkItemMarkersPass, SROA and
// LoopSimplify): the kernel's parameters, then ctx and the work-item's x, y, z.
const char *kIR = R"(
declare i32 @__fibercl_host_pipe_packets(ptr addrspace(1), i32)

; while (atomic_load(flag) == 0) {}
define void @spin.fibercl.body(ptr addrspace(1) %flag, ptr %ctx, i32 %x, i32 %y, i32 %z) #0 {
entry:
  br label %wait
wait:
  %v = load atomic i32, ptr addrspace(1) %flag acquire, align 4
  %set = icmp ne i32 %v, 0
  br i1 %set, label %done, label %wait
done:
  ret void
}

; for (i = 0; i < 4000; ++i) if (atomic_load(flag)) break;
define void @bounded.fibercl.body(ptr addrspace(1) %flag, ptr %ctx, i32 %x, i32 %y, i32 %z) #1 {
entry:
  br label %poll
poll:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %v = load atomic i32, ptr addrspace(1) %flag acquire, align 4
  %set = icmp ne i32 %v, 0
  br i1 %set, label %done, label %latch
latch:
  %i.next = add nuw nsw i32 %i, 1
  %more = icmp ult i32 %i.next, 4000
  br i1 %more, label %poll, label %done
done:
  ret void
}

; while (the pipe is empty) {}: no atomic of its own, so a poll on the back-edge.
define void @pipe.fibercl.body(ptr addrspace(1) %p, ptr %ctx, i32 %x, i32 %y, i32 %z) #2 {
entry:
  br label %wait
wait:
  %n = call i32 @__fibercl_host_pipe_packets(ptr addrspace(1) %p, i32 0)
  %empty = icmp eq i32 %n, 0
  br i1 %empty, label %wait, label %done
done:
  ret void
}

; A loop over private memory only: nothing another group could see.
define void @private.fibercl.body(ptr addrspace(1) %out, ptr %ctx, i32 %x, i32 %y, i32 %z) #3 {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %i.next = add i32 %i, %x
  %more = icmp ne i32 %i.next, 1000
  br i1 %more, label %loop, label %done
done:
  store i32 %i.next, ptr addrspace(1) %out, align 4
  ret void
}

; int tries = 0; while (atomic_load(flag) == 0) ++tries; *out = tries;
define void @tries.fibercl.body(ptr addrspace(1) %flag, ptr addrspace(1) %out, ptr %ctx, i32 %x, i32 %y, i32 %z) #4 {
entry:
  br label %wait
wait:
  %i = phi i32 [ 0, %entry ], [ %i.next, %wait ]
  %v = load atomic i32, ptr addrspace(1) %flag acquire, align 4
  %i.next = add i32 %i, 1
  %set = icmp ne i32 %v, 0
  br i1 %set, label %done, label %wait
done:
  store i32 %i.next, ptr addrspace(1) %out, align 4
  ret void
}

; int n = 0; while (atomic_load(flag) == 0) if (++n == 4) atomic_store(flag, 1);
define void @counted.fibercl.body(ptr addrspace(1) %flag, ptr %ctx, i32 %x, i32 %y, i32 %z) #5 {
entry:
  br label %wait
wait:
  %n = phi i32 [ 0, %entry ], [ %n.next, %latch ]
  %v = load atomic i32, ptr addrspace(1) %flag acquire, align 4
  %set = icmp ne i32 %v, 0
  br i1 %set, label %done, label %body
body:
  %n.next = add i32 %n, 1
  %fourth = icmp eq i32 %n.next, 4
  br i1 %fourth, label %release, label %latch
release:
  store atomic i32 1, ptr addrspace(1) %flag release, align 4
  br label %latch
latch:
  br label %wait
done:
  ret void
}

; if (x == 0) atomic_inc(counter); barrier(CLK_GLOBAL_MEM_FENCE);
define void @barrier.fibercl.body(ptr addrspace(1) %counter, ptr %ctx, i32 %x, i32 %y, i32 %z) #6 {
entry:
  %first = icmp eq i32 %x, 0
  br i1 %first, label %inc, label %sync
inc:
  %old = atomicrmw add ptr addrspace(1) %counter, i32 1 seq_cst, align 4
  br label %sync
sync:
  fence syncscope("workgroup") release
  call void @__fibercl_host_barrier(ptr %ctx, i32 3, i32 2)
  fence syncscope("workgroup") acquire
  ret void
}

; out[x] = x; while (atomic_load(flag) == 0) out[x + 1] = 7;
define void @written.fibercl.body(ptr addrspace(1) %flag, ptr addrspace(1) %out, ptr %ctx, i32 %x, i32 %y, i32 %z) #7 {
entry:
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %x
  store i32 %x, ptr addrspace(1) %p, align 4
  %x1 = add i32 %x, 1
  %q = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %x1
  br label %wait
wait:
  %v = load atomic i32, ptr addrspace(1) %flag acquire, align 4
  %set = icmp ne i32 %v, 0
  br i1 %set, label %done, label %again
again:
  store i32 7, ptr addrspace(1) %q, align 4
  br label %wait
done:
  ret void
}

declare void @__fibercl_host_barrier(ptr, i32, i32)

attributes #0 = { "fibercl-kernel"="spin" }
attributes #1 = { "fibercl-kernel"="bounded" }
attributes #2 = { "fibercl-kernel"="pipe" }
attributes #3 = { "fibercl-kernel"="private" }
attributes #4 = { "fibercl-kernel"="tries" }
attributes #5 = { "fibercl-kernel"="counted" }
attributes #6 = { "fibercl-kernel"="barrier" }
attributes #7 = { "fibercl-kernel"="written" }
)";

class YieldPoints : public ::testing::Test {
protected:
  void SetUp() override {
    m = parseIR(context, kIR);
    ASSERT_TRUE(m);
    PassRunner().runOnModule(*m, YieldPointsPass(sites));
    ASSERT_EQ(verify(*m), "");
  }
  llvm::Function &body(const char *kernel) { return *findBody(*m, kernel); }
  // The `site` arguments of the body's calls of FIBERCL_HOST_YIELD.
  std::vector<uint32_t> yieldSites(const char *kernel) {
    std::vector<uint32_t> found;
    for (llvm::BasicBlock &bb : body(kernel))
      for (llvm::Instruction &i : bb)
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(&i))
          if (call->getCalledFunction() &&
              call->getCalledFunction()->getName() == FIBERCL_HOST_YIELD)
            found.push_back(
                uint32_t(llvm::cast<llvm::ConstantInt>(call->getArgOperand(1))->getZExtValue()));
    return found;
  }
  // The failed-await check's carried fingerprint, in the header of a loop that may spin.
  bool hasAwaitCheck(const char *kernel) {
    for (llvm::BasicBlock &bb : body(kernel))
      for (llvm::Instruction &i : bb)
        if (i.getName().starts_with("await.prev"))
          return true;
    return false;
  }
  // Is `value` (an i32 of the body) hashed into an await check (widened to i64)?
  bool hashed(const char *kernel, const char *value) {
    for (llvm::BasicBlock &bb : body(kernel))
      for (llvm::Instruction &i : bb)
        if (i.getName() == value)
          for (const llvm::User *u : i.users())
            if (llvm::isa<llvm::ZExtInst>(u))
              return true;
    return false;
  }
  // Updates of the yield state's progress counter, and of them, those that add
  // whether a store changed memory (not a constant).
  unsigned progressUpdates(const char *kernel, unsigned *ofChanges = nullptr) {
    unsigned n = 0, changes = 0;
    const llvm::DataLayout &dl = m->getDataLayout();
    for (llvm::BasicBlock &bb : body(kernel))
      for (llvm::Instruction &i : bb)
        if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&i)) {
          llvm::APInt offset(64, 0);
          llvm::Value *base =
              store->getPointerOperand()->stripAndAccumulateConstantOffsets(dl, offset, true);
          if (!store->getValueOperand()->getType()->isIntegerTy(64) ||
              base == store->getPointerOperand() || offset != offsetof(fcl_yield_state, progress))
            continue;
          ++n;
          auto *add = llvm::dyn_cast<llvm::BinaryOperator>(store->getValueOperand());
          changes += add && !llvm::isa<llvm::Constant>(add->getOperand(1));
        }
    if (ofChanges)
      *ofChanges = changes;
    return n;
  }
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> m;
  SiteTable sites;
};

TEST_F(YieldPoints, SpinLoopWaitsAtItsAtomic) {
  std::vector<uint32_t> calls = yieldSites("spin");
  ASSERT_EQ(calls.size(), 1u) << print(*m);
  EXPECT_TRUE(calls[0] & FIBERCL_SITE_WAITING);
  ASSERT_EQ(sites.byKernel["spin"].size(), 1u);
  EXPECT_EQ(sites.byKernel["spin"][0].kind, SiteInfo::Kind::AtomicRead);
  EXPECT_TRUE(sites.byKernel["spin"][0].waiting);
  EXPECT_TRUE(body("spin").hasFnAttribute(kMayBlockAttr));
  EXPECT_TRUE(body("spin").hasFnAttribute(kYieldsAttr));
}

TEST_F(YieldPoints, BoundedPollDoesNotWait) {
  std::vector<uint32_t> calls = yieldSites("bounded");
  ASSERT_EQ(calls.size(), 1u) << print(*m); // after its atomic, as after any atomic
  EXPECT_FALSE(calls[0] & FIBERCL_SITE_WAITING);
  ASSERT_EQ(sites.byKernel["bounded"].size(), 1u);
  EXPECT_FALSE(sites.byKernel["bounded"][0].waiting);
  EXPECT_FALSE(body("bounded").hasFnAttribute(kMayBlockAttr));
  EXPECT_TRUE(body("bounded").hasFnAttribute(kYieldsAttr));
}

TEST_F(YieldPoints, LoopWithoutYieldPointGetsAPollOnItsBackEdge) {
  std::vector<uint32_t> calls = yieldSites("pipe");
  ASSERT_EQ(calls.size(), 1u) << print(*m);
  EXPECT_TRUE(calls[0] & FIBERCL_SITE_WAITING);
  ASSERT_EQ(sites.byKernel["pipe"].size(), 1u);
  EXPECT_EQ(sites.byKernel["pipe"][0].kind, SiteInfo::Kind::LoopPoll);
  EXPECT_TRUE(body("pipe").hasFnAttribute(kMayBlockAttr));
}

TEST_F(YieldPoints, OnlyKernelsThatSeeOtherGroupsGetThem) {
  EXPECT_TRUE(yieldSites("private").empty()) << print(*m);
  EXPECT_FALSE(body("private").hasFnAttribute(kYieldsAttr));
  EXPECT_FALSE(body("private").hasFnAttribute(kMayBlockAttr));
  EXPECT_FALSE(yieldSites("bounded").empty());
}

TEST_F(YieldPoints, LoopsThatMaySpinCheckForFailedAwaits) {
  EXPECT_TRUE(hasAwaitCheck("spin")) << print(*m);
  EXPECT_TRUE(hasAwaitCheck("pipe"));
  EXPECT_FALSE(hasAwaitCheck("bounded")); // ends by itself: never waits
  EXPECT_FALSE(hasAwaitCheck("private"));
}

TEST_F(YieldPoints, StateIsWhatTheLoopsBranchesDependOn) {
  // A count of tries used only after the loop changes nothing the loop does: a spin
  // that counts its tries still waits. A count a branch of the loop tests is state.
  EXPECT_FALSE(hashed("tries", "i.next")) << print(*m);
  EXPECT_TRUE(hashed("counted", "n.next")) << print(*m);
}

// A barrier's decision is a marker after the barrier and its own fence (lowered by
// WorkGroupFunctionPass: barrier_decisions.hpp), not a yield point of its own.
// The scheduler judges a group at the yield points of its waiting loops: a store
// before the loop is work like any other code there, counted once as the loop is
// entered; a store inside the loop counts only if it changed memory. A kernel with
// yield points does not keep its work-items in order (its yield points are calls).
TEST_F(YieldPoints, ProgressIsCountedOnEnteringAWaitAndByWritesInsideIt) {
  unsigned ofChanges = 0;
  EXPECT_EQ(progressUpdates("written", &ofChanges), 2u) << print(*m);
  EXPECT_EQ(ofChanges, 1u) << print(*m);
  // Entering the spin of `spin` (no store anywhere) is counted too.
  EXPECT_EQ(progressUpdates("spin"), 1u);
  // `barrier` waits nowhere: only its atomic counts (whether it changed memory).
  EXPECT_EQ(progressUpdates("barrier", &ofChanges), 1u);
  EXPECT_EQ(ofChanges, 1u);
  for (const char *kernel : {"written", "spin", "barrier"})
    EXPECT_FALSE(body(kernel).hasFnAttribute(kSerialItemsAttr)) << kernel;
}

TEST_F(YieldPoints, BarrierGetsADecisionMarkerAfterItsFence) {
  std::vector<llvm::CallInst *> markers;
  for (llvm::BasicBlock &bb : body("barrier"))
    for (llvm::Instruction &i : bb)
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(&i))
        if (call->getCalledFunction() &&
            call->getCalledFunction()->getName() == "__fibercl_barrier_decision")
          markers.push_back(call);
  ASSERT_EQ(markers.size(), 1u) << print(*m);
  EXPECT_EQ(llvm::cast<llvm::ConstantInt>(markers[0]->getArgOperand(2))->getZExtValue(), 3u);
  const llvm::Instruction *fence = markers[0]->getPrevNonDebugInstruction();
  ASSERT_TRUE(fence && llvm::isa<llvm::FenceInst>(fence)) << print(*m);
  EXPECT_TRUE(isHostBarrier(fence->getPrevNonDebugInstruction())) << print(*m);
  // The atomic keeps its own yield point.
  EXPECT_EQ(yieldSites("barrier").size(), 1u) << print(*m);
}

} // namespace
} // namespace fibercl::compiler::test

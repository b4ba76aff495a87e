// planBarrierRegions: a kernel body is split at its barriers into one function per
// region, each running one work-item from its start to the next barrier; what lives
// across a barrier is stored to the work-item's slots (once per group when it is the
// same for every work-item), recomputed when it is cheap, and private arrays live
// across a barrier move into the frames. What it cannot split stays on fibers.
#include <gtest/gtest.h>
#include <llvm/IR/Instructions.h>

#include <cstdlib>
#include <optional>
#include <set>
#include <string>

#include "fibercl/kernel_abi.h"
#include "ir_test.hpp"
#include "passes/barrier_regions.hpp"
#include "passes/passes.hpp"

namespace fibercl::compiler::test {
namespace {

// Kernel bodies as WorkItemMarkersPass and SROA leave them (barrier() is fence; host
// barrier; fence). ctx + 72 is ctx->local_size[0].
const char *kIR = R"(
declare void @__fibercl_host_barrier(ptr, i32, i32)

; v = out[x]; tile[x] = v; u = flag ? 1 : 2; barrier(); out[x] = tile[(x + 1) % size] + v + u + size
define dso_local void @k.fibercl.body(ptr addrspace(1) %out, ptr addrspace(3) %tile, i32 %flag, ptr %ctx, i32 %x, i32 %y, i32 %z) #0 {
entry:
  %pin = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %x
  %v = load i32, ptr addrspace(1) %pin, align 4
  %p = getelementptr inbounds i32, ptr addrspace(3) %tile, i32 %x
  store i32 %v, ptr addrspace(3) %p, align 4
  %lsp = getelementptr inbounds i8, ptr %ctx, i64 72
  %ls64 = load i64, ptr %lsp, align 8
  %ls = trunc i64 %ls64 to i32
  %c = icmp ne i32 %flag, 0
  br i1 %c, label %a, label %b
a:
  br label %join
b:
  br label %join
join:
  %u = phi i32 [ 1, %a ], [ 2, %b ]
  fence syncscope("workgroup") release
  call void @__fibercl_host_barrier(ptr %ctx, i32 7, i32 1)
  fence syncscope("workgroup") acquire
  %x1 = add i32 %x, 1
  %j = urem i32 %x1, %ls
  %q = getelementptr inbounds i32, ptr addrspace(3) %tile, i32 %j
  %r = load i32, ptr addrspace(3) %q, align 4
  %s1 = add i32 %r, %v
  %s2 = add i32 %s1, %u
  %s3 = add i32 %s2, %ls
  store i32 %s3, ptr addrspace(1) %pin, align 4
  ret void
}

; int arr[4]; arr[x & 3] = x; barrier(); out[x] = arr[0];
define dso_local void @array.fibercl.body(ptr addrspace(1) %out, ptr %ctx, i32 %x, i32 %y, i32 %z) #1 {
entry:
  %arr = alloca [4 x i32], align 4
  %slot = and i32 %x, 3
  %p = getelementptr inbounds [4 x i32], ptr %arr, i32 0, i32 %slot
  store i32 %x, ptr %p, align 4
  call void @__fibercl_host_barrier(ptr %ctx, i32 8, i32 1)
  %v = load i32, ptr %arr, align 4
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %x
  store i32 %v, ptr addrspace(1) %o, align 4
  ret void
}

; for (s = 0; s < 3; ++s) { tile[x] += s; barrier(); }
define dso_local void @loop.fibercl.body(ptr addrspace(3) %tile, ptr %ctx, i32 %x, i32 %y, i32 %z) #2 {
entry:
  %p = getelementptr inbounds i32, ptr addrspace(3) %tile, i32 %x
  br label %loop
loop:
  %s = phi i32 [ 0, %entry ], [ %s.next, %loop ]
  %t = load i32, ptr addrspace(3) %p, align 4
  %t1 = add i32 %t, %s
  store i32 %t1, ptr addrspace(3) %p, align 4
  call void @__fibercl_host_barrier(ptr %ctx, i32 9, i32 1)
  %s.next = add i32 %s, 1
  %more = icmp slt i32 %s.next, 3
  br i1 %more, label %loop, label %done
done:
  ret void
}

; int dyn[n]; dyn[0] = x; barrier(); out[x] = dyn[0];
define dso_local void @dynamic.fibercl.body(ptr addrspace(1) %out, i32 %n, ptr %ctx, i32 %x, i32 %y, i32 %z) #3 {
entry:
  %dyn = alloca i32, i32 %n, align 4
  store i32 %x, ptr %dyn, align 4
  call void @__fibercl_host_barrier(ptr %ctx, i32 10, i32 1)
  %v = load i32, ptr %dyn, align 4
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %x
  store i32 %v, ptr addrspace(1) %o, align 4
  ret void
}

attributes #0 = { "fibercl-kernel"="k" "fibercl-barriers" }
attributes #1 = { "fibercl-kernel"="array" "fibercl-barriers" }
attributes #2 = { "fibercl-kernel"="loop" "fibercl-barriers" }
attributes #3 = { "fibercl-kernel"="dynamic" "fibercl-barriers" }
)";

// The frame-slot parts ("items", "uniform.in", ...) of `f`'s loads and stores.
std::multiset<std::string> frameAccesses(llvm::Function &f, unsigned opcode) {
  std::multiset<std::string> parts;
  for (llvm::BasicBlock &bb : f)
    for (llvm::Instruction &i : bb)
      if (i.getOpcode() == opcode)
        if (llvm::MDNode *part = i.getMetadata(kFrameSlotMetadata))
          parts.insert(llvm::cast<llvm::MDString>(part->getOperand(0))->getString().str());
  return parts;
}

// Accesses of `f` to memory in address space `as`.
unsigned accessesTo(llvm::Function &f, unsigned opcode, unsigned as) {
  unsigned n = 0;
  for (llvm::BasicBlock &bb : f)
    for (llvm::Instruction &i : bb)
      if (i.getOpcode() == opcode) {
        llvm::Value *p = opcode == llvm::Instruction::Store
                             ? llvm::cast<llvm::StoreInst>(i).getPointerOperand()
                             : llvm::cast<llvm::LoadInst>(i).getPointerOperand();
        n += p->getType()->getPointerAddressSpace() == as;
      }
  return n;
}

class BarrierRegions : public ::testing::Test {
protected:
  void SetUp() override {
    m = parseIR(context, kIR);
    ASSERT_TRUE(m);
  }
  std::optional<RegionPlan> plan(const char *kernel) {
    why.clear();
    std::optional<RegionPlan> p = planBarrierRegions(*findBody(*m, kernel), why);
    EXPECT_EQ(verify(*m), "");
    return p;
  }
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> m;
  std::string why;
};

TEST_F(BarrierRegions, BodyIsSplitAtItsBarrier) {
  std::optional<RegionPlan> p = plan("k");
  ASSERT_TRUE(p) << why;
  ASSERT_EQ(p->regions.size(), 2u);
  EXPECT_EQ(p->regions[0].id, 0u);
  EXPECT_EQ(p->regions[0].exits, std::vector<uint32_t>{7}); // stops at the barrier
  EXPECT_EQ(p->regions[1].id, 7u);
  EXPECT_EQ(p->regions[1].exits, std::vector<uint32_t>{0}); // runs to the end
  EXPECT_FALSE(p->needsExitArray());
  for (const RegionPlan::Region &r : p->regions) {
    EXPECT_EQ(r.step->getName(), "k.fibercl.region." + std::to_string(r.id));
    EXPECT_TRUE(r.step->getReturnType()->isIntegerTy(32));
    // The barrier is the end of a region: no call of it, nor its fences, is left.
    EXPECT_TRUE(callsTo(*r.step, FIBERCL_HOST_BARRIER).empty()) << print(*m);
    EXPECT_EQ(countOpcode(*r.step, llvm::Instruction::Fence), 0u) << print(*m);
  }
  // tile[x] = v before the barrier only; the read of tile after it only.
  llvm::Function &before = *p->regions[0].step, &after = *p->regions[1].step;
  EXPECT_EQ(accessesTo(before, llvm::Instruction::Store, kLocalAddressSpace), 1u);
  EXPECT_EQ(accessesTo(before, llvm::Instruction::Load, kLocalAddressSpace), 0u);
  EXPECT_EQ(accessesTo(after, llvm::Instruction::Store, kLocalAddressSpace), 0u);
  EXPECT_EQ(accessesTo(after, llvm::Instruction::Load, kLocalAddressSpace), 1u);
}

TEST_F(BarrierRegions, LiveValuesAreStoredRecomputedOrSharedByTheGroup) {
  std::optional<RegionPlan> p = plan("k");
  ASSERT_TRUE(p) << why;
  // v (a load: one per work-item) and u (the same for all: once per group) are
  // stored; the group's size (a ctx field) and &out[x] are computed again after the
  // barrier.
  EXPECT_EQ(p->spilledValues, 2u);
  EXPECT_EQ(p->uniformValues, 1u);
  EXPECT_EQ(p->rematerialisedValues, 2u);
  EXPECT_EQ(p->slotBytes, 64u);
  EXPECT_EQ(p->uniformBytes, 64u);
  EXPECT_EQ(p->privateBytes, 0u);
  llvm::Function &before = *p->regions[0].step, &after = *p->regions[1].step;
  EXPECT_EQ(frameAccesses(before, llvm::Instruction::Store),
            (std::multiset<std::string>{"items", "uniform.out"}))
      << print(*m);
  EXPECT_EQ(frameAccesses(after, llvm::Instruction::Load),
            (std::multiset<std::string>{"items", "uniform.in"}))
      << print(*m);
}

TEST_F(BarrierRegions, PrivateArrayLiveAcrossABarrierMovesToTheFrames) {
  std::optional<RegionPlan> p = plan("array");
  ASSERT_TRUE(p) << why;
  EXPECT_EQ(p->movedArrays, 1u);
  EXPECT_EQ(p->privateBytes, 64u);
  for (const RegionPlan::Region &r : p->regions)
    EXPECT_EQ(countOpcode(*r.step, llvm::Instruction::Alloca), 0u) << print(*m);
}

TEST_F(BarrierRegions, BarrierInALoopResumesInsideIt) {
  std::optional<RegionPlan> p = plan("loop");
  ASSERT_TRUE(p) << why;
  ASSERT_EQ(p->regions.size(), 2u);
  EXPECT_EQ(p->regions[0].exits, std::vector<uint32_t>{9});
  // After the barrier: round again (back to it) or leave the loop and end.
  EXPECT_EQ(p->regions[1].exits, (std::vector<uint32_t>{0, 9}));
  EXPECT_TRUE(p->needsExitArray());
  EXPECT_EQ(p->bytesPerItem(), p->slotBytes + 4);
}

TEST_F(BarrierRegions, WhatCannotBeSplitStaysOnFibers) {
  size_t functions = m->size();
  EXPECT_FALSE(plan("dynamic"));
  EXPECT_NE(why.find("run-time size"), std::string::npos) << why;
  EXPECT_EQ(m->size(), functions); // no region or step function is left behind

  EXPECT_EQ(fibersRequiredFor(*findBody(*m, "k")), "");
  findBody(*m, "k")->addFnAttr(kCooperativeAttr);
  EXPECT_NE(fibersRequiredFor(*findBody(*m, "k")), "");
}

} // namespace
} // namespace fibercl::compiler::test

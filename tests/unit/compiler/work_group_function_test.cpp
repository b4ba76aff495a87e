// WorkGroupFunctionPass: every kernel body gets its entry point __fibercl_wg_K -- a loop
// nest over the work-items for a barrier-free kernel (runs the body once per work-item,
// x fastest), barrier regions for a kernel with barriers, the fiber runner when the
// kernel cannot be split -- and the original kernels go.
#include <gtest/gtest.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/LoopUtils.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "fibercl/kernel_abi.h"
#include "ir_jit.hpp"
#include "ir_test.hpp"
#include "passes/passes.hpp"

namespace fibercl::compiler::test {
namespace {

// out[z * 6 + y * 2 + x] = x + 10 * y + 100 * z + base, for a 2 x 3 x 2 group.
const char *kPlainIR = R"(
@unused_tile = internal addrspace(3) global [4 x i32] undef, align 4

define spir_kernel void @plain(ptr addrspace(1) %out, i32 %base) {
  ret void
}

define dso_local void @plain.fibercl.body(ptr addrspace(1) %out, i32 %base, ptr %ctx, i32 %x, i32 %y, i32 %z) #0 {
  %y10 = mul i32 %y, 10
  %z100 = mul i32 %z, 100
  %v1 = add i32 %x, %y10
  %v2 = add i32 %v1, %z100
  %v = add i32 %v2, %base
  %y2 = mul i32 %y, 2
  %z6 = mul i32 %z, 6
  %i1 = add i32 %x, %y2
  %i = add i32 %i1, %z6
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %i
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void
}

attributes #0 = { "fibercl-kernel"="plain" }
)";

// A body with a barrier, the same marked cooperative, and one whose work-items pass
// values to each other.
const char *kBarrierIR = R"(
declare void @__fibercl_host_barrier(ptr, i32, i32)

define dso_local void @bar.fibercl.body(ptr addrspace(3) %tile, ptr %ctx, i32 %x, i32 %y, i32 %z) #0 {
  %p = getelementptr inbounds i32, ptr addrspace(3) %tile, i32 %x
  store i32 %x, ptr addrspace(3) %p, align 4
  call void @__fibercl_host_barrier(ptr %ctx, i32 1, i32 1)
  %v = load i32, ptr addrspace(3) %tile, align 4
  store i32 %v, ptr addrspace(3) %p, align 4
  ret void
}

define dso_local void @coop.fibercl.body(ptr addrspace(3) %tile, ptr %ctx, i32 %x, i32 %y, i32 %z) #1 {
  %p = getelementptr inbounds i32, ptr addrspace(3) %tile, i32 %x
  store i32 %x, ptr addrspace(3) %p, align 4
  call void @__fibercl_host_barrier(ptr %ctx, i32 2, i32 1)
  ret void
}

define dso_local void @serial.fibercl.body(ptr addrspace(3) %tile, ptr %ctx, i32 %x, i32 %y, i32 %z) #2 {
  %v = load i32, ptr addrspace(3) %tile, align 4
  %v1 = add i32 %v, 1
  store i32 %v1, ptr addrspace(3) %tile, align 4
  ret void
}

attributes #0 = { "fibercl-kernel"="bar" "fibercl-barriers" }
attributes #1 = { "fibercl-kernel"="coop" "fibercl-barriers" "fibercl-cooperative" }
attributes #2 = { "fibercl-kernel"="serial" "fibercl-serial-items" }
)";

// A body with a barrier after which its group takes a scheduling decision (the marker
// YieldPointsPass puts there: yield site 7, barrier site 1).
const char *kDecisionIR = R"(
declare void @__fibercl_host_barrier(ptr, i32, i32)
declare void @__fibercl_barrier_decision(ptr, i32, i32)

define dso_local void @bar.fibercl.body(ptr addrspace(3) %tile, ptr %ctx, i32 %x, i32 %y, i32 %z) #0 {
  %p = getelementptr inbounds i32, ptr addrspace(3) %tile, i32 %x
  store i32 %x, ptr addrspace(3) %p, align 4
  call void @__fibercl_host_barrier(ptr %ctx, i32 1, i32 1)
  call void @__fibercl_barrier_decision(ptr %ctx, i32 7, i32 1)
  %v = load i32, ptr addrspace(3) %tile, align 4
  store i32 %v, ptr addrspace(3) %p, align 4
  ret void
}

attributes #0 = { "fibercl-kernel"="bar" "fibercl-barriers" }
)";

using WorkGroupFn = void (*)(void **args, fcl_group_ctx *ctx);

// The `site` arguments of f's calls of FIBERCL_HOST_YIELD.
std::vector<uint64_t> yieldSites(llvm::Function &f) {
  std::vector<uint64_t> sites;
  for (llvm::CallBase *call : callsTo(f, FIBERCL_HOST_YIELD))
    sites.push_back(llvm::cast<llvm::ConstantInt>(call->getArgOperand(1))->getZExtValue());
  return sites;
}

class WorkGroupFunction : public ::testing::Test {
protected:
  std::unique_ptr<llvm::Module> build(const char *ir) {
    std::unique_ptr<llvm::Module> m = parseIR(context, ir);
    if (!m)
      return nullptr;
    PassRunner().runOnModule(*m, WorkGroupFunctionPass());
    EXPECT_EQ(verify(*m), "");
    return m;
  }
  llvm::LLVMContext context;
};

TEST_F(WorkGroupFunction, BarrierFreeKernelIsAWorkItemLoopNest) {
  std::unique_ptr<llvm::Module> m = build(kPlainIR);
  ASSERT_TRUE(m);
  llvm::Function *wg = m->getFunction(workGroupName("plain"));
  ASSERT_TRUE(wg);
  EXPECT_EQ(wg->arg_size(), 2u);
  EXPECT_TRUE(wg->hasParamAttribute(1, llvm::Attribute::ReadOnly));
  EXPECT_FALSE(m->getFunction("plain")) << "the original kernel is left";
  EXPECT_FALSE(m->getNamedGlobal("unused_tile")) << "an unused __local variable is left";
  EXPECT_TRUE(findBody(*m, "plain")->hasFnAttribute(llvm::Attribute::AlwaysInline));

  // z, y, x loops; the body is called in the innermost, the one marked as the loop over
  // work-items in x.
  llvm::DominatorTree dt(*wg);
  llvm::LoopInfo loops(dt);
  std::vector<llvm::CallBase *> calls = callsTo(*wg, bodyName("plain"));
  ASSERT_EQ(calls.size(), 1u) << print(*m);
  llvm::Loop *x = loops.getLoopFor(calls[0]->getParent());
  ASSERT_TRUE(x) << print(*m);
  EXPECT_EQ(x->getLoopDepth(), 3u);
  EXPECT_TRUE(llvm::findOptionMDForLoop(x, kWorkItemLoopMetadata));
  EXPECT_FALSE(llvm::findOptionMDForLoop(x->getParentLoop(), kWorkItemLoopMetadata));
}

TEST_F(WorkGroupFunction, BarrierFreeKernelRunsEveryWorkItemOnce) {
  std::unique_ptr<llvm::Module> m = build(kPlainIR);
  ASSERT_TRUE(m);
  IRJit jit(*m);
  auto wg = jit.function<WorkGroupFn>(workGroupName("plain"));
  ASSERT_TRUE(wg);
  std::vector<int32_t> out(13, -1);
  int32_t *outAddress = out.data();
  int32_t base = 1000;
  void *args[] = {&outAddress, &base};
  fcl_group_ctx ctx{};
  ctx.local_size[0] = 2;
  ctx.local_size[1] = 3;
  ctx.local_size[2] = 2;
  wg(args, &ctx);
  std::vector<int32_t> expected;
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 2; ++x)
        expected.push_back(x + 10 * y + 100 * z + base);
  expected.push_back(-1);
  EXPECT_EQ(out, expected);
}

TEST_F(WorkGroupFunction, KernelWithBarriersRunsAsRegionsOrOnFibers) {
  std::unique_ptr<llvm::Module> m = build(kBarrierIR);
  ASSERT_TRUE(m);
  llvm::Function &bar = *m->getFunction(workGroupName("bar"));
  EXPECT_EQ(findBody(*m, "bar")->getFnAttribute(kRegionsAttr).getValueAsString(), "2");
  EXPECT_EQ(callsTo(bar, FIBERCL_HOST_REGIONS_BEGIN).size(), 1u) << print(*m);
  EXPECT_TRUE(callsTo(bar, FIBERCL_HOST_RUN_ITEMS).empty());
  EXPECT_TRUE(m->getFunction("bar.fibercl.region.1"));

  // A cooperative kernel's forked groups resume inside work-items: fibers.
  llvm::Function &coop = *m->getFunction(workGroupName("coop"));
  EXPECT_FALSE(findBody(*m, "coop")->hasFnAttribute(kRegionsAttr));
  std::vector<llvm::CallBase *> run = callsTo(coop, FIBERCL_HOST_RUN_ITEMS);
  ASSERT_EQ(run.size(), 1u) << print(*m);
  EXPECT_EQ(run[0]->getArgOperand(1), m->getFunction(itemName("coop")));
  EXPECT_EQ(callsTo(*m->getFunction(itemName("coop")), bodyName("coop")).size(), 1u);

  EXPECT_TRUE(m->getFunction(workGroupName("serial"))->hasFnAttribute(kSerialItemsAttr));
  EXPECT_FALSE(m->getFunction(workGroupName("bar"))->hasFnAttribute(kSerialItemsAttr));
}

TEST_F(WorkGroupFunction, FibersOnRequest) {
  setenv("FIBERCL_BARRIERS", "fibers", 1);
  std::unique_ptr<llvm::Module> m = build(kBarrierIR);
  unsetenv("FIBERCL_BARRIERS");
  ASSERT_TRUE(m);
  llvm::Function &bar = *m->getFunction(workGroupName("bar"));
  EXPECT_EQ(callsTo(bar, FIBERCL_HOST_RUN_ITEMS).size(), 1u) << print(*m);
  EXPECT_TRUE(callsTo(bar, FIBERCL_HOST_REGIONS_BEGIN).empty());
  EXPECT_FALSE(findBody(*m, "bar")->hasFnAttribute(kRegionsAttr));
}

// Barriers as regions: the group decides once per barrier round, in the driver outside
// the work-item loops; the regions themselves have no yield point (issue 30).
TEST_F(WorkGroupFunction, RegionsDecideOncePerBarrierRound) {
  std::unique_ptr<llvm::Module> m = build(kDecisionIR);
  ASSERT_TRUE(m);
  EXPECT_TRUE(m->getFunction("__fibercl_barrier_decision")->use_empty()) << print(*m);
  llvm::Function &wg = *m->getFunction(workGroupName("bar"));
  EXPECT_EQ(yieldSites(wg), std::vector<uint64_t>{7}) << print(*m);
  llvm::DominatorTree dt(wg);
  llvm::LoopInfo loops(dt);
  for (llvm::CallBase *call : callsTo(wg, FIBERCL_HOST_YIELD))
    for (llvm::Loop *l = loops.getLoopFor(call->getParent()); l; l = l->getParentLoop())
      EXPECT_FALSE(llvm::findOptionMDForLoop(l, kWorkItemLoopMetadata))
          << "a decision inside a work-item loop: " << print(*m);
  for (const char *region : {"bar.fibercl.region.0", "bar.fibercl.region.1"})
    if (llvm::Function *f = m->getFunction(region))
      EXPECT_TRUE(yieldSites(*f).empty()) << region;
}

// On fibers every work-item decides right after its barrier, as before.
TEST_F(WorkGroupFunction, FibersDecideAfterEachWorkItemsBarrier) {
  setenv("FIBERCL_BARRIERS", "fibers", 1);
  std::unique_ptr<llvm::Module> m = build(kDecisionIR);
  unsetenv("FIBERCL_BARRIERS");
  ASSERT_TRUE(m);
  EXPECT_TRUE(m->getFunction("__fibercl_barrier_decision")->use_empty()) << print(*m);
  EXPECT_EQ(yieldSites(*findBody(*m, "bar")), std::vector<uint64_t>{7}) << print(*m);
}

} // namespace
} // namespace fibercl::compiler::test

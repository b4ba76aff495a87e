// buildRegionDriver: the work-group function of a kernel compiled as barrier regions
// runs every work-item through region 0, then through the region each barrier
// resumes, until all have finished -- so a work-item reads what the others wrote
// before the barrier. Checked by its shape and by running it.
#include <gtest/gtest.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fibercl/kernel_abi.h"
#include "ir_jit.hpp"
#include "ir_test.hpp"
#include "passes/barrier_regions.hpp"
#include "passes/passes.hpp"

namespace fibercl::compiler::test {
namespace {

// Two kernel bodies as in barrier_regions_test.cpp, and the runtime's side of regions
// (kernel_abi.h) as far as one group on one thread needs it.
const char *kIR = R"(
define void @__fibercl_host_barrier(ptr %ctx, i32 %site, i32 %flags) {
  ret void
}

@frames = internal global [4096 x i8] zeroinitializer, align 64

define ptr @__fibercl_host_regions_begin(ptr %ctx, i32 %n, i64 %bytes) {
  ret ptr @frames
}
define i32 @__fibercl_host_round_end(ptr %ctx, ptr %sites, i32 %n, i32 %region) {
  ret i32 0
}
define void @__fibercl_host_regions_end(ptr %ctx) {
  ret void
}

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
  call void @__fibercl_host_barrier(ptr %ctx, i32 7, i32 1)
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

; for (s = 0; s < 3; ++s) { tile[x] = tile[x] * 2 + s; barrier(); }
define dso_local void @loop.fibercl.body(ptr addrspace(3) %tile, ptr %ctx, i32 %x, i32 %y, i32 %z) #1 {
entry:
  %p = getelementptr inbounds i32, ptr addrspace(3) %tile, i32 %x
  br label %loop
loop:
  %s = phi i32 [ 0, %entry ], [ %s.next, %loop ]
  %t = load i32, ptr addrspace(3) %p, align 4
  %t2 = shl i32 %t, 1
  %t1 = add i32 %t2, %s
  store i32 %t1, ptr addrspace(3) %p, align 4
  call void @__fibercl_host_barrier(ptr %ctx, i32 9, i32 1)
  %s.next = add i32 %s, 1
  %more = icmp slt i32 %s.next, 3
  br i1 %more, label %loop, label %done
done:
  ret void
}

attributes #0 = { "fibercl-kernel"="k" "fibercl-barriers" }
attributes #1 = { "fibercl-kernel"="loop" "fibercl-barriers" }
)";

using WorkGroupFn = void (*)(void **args, fcl_group_ctx *ctx);

class RegionDriver : public ::testing::Test {
protected:
  void SetUp() override {
    m = parseIR(context, kIR);
    ASSERT_TRUE(m);
    for (const char *kernel : {"k", "loop"}) {
      llvm::Function &body = *findBody(*m, kernel);
      std::string why;
      std::optional<RegionPlan> p = planBarrierRegions(body, why);
      ASSERT_TRUE(p) << why;
      llvm::Type *ptr = llvm::PointerType::get(context, 0);
      auto *wg = llvm::Function::Create(
          llvm::FunctionType::get(llvm::Type::getVoidTy(context), {ptr, ptr}, false),
          llvm::GlobalValue::ExternalLinkage, workGroupName(kernel), *m);
      buildRegionDriver(*m, *wg, body, *p, {}, nullptr);
      plans[kernel] = *p;
    }
    ASSERT_EQ(verify(*m), "");
  }
  llvm::Function &wg(const char *kernel) { return *m->getFunction(workGroupName(kernel)); }
  // Calls in the work-group function of each of the plan's regions.
  std::vector<size_t> regionCalls(const char *kernel) {
    std::vector<size_t> calls;
    for (const RegionPlan::Region &r : plans[kernel].regions)
      calls.push_back(callsTo(wg(kernel), r.step->getName()).size());
    return calls;
  }
  fcl_group_ctx groupOf(uint64_t items, void *local) {
    fcl_group_ctx ctx{};
    for (int d = 0; d < 3; ++d)
      ctx.local_size[d] = ctx.enqueued_local_size[d] = ctx.num_groups[d] = ctx.global_size[d] = 1;
    ctx.local_size[0] = ctx.enqueued_local_size[0] = ctx.global_size[0] = items;
    ctx.work_dim = 1;
    ctx.local_mem = reinterpret_cast<uint64_t>(local);
    return ctx;
  }
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> m;
  std::map<std::string, RegionPlan> plans;
};

TEST_F(RegionDriver, EveryRegionRunsInItsOwnWorkItemLoop) {
  EXPECT_EQ(regionCalls("k"), (std::vector<size_t>{1, 1})) << print(*m);
  EXPECT_EQ(callsTo(wg("k"), FIBERCL_HOST_REGIONS_BEGIN).size(), 1u);
  EXPECT_EQ(callsTo(wg("k"), FIBERCL_HOST_REGIONS_END).size(), 1u);
  // From region 0 to the barrier's: a switch on the site every work-item stopped at.
  unsigned switches = 0;
  for (llvm::BasicBlock &bb : wg("k"))
    if (auto *sw = llvm::dyn_cast<llvm::SwitchInst>(bb.getTerminator())) {
      ++switches;
      ASSERT_EQ(sw->getNumCases(), 1u);
      EXPECT_EQ(sw->case_begin()->getCaseValue()->getZExtValue(), 7u);
    }
  EXPECT_EQ(switches, 1u);
}

TEST_F(RegionDriver, OnlyRegionsWithSeveralExitsAreChecked) {
  // k's regions can each stop at one place only: nothing to check.
  EXPECT_TRUE(callsTo(wg("k"), FIBERCL_HOST_ROUND_END).empty()) << print(*m);
  // loop's second region returns to its barrier or ends: the runtime is asked when
  // work-items disagree.
  EXPECT_EQ(callsTo(wg("loop"), FIBERCL_HOST_ROUND_END).size(), 1u) << print(*m);
  EXPECT_EQ(regionCalls("loop"), (std::vector<size_t>{1, 1}));
}

// loop's `s` is the same for every work-item: it lives once per group, and the region
// after the barrier reads it from a copy on the stack made before its work-items run
// (which LLVM can read once, whatever the work-items call).
TEST_F(RegionDriver, RegionsReadUniformValuesFromACopyMadeBeforeTheRound) {
  ASSERT_GT(plans["loop"].uniformBytes, 0u);
  llvm::AllocaInst *copy = nullptr;
  for (llvm::Instruction &i : wg("loop").getEntryBlock())
    if (auto *a = llvm::dyn_cast<llvm::AllocaInst>(&i))
      if (a->getName() == "uniform.copy")
        copy = a;
  ASSERT_TRUE(copy) << print(*m);
  unsigned memcpys = 0, steps = 0;
  for (llvm::User *u : copy->users())
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(u)) {
      if (llvm::isa<llvm::MemCpyInst>(call)) {
        ++memcpys;
        EXPECT_EQ(call->getArgOperand(0), copy);
      } else if (call->getCalledFunction() == plans["loop"].regions[1].step) {
        ++steps;
      }
    }
  EXPECT_EQ(memcpys, 1u);
  EXPECT_EQ(steps, 1u);
  // Region 0 has nothing uniform to read yet.
  EXPECT_TRUE(callsTo(wg("loop"), plans["loop"].regions[0].step->getName()).size() == 1);
}

TEST_F(RegionDriver, WorkItemsSeeWhatOthersWroteBeforeTheBarrier) {
  IRJit jit(*m);
  auto k = jit.function<WorkGroupFn>(workGroupName("k"));
  ASSERT_TRUE(k);
  std::vector<int32_t> out{10, 20, 30, 40, 50}, tile(5, -1);
  int32_t *outAddress = out.data();
  uint64_t tileOffset = 0;
  int32_t flag = 1;
  void *args[] = {&outAddress, &tileOffset, &flag};
  fcl_group_ctx ctx = groupOf(5, tile.data());
  k(args, &ctx);
  // out[x] = v[(x + 1) % 5] + v[x] + 1 + 5
  EXPECT_EQ(out, (std::vector<int32_t>{36, 56, 76, 96, 66}));

  auto loop = jit.function<WorkGroupFn>(workGroupName("loop"));
  ASSERT_TRUE(loop);
  std::vector<int32_t> local{1, 2, 3};
  void *loopArgs[] = {&tileOffset};
  ctx = groupOf(3, local.data());
  loop(loopArgs, &ctx);
  // Three rounds of t = 2t + s: 8t + 4*0 + 2*1 + 2.
  EXPECT_EQ(local, (std::vector<int32_t>{12, 20, 28}));
}

} // namespace
} // namespace fibercl::compiler::test

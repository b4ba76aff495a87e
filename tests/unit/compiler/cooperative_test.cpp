// CooperativePass: the builtins' cooperative points become calls of the runtime; a
// group the runtime lets go returns at offer_kill; a forked group enters the body at
// the point after request_fork with its transmitted variables copied in and every
// other private variable filled with 0xA5 bytes. Checked by its shape and by running
// it against a stand-in for the runtime.
#include <gtest/gtest.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

#include <cstdint>

#include "fibercl/kernel_abi.h"
#include "ir_jit.hpp"
#include "ir_test.hpp"
#include "passes/passes.hpp"

namespace fibercl::compiler::test {
namespace {

// transmit int t = 5; int p = 6; offer_kill(); request_fork(); out[0] = t; out[1] = p;
// The runtime's stand-in: at the start it resumes at @resume (0: from the start)
// with 42 in the transmit frame; offer_kill answers @leave.
const char *kIR = R"(
declare i32 @__fibercl_coop_point(i32)
declare void @llvm.var.annotation.p0.p0(ptr, ptr, ptr, i32, ptr)

@.transmit = private unnamed_addr constant [17 x i8] c"fibercl.transmit\00", section "llvm.metadata"
@.file = private unnamed_addr constant [2 x i8] c"f\00", section "llvm.metadata"
@resume = global i32 0
@leave = global i32 0

define i32 @__fibercl_host_coop(ptr %ctx, i32 %op, i32 %site, i32 %x, i32 %y, i32 %z, ptr %frame, i64 %size) {
  %start = icmp eq i32 %op, 0
  br i1 %start, label %entry, label %other
entry:
  %r = load i32, ptr @resume
  %forked = icmp ne i32 %r, 0
  br i1 %forked, label %fill, label %none
fill:
  store i32 42, ptr %frame
  ret i32 %r
none:
  ret i32 0
other:
  %kill = icmp eq i32 %op, 1
  %l = load i32, ptr @leave
  %answer = select i1 %kill, i32 %l, i32 0
  ret i32 %answer
}

define void @k.fibercl.body(ptr %out, ptr %ctx, i32 %x, i32 %y, i32 %z) #0 {
entry:
  %out.addr = alloca ptr, align 8
  %t = alloca i32, align 4
  %p = alloca i32, align 4
  store ptr %out, ptr %out.addr, align 8
  call void @llvm.var.annotation.p0.p0(ptr %t, ptr @.transmit, ptr @.file, i32 1, ptr null)
  store i32 5, ptr %t, align 4
  store i32 6, ptr %p, align 4
  %killed = call i32 @__fibercl_coop_point(i32 1)
  %forked = call i32 @__fibercl_coop_point(i32 2)
  %tv = load i32, ptr %t, align 4
  %pv = load i32, ptr %p, align 4
  %o = load ptr, ptr %out.addr, align 8
  store i32 %tv, ptr %o, align 4
  %o1 = getelementptr inbounds i32, ptr %o, i32 1
  store i32 %pv, ptr %o1, align 4
  ret void
}

define void @plain.fibercl.body(ptr %ctx, i32 %x, i32 %y, i32 %z) #1 {
  ret void
}

attributes #0 = { "fibercl-kernel"="k" }
attributes #1 = { "fibercl-kernel"="plain" }
)";

using BodyFn = void (*)(int32_t *out, void *ctx, uint32_t x, uint32_t y, uint32_t z);

class Cooperative : public ::testing::Test {
protected:
  void SetUp() override {
    m = parseIR(context, kIR);
    ASSERT_TRUE(m);
    PassRunner().runOnModule(*m, CooperativePass(sites));
    ASSERT_EQ(verify(*m), "");
  }
  // The `op` of each call of the runtime in the body, in block order.
  std::vector<uint64_t> ops() {
    std::vector<uint64_t> found;
    for (llvm::CallBase *call : callsTo(*findBody(*m, "k"), FIBERCL_HOST_COOP))
      found.push_back(llvm::cast<llvm::ConstantInt>(call->getArgOperand(1))->getZExtValue());
    return found;
  }
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> m;
  SiteTable sites;
};

TEST_F(Cooperative, PointsBecomeCallsOfTheRuntime) {
  EXPECT_TRUE(callsTo(*findBody(*m, "k"), "__fibercl_coop_point").empty()) << print(*m);
  EXPECT_EQ(ops(), (std::vector<uint64_t>{FCL_COOP_ENTRY, FCL_COOP_KILL, FCL_COOP_FORK}))
      << print(*m);
  ASSERT_EQ(sites.byKernel["k"].size(), 2u);
  for (const SiteInfo &site : sites.byKernel["k"])
    EXPECT_EQ(site.kind, SiteInfo::Kind::Cooperative);
  EXPECT_TRUE(findBody(*m, "k")->hasFnAttribute(kCooperativeAttr));
  EXPECT_FALSE(findBody(*m, "plain")->hasFnAttribute(kCooperativeAttr));
  // The start asks where to resume: a switch with the fork's site as its one case.
  auto *sw = llvm::dyn_cast<llvm::SwitchInst>(findBody(*m, "k")->getEntryBlock().getTerminator());
  ASSERT_TRUE(sw) << print(*m);
  ASSERT_EQ(sw->getNumCases(), 1u);
  EXPECT_EQ(sw->case_begin()->getCaseValue()->getZExtValue(), sites.byKernel["k"][1].id);
}

TEST_F(Cooperative, GroupsRunLeaveAndResumeWhereTheRuntimeSays) {
  IRJit jit(*m);
  auto body = jit.function<BodyFn>(bodyName("k"));
  auto *resume = jit.function<int32_t *>("resume");
  auto *leave = jit.function<int32_t *>("leave");
  ASSERT_TRUE(body && resume && leave);
  int ctx = 0;

  int32_t out[2] = {-1, -1};
  body(out, &ctx, 0, 0, 0);
  EXPECT_EQ(out[0], 5);
  EXPECT_EQ(out[1], 6);

  *leave = FCL_COOP_LEAVE; // killed at offer_kill: returns before writing
  out[0] = out[1] = -1;
  body(out, &ctx, 0, 0, 0);
  EXPECT_EQ(out[0], -1);
  EXPECT_EQ(out[1], -1);
  *leave = 0;

  // Forked: starts after request_fork with t from the frame and p poisoned.
  *resume = int32_t(sites.byKernel["k"][1].id);
  body(out, &ctx, 0, 0, 0);
  EXPECT_EQ(out[0], 42);
  EXPECT_EQ(uint32_t(out[1]), 0xA5A5A5A5u);
}

} // namespace
} // namespace fibercl::compiler::test

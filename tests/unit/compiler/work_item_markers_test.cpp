// WorkItemMarkersPass: the builtins library's markers in a kernel body become the
// body's parameters (local ids, ctx) and numbered calls of the runtime's barrier, and
// the body records that it has barriers or calls printf.
#include <gtest/gtest.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

#include "fibercl/kernel_abi.h"
#include "ir_jit.hpp"
#include "ir_test.hpp"
#include "passes/passes.hpp"

namespace fibercl::compiler::test {
namespace {

// ids: out[0..3] = get_local_id(0..3) (3 is out of range: 0); out[4] = (int)ctx.
// sync: barrier(CLK_LOCAL_MEM_FENCE) twice, printf.
const char *kIR = R"(
declare i64 @__fibercl_local_id(i32)
declare ptr @__fibercl_ctx()
declare void @__fibercl_barrier(i32)
declare i32 @printf(ptr, ...)

@fmt = private constant [4 x i8] c"hi\0A\00"

define void @ids.fibercl.body(ptr %out, ptr %ctx, i32 %x, i32 %y, i32 %z) #0 {
  %d = load i32, ptr %out, align 4
  br label %go
go:
  %i0 = call i64 @__fibercl_local_id(i32 0)
  %i1 = call i64 @__fibercl_local_id(i32 1)
  %i2 = call i64 @__fibercl_local_id(i32 2)
  %i3 = call i64 @__fibercl_local_id(i32 3)
  %p1 = getelementptr i64, ptr %out, i32 1
  %p2 = getelementptr i64, ptr %out, i32 2
  %p3 = getelementptr i64, ptr %out, i32 3
  %p4 = getelementptr i64, ptr %out, i32 4
  store i64 %i0, ptr %out, align 8
  store i64 %i1, ptr %p1, align 8
  store i64 %i2, ptr %p2, align 8
  store i64 %i3, ptr %p3, align 8
  %c = call ptr @__fibercl_ctx()
  %ci = ptrtoint ptr %c to i64
  store i64 %ci, ptr %p4, align 8
  ret void
}

define void @sync.fibercl.body(ptr %ctx, i32 %x, i32 %y, i32 %z) #1 {
  call void @__fibercl_barrier(i32 1)
  call void @__fibercl_barrier(i32 2)
  %n = call i32 (ptr, ...) @printf(ptr @fmt)
  ret void
}

attributes #0 = { "fibercl-kernel"="ids" }
attributes #1 = { "fibercl-kernel"="sync" }
)";

using IdsFn = void (*)(int64_t *out, void *ctx, uint32_t x, uint32_t y, uint32_t z);

class WorkItemMarkers : public ::testing::Test {
protected:
  void SetUp() override {
    m = parseIR(context, kIR);
    ASSERT_TRUE(m);
    PassRunner().runOnModule(*m, WorkItemMarkersPass(sites));
    ASSERT_EQ(verify(*m), "");
  }
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> m;
  SiteTable sites;
};

TEST_F(WorkItemMarkers, MarkersAreGone) {
  for (const char *marker : {"__fibercl_local_id", "__fibercl_ctx", "__fibercl_barrier"})
    for (llvm::Function &f : *m)
      EXPECT_TRUE(callsTo(f, marker).empty()) << marker << " in " << f.getName().str();
}

TEST_F(WorkItemMarkers, LocalIdsAndCtxAreTheBodysParameters) {
  // Only the markers are replaced: the body is otherwise runnable as it was.
  m->getFunction("sync.fibercl.body")->eraseFromParent();
  IRJit jit(*m);
  auto ids = jit.function<IdsFn>("ids.fibercl.body");
  ASSERT_TRUE(ids);
  int64_t out[5] = {};
  int ctx = 0;
  ids(out, &ctx, 5, 6, 7);
  EXPECT_EQ(out[0], 5);
  EXPECT_EQ(out[1], 6);
  EXPECT_EQ(out[2], 7);
  EXPECT_EQ(out[3], 0);
  EXPECT_EQ(out[4], int64_t(reinterpret_cast<intptr_t>(&ctx)));
}

TEST_F(WorkItemMarkers, BarriersAreNumberedCallsOfTheRuntime) {
  llvm::Function &body = *findBody(*m, "sync");
  std::vector<llvm::CallBase *> barriers = callsTo(body, FIBERCL_HOST_BARRIER);
  ASSERT_EQ(barriers.size(), 2u) << print(*m);
  ASSERT_EQ(sites.byKernel["sync"].size(), 2u);
  for (size_t k = 0; k < 2; ++k) {
    llvm::CallBase *call = barriers[k];
    EXPECT_EQ(call->getArgOperand(0), body.getArg(0)); // ctx
    auto *site = llvm::cast<llvm::ConstantInt>(call->getArgOperand(1));
    EXPECT_EQ(site->getZExtValue(), sites.byKernel["sync"][k].id);
    EXPECT_EQ(sites.byKernel["sync"][k].kind, SiteInfo::Kind::Barrier);
    EXPECT_EQ(llvm::cast<llvm::ConstantInt>(call->getArgOperand(2))->getZExtValue(), k + 1);
  }
  EXPECT_NE(sites.byKernel["sync"][0].id, sites.byKernel["sync"][1].id);
  // Never duplicated by the optimiser: each site must stay one call.
  EXPECT_TRUE(m->getFunction(FIBERCL_HOST_BARRIER)->hasFnAttribute(llvm::Attribute::NoDuplicate));
}

TEST_F(WorkItemMarkers, BodiesSayWhatTheyUse) {
  EXPECT_TRUE(findBody(*m, "sync")->hasFnAttribute(kBarriersAttr));
  EXPECT_TRUE(findBody(*m, "sync")->hasFnAttribute(kPrintfAttr));
  EXPECT_FALSE(findBody(*m, "ids")->hasFnAttribute(kBarriersAttr));
  EXPECT_FALSE(findBody(*m, "ids")->hasFnAttribute(kPrintfAttr));
  // printf is the runtime's, renamed so that LLVM does not treat it as libc's.
  EXPECT_FALSE(m->getFunction("printf"));
  EXPECT_TRUE(m->getFunction(FIBERCL_HOST_PRINTF));
}

} // namespace
} // namespace fibercl::compiler::test

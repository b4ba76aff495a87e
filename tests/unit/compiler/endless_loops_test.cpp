// EndlessLoopsPass: a loop the optimised code can never leave, with nothing in it but
// pure computation, is replaced by a report of where it is (FIBERCL_HOST_ENDLESS_LOOP,
// which never returns); loops with an exit or with calls that do something are left.
#include <gtest/gtest.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instructions.h>

#include "fibercl/kernel_abi.h"
#include "ir_test.hpp"
#include "passes/passes.hpp"

namespace fibercl::compiler::test {
namespace {

// endless: while (flag[0] == 0) {} after O3 read the flag once (source line 7).
// yields:  a loop without exit that calls the runtime's yield point.
// bounded: a loop with an exit.
// unknown: endless, without debug information.
const char *kIR = R"(
declare i32 @pure(i32) memory(none) nounwind willreturn
declare void @__fibercl_host_yield(ptr, i32)

define void @__fibercl_wg_endless(ptr %flag) !dbg !4 {
entry:
  %v = load i32, ptr %flag, align 4, !dbg !10
  %zero = icmp eq i32 %v, 0, !dbg !10
  br i1 %zero, label %wait, label %done, !dbg !10
wait:
  %p = call i32 @pure(i32 %v), !dbg !11
  br label %wait, !dbg !11
done:
  ret void
}

define void @__fibercl_wg_yields(ptr %ctx) {
entry:
  br label %loop
loop:
  call void @__fibercl_host_yield(ptr %ctx, i32 1)
  br label %loop
}

define void @__fibercl_wg_bounded(ptr %out, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  store i32 %i.next, ptr %out, align 4
  ret void
}

define void @__fibercl_wg_unknown(ptr %flag) {
entry:
  br label %wait
wait:
  br label %wait
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!20, !21}
!0 = distinct !DICompileUnit(language: DW_LANG_OpenCL, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "/fibercl-input/<source>", directory: "/")
!3 = !DISubroutineType(types: !{})
!4 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 3, type: !3, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 6, column: 3, scope: !4)
!11 = !DILocation(line: 7, column: 5, scope: !4)
!20 = !{i32 2, !"Debug Info Version", i32 3}
!21 = !{i32 7, !"Dwarf Version", i32 5}
)";

class EndlessLoops : public ::testing::Test {
protected:
  void SetUp() override {
    m = parseIR(context, kIR);
    ASSERT_TRUE(m);
    PassRunner().runOnModule(*m, EndlessLoopsPass());
    ASSERT_EQ(verify(*m), "");
  }
  llvm::Function &wg(const char *kernel) { return *m->getFunction(workGroupName(kernel)); }
  unsigned loopsIn(llvm::Function &f) {
    llvm::DominatorTree dt(f);
    llvm::LoopInfo loops(dt);
    return unsigned(loops.getLoopsInPreorder().size());
  }
  // The text the report call of `f` names the loop with.
  std::string reported(llvm::Function &f) {
    std::vector<llvm::CallBase *> calls = callsTo(f, FIBERCL_HOST_ENDLESS_LOOP);
    if (calls.size() != 1)
      return "<" + std::to_string(calls.size()) + " reports>";
    auto *text = llvm::cast<llvm::GlobalVariable>(calls[0]->getArgOperand(0)->stripPointerCasts());
    return llvm::cast<llvm::ConstantDataArray>(text->getInitializer())->getAsCString().str();
  }
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> m;
};

TEST_F(EndlessLoops, LoopWithoutExitReportsWhereItIs) {
  EXPECT_EQ(reported(wg("endless")), "<source>:7") << print(*m);
  EXPECT_EQ(loopsIn(wg("endless")), 0u) << print(*m);
  // Entering it is the report, which does not return.
  llvm::CallBase *call = callsTo(wg("endless"), FIBERCL_HOST_ENDLESS_LOOP)[0];
  EXPECT_TRUE(call->doesNotReturn());
  EXPECT_TRUE(llvm::isa<llvm::UnreachableInst>(call->getNextNode()));
  EXPECT_EQ(reported(wg("unknown")), "");
}

TEST_F(EndlessLoops, LoopsThatMayEndOrActAreLeft) {
  EXPECT_TRUE(callsTo(wg("yields"), FIBERCL_HOST_ENDLESS_LOOP).empty()) << print(*m);
  EXPECT_EQ(loopsIn(wg("yields")), 1u);
  EXPECT_TRUE(callsTo(wg("bounded"), FIBERCL_HOST_ENDLESS_LOOP).empty());
  EXPECT_EQ(loopsIn(wg("bounded")), 1u);
}

} // namespace
} // namespace fibercl::compiler::test

// ParallelWorkItemLoopsPass: a work-item loop whose memory accesses are all plain
// accesses to non-private memory is declared parallel to LLVM's loop vectoriser;
// private memory, atomics, calls that touch memory, serial work-items, loops that are
// not work-item loops and functions that are not work-group functions are not.
#include <gtest/gtest.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>

#include "ir_test.hpp"
#include "passes/passes.hpp"

namespace fibercl::compiler::test {
namespace {

// out[in[x]] = x (an index LLVM cannot analyse), preceded by BODY, over n >= 1 items.
#define FIBERCL_LOOP(NAME, ATTRS, BODY, LOOP_ID)                                                   \
  "define void @" NAME "(ptr %in, ptr %out, ptr %flag, i32 %n) " ATTRS " {\n"                      \
  "entry:\n  %tmp = alloca i32, align 4\n  br label %items\n"                                      \
  "items:\n"                                                                                       \
  "  %x = phi i32 [ 0, %entry ], [ %x.next, %items ]\n"                                            \
  "  %p = getelementptr inbounds i32, ptr %in, i32 %x\n"                                           \
  "  %i = load i32, ptr %p, align 4\n"                                                             \
  "  %q = getelementptr inbounds i32, ptr %out, i32 %i\n"                                          \
  "  store i32 %x, ptr %q, align 4\n" BODY "  %x.next = add nuw i32 %x, 1\n"                       \
  "  %again = icmp ult i32 %x.next, %n\n"                                                          \
  "  br i1 %again, label %items, label %done, !llvm.loop " LOOP_ID "\n"                            \
  "done:\n  ret void\n}\n"

const char *kIR = "declare void @touch(ptr)\n" FIBERCL_LOOP("__fibercl_wg_plain", "", "", "!0")
    FIBERCL_LOOP("__fibercl_wg_private", "", "  store i32 %x, ptr %tmp, align 4\n", "!2")
        FIBERCL_LOOP("__fibercl_wg_atomic", "",
                     "  %old = atomicrmw add ptr %flag, i32 1 monotonic, align 4\n", "!3")
            FIBERCL_LOOP("__fibercl_wg_call", "", "  call void @touch(ptr %flag)\n", "!4")
                FIBERCL_LOOP("__fibercl_wg_serial", "#0", "", "!5")
                    FIBERCL_LOOP("__fibercl_wg_unmarked", "", "", "!6") FIBERCL_LOOP(
                        "helper", "", "", "!7") "attributes #0 = { \"fibercl-serial-items\" }\n"
                                                "!0 = distinct !{!0, !1}\n"
                                                "!1 = !{!\"fibercl.work_item_loop\"}\n"
                                                "!2 = distinct !{!2, !1}\n"
                                                "!3 = distinct !{!3, !1}\n"
                                                "!4 = distinct !{!4, !1}\n"
                                                "!5 = distinct !{!5, !1}\n"
                                                "!6 = distinct !{!6}\n"
                                                "!7 = distinct !{!7, !1}\n";

class ParallelLoops : public ::testing::Test {
protected:
  void SetUp() override {
    m = parseIR(context, kIR);
    ASSERT_TRUE(m);
    PassRunner().runOnFunctions(*m, ParallelWorkItemLoopsPass());
    ASSERT_EQ(verify(*m), "");
  }
  bool parallel(const char *function) {
    llvm::Function &f = *m->getFunction(function);
    llvm::DominatorTree dt(f);
    llvm::LoopInfo loops(dt);
    return loops.begin() != loops.end() && (*loops.begin())->isAnnotatedParallel();
  }
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> m;
};

TEST_F(ParallelLoops, WorkItemLoopIsDeclaredParallel) {
  EXPECT_TRUE(parallel("__fibercl_wg_plain")) << print(*m);
}

TEST_F(ParallelLoops, WhatOrdersWorkItemsKeepsTheLoopAsItIs) {
  for (const char *f : {"__fibercl_wg_private", "__fibercl_wg_atomic", "__fibercl_wg_call",
                        "__fibercl_wg_serial", "__fibercl_wg_unmarked", "helper"})
    EXPECT_FALSE(parallel(f)) << f << "\n" << print(*m);
}

} // namespace
} // namespace fibercl::compiler::test

// AwaitChecks: a loop that may spin counts, while the runtime asks for the checks, an
// iteration that comes back with the same state as the previous one as a failed await
// and one with another state (a loop-carried value its addresses depend on, what it
// wrote to the group's own memory) as an advance; loops that cannot wait get nothing.
// Checked by running the loops with a yield state.
#include <gtest/gtest.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/TargetParser/Triple.h>

#include <cstdint>

#include "fibercl/kernel_abi.h"
#include "ir_jit.hpp"
#include "ir_test.hpp"
#include "passes/await_checks.hpp"
#include "passes/passes.hpp"
#include "passes/spin_loops.hpp"

namespace fibercl::compiler::test {
namespace {

const char *kIR = R"(
; while (atomic_fetch_add(counter, 1) < 5) {}
define void @same(ptr addrspace(1) %counter, ptr addrspace(3) %tile, ptr %state) {
entry:
  br label %wait
wait:
  %old = atomicrmw add ptr addrspace(1) %counter, i32 1 seq_cst, align 4
  %more = icmp slt i32 %old, 5
  br i1 %more, label %wait, label %done
done:
  ret void
}

; i = 0; while (atomic_fetch_add(counter, 1) < 5) { tile[i] = i; ++i; }
define void @advancing(ptr addrspace(1) %counter, ptr addrspace(3) %tile, ptr %state) {
entry:
  br label %wait
wait:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %old = atomicrmw add ptr addrspace(1) %counter, i32 1 seq_cst, align 4
  %more = icmp slt i32 %old, 5
  br i1 %more, label %body, label %done
body:
  %p = getelementptr inbounds i32, ptr addrspace(3) %tile, i32 %i
  store i32 %i, ptr addrspace(3) %p, align 4
  %i.next = add i32 %i, 1
  br label %wait
done:
  ret void
}

; for (i = 0; i < 4; ++i) tile[i] = i;
define void @counted(ptr addrspace(1) %counter, ptr addrspace(3) %tile, ptr %state) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds i32, ptr addrspace(3) %tile, i32 %i
  store i32 %i, ptr addrspace(3) %p, align 4
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, 4
  br i1 %more, label %loop, label %done
done:
  ret void
}
)";

using LoopFn = void (*)(int32_t *counter, int32_t *tile, fcl_yield_state *state);

class AwaitChecksTest : public ::testing::Test {
protected:
  void SetUp() override {
    m = parseIR(context, kIR);
    ASSERT_TRUE(m);
    for (llvm::Function &f : *m) {
      llvm::DominatorTree dt(f);
      llvm::LoopInfo loops(dt);
      llvm::TargetLibraryInfoImpl tlii{llvm::Triple(m->getTargetTriple())};
      llvm::TargetLibraryInfo tli(tlii);
      llvm::AssumptionCache ac(f);
      llvm::ScalarEvolution scev(f, tli, ac, dt, loops);
      SpinLoops spin(loops, scev);
      AwaitChecks checks(f, loops, spin);
      checks.insert(f.getArg(2));
    }
    ASSERT_EQ(verify(*m), "");
  }
  bool checked(const char *function) {
    for (llvm::Instruction &i : llvm::instructions(*m->getFunction(function)))
      if (i.getName().starts_with("await.prev"))
        return true;
    return false;
  }
  // Runs `function` with the counter at 0 and returns the state it leaves.
  fcl_yield_state run(IRJit &jit, const char *function, bool checking) {
    fcl_yield_state state{};
    state.checking = checking;
    int32_t counter = 0, tile[8] = {};
    if (auto fn = jit.function<LoopFn>(function))
      fn(&counter, tile, &state);
    EXPECT_EQ(counter, std::string(function) == "counted" ? 0 : 6) << function;
    return state;
  }
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> m;
};

TEST_F(AwaitChecksTest, OnlyLoopsThatMaySpinAreChecked) {
  EXPECT_TRUE(checked("same")) << print(*m);
  EXPECT_TRUE(checked("advancing"));
  EXPECT_FALSE(checked("counted"));
}

TEST_F(AwaitChecksTest, SameStateIsAFailedAwaitAnotherAnAdvance) {
  IRJit jit(*m);
  // Six passes through the latch: the first two set up what to compare with.
  fcl_yield_state same = run(jit, "same", true);
  EXPECT_EQ(same.awaits, 4u);
  EXPECT_EQ(same.advances, 0u);
  // Five back-edges, each with another i and another store to tile.
  fcl_yield_state advancing = run(jit, "advancing", true);
  EXPECT_EQ(advancing.awaits, 0u);
  EXPECT_EQ(advancing.advances, 3u);
  EXPECT_NE(advancing.observed, 0u);
  fcl_yield_state counted = run(jit, "counted", true);
  EXPECT_EQ(counted.awaits + counted.advances + counted.observed, 0u);
}

TEST_F(AwaitChecksTest, NothingIsCountedUnlessTheRuntimeAsks) {
  IRJit jit(*m);
  fcl_yield_state same = run(jit, "same", false);
  EXPECT_EQ(same.awaits + same.advances + same.observed, 0u);
  // Without a yield state (a launch that does not schedule groups) the loops run.
  int32_t counter = 0, tile[8] = {};
  if (auto fn = jit.function<LoopFn>("advancing"))
    fn(&counter, tile, nullptr);
  EXPECT_EQ(counter, 6);
  EXPECT_EQ(tile[4], 4);
}

} // namespace
} // namespace fibercl::compiler::test

// SpinLoops and the shared-memory classification: which accesses another work-group
// can see, and which loops may wait for one (an exit that depends on such memory and
// does not come by itself) -- not bounded polls, nor loops over private or __local
// state.
#include <gtest/gtest.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/TargetParser/Triple.h>

#include "ir_test.hpp"
#include "passes/passes.hpp"
#include "passes/spin_loops.hpp"

namespace fibercl::compiler::test {
namespace {

const char *kIR = R"(
; while (atomic_load(flag) == 0) {}
define void @spin(ptr addrspace(1) %flag) {
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
define void @bounded(ptr addrspace(1) %flag) {
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

; while (tile[0] == 0) { atomic_fetch_add(tile, 0); } on __local memory: only this
; group can change it.
define void @local(ptr addrspace(3) %tile) {
entry:
  br label %wait
wait:
  %old = atomicrmw add ptr addrspace(3) %tile, i32 0 monotonic, align 4
  %zero = icmp eq i32 %old, 0
  br i1 %zero, label %wait, label %done
done:
  ret void
}

; while (atomic_xchg(lock, 1) != 0) {} through a generic pointer
define void @generic(ptr addrspace(4) %lock, ptr addrspace(1) %g, ptr addrspace(2) %c) {
entry:
  %private = alloca i32, align 4
  store volatile i32 1, ptr addrspace(1) %g, align 4
  store volatile i32 1, ptr %private, align 4
  %k = load i32, ptr addrspace(2) %c, align 4
  br label %wait
wait:
  %old = atomicrmw xchg ptr addrspace(4) %lock, i32 1 acquire, align 4
  %held = icmp ne i32 %old, 0
  br i1 %held, label %wait, label %done
done:
  ret void
}
)";

class Spin : public ::testing::Test {
protected:
  void SetUp() override {
    m = parseIR(context, kIR);
    ASSERT_TRUE(m);
  }
  // Does function `name` have a loop that may spin; is `at` (an instruction name) in
  // one?
  bool spins(const char *name, const char *at = nullptr, bool *waiting = nullptr) {
    llvm::Function &f = *m->getFunction(name);
    llvm::DominatorTree dt(f);
    llvm::LoopInfo loops(dt);
    llvm::TargetLibraryInfoImpl tlii{llvm::Triple(m->getTargetTriple())};
    llvm::TargetLibraryInfo tli(tlii);
    llvm::AssumptionCache ac(f);
    llvm::ScalarEvolution scev(f, tli, ac, dt, loops);
    SpinLoops spin(loops, scev);
    if (at)
      for (llvm::Instruction &i : llvm::instructions(f))
        if (i.getName() == at)
          *waiting = spin.waitingAt(i);
    return !spin.empty();
  }
  llvm::Instruction &instruction(const char *function, unsigned opcode, unsigned nth = 0) {
    for (llvm::Instruction &i : llvm::instructions(*m->getFunction(function)))
      if (i.getOpcode() == opcode && nth-- == 0)
        return i;
    ADD_FAILURE() << "no such instruction in " << function;
    return *m->getFunction(function)->getEntryBlock().getTerminator();
  }
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> m;
};

TEST_F(Spin, WaitOnAnotherGroupSpins) {
  bool waiting = false;
  EXPECT_TRUE(spins("spin", "v", &waiting));
  EXPECT_TRUE(waiting);
  EXPECT_TRUE(spins("generic", "old", &waiting));
  EXPECT_TRUE(waiting);
  EXPECT_TRUE(spins("generic", "k", &waiting) && !waiting); // before the loop
}

TEST_F(Spin, BoundedPollsAndLocalLoopsDoNot) {
  EXPECT_FALSE(spins("bounded"));
  EXPECT_FALSE(spins("local"));
}

TEST_F(Spin, SharedMemoryIsGlobalOrUnknown) {
  llvm::Function &g = *m->getFunction("generic");
  EXPECT_TRUE(isShared(g.getArg(0)));  // generic: may be global
  EXPECT_TRUE(isShared(g.getArg(1)));  // global
  EXPECT_FALSE(isShared(g.getArg(2))); // constant
  EXPECT_FALSE(isShared(&instruction("generic", llvm::Instruction::Alloca)));
  EXPECT_FALSE(isShared(m->getFunction("local")->getArg(0)));

  EXPECT_TRUE(isSharedAtomic(instruction("spin", llvm::Instruction::Load)));
  EXPECT_TRUE(isSharedAtomic(instruction("generic", llvm::Instruction::AtomicRMW)));
  EXPECT_FALSE(isSharedAtomic(instruction("local", llvm::Instruction::AtomicRMW)));
  EXPECT_TRUE(isSharedVolatile(instruction("generic", llvm::Instruction::Store, 0)));
  EXPECT_FALSE(isSharedVolatile(instruction("generic", llvm::Instruction::Store, 1)));

  llvm::Instruction &store = instruction("generic", llvm::Instruction::Store, 0);
  EXPECT_EQ(accessedPointer(store), g.getArg(1));
  EXPECT_EQ(accessedPointer(instruction("generic", llvm::Instruction::ICmp)), nullptr);
}

} // namespace
} // namespace fibercl::compiler::test

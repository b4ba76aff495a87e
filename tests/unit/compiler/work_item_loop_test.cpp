// emitWorkItemLoop (work_item_loop.hpp): the loop nest every work-group function is
// built from visits each work-item of the group once, x fastest, with its linear index,
// carries values from one work-item to the next, and marks the loop over x.
#include <gtest/gtest.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/Transforms/Utils/LoopUtils.h>

#include <cstdint>
#include <optional>

#include "ir_jit.hpp"
#include "ir_test.hpp"
#include "passes/passes.hpp"
#include "passes/work_item_loop.hpp"

namespace fibercl::compiler::test {
namespace {

// i64 walk(i32 sx, i32 sy, i32 sz, ptr stats): the nest over sx * sy * sz work-items,
// carrying a hash of the (x, y, z) visited in order, the number of work-items and the
// number whose index was not x + sx * (y + sy * z); stores the last two to stats[0..1]
// and returns the hash.
std::unique_ptr<llvm::Module> buildWalk(llvm::LLVMContext &c) {
  auto m = parseIR(c, "");
  llvm::IRBuilder<> b(c);
  auto *type = llvm::FunctionType::get(
      b.getInt64Ty(), {b.getInt32Ty(), b.getInt32Ty(), b.getInt32Ty(), b.getPtrTy()}, false);
  auto *f = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, "walk", *m);
  b.SetInsertPoint(llvm::BasicBlock::Create(c, "entry", f));
  llvm::Value *size[3] = {f->getArg(0), f->getArg(1), f->getArg(2)};
  std::vector<llvm::Value *> after = emitWorkItemLoop(
      b, size, {b.getInt64(0), b.getInt64(0), b.getInt64(0)},
      [&](llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *y, llvm::Value *z, llvm::Value *index,
          std::vector<llvm::Value *> &carried) {
        llvm::Value *point =
            b.CreateAdd(b.CreateZExt(x, b.getInt64Ty()),
                        b.CreateAdd(b.CreateShl(b.CreateZExt(y, b.getInt64Ty()), 16),
                                    b.CreateShl(b.CreateZExt(z, b.getInt64Ty()), 32)));
        carried[0] = b.CreateAdd(b.CreateMul(carried[0], b.getInt64(1000003)), point);
        carried[1] = b.CreateAdd(carried[1], b.getInt64(1));
        llvm::Value *linear =
            b.CreateAdd(x, b.CreateMul(size[0], b.CreateAdd(y, b.CreateMul(size[1], z))));
        llvm::Value *wrong = b.CreateICmpNE(b.CreateZExt(linear, b.getInt64Ty()), index);
        carried[2] = b.CreateAdd(carried[2], b.CreateZExt(wrong, b.getInt64Ty()));
      });
  b.CreateStore(after[1], f->getArg(3));
  b.CreateStore(after[2], b.CreateConstGEP1_64(b.getInt64Ty(), f->getArg(3), 1));
  b.CreateRet(after[0]);
  return m;
}

using WalkFn = uint64_t (*)(uint32_t, uint32_t, uint32_t, uint64_t *);

TEST(WorkItemLoop, NestIsThreeLoopsWithTheMarkedOneInnermost) {
  llvm::LLVMContext c;
  std::unique_ptr<llvm::Module> m = buildWalk(c);
  ASSERT_EQ(verify(*m), "");
  llvm::Function &f = *m->getFunction("walk");
  llvm::DominatorTree dt(f);
  llvm::LoopInfo loops(dt);
  unsigned marked = 0, all = 0;
  for (llvm::Loop *l : loops.getLoopsInPreorder()) {
    ++all;
    if (llvm::findOptionMDForLoop(l, kWorkItemLoopMetadata)) {
      ++marked;
      EXPECT_EQ(l->getLoopDepth(), 3u);
      EXPECT_TRUE(l->getSubLoops().empty());
      // Vectorised but not interleaved (work_item_loop.cpp says why).
      std::optional<int> interleave =
          llvm::getOptionalIntLoopAttribute(l, "llvm.loop.interleave.count");
      EXPECT_EQ(interleave, std::optional<int>(1)) << print(*m);
    }
  }
  EXPECT_EQ(all, 3u) << print(*m);
  EXPECT_EQ(marked, 1u) << print(*m);
}

TEST(WorkItemLoop, VisitsEveryWorkItemOnceInOrder) {
  llvm::LLVMContext c;
  std::unique_ptr<llvm::Module> m = buildWalk(c);
  IRJit jit(*m);
  auto walk = jit.function<WalkFn>("walk");
  ASSERT_TRUE(walk);
  const uint32_t sizes[][3] = {{1, 1, 1}, {5, 1, 1}, {3, 4, 2}, {1, 7, 3}};
  for (const auto &s : sizes) {
    uint64_t expected = 0;
    for (uint64_t z = 0; z < s[2]; ++z)
      for (uint64_t y = 0; y < s[1]; ++y)
        for (uint64_t x = 0; x < s[0]; ++x)
          expected = expected * 1000003 + (x + (y << 16) + (z << 32));
    uint64_t stats[2] = {~0ull, ~0ull};
    EXPECT_EQ(walk(s[0], s[1], s[2], stats), expected) << s[0] << "x" << s[1] << "x" << s[2];
    EXPECT_EQ(stats[0], uint64_t(s[0]) * s[1] * s[2]);
    EXPECT_EQ(stats[1], 0u) << "work-items with the wrong linear index";
  }
}

} // namespace
} // namespace fibercl::compiler::test

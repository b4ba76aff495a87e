// LocalMemoryPass: kernel-scope __local variables become offsets in the work-group's
// local block (ctx->local_mem), laid out per kernel, and the kernel records the
// block's size.
#include <gtest/gtest.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Instructions.h>

#include <cstddef>

#include "fibercl/kernel_abi.h"
#include "ir_test.hpp"
#include "passes/passes.hpp"

namespace fibercl::compiler::test {
namespace {

// __local int tmp[16]; __local int flag;  k uses both (tmp through a constant
// expression too), only_flag uses flag.
const char *kIR = R"(
@tmp = internal addrspace(3) global [16 x i32] undef, align 4
@flag = internal addrspace(3) global i32 undef, align 4

define void @k.fibercl.body(ptr addrspace(1) %out, ptr %ctx, i32 %x, i32 %y, i32 %z) #0 {
  %p = getelementptr inbounds [16 x i32], ptr addrspace(3) @tmp, i32 0, i32 %x
  store i32 %x, ptr addrspace(3) %p, align 4
  store i32 3, ptr addrspace(3) getelementptr inbounds ([16 x i32], ptr addrspace(3) @tmp, i32 0, i32 3), align 4
  store i32 1, ptr addrspace(3) @flag, align 4
  ret void
}

define void @only_flag.fibercl.body(ptr addrspace(1) %out, ptr %ctx, i32 %x, i32 %y, i32 %z) #1 {
  store i32 1, ptr addrspace(3) @flag, align 4
  ret void
}

attributes #0 = { "fibercl-kernel"="k" }
attributes #1 = { "fibercl-kernel"="only_flag" }
)";

class LocalMemory : public ::testing::Test {
protected:
  void SetUp() override {
    m = parseIR(context, kIR);
    ASSERT_TRUE(m);
    PassRunner().runOnModule(*m, LocalMemoryPass());
    ASSERT_EQ(verify(*m), "");
  }
  llvm::Function &body(const char *kernel) { return *findBody(*m, kernel); }
  // Where each store of the body writes: the object under its address and the constant
  // offset from it (0 when the offset is not constant).
  std::vector<std::pair<const llvm::Value *, int64_t>> storeAddresses(const char *kernel) {
    std::vector<std::pair<const llvm::Value *, int64_t>> found;
    for (llvm::BasicBlock &bb : body(kernel))
      for (llvm::Instruction &i : bb)
        if (auto *s = llvm::dyn_cast<llvm::StoreInst>(&i)) {
          int64_t offset = 0;
          const llvm::Value *base = llvm::GetPointerBaseWithConstantOffset(
              s->getPointerOperand(), offset, m->getDataLayout());
          found.push_back({llvm::getUnderlyingObject(base), offset});
        }
    return found;
  }
  // Is `v` the group's local block: inttoptr(load i64 from ctx + offsetof(local_mem))?
  bool isLocalBlock(const llvm::Value *v, const char *kernel) {
    auto *cast = llvm::dyn_cast<llvm::IntToPtrInst>(v);
    auto *load = cast ? llvm::dyn_cast<llvm::LoadInst>(cast->getOperand(0)) : nullptr;
    if (!load)
      return false;
    int64_t offset = 0;
    const llvm::Value *base = llvm::GetPointerBaseWithConstantOffset(load->getPointerOperand(),
                                                                     offset, m->getDataLayout());
    llvm::Function &f = body(kernel);
    return base == f.getArg(f.arg_size() - 4) && offset == offsetof(fcl_group_ctx, local_mem);
  }
  uint64_t blockSize(const char *kernel) {
    uint64_t size = 0;
    body(kernel).getFnAttribute(kLocalSizeAttr).getValueAsString().getAsInteger(10, size);
    return size;
  }
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> m;
};

TEST_F(LocalMemory, VariablesBecomeOffsetsInTheGroupsBlock) {
  for (const char *variable : {"tmp", "flag"})
    for (const llvm::User *user : m->getNamedGlobal(variable)->users())
      EXPECT_FALSE(llvm::isa<llvm::Instruction>(user))
          << variable << " is still used in a kernel:\n"
          << print(*m);
  auto stores = storeAddresses("k");
  ASSERT_EQ(stores.size(), 3u);
  // tmp[x]: at a variable offset, in the block too.
  EXPECT_TRUE(isLocalBlock(stores[0].first, "k")) << print(*m);
  EXPECT_TRUE(isLocalBlock(stores[1].first, "k")) << print(*m);
  EXPECT_EQ(stores[1].second, 12); // tmp[3]
  EXPECT_TRUE(isLocalBlock(stores[2].first, "k")) << print(*m);
  EXPECT_EQ(stores[2].second, 64); // flag, after tmp, 16-byte aligned
}

TEST_F(LocalMemory, EachKernelLaysOutWhatItUses) {
  EXPECT_EQ(blockSize("k"), 68u) << print(*m);
  EXPECT_EQ(blockSize("only_flag"), 4u) << print(*m);
  auto stores = storeAddresses("only_flag");
  ASSERT_EQ(stores.size(), 1u);
  EXPECT_TRUE(isLocalBlock(stores[0].first, "only_flag")) << print(*m);
  EXPECT_EQ(stores[0].second, 0);
}

} // namespace
} // namespace fibercl::compiler::test

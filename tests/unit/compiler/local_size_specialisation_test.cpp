// specialiseWorkGroupFunction: a kernel with barrier regions, built from OpenCL C,
// copied for one work-group size. The copy reads no size from its context, keeps its
// frames on its own stack when they are small, and is the module's only external
// definition; a kernel that writes a program-scope variable is not copied.
#include <gtest/gtest.h>

#include <llvm/ADT/APInt.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "binary_format.hpp"
#include "fibercl/compiler/compiler.hpp"
#include "fibercl/kernel_abi.h"
#include "ir_test.hpp"
#include "local_size_specialisation.hpp"

namespace fibercl::compiler::test {
namespace {

const char *kRotate = R"(
kernel void rotate(global uint *data, local uint *buf, int iters) {
  uint lid = get_local_id(0), l = get_local_size(0);
  uint v = data[get_global_id(0)];
  for (int t = 0; t < iters; ++t) {
    buf[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = buf[lid + 1 == l ? 0 : lid + 1] + lid;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  data[get_global_id(0)] = v;
}
global int launches;
kernel void counted(global int *out, local int *buf) {
  buf[get_local_id(0)] = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    out[get_group_id(0)] = buf[get_local_size(0) - 1] + launches++;
}
)";

std::string executableBitcode() {
  Result built = build(kRotate, "-cl-std=CL2.0");
  EXPECT_TRUE(built.success) << built.log;
  DecodedBinary decoded;
  EXPECT_TRUE(decodeBinary(built.binary.bytes.data(), built.binary.bytes.size(), decoded));
  return decoded.bitcode;
}

// Loads of the size fields of fcl_group_ctx from f's context argument.
unsigned sizeLoads(llvm::Function &f) {
  const llvm::DataLayout &dl = f.getParent()->getDataLayout();
  unsigned n = 0;
  for (llvm::Instruction &i : llvm::instructions(f))
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&i)) {
      llvm::APInt offset(64, 0);
      if (load->getPointerOperand()->stripAndAccumulateConstantOffsets(dl, offset, true) !=
          f.getArg(1))
        continue;
      uint64_t o = offset.getZExtValue();
      n += o >= offsetof(fcl_group_ctx, enqueued_local_size) &&
           o < offsetof(fcl_group_ctx, local_size) + 24;
    }
  return n;
}

// The constant arguments (work-items, bytes of frames) of f's one call of
// FIBERCL_HOST_REGIONS_BEGIN; {0, 0} (and a failure) if there is not exactly one.
std::pair<uint64_t, uint64_t> regionsBegin(llvm::Function &f) {
  std::vector<llvm::CallBase *> begins = callsTo(f, FIBERCL_HOST_REGIONS_BEGIN);
  EXPECT_EQ(begins.size(), 1u);
  if (begins.size() != 1)
    return {0, 0};
  auto arg = [&](unsigned i) {
    return llvm::cast<llvm::ConstantInt>(begins[0]->getArgOperand(i))->getZExtValue();
  };
  return {arg(1), arg(2)};
}

TEST(LocalSizeSpecialisation, TheCopyReadsNoSizeAndKeepsItsFramesOnItsStack) {
  std::string bitcode = executableBitcode();
  llvm::LLVMContext context;
  const uint64_t size[3] = {16, 1, 1};
  std::string name, why;
  auto m = specialiseWorkGroupFunction(context, bitcode, "rotate", size, name, why);
  ASSERT_TRUE(m) << why;
  EXPECT_EQ(name, "__fibercl_wg_rotate.local16x1x1");
  EXPECT_EQ(verify(*m), "");
  for (const llvm::Function &f : *m) {
    if (!f.isDeclaration()) {
      EXPECT_TRUE(f.getName() == name || f.hasLocalLinkage()) << f.getName().str();
    }
  }
  llvm::Function *f = m->getFunction(name);
  ASSERT_TRUE(f);
  EXPECT_EQ(sizeLoads(*f), 0u);
  // The runtime is still told the group's shape, but asked for no frames.
  EXPECT_EQ(regionsBegin(*f), std::make_pair(uint64_t(16), uint64_t(0)));
}

TEST(LocalSizeSpecialisation, LargeFramesStayWithTheRuntime) {
  std::string bitcode = executableBitcode();
  llvm::LLVMContext context;
  const uint64_t size[3] = {1024, 1, 1};
  std::string name, why;
  auto m = specialiseWorkGroupFunction(context, bitcode, "rotate", size, name, why);
  ASSERT_TRUE(m) << why;
  EXPECT_GT(regionsBegin(*m->getFunction(name)).second, 8192u);
}

TEST(LocalSizeSpecialisation, AKernelWithAProgramScopeVariableIsNotCopied) {
  std::string bitcode = executableBitcode();
  llvm::LLVMContext context;
  const uint64_t size[3] = {16, 1, 1};
  std::string name, why;
  EXPECT_FALSE(specialiseWorkGroupFunction(context, bitcode, "counted", size, name, why));
  EXPECT_NE(why.find("launches"), std::string::npos) << why;
  EXPECT_FALSE(specialiseWorkGroupFunction(context, bitcode, "nosuchkernel", size, name, why));
}

// LLVM's SLP vectoriser may join the loads of two sizes into one vector load (it did in
// a checked stencil): the copy folds it too, element by element.
TEST(LocalSizeSpecialisation, AVectorLoadOfSizesIsFolded) {
  const uint64_t enqueued = offsetof(fcl_group_ctx, enqueued_local_size);
  const std::string ir = R"(
define void @__fibercl_wg_k(ptr %args, ptr %ctx) {
  %p = getelementptr inbounds i8, ptr %ctx, i64 )" +
                         std::to_string(enqueued + 16) + R"(
  %v = load <2 x i64>, ptr %p, align 8
  store <2 x i64> %v, ptr %args, align 8
  ret void
}
)";
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> handMade = parseIR(context, ir);
  ASSERT_TRUE(handMade);
  std::string bitcode;
  llvm::raw_string_ostream os(bitcode);
  llvm::WriteBitcodeToFile(*handMade, os);
  os.flush();
  const uint64_t size[3] = {16, 4, 2};
  std::string name, why;
  auto m = specialiseWorkGroupFunction(context, bitcode, "k", size, name, why);
  ASSERT_TRUE(m) << why;
  llvm::Function *f = m->getFunction(name);
  ASSERT_TRUE(f);
  EXPECT_EQ(sizeLoads(*f), 0u);
  // enqueued_local_size[2], then local_size[0]
  llvm::StoreInst *store = nullptr;
  for (llvm::Instruction &i : llvm::instructions(*f))
    if (auto *s = llvm::dyn_cast<llvm::StoreInst>(&i))
      store = s;
  ASSERT_TRUE(store);
  auto *stored = llvm::dyn_cast<llvm::Constant>(store->getValueOperand());
  ASSERT_TRUE(stored) << print(*m);
  EXPECT_EQ(llvm::cast<llvm::ConstantInt>(stored->getAggregateElement(0u))->getZExtValue(), 2u);
  EXPECT_EQ(llvm::cast<llvm::ConstantInt>(stored->getAggregateElement(1u))->getZExtValue(), 16u);
}

} // namespace
} // namespace fibercl::compiler::test

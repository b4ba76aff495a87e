// SmallVectorScalarizerPass: a work-group function whose work-item loops compute in
// 2-4 lane vectors (float2, float4) computes in scalars instead, with the same
// results; wide vectors, serial work-items and work-item loops with loops inside are
// left alone.
#include <gtest/gtest.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/InstIterator.h>

#include "ir_jit.hpp"
#include "ir_test.hpp"
#include "passes/passes.hpp"

namespace fibercl::compiler::test {
namespace {

// out[x] = in[x] + in[x] (float2 and float8) over a work-item loop of n >= 1 items.
#define FIBERCL_WORK_ITEM_LOOP(NAME, TYPE, ATTRS, LOOP)                                            \
  "define void @__fibercl_wg_" NAME "(ptr noalias %in, ptr noalias %out, i32 %n) " ATTRS " {\n"    \
  "entry:\n  br label %items\n"                                                                    \
  "items:\n"                                                                                       \
  "  %x = phi i32 [ 0, %entry ], [ %x.next, %latch ]\n"                                            \
  "  %p = getelementptr inbounds " TYPE ", ptr %in, i32 %x\n"                                      \
  "  %v = load " TYPE ", ptr %p, align 8\n"                                                        \
  "  %w = fadd " TYPE " %v, %v\n"                                                                  \
  "  %q = getelementptr inbounds " TYPE ", ptr %out, i32 %x\n"                                     \
  "  store " TYPE " %w, ptr %q, align 8\n" LOOP "latch:\n"                                         \
  "  %x.next = add nuw i32 %x, 1\n"                                                                \
  "  %again = icmp ult i32 %x.next, %n\n"                                                          \
  "  br i1 %again, label %items, label %done, !llvm.loop !0\n"                                     \
  "done:\n  ret void\n}\n"

#define STRAIGHT "  br label %latch\n"
#define INNER_LOOP                                                                                 \
  "  br label %inner\n"                                                                            \
  "inner:\n"                                                                                       \
  "  %i = phi i32 [ 0, %items ], [ %i.next, %inner ]\n"                                            \
  "  %i.next = add i32 %i, 1\n"                                                                    \
  "  %more = icmp ult i32 %i.next, 4\n"                                                            \
  "  br i1 %more, label %inner, label %latch\n"

const char *kIR = FIBERCL_WORK_ITEM_LOOP("small", "<2 x float>", "", STRAIGHT)
    FIBERCL_WORK_ITEM_LOOP("wide", "<8 x float>", "", STRAIGHT)
        FIBERCL_WORK_ITEM_LOOP("serial", "<2 x float>", "#0", STRAIGHT)
            FIBERCL_WORK_ITEM_LOOP("nested", "<2 x float>", "",
                                   INNER_LOOP) "attributes #0 = { \"fibercl-serial-items\" }\n"
                                               "!0 = distinct !{!0, !1}\n"
                                               "!1 = !{!\"fibercl.work_item_loop\"}\n";

// Does `f` compute in vectors (any instruction of vector type, or with a vector
// operand)?
bool hasVectors(llvm::Function &f) {
  for (llvm::Instruction &i : llvm::instructions(f)) {
    if (i.getType()->isVectorTy())
      return true;
    for (llvm::Use &op : i.operands())
      if (op->getType()->isVectorTy())
        return true;
  }
  return false;
}

class SmallVectors : public ::testing::Test {
protected:
  void SetUp() override {
    original = parseIR(context, kIR);
    m = parseIR(context, kIR);
    ASSERT_TRUE(original && m);
    PassRunner().runOnFunctions(*m, SmallVectorScalarizerPass());
    ASSERT_EQ(verify(*m), "");
  }
  llvm::Function &wg(const char *kernel) { return *m->getFunction(workGroupName(kernel)); }
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> original, m;
};

TEST_F(SmallVectors, SmallVectorsBecomeScalars) {
  EXPECT_FALSE(hasVectors(wg("small"))) << print(*m);
  ASSERT_TRUE(hasVectors(*original->getFunction(workGroupName("small"))));

  using Fn = void (*)(const float *, float *, int);
  float in[6] = {1, 2, 3, 4, 5, 6}, out[8] = {0, 0, 0, 0, 0, 0, -1, -1};
  IRJit jit(*m);
  auto small = jit.function<Fn>(workGroupName("small"));
  ASSERT_TRUE(small);
  small(in, out, 3);
  const float expected[8] = {2, 4, 6, 8, 10, 12, -1, -1};
  for (int k = 0; k < 8; ++k)
    EXPECT_EQ(out[k], expected[k]) << k;
}

TEST_F(SmallVectors, OthersAreLeftAlone) {
  EXPECT_TRUE(hasVectors(wg("wide"))) << print(*m);
  EXPECT_TRUE(hasVectors(wg("serial")));
  EXPECT_TRUE(hasVectors(wg("nested")));
}

} // namespace
} // namespace fibercl::compiler::test

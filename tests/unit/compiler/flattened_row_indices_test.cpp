// FlattenedRowIndicesPass: `tile[i / W][i % W]` becomes element i of the rows laid end
// to end -- the same address for every i, signed or unsigned -- and nothing else changes.
#include <gtest/gtest.h>
#include <llvm/IR/Instructions.h>

#include <cstdint>

#include "ir_jit.hpp"
#include "ir_test.hpp"
#include "passes/passes.hpp"

namespace fibercl::compiler::test {
namespace {

// Each function returns the address it computes from `tile` and `i`.
const char *kIR = R"(
define ptr @unsigned_narrowed(ptr %tile, i32 %i) {
  %a = trunc i32 %i to i16
  %q = udiv i16 %a, 18
  %b = trunc i32 %i to i16
  %r = urem i16 %b, 18
  %qi = zext i16 %q to i64
  %ri = zext i16 %r to i64
  %p = getelementptr inbounds [18 x [18 x float]], ptr %tile, i64 0, i64 %qi, i64 %ri
  ret ptr %p
}

define ptr @signed_rows(ptr %tile, i32 %i) {
  %q = sdiv i32 %i, 6
  %r = srem i32 %i, 6
  %qi = sext i32 %q to i64
  %ri = sext i32 %r to i64
  %p = getelementptr [6 x i32], ptr %tile, i64 %qi, i64 %ri
  ret ptr %p
}

define ptr @struct_fields(ptr %tile, i32 %i) {
  %q = udiv i32 %i, 5
  %r = urem i32 %i, 5
  %p = getelementptr [4 x [5 x {i32, double}]], ptr %tile, i32 0, i32 %q, i32 %r, i32 1
  ret ptr %p
}

define ptr @rows_of_eight(ptr %tile, i32 %i) {
  %q = lshr i32 %i, 3
  %r = and i32 %i, 7
  %qi = zext i32 %q to i64
  %ri = zext i32 %r to i64
  %p = getelementptr inbounds [8 x [8 x i32]], ptr %tile, i64 0, i64 %qi, i64 %ri
  ret ptr %p
}

define ptr @rows_of_256(ptr %tile, i32 %i) {
  %q = lshr i32 %i, 8
  %r = trunc i32 %i to i8
  %qi = zext i32 %q to i64
  %ri = zext i8 %r to i64
  %p = getelementptr [256 x i8], ptr %tile, i64 %qi, i64 %ri
  ret ptr %p
}

define ptr @widened_rows_of_eight(ptr %tile, i64 %w) {
  %i = and i64 %w, 4294967295
  %d = lshr i64 %i, 3
  %q = and i64 %d, 536870911
  %r = and i64 %i, 7
  %p = getelementptr inbounds [8 x [8 x float]], ptr %tile, i64 0, i64 %q, i64 %r
  ret ptr %p
}

define ptr @other_rows(ptr %tile, i32 %i) {
  %q = udiv i32 %i, 16
  %r = urem i32 %i, 16
  %p = getelementptr [18 x [18 x float]], ptr %tile, i32 0, i32 %q, i32 %r
  ret ptr %p
}

define ptr @mixed_signs(ptr %tile, i32 %i) {
  %q = sdiv i32 %i, 18
  %r = urem i32 %i, 18
  %p = getelementptr [18 x [18 x float]], ptr %tile, i32 0, i32 %q, i32 %r
  ret ptr %p
}
)";

class FlattenedRowIndices : public ::testing::Test {
protected:
  void SetUp() override {
    m = parseIR(context, kIR);
    ASSERT_TRUE(m);
  }
  // The GEP each function returns.
  llvm::GetElementPtrInst *returned(const char *name) {
    llvm::Function *f = m->getFunction(name);
    auto *ret = llvm::cast<llvm::ReturnInst>(f->getEntryBlock().getTerminator());
    return llvm::dyn_cast<llvm::GetElementPtrInst>(ret->getReturnValue());
  }
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> m;
};

TEST_F(FlattenedRowIndices, SameAddressesAsElementsOfTheRows) {
  using Fn = char *(*)(char *, int32_t);
  IRJit before(*m);
  PassRunner().runOnFunctions(*m, FlattenedRowIndicesPass());
  ASSERT_EQ(verify(*m), "");
  IRJit after(*m);
  for (const char *name : {"unsigned_narrowed", "signed_rows", "struct_fields", "rows_of_eight",
                           "rows_of_256", "widened_rows_of_eight", "other_rows", "mixed_signs"}) {
    SCOPED_TRACE(name);
    Fn was = before.function<Fn>(name), is = after.function<Fn>(name);
    ASSERT_TRUE(was && is);
    char *tile = reinterpret_cast<char *>(uintptr_t(1) << 32);
    for (int32_t i : {0, 1, 17, 18, 19, 35, 36, 323, 324, 1000, -1, -7, -18, -19})
      EXPECT_EQ(was(tile, i), is(tile, i)) << i;
  }
  // Flattened: one index into the rows' elements (and the struct's field after it).
  for (const char *name : {"unsigned_narrowed", "signed_rows", "struct_fields", "rows_of_eight",
                           "rows_of_256", "widened_rows_of_eight"}) {
    llvm::GetElementPtrInst *gep = returned(name);
    ASSERT_TRUE(gep) << name;
    EXPECT_FALSE(gep->getSourceElementType()->isArrayTy()) << name;
  }
  EXPECT_EQ(returned("struct_fields")->getNumIndices(), 2u);
  // Not a pair of the array's own row length, or not of one signedness: left alone.
  for (const char *name : {"other_rows", "mixed_signs"})
    EXPECT_EQ(returned(name)->getNumIndices(), 3u) << name;
}

} // namespace
} // namespace fibercl::compiler::test

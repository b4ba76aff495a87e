// streamsMemory (compiler/src/vector_width.cpp): which kernel bodies only stream memory
// and get 256-bit vectors on AVX-512 hosts -- straight-line code with at most two
// arithmetic operations per global access -- and which keep the full width.
#include <gtest/gtest.h>

#include "ir_test.hpp"
#include "vector_width.hpp"

#include <llvm/IR/Module.h>

namespace fibercl::compiler::test {
namespace {

bool streams(const char *ir) {
  llvm::LLVMContext context;
  auto m = parseIR(context, ir);
  EXPECT_TRUE(m);
  return m && streamsMemory(*m->getFunction("body"));
}

TEST(VectorWidth, CopyScaleAndSaxpyStreamMemory) {
  // b[i] = a[i], with the index arithmetic of get_global_id (one multiply).
  EXPECT_TRUE(streams(R"(
define void @body(ptr addrspace(1) %a, ptr addrspace(1) %b, i64 %group, i64 %size, i64 %lid) {
  %base = mul i64 %group, %size
  %i = add i64 %base, %lid
  %pa = getelementptr float, ptr addrspace(1) %a, i64 %i
  %v = load float, ptr addrspace(1) %pa, align 4
  %pb = getelementptr float, ptr addrspace(1) %b, i64 %i
  store float %v, ptr addrspace(1) %pb, align 4
  ret void
})"));
  // y[i] = alpha * x[i] + y[i]: fmuladd, two loads, one store.
  EXPECT_TRUE(streams(R"(
define void @body(ptr addrspace(1) %x, ptr addrspace(1) %y, float %alpha, i64 %i) {
  %px = getelementptr float, ptr addrspace(1) %x, i64 %i
  %vx = load float, ptr addrspace(1) %px, align 4
  %py = getelementptr float, ptr addrspace(1) %y, i64 %i
  %vy = load float, ptr addrspace(1) %py, align 4
  %r = call float @llvm.fmuladd.f32(float %alpha, float %vx, float %vy)
  store float %r, ptr addrspace(1) %py, align 4
  ret void
}
declare float @llvm.fmuladd.f32(float, float, float))"));
}

TEST(VectorWidth, ArithmeticHeavyBodiesKeepTheFullWidth) {
  // Seven multiplies for one load and one store.
  EXPECT_FALSE(streams(R"(
define void @body(ptr addrspace(1) %a, i64 %i) {
  %p = getelementptr float, ptr addrspace(1) %a, i64 %i
  %v = load float, ptr addrspace(1) %p, align 4
  %m1 = fmul float %v, %v
  %m2 = fmul float %m1, %v
  %m3 = fmul float %m2, %v
  %m4 = fmul float %m3, %v
  %m5 = fmul float %m4, %v
  %m6 = fmul float %m5, %v
  %m7 = fmul float %m6, %v
  store float %m7, ptr addrspace(1) %p, align 4
  ret void
})"));
  // A math library call counts as much work.
  EXPECT_FALSE(streams(R"(
define void @body(ptr addrspace(1) %a, i64 %i) {
  %p = getelementptr float, ptr addrspace(1) %a, i64 %i
  %v = load float, ptr addrspace(1) %p, align 4
  %s = call float @_Z3sinf(float %v)
  store float %s, ptr addrspace(1) %p, align 4
  ret void
}
declare float @_Z3sinf(float))"));
}

TEST(VectorWidth, LoopsAndPrivateOnlyBodiesKeepTheFullWidth) {
  // A loop (mandelbrot's shape): the trip count, not the memory, decides.
  EXPECT_FALSE(streams(R"(
define void @body(ptr addrspace(1) %a, i64 %i) {
entry:
  %p = getelementptr float, ptr addrspace(1) %a, i64 %i
  br label %loop
loop:
  %n = phi i32 [ 0, %entry ], [ %n1, %loop ]
  %n1 = add i32 %n, 1
  %done = icmp eq i32 %n1, 100
  br i1 %done, label %exit, label %loop
exit:
  store i32 %n1, ptr addrspace(1) %p, align 4
  ret void
})"));
  // No global access at all.
  EXPECT_FALSE(streams(R"(
define void @body(ptr %priv) {
  store i32 1, ptr %priv, align 4
  ret void
})"));
}

} // namespace
} // namespace fibercl::compiler::test

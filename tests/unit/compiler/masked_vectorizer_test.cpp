// MaskedWorkItemVectorizerPass: a work-item loop with a loop inside runs W work-items
// per iteration under masks -- and computes what the scalar loop computed, the last
// partial vector included; one it cannot widen keeps its scalar loop.
#include <gtest/gtest.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

#include <vector>

#include "ir_jit.hpp"
#include "ir_test.hpp"
#include "passes/passes.hpp"

namespace fibercl::compiler::test {
namespace {

// Work-item loops as WorkGroupFunctionPass and O3 leave them (do-while over x < n,
// marked fibercl.work_item_loop), each with an inner loop:
//   divergent: s = 0; for (i = 0; i < in[x]; ++i) s += i + bias; out[x] = s;
//   uniform:   s = 0; for (i = 0; i < count; ++i) s += i;      out[x] = s + in[x];
//   atomic:    for (i = 0; i < in[x]; ++i) atomic_add(out, 1);
//   private:   int tmp[4] (one per work-group function); for (...) tmp[i & 3] = i;
//              out[x] = tmp[0];
//   divide:    s = 0; for (i = 0; i < in[x]; ++i) s += 100 / (in[x] - i); out[x] = s;
//              (0 in the lanes that are not in the loop)
const char *kIR = R"(
define void @__fibercl_wg_divergent(ptr noalias %in, ptr noalias %out, i32 %n, i32 %bias) {
entry:
  br label %items
items:
  %x = phi i32 [ 0, %entry ], [ %x.next, %latch ]
  %xi = zext i32 %x to i64
  %pin = getelementptr inbounds i32, ptr %in, i64 %xi
  %count = load i32, ptr %pin, align 4
  %enter = icmp sgt i32 %count, 0
  br i1 %enter, label %inner.pre, label %latch
inner.pre:
  br label %inner
inner:
  %i = phi i32 [ 0, %inner.pre ], [ %i.next, %inner ]
  %s = phi i32 [ 0, %inner.pre ], [ %s.next, %inner ]
  %t = add i32 %i, %bias
  %s.next = add i32 %s, %t
  %i.next = add nuw nsw i32 %i, 1
  %more = icmp slt i32 %i.next, %count
  br i1 %more, label %inner, label %inner.exit
inner.exit:
  %s.lcssa = phi i32 [ %s.next, %inner ]
  br label %latch
latch:
  %sum = phi i32 [ 0, %items ], [ %s.lcssa, %inner.exit ]
  %pout = getelementptr inbounds i32, ptr %out, i64 %xi
  store i32 %sum, ptr %pout, align 4
  %x.next = add nuw i32 %x, 1
  %again = icmp ult i32 %x.next, %n
  br i1 %again, label %items, label %done, !llvm.loop !0
done:
  ret void
}

define void @__fibercl_wg_uniform(ptr noalias %in, ptr noalias %out, i32 %n, i32 %count) {
entry:
  %enter = icmp sgt i32 %count, 0
  br label %items
items:
  %x = phi i32 [ 0, %entry ], [ %x.next, %latch ]
  %xi = zext i32 %x to i64
  br i1 %enter, label %inner.pre, label %latch
inner.pre:
  br label %inner
inner:
  %i = phi i32 [ 0, %inner.pre ], [ %i.next, %inner ]
  %s = phi i32 [ 0, %inner.pre ], [ %s.next, %inner ]
  %s.next = add i32 %s, %i
  %i.next = add nuw nsw i32 %i, 1
  %more = icmp slt i32 %i.next, %count
  br i1 %more, label %inner, label %inner.exit
inner.exit:
  %s.lcssa = phi i32 [ %s.next, %inner ]
  br label %latch
latch:
  %sum = phi i32 [ 0, %items ], [ %s.lcssa, %inner.exit ]
  %pin = getelementptr inbounds i32, ptr %in, i64 %xi
  %v = load i32, ptr %pin, align 4
  %r = add i32 %sum, %v
  %pout = getelementptr inbounds i32, ptr %out, i64 %xi
  store i32 %r, ptr %pout, align 4
  %x.next = add nuw i32 %x, 1
  %again = icmp ult i32 %x.next, %n
  br i1 %again, label %items, label %done, !llvm.loop !2
done:
  ret void
}

define void @__fibercl_wg_atomic(ptr noalias %in, ptr noalias %out, i32 %n, i32 %unused) {
entry:
  br label %items
items:
  %x = phi i32 [ 0, %entry ], [ %x.next, %latch ]
  %xi = zext i32 %x to i64
  %pin = getelementptr inbounds i32, ptr %in, i64 %xi
  %count = load i32, ptr %pin, align 4
  %enter = icmp sgt i32 %count, 0
  br i1 %enter, label %inner.pre, label %latch
inner.pre:
  br label %inner
inner:
  %i = phi i32 [ 0, %inner.pre ], [ %i.next, %inner ]
  %old = atomicrmw add ptr %out, i32 1 monotonic, align 4
  %i.next = add nuw nsw i32 %i, 1
  %more = icmp slt i32 %i.next, %count
  br i1 %more, label %inner, label %inner.exit
inner.exit:
  br label %latch
latch:
  %x.next = add nuw i32 %x, 1
  %again = icmp ult i32 %x.next, %n
  br i1 %again, label %items, label %done, !llvm.loop !3
done:
  ret void
}

define void @__fibercl_wg_private(ptr noalias %in, ptr noalias %out, i32 %n, i32 %unused) {
entry:
  %tmp = alloca [4 x i32], align 16
  store i32 -7, ptr %tmp, align 16
  br label %items
items:
  %x = phi i32 [ 0, %entry ], [ %x.next, %latch ]
  %xi = zext i32 %x to i64
  %pin = getelementptr inbounds i32, ptr %in, i64 %xi
  %count = load i32, ptr %pin, align 4
  %enter = icmp sgt i32 %count, 0
  br i1 %enter, label %inner.pre, label %latch
inner.pre:
  br label %inner
inner:
  %i = phi i32 [ 0, %inner.pre ], [ %i.next, %inner ]
  %slot = and i32 %i, 3
  %p = getelementptr inbounds [4 x i32], ptr %tmp, i32 0, i32 %slot
  store i32 %i, ptr %p, align 4
  %i.next = add nuw nsw i32 %i, 1
  %more = icmp slt i32 %i.next, %count
  br i1 %more, label %inner, label %inner.exit
inner.exit:
  br label %latch
latch:
  %first = load i32, ptr %tmp, align 16
  %pout = getelementptr inbounds i32, ptr %out, i64 %xi
  store i32 %first, ptr %pout, align 4
  %x.next = add nuw i32 %x, 1
  %again = icmp ult i32 %x.next, %n
  br i1 %again, label %items, label %done, !llvm.loop !4
done:
  ret void
}

define void @__fibercl_wg_divide(ptr noalias %in, ptr noalias %out, i32 %n, i32 %unused) {
entry:
  br label %items
items:
  %x = phi i32 [ 0, %entry ], [ %x.next, %latch ]
  %xi = zext i32 %x to i64
  %pin = getelementptr inbounds i32, ptr %in, i64 %xi
  %count = load i32, ptr %pin, align 4
  %enter = icmp sgt i32 %count, 0
  br i1 %enter, label %inner.pre, label %latch
inner.pre:
  br label %inner
inner:
  %i = phi i32 [ 0, %inner.pre ], [ %i.next, %inner ]
  %s = phi i32 [ 0, %inner.pre ], [ %s.next, %inner ]
  %left = sub i32 %count, %i
  %q = sdiv i32 100, %left
  %s.next = add i32 %s, %q
  %i.next = add nuw nsw i32 %i, 1
  %more = icmp slt i32 %i.next, %count
  br i1 %more, label %inner, label %inner.exit
inner.exit:
  %s.lcssa = phi i32 [ %s.next, %inner ]
  br label %latch
latch:
  %sum = phi i32 [ 0, %items ], [ %s.lcssa, %inner.exit ]
  %pout = getelementptr inbounds i32, ptr %out, i64 %xi
  store i32 %sum, ptr %pout, align 4
  %x.next = add nuw i32 %x, 1
  %again = icmp ult i32 %x.next, %n
  br i1 %again, label %items, label %done, !llvm.loop !5
done:
  ret void
}

; rows: the divergent loop over two rows of n / 2 work-items; the x loop's linear index
; goes on into the next row (as emitWorkItemLoop's loops over y and x do).
define void @__fibercl_wg_rows(ptr noalias %in, ptr noalias %out, i32 %n, i32 %bias) {
entry:
  %half = lshr i32 %n, 1
  br label %row
row:
  %y = phi i32 [ 0, %entry ], [ %y.next, %row.end ]
  %start = phi i64 [ 0, %entry ], [ %index.after, %row.end ]
  br label %items
items:
  %x = phi i32 [ 0, %row ], [ %x.next, %latch ]
  %index = phi i64 [ %start, %row ], [ %index.next, %latch ]
  %pin = getelementptr inbounds i32, ptr %in, i64 %index
  %count = load i32, ptr %pin, align 4
  %enter = icmp sgt i32 %count, 0
  br i1 %enter, label %inner.pre, label %latch
inner.pre:
  br label %inner
inner:
  %i = phi i32 [ 0, %inner.pre ], [ %i.next, %inner ]
  %s = phi i32 [ 0, %inner.pre ], [ %s.next, %inner ]
  %t = add i32 %i, %bias
  %s.next = add i32 %s, %t
  %i.next = add nuw nsw i32 %i, 1
  %more = icmp slt i32 %i.next, %count
  br i1 %more, label %inner, label %inner.exit
inner.exit:
  %s.lcssa = phi i32 [ %s.next, %inner ]
  br label %latch
latch:
  %sum = phi i32 [ 0, %items ], [ %s.lcssa, %inner.exit ]
  %pout = getelementptr inbounds i32, ptr %out, i64 %index
  store i32 %sum, ptr %pout, align 4
  %x.next = add nuw i32 %x, 1
  %index.next = add nuw i64 %index, 1
  %again = icmp ult i32 %x.next, %half
  br i1 %again, label %items, label %row.end, !llvm.loop !6
row.end:
  %index.after = phi i64 [ %index.next, %latch ]
  %y.next = add nuw i32 %y, 1
  %rows = icmp ult i32 %y.next, 2
  br i1 %rows, label %row, label %done
done:
  ret void
}

!0 = distinct !{!0, !1}
!1 = !{!"fibercl.work_item_loop"}
!2 = distinct !{!2, !1}
!3 = distinct !{!3, !1}
!4 = distinct !{!4, !1}
!5 = distinct !{!5, !1}
!6 = distinct !{!6, !1}
)";

using WorkGroupFn = void (*)(const int *in, int *out, int n, int parameter);

// Calls of llvm.masked.* (loads, stores, gathers, scatters) in `f`.
unsigned maskedAccesses(llvm::Function &f) {
  unsigned n = 0;
  for (llvm::BasicBlock &bb : f)
    for (llvm::Instruction &i : bb)
      if (auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&i))
        n += call->getCalledFunction()->getName().starts_with("llvm.masked.");
  return n;
}

// The instruction of `f` named `name` -- the widened copy of an instruction keeps its
// name with a number appended -- or nullptr.
llvm::Instruction *named(llvm::Function &f, llvm::StringRef name) {
  for (llvm::BasicBlock &bb : f)
    for (llvm::Instruction &i : bb)
      if (i.getName().starts_with(name) &&
          i.getName().drop_front(name.size()).find_first_not_of("0123456789") ==
              llvm::StringRef::npos)
        return &i;
  return nullptr;
}

class MaskedVectorizer : public ::testing::Test {
protected:
  void SetUp() override {
    original = parseIR(context, kIR);
    m = parseIR(context, kIR);
    ASSERT_TRUE(original && m);
    PassRunner(&hostTarget()).runOnFunctions(*m, MaskedWorkItemVectorizerPass());
    ASSERT_EQ(verify(*m), "");
  }
  llvm::Function &wg(const char *kernel) {
    return *m->getFunction(std::string("__fibercl_wg_") + kernel);
  }
  // out[0..n) as `module` computes it for in[x] = (7 * x) % 5; the 8 elements after
  // them must stay untouched (the partial vector's inactive lanes).
  std::vector<int> run(const llvm::Module &module, const char *kernel, int n, int parameter) {
    std::vector<int> in(n), out(n + 8, -1);
    for (int x = 0; x < n; ++x)
      in[x] = (7 * x) % 5;
    IRJit jit(module);
    auto fn = jit.function<WorkGroupFn>(std::string("__fibercl_wg_") + kernel);
    if (fn)
      fn(in.data(), out.data(), n, parameter);
    return out;
  }
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> original, m;
};

TEST_F(MaskedVectorizer, DivergentInnerLoopRunsUnderMasks) {
  llvm::Function &f = wg("divergent");
  EXPECT_GE(maskedAccesses(f), 2u) << print(*m); // in[x] and out[x]
  // The lanes still in the inner loop are a vector of i1; the values they leave it
  // with differ per lane.
  auto *active = llvm::dyn_cast_or_null<llvm::PHINode>(named(f, "lanes.active"));
  ASSERT_TRUE(active) << print(*m);
  EXPECT_TRUE(active->getType()->isVectorTy());
  llvm::Instruction *left = named(f, "s.lcssa");
  ASSERT_TRUE(left) << print(*m);
  EXPECT_TRUE(left->getType()->isVectorTy());
  // Every active lane is at the same iteration of the inner loop: its counter stays
  // scalar.
  llvm::Instruction *i = named(f, "i");
  ASSERT_TRUE(i) << print(*m);
  EXPECT_FALSE(i->getType()->isVectorTy());
}

TEST_F(MaskedVectorizer, UniformInnerLoopStaysScalar) {
  llvm::Function &f = wg("uniform");
  EXPECT_GE(maskedAccesses(f), 2u) << print(*m);
  llvm::Instruction *s = named(f, "s.lcssa");
  ASSERT_TRUE(s) << print(*m);
  EXPECT_FALSE(s->getType()->isVectorTy()) << print(*m);
  llvm::Instruction *r = named(f, "r");
  ASSERT_TRUE(r) << print(*m);
  EXPECT_TRUE(r->getType()->isVectorTy());
}

TEST_F(MaskedVectorizer, ComputesWhatTheScalarLoopComputes) {
  for (int n : {1, 13, 40}) {
    EXPECT_EQ(run(*m, "divergent", n, 3), run(*original, "divergent", n, 3)) << "n = " << n;
    EXPECT_EQ(run(*m, "uniform", n, 6), run(*original, "uniform", n, 6)) << "n = " << n;
  }
  EXPECT_EQ(run(*m, "uniform", 13, 0), run(*original, "uniform", 13, 0));
}

// The index a row's loop leaves for the next row is computed from its trip count, so
// the loop is widened like the others, and the second row starts where it should.
TEST_F(MaskedVectorizer, AnIndexCarriedIntoTheNextRowIsNoObstacle) {
  EXPECT_GE(maskedAccesses(wg("rows")), 2u) << print(*m);
  for (int n : {2, 26, 40})
    EXPECT_EQ(run(*m, "rows", n, 3), run(*original, "rows", n, 3)) << "n = " << n;
}

TEST_F(MaskedVectorizer, InactiveLanesDoNotDivideByZero) {
  EXPECT_GE(maskedAccesses(wg("divide")), 2u) << print(*m);
  // in[x] is 0 for x = 0, 5, 10: those lanes never enter the loop, the others leave it
  // with in[x] - i == 0.
  EXPECT_EQ(run(*m, "divide", 13, 0), run(*original, "divide", 13, 0));
}

TEST_F(MaskedVectorizer, WhatItCannotWidenKeepsItsScalarLoop) {
  for (const char *kernel : {"atomic", "private"}) {
    llvm::Function &f = wg(kernel);
    EXPECT_EQ(maskedAccesses(f), 0u) << kernel << "\n" << print(*m);
    EXPECT_FALSE(named(f, "lanes.active")) << kernel;
    // The scalar work-item loop is still there, at one work-item per iteration.
    auto *x = llvm::dyn_cast_or_null<llvm::PHINode>(named(f, "x"));
    ASSERT_TRUE(x) << kernel << "\n" << print(*m);
    EXPECT_TRUE(x->getType()->isIntegerTy(32));
  }
  EXPECT_EQ(run(*m, "private", 13, 0), run(*original, "private", 13, 0));
}

} // namespace
} // namespace fibercl::compiler::test

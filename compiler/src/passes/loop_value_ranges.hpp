// The range a value takes in every iteration of a loop, computed before it: how
// CheckedLoopVersionsPass decides a bounds check whose offset is not a line in the
// work-item's index (a tile gathered at `in[(y0 + i / 18) * w + x0 + i % 18]`).
//
// Interval arithmetic over the value's SCEV, emitted as code: each loop-invariant part
// is its value, each recurrence {start, +, step} of the loop or of one inside it spans
// start + step * [0, its last iteration] (bounded by the loop's trip count or by its exit
// test, and narrowed by the counter that test compares), and sums, products, unsigned divisions,
// extensions, truncations, minima and maxima combine their operands' ranges. The
// result is an interval of 64-bit signed values that holds under conditions, emitted
// with it: no overflow of the 64-bit arithmetic, and each part within its own width
// (so the program's wrapping arithmetic computed the same number). A part this cannot
// follow (a load in the loop, a non-affine recurrence) takes the range ScalarEvolution
// proves for it, if that is not every value of its type.
//
// It over-approximates: a check decided this way may fail before the loop and then
// run checked (a tile at the grid's edge), never the other way round.
#pragma once

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstrTypes.h>

#include <vector>

namespace llvm {
class Loop;
class SCEV;
class SCEVAddRecExpr;
class ScalarEvolution;
class SCEVExpander;
} // namespace llvm

namespace fibercl::compiler {

class LoopValueRanges {
public:
  // Ranges over every iteration of `loop` and of the loops inside it; code emitted
  // before `at` by `expander` (whose invariant values are expanded there).
  LoopValueRanges(llvm::Loop &loop, llvm::ScalarEvolution &se, llvm::SCEVExpander &expander);

  // Whether `lhs pred rhs` (integers, one side the same in every iteration) can be
  // decided for every iteration before `at`. Emits nothing.
  bool decidable(llvm::CmpInst::Predicate pred, const llvm::SCEV *lhs, const llvm::SCEV *rhs,
                 llvm::Instruction *at);
  // The part of the last value decidable() refused that it could not follow (or null).
  const llvm::SCEV *unfollowed = nullptr;
  // The condition, emitted before `at`, under which it holds in every iteration.
  llvm::Value *holdsThroughout(llvm::CmpInst::Predicate pred, const llvm::SCEV *lhs,
                               const llvm::SCEV *rhs, llvm::Instruction *at);

private:
  struct Interval {
    llvm::Value *lo = nullptr, *hi = nullptr; // i64, signed, lo <= hi when conditions hold
  };
  // The range of `s` (read as signed in its width); emits nothing when `out` is null.
  bool range(const llvm::SCEV *s, Interval *out, unsigned depth = 0);
  bool invariant(const llvm::SCEV *s) const;
  // A loop's exit test on a counter below a bound (counterTest in the .cpp).
  struct CounterTest {
    const llvm::SCEVAddRecExpr *counter = nullptr;
    const llvm::SCEV *bound = nullptr;
    int64_t step = 0; // positive
    bool isSigned = false, orEqual = false;
  };
  struct CounterValues {
    Interval first;     // the counter's first values
    llvm::Value *last;  // its highest value that goes on
    llvm::Value *holds; // the condition under which they are
  };
  bool counterTest(const llvm::Loop *l, CounterTest &t, unsigned depth);
  CounterValues counterValues(const CounterTest &t, unsigned depth);
  bool latchIterations(const llvm::Loop *l, llvm::Value **out, llvm::Value **holds, unsigned depth);
  void narrowByCounter(const llvm::SCEVAddRecExpr *rec, Interval start, Interval &r,
                       unsigned depth);
  llvm::Value *constant(int64_t v);
  // a op b with a condition that it does not overflow 64 bits.
  llvm::Value *checked(llvm::Intrinsic::ID op, llvm::Value *a, llvm::Value *b);
  Interval sum(Interval a, Interval b);
  Interval product(Interval a, Interval b);
  // A condition that `i` lies within `bits`-bit signed values (or is not negative).
  void within(Interval i, unsigned bits);
  void notNegative(Interval i);

  llvm::Loop &loop_;
  llvm::ScalarEvolution &se_;
  llvm::SCEVExpander &expander_;
  llvm::Instruction *at_ = nullptr;
  llvm::IRBuilder<> b_;
  std::vector<llvm::Value *> conditions_;
};

} // namespace fibercl::compiler

// LoopValueRanges (loop_value_ranges.hpp): interval arithmetic over SCEV, as code.
#include "loop_value_ranges.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

namespace fibercl::compiler {
namespace {

constexpr unsigned kMaxDepth = 24;

} // namespace

LoopValueRanges::LoopValueRanges(llvm::Loop &loop, llvm::ScalarEvolution &se,
                                 llvm::SCEVExpander &expander)
    : loop_(loop), se_(se), expander_(expander), b_(loop.getHeader()->getContext()) {}

bool LoopValueRanges::invariant(const llvm::SCEV *s) const {
  return se_.isLoopInvariant(s, &loop_) && expander_.isSafeToExpandAt(s, at_);
}

llvm::Value *LoopValueRanges::constant(int64_t v) { return b_.getInt64(uint64_t(v)); }

llvm::Value *LoopValueRanges::checked(llvm::Intrinsic::ID op, llvm::Value *a, llvm::Value *b) {
  llvm::Value *both = b_.CreateBinaryIntrinsic(op, a, b);
  conditions_.push_back(b_.CreateNot(b_.CreateExtractValue(both, 1)));
  return b_.CreateExtractValue(both, 0);
}

LoopValueRanges::Interval LoopValueRanges::sum(Interval a, Interval b) {
  return {checked(llvm::Intrinsic::sadd_with_overflow, a.lo, b.lo),
          checked(llvm::Intrinsic::sadd_with_overflow, a.hi, b.hi)};
}

LoopValueRanges::Interval LoopValueRanges::product(Interval a, Interval b) {
  llvm::Value *ends[4] = {checked(llvm::Intrinsic::smul_with_overflow, a.lo, b.lo),
                          checked(llvm::Intrinsic::smul_with_overflow, a.lo, b.hi),
                          checked(llvm::Intrinsic::smul_with_overflow, a.hi, b.lo),
                          checked(llvm::Intrinsic::smul_with_overflow, a.hi, b.hi)};
  Interval p{ends[0], ends[0]};
  for (llvm::Value *e : ends) {
    p.lo = b_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, p.lo, e);
    p.hi = b_.CreateBinaryIntrinsic(llvm::Intrinsic::smax, p.hi, e);
  }
  return p;
}

void LoopValueRanges::within(Interval i, unsigned bits) {
  if (bits >= 64)
    return; // (the 64-bit arithmetic did not overflow)
  conditions_.push_back(b_.CreateAnd(b_.CreateICmpSGE(i.lo, constant(-(int64_t(1) << (bits - 1)))),
                                     b_.CreateICmpSLT(i.hi, constant(int64_t(1) << (bits - 1)))));
}

void LoopValueRanges::notNegative(Interval i) {
  conditions_.push_back(b_.CreateICmpSGE(i.lo, constant(0)));
}

bool LoopValueRanges::range(const llvm::SCEV *s, Interval *out, unsigned depth) {
  llvm::Type *type = s->getType();
  if (!type->isIntegerTy() || type->getIntegerBitWidth() > 64 || depth > kMaxDepth) {
    unfollowed = s;
    return false;
  }
  const unsigned bits = type->getIntegerBitWidth();
  bool known = true;
  auto operands = [&](auto *expr, std::vector<Interval> &ranges) {
    for (const llvm::SCEV *op : expr->operands()) {
      ranges.emplace_back();
      if (!range(op, out ? &ranges.back() : nullptr, depth + 1))
        return false;
    }
    return true;
  };
  std::vector<Interval> ops;
  Interval r;
  if (auto *c = llvm::dyn_cast<llvm::SCEVConstant>(s)) {
    if (out)
      r.lo = r.hi = constant(c->getAPInt().getSExtValue());
  } else if (invariant(s)) {
    if (out) {
      llvm::Value *v = expander_.expandCodeFor(s, type, at_);
      b_.SetInsertPoint(at_);
      r.lo = r.hi = b_.CreateSExt(v, b_.getInt64Ty());
    }
  } else if (auto *add = llvm::dyn_cast<llvm::SCEVAddExpr>(s)) {
    known = operands(add, ops);
    if (known && out) {
      r = ops[0];
      for (size_t i = 1; i < ops.size(); ++i)
        r = sum(r, ops[i]);
      within(r, bits);
    }
  } else if (auto *mul = llvm::dyn_cast<llvm::SCEVMulExpr>(s)) {
    known = operands(mul, ops);
    if (known && out) {
      r = ops[0];
      for (size_t i = 1; i < ops.size(); ++i)
        r = product(r, ops[i]);
      within(r, bits);
    }
  } else if (auto *div = llvm::dyn_cast<llvm::SCEVUDivExpr>(s)) {
    // Unsigned: both sides must not be negative, the divisor not zero.
    Interval a, d;
    known = range(div->getLHS(), out ? &a : nullptr, depth + 1) &&
            range(div->getRHS(), out ? &d : nullptr, depth + 1);
    if (known && out) {
      notNegative(a);
      conditions_.push_back(b_.CreateICmpSGT(d.lo, constant(0)));
      r = {b_.CreateUDiv(a.lo, d.hi),
           b_.CreateUDiv(a.hi, b_.CreateBinaryIntrinsic(llvm::Intrinsic::smax, d.lo, constant(1)))};
    }
  } else if (auto *cast = llvm::dyn_cast<llvm::SCEVIntegralCastExpr>(s)) {
    if (llvm::isa<llvm::SCEVPtrToIntExpr>(s))
      known = false;
    else
      known = range(cast->getOperand(), out ? &r : nullptr, depth + 1);
    if (known && out) {
      if (llvm::isa<llvm::SCEVZeroExtendExpr>(s))
        notNegative(r); // (then the value read as unsigned is the same)
      else if (llvm::isa<llvm::SCEVTruncateExpr>(s))
        within(r, bits);
    }
  } else if (auto *minMax = llvm::dyn_cast<llvm::SCEVMinMaxExpr>(s)) {
    known = operands(minMax, ops);
    if (known && out) {
      llvm::SCEVTypes kind = minMax->getSCEVType();
      bool isMax = kind == llvm::scSMaxExpr || kind == llvm::scUMaxExpr;
      bool isUnsigned = kind == llvm::scUMaxExpr || kind == llvm::scUMinExpr;
      llvm::Intrinsic::ID pick = isMax ? llvm::Intrinsic::smax : llvm::Intrinsic::smin;
      r = ops[0];
      for (const Interval &o : ops) {
        if (isUnsigned)
          notNegative(o); // (then unsigned order is signed order)
        r = {b_.CreateBinaryIntrinsic(pick, r.lo, o.lo),
             b_.CreateBinaryIntrinsic(pick, r.hi, o.hi)};
      }
    }
  } else if (auto *seq = llvm::dyn_cast<llvm::SCEVSequentialUMinExpr>(s)) {
    known = operands(seq, ops);
    if (known && out) {
      r = ops[0];
      for (const Interval &o : ops) {
        notNegative(o);
        r = {b_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, r.lo, o.lo),
             b_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, r.hi, o.hi)};
      }
    }
  } else if (auto *rec = llvm::dyn_cast<llvm::SCEVAddRecExpr>(s)) {
    // start + step * k for k in [0, the loop's last iteration]: a loop of this one (the
    // loop-invariant recurrences of loops around it were taken above). The last
    // iteration: the backedge-taken count's range, or latchIterations' bound, or the
    // lower of the two.
    const llvm::Loop *l = rec->getLoop();
    const llvm::SCEV *taken = se_.getBackedgeTakenCount(l);
    Interval start, step, last;
    known = rec->isAffine() && loop_.contains(l) &&
            range(rec->getStart(), out ? &start : nullptr, depth + 1) &&
            range(rec->getStepRecurrence(se_), out ? &step : nullptr, depth + 1);
    const bool counted = known && !llvm::isa<llvm::SCEVCouldNotCompute>(taken) &&
                         range(taken, out ? &last : nullptr, depth + 1);
    llvm::Value *latched = nullptr, *holds = nullptr;
    const bool bounded = known && latchIterations(l, out ? &latched : nullptr, &holds, depth);
    known = counted || bounded;
    if (known && out) {
      if (counted)
        notNegative(last); // (a count, unsigned)
      if (counted && bounded)
        last.hi = b_.CreateSelect(
            holds, b_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, last.hi, latched), last.hi);
      else if (bounded) {
        conditions_.push_back(holds);
        last.hi = latched;
      }
      r = sum(start, product(step, {constant(0), last.hi}));
      within(r, bits);
      narrowByCounter(rec, start, r, depth);
    }
  } else {
    known = false;
  }
  // What ScalarEvolution proves narrows it, or stands for a part not followed.
  llvm::ConstantRange proven = se_.getSignedRange(s);
  if (!known) {
    if (proven.isFullSet()) {
      unfollowed = s;
      return false;
    }
    if (out)
      r = {constant(proven.getSignedMin().getSExtValue()),
           constant(proven.getSignedMax().getSExtValue())};
  } else if (out && !proven.isFullSet()) {
    r = {b_.CreateBinaryIntrinsic(llvm::Intrinsic::smax, r.lo,
                                  constant(proven.getSignedMin().getSExtValue())),
         b_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, r.hi,
                                  constant(proven.getSignedMax().getSExtValue()))};
  }
  if (out)
    *out = r;
  return true;
}

// The test at `l`'s latch, its only exit, when it goes on while a counter {f, +, c} (c a
// positive constant, no wrap: its flags) is below a bound C the same throughout `l`:
// the counter went on at each iteration j before the last, f + c * j <= C - 1.
bool LoopValueRanges::counterTest(const llvm::Loop *l, CounterTest &t, unsigned depth) {
  llvm::BasicBlock *latch = l->getLoopLatch();
  auto *br = latch ? llvm::dyn_cast<llvm::BranchInst>(latch->getTerminator()) : nullptr;
  auto *cmp =
      br && br->isConditional() ? llvm::dyn_cast<llvm::ICmpInst>(br->getCondition()) : nullptr;
  if (!cmp || l->getExitingBlock() != latch || !cmp->getOperand(0)->getType()->isIntegerTy())
    return false;
  using P = llvm::CmpInst::Predicate;
  P goesOn =
      br->getSuccessor(0) == l->getHeader() ? cmp->getPredicate() : cmp->getInversePredicate();
  const llvm::SCEV *lhs = se_.getSCEV(cmp->getOperand(0)), *rhs = se_.getSCEV(cmp->getOperand(1));
  if (llvm::isa<llvm::SCEVAddRecExpr>(rhs)) {
    std::swap(lhs, rhs);
    goesOn = llvm::CmpInst::getSwappedPredicate(goesOn);
  }
  t.counter = llvm::dyn_cast<llvm::SCEVAddRecExpr>(lhs);
  t.bound = rhs;
  t.isSigned = goesOn == P::ICMP_SLT || goesOn == P::ICMP_SLE;
  t.orEqual = goesOn == P::ICMP_SLE || goesOn == P::ICMP_ULE;
  auto *step =
      t.counter ? llvm::dyn_cast<llvm::SCEVConstant>(t.counter->getStepRecurrence(se_)) : nullptr;
  if (!t.counter || t.counter->getLoop() != l || !t.counter->isAffine() || !step ||
      !step->getAPInt().isStrictlyPositive() || step->getAPInt().getSignificantBits() > 32 ||
      !(t.isSigned || goesOn == P::ICMP_ULT || goesOn == P::ICMP_ULE) ||
      !t.counter->getNoWrapFlags(t.isSigned ? llvm::SCEV::FlagNSW : llvm::SCEV::FlagNUW) ||
      !se_.isLoopInvariant(rhs, l) || !range(rhs, nullptr, depth + 1) ||
      !range(t.counter->getStart(), nullptr, depth + 1))
    return false;
  t.step = step->getAPInt().getSExtValue();
  return true;
}

// The counter's first values, its last value that goes on (C - 1, or C for <=), and the
// condition under which they are the counter's (unsigned: values that are the same read
// as signed). Emitted.
LoopValueRanges::CounterValues LoopValueRanges::counterValues(const CounterTest &t,
                                                              unsigned depth) {
  CounterValues v;
  Interval bound;
  range(t.bound, &bound, depth + 1);
  range(t.counter->getStart(), &v.first, depth + 1);
  v.last = t.orEqual ? bound.hi : b_.CreateSub(bound.hi, constant(1));
  v.holds = t.isSigned ? b_.getTrue()
                       : b_.CreateAnd(b_.CreateICmpSGE(v.first.lo, constant(0)),
                                      b_.CreateICmpSGE(bound.lo, constant(0)));
  return v;
}

// A bound on the iterations of a loop that goes on while its counter is below a bound
// C, whatever its trip count says (a tile loaded by `for (i = lid; i < 324; i += 256)`:
// 1 or 2 for lid < 256, where the count `(323 - lid) / 256` taken over every lid says 2
// for any): f + c * j <= C - 1 before the last, so the last is at most (C - 1 - f) / c
// + 1 (counterTest). Sets `out` (when not null) to that bound, and `holds` to the
// condition under which it is one.
bool LoopValueRanges::latchIterations(const llvm::Loop *l, llvm::Value **out, llvm::Value **holds,
                                      unsigned depth) {
  CounterTest t;
  if (!counterTest(l, t, depth))
    return false;
  if (!out)
    return true;
  CounterValues v = counterValues(t, depth);
  // (an overflow of the difference fails the decision, like the rest)
  llvm::Value *span = checked(llvm::Intrinsic::ssub_with_overflow, v.last, v.first.lo);
  *out = b_.CreateSelect(b_.CreateICmpSLT(span, constant(0)), constant(0),
                         b_.CreateAdd(b_.CreateSDiv(span, constant(t.step)), constant(1)));
  *holds = v.holds;
  return true;
}

// The values of `rec` (whose range `r` is known) in a loop that goes on while its
// counter is below a bound C: after the first, each is at most where the counter's bound
// puts it, closer than the iterations' bound (latchIterations) where the work-items'
// first values differ: in `for (i = lid; i < 324; i += 256)` no i passes 323, though
// lid = 79 runs once and lid = 64 twice. rec, {s, +, m * c} with c the counter's step,
// is m * counter + B with B the same throughout the loop, in the narrower of their
// widths (rec may be an address, wider, m an element's size; or a copy LLVM narrowed).
// Narrows `r` where that holds.
void LoopValueRanges::narrowByCounter(const llvm::SCEVAddRecExpr *rec, Interval start, Interval &r,
                                      unsigned depth) {
  const llvm::Loop *l = rec->getLoop();
  auto *step = llvm::dyn_cast<llvm::SCEVConstant>(rec->getStepRecurrence(se_));
  CounterTest t;
  if (!step || !step->getAPInt().isStrictlyPositive() ||
      step->getAPInt().getSignificantBits() > 32 || !counterTest(l, t, depth))
    return;
  const int64_t c = t.step;
  const int64_t m = step->getAPInt().getSExtValue() / c;
  if (m * c != step->getAPInt().getSExtValue())
    return;
  // B = rec - m * counter, in the narrower width (where ScalarEvolution sees that an
  // address's `16 * (i64)ly + (i64)lx` is the counter's `16 * ly + lx`).
  const llvm::SCEVAddRecExpr *counter = t.counter;
  llvm::Type *work = rec->getType()->getIntegerBitWidth() < counter->getType()->getIntegerBitWidth()
                         ? rec->getType()
                         : counter->getType();
  const llvm::SCEV *offset = se_.getMinusSCEV(
      se_.getTruncateOrNoop(rec, work),
      se_.getMulExpr(se_.getConstant(work, uint64_t(m)), se_.getTruncateOrNoop(counter, work)));
  if (!se_.isLoopInvariant(offset, l) || !range(offset, nullptr, depth + 1))
    return;
  CounterValues v = counterValues(t, depth);
  Interval b;
  range(offset, &b, depth + 1);
  // The counter's values after the first: its next values while it went on, exact (no
  // wrap), each in [first + c, C - 1 + c]; then rec's, m * counter + B. (An overflow of
  // these 64-bit sums fails the decision, like the rest.)
  Interval next{checked(llvm::Intrinsic::sadd_with_overflow, v.first.lo, constant(c)),
                checked(llvm::Intrinsic::sadd_with_overflow, v.last, constant(c))};
  Interval after = sum(product(next, {constant(m), constant(m)}), b);
  const unsigned bits = work->getIntegerBitWidth();
  auto fits = [&](Interval i) -> llvm::Value * {
    if (bits >= 64)
      return b_.getTrue();
    return b_.CreateAnd(b_.CreateICmpSGE(i.lo, constant(-(int64_t(1) << (bits - 1)))),
                        b_.CreateICmpSLT(i.hi, constant(int64_t(1) << (bits - 1))));
  };
  // (the counter's and rec's values in that width are the same if they fit)
  llvm::Value *holds =
      b_.CreateAnd(v.holds, b_.CreateAnd(b_.CreateAnd(fits(next), fits(after)), fits(r)));
  llvm::Value *lo = b_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, start.lo, after.lo);
  llvm::Value *hi = b_.CreateBinaryIntrinsic(llvm::Intrinsic::smax, start.hi, after.hi);
  r.lo = b_.CreateSelect(holds, b_.CreateBinaryIntrinsic(llvm::Intrinsic::smax, r.lo, lo), r.lo);
  r.hi = b_.CreateSelect(holds, b_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, r.hi, hi), r.hi);
}

bool LoopValueRanges::decidable(llvm::CmpInst::Predicate pred, const llvm::SCEV *lhs,
                                const llvm::SCEV *rhs, llvm::Instruction *at) {
  at_ = at;
  unfollowed = nullptr;
  if (llvm::CmpInst::isEquality(pred) || invariant(lhs) == invariant(rhs))
    return false;
  return range(invariant(lhs) ? rhs : lhs, nullptr);
}

llvm::Value *LoopValueRanges::holdsThroughout(llvm::CmpInst::Predicate pred, const llvm::SCEV *lhs,
                                              const llvm::SCEV *rhs, llvm::Instruction *at) {
  at_ = at;
  if (invariant(lhs)) { // the one that varies on the left
    std::swap(lhs, rhs);
    pred = llvm::CmpInst::getSwappedPredicate(pred);
  }
  conditions_.clear();
  b_.SetInsertPoint(at_);
  Interval left;
  range(lhs, &left);
  llvm::Value *right = expander_.expandCodeFor(rhs, rhs->getType(), at_);
  b_.SetInsertPoint(at_);
  const bool isSigned = llvm::CmpInst::isSigned(pred);
  right = isSigned ? b_.CreateSExt(right, b_.getInt64Ty()) : b_.CreateZExt(right, b_.getInt64Ty());
  if (!isSigned)
    notNegative(left); // (then it is the same read as unsigned)
  // lhs < rhs throughout if its highest value is; lhs > rhs if its lowest is.
  bool below = pred == llvm::CmpInst::ICMP_SLT || pred == llvm::CmpInst::ICMP_SLE ||
               pred == llvm::CmpInst::ICMP_ULT || pred == llvm::CmpInst::ICMP_ULE;
  llvm::Value *holds = b_.CreateICmp(pred, below ? left.hi : left.lo, right);
  for (llvm::Value *c : conditions_)
    holds = b_.CreateAnd(holds, c);
  return holds;
}

} // namespace fibercl::compiler

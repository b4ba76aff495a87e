// CheckedLoopVersionsPass (passes.hpp): FIBERCL_CHECK=bounds and uninit at loop speed.
//
// A checked access (access_checks.cpp) is a compare and a branch to a report call, in
// every work-item. In a work-item loop whose checks all follow the work-item's index in
// a straight line, the checks of the whole loop can be decided before it:
//  - bounds: `off - lo <u limit`, with `off` affine in the index (element i of an
//    argument, of a __local array, ...) and `limit` the same for every work-item, holds
//    for every index from the first to the last if it holds at both ends and `off` does
//    not wrap between them (monotone, so its values lie between the two ends); an `off`
//    that is not a line (a tile's gather at `i / 18` and `i % 18`) holds if its range
//    over the loop does (loop_value_ranges.hpp: interval arithmetic, emitted before it);
//  - uninit: the shadow bytes of a __local read are the group's tag (written) for every
//    work-item if the whole span they read is before the loop: within a group the
//    shadow only ever goes from another value to the tag, so what is written before the
//    loop stays written;
//  - races: the record of an access of a race-free argument (race_free_arguments.hpp)
//    sits behind a branch on the launch's flag, the same for every work-item. Records
//    of plain __local accesses every work-item makes at a line of addresses are one
//    line each (CHECK_RACE_LINE, runtime/exec/races.cpp), recorded before the loop if it
//    meets no other access of the round: then the copy runs, without the records.
//    A record in a loop each work-item runs inside the work-item loop (`for (i = lid;
//    i < n; i += 256) tile[i] = ...`) is a line for each of that loop's iterations: the
//    work-items' trip counts, computed before the loop, say which (NestedLine).
// Such a loop is versioned: its preheader tests the conditions for the first and last
// work-item (and scans the shadow span), and runs either a copy without checks -- the
// unchecked kernel's loop, for LLVM's loop vectoriser -- or the checked loop, which
// reports as before. A loop with a check this cannot decide is left as it is; race
// records every work-item makes stay in both copies. The rows of a 2-D group (the loop
// over y around the work-item loop) are versioned at once when their checks are lines in
// both ids (Line::innerStep); else each row is.
//
// Runs in LLVM's O3 pipeline after WorkItemRangeSplitPass (a reduction's `if (lid < s)
// tmp[lid + s]` is in bounds over [0, s), not over the whole group) and before the
// vectorisers.
#include "passes.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "fibercl/compiler/debug.hpp"
#include "fibercl/kernel_abi.h"
#include "host_functions.hpp"
#include "loop_value_ranges.hpp"

namespace fibercl::compiler {
namespace {

constexpr unsigned kMaxLoopInstructions = 2000;
constexpr unsigned kMaxVersionsPerFunction = 24;

// One check of the loop: the branch, and which of its successors goes on.
struct LoopCheck {
  llvm::BranchInst *branch = nullptr;
  bool okWhen = true; // the condition's value that skips the report
  bool uninit = false;
};

// A part of a line under a zero or sign extension: a line of its own, which must not
// wrap between the loop's ends (unsigned or signed) for the extension to be one.
struct Unwrapped {
  const llvm::SCEV *start;
  int64_t step;
  bool isSigned;
  int64_t innerStep = 0;
};

// A value of the loop as a line in its index: start + k * step at iteration k (modulo
// its width), if the parts in `unwrapped` do not wrap.
// In a nest (a work-item loop whose only loop is the next dimension's work-item loop,
// `inner`), start + k * step + j * innerStep at iteration j of the inner loop in
// iteration k.
struct Line {
  const llvm::SCEV *start = nullptr;
  int64_t step = 0;
  std::vector<Unwrapped> unwrapped;
  int64_t innerStep = 0;
};

// The direction a line moves in (in a nest, it must move the same way in both loops).
int64_t direction(int64_t step, int64_t innerStep) { return step ? step : innerStep; }
bool oneDirection(int64_t step, int64_t innerStep) {
  return !step || !innerStep || (step < 0) == (innerStep < 0);
}

// A load from memory that does not change while the launch runs: marked so, or from
// the launch's check table (a bound: LLVM may drop the mark when it merges loads). The
// table is ctx->checks, loaded from the group's context (an argument).
bool invariantLoad(const llvm::Instruction &i) {
  auto *load = llvm::dyn_cast<llvm::LoadInst>(&i);
  if (!load)
    return false;
  if (load->hasMetadata(llvm::LLVMContext::MD_invariant_load))
    return true;
  auto *table =
      llvm::dyn_cast<llvm::LoadInst>(llvm::getUnderlyingObject(load->getPointerOperand()));
  if (!table || !table->hasMetadata(llvm::LLVMContext::MD_invariant_load))
    return false;
  const llvm::DataLayout &dl = load->getModule()->getDataLayout();
  llvm::APInt offset(dl.getIndexTypeSizeInBits(table->getPointerOperandType()), 0);
  const llvm::Value *ctx =
      table->getPointerOperand()->stripAndAccumulateConstantOffsets(dl, offset, false);
  return llvm::isa<llvm::Argument>(ctx) && offset == offsetof(fcl_group_ctx, checks);
}

// Whether `v` is the same in every iteration of `loop`, moving it before `to` (if not
// null) when it is computed in the loop from such values without side effects or traps,
// or loaded from memory that does not change (invariantLoad: a race record's flags or a
// bound, loaded where the access is, under its conditions).
bool hoistedInvariant(llvm::Value *v, llvm::Loop &loop, llvm::Instruction *to, unsigned depth = 0) {
  auto *i = llvm::dyn_cast<llvm::Instruction>(v);
  if (!i || !loop.contains(i))
    return true;
  if (!to || depth > 8 || llvm::isa<llvm::PHINode>(i) || i->mayHaveSideEffects() ||
      (i->mayReadFromMemory() && !invariantLoad(*i)) || !llvm::isSafeToSpeculativelyExecute(i))
    return false;
  for (llvm::Value *op : i->operands())
    if (!hoistedInvariant(op, loop, to, depth + 1))
      return false;
  i->moveBefore(to);
  i->dropPoisonGeneratingFlags(); // (now computed where the loop's conditions did not hold)
  i->dropPoisonGeneratingMetadata();
  return true;
}

// A loop-invariant part of `v` that alone makes it `okWhen`: `v` itself, or an
// operand of its logical and when `okWhen` is false (of its logical or when true). A
// race record behind `race.recorded && in_bounds` is skipped when the argument is
// race-free, whatever the rest. `hoistTo`: as hoistedInvariant's.
llvm::Value *invariantPart(llvm::Value *v, bool okWhen, llvm::Loop &loop,
                           llvm::Instruction *hoistTo = nullptr) {
  using namespace llvm::PatternMatch;
  if (hoistedInvariant(v, loop, hoistTo))
    return v;
  llvm::Value *a, *b;
  if ((!okWhen && match(v, m_LogicalAnd(m_Value(a), m_Value(b)))) ||
      (okWhen && match(v, m_LogicalOr(m_Value(a), m_Value(b))))) {
    llvm::Value *part = invariantPart(a, okWhen, loop, hoistTo);
    return part ? part : invariantPart(b, okWhen, loop, hoistTo);
  }
  return nullptr;
}

bool calls(const llvm::BasicBlock &bb, const char *name) {
  for (const llvm::Instruction &i : bb)
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&i))
      if (const llvm::Function *f = call->getCalledFunction(); f && f->getName() == name)
        return true;
  return false;
}

// A branch of the loop on a loop-invariant condition (or part of one) with `bb` on one
// side (that edge dominates it): the check whose other side skips it. A race record of
// an argument the launch may find race-free is behind a branch on its flag, perhaps
// merged with others (`race.recorded && in_bounds`), perhaps moved before an inner loop
// by unswitching.
bool invariantGuard(llvm::BasicBlock &bb, llvm::Loop &loop, llvm::DominatorTree &dt,
                    LoopCheck &check) {
  llvm::BasicBlock *preheader = loop.getLoopPreheader();
  llvm::Instruction *hoistTo = preheader ? preheader->getTerminator() : nullptr;
  for (llvm::DomTreeNode *node = dt.getNode(&bb)->getIDom();
       node && loop.contains(node->getBlock()); node = node->getIDom()) {
    auto *br = llvm::dyn_cast<llvm::BranchInst>(node->getBlock()->getTerminator());
    if (!br || !br->isConditional() || br->getSuccessor(0) == br->getSuccessor(1))
      continue;
    for (unsigned i = 0; i < 2; ++i)
      if (dt.dominates(llvm::BasicBlockEdge(br->getParent(), br->getSuccessor(i)), &bb) &&
          invariantPart(br->getCondition(), i == 1, loop, hoistTo)) {
        check = {br, i == 1, false};
        return true;
      }
  }
  return false;
}

// uninit: whether the loop marks the shadow (a loop without checks may: the copy marks
// the span before it).
bool hasShadowStores(const llvm::Loop &loop) {
  for (llvm::BasicBlock *bb : loop.blocks())
    for (llvm::Instruction &i : *bb)
      if (llvm::isa<llvm::StoreInst>(i) && i.getMetadata(kShadowStoreMetadata))
        return true;
  return false;
}

// The loop's checks; false when one is not a branch to a report of its own. A race
// record behind an invariant branch (invariantGuard) is one; the race records every
// work-item makes go to `records`.
bool findChecks(llvm::Loop &loop, llvm::DominatorTree &dt, std::vector<LoopCheck> &checks,
                std::vector<llvm::CallInst *> &records, std::string &why) {
  for (llvm::BasicBlock *bb : loop.blocks()) {
    bool bounds = calls(*bb, FIBERCL_HOST_CHECK_FAILED),
         uninit = calls(*bb, FIBERCL_HOST_CHECK_UNINIT);
    bool race = calls(*bb, FIBERCL_HOST_CHECK_RACE);
    if (!bounds && !uninit && !race)
      continue;
    llvm::BasicBlock *from = bb->getSinglePredecessor();
    auto *br = from ? llvm::dyn_cast<llvm::BranchInst>(from->getTerminator()) : nullptr;
    bool guarded = br && br->isConditional() && loop.contains(from);
    bool okWhen = guarded && br->getSuccessor(0) != bb;
    if (race && !bounds && !uninit) {
      LoopCheck skip;
      if (invariantGuard(*bb, loop, dt, skip)) {
        br = skip.branch;
        okWhen = skip.okWhen;
      } else {
        for (llvm::Instruction &i : *bb)
          if (auto *call = llvm::dyn_cast<llvm::CallInst>(&i))
            if (const llvm::Function *f = call->getCalledFunction();
                f && f->getName() == FIBERCL_HOST_CHECK_RACE)
              records.push_back(call);
        continue;
      }
    } else if (int(bounds) + int(uninit) + int(race) != 1 || !guarded) {
      why = "a report not behind a branch of its own";
      if (debugChannel("check")) {
        llvm::raw_string_ostream os(why);
        os << ":\n" << *bb;
        for (llvm::BasicBlock *p : llvm::predecessors(bb))
          os << *p;
      }
      return false;
    }
    auto same = std::find_if(checks.begin(), checks.end(),
                             [&](const LoopCheck &c) { return c.branch == br; });
    if (same == checks.end()) {
      checks.push_back({br, okWhen, uninit});
    } else if (same->okWhen != okWhen || same->uninit != uninit) {
      why = "two checks on the two sides of one branch";
      return false;
    }
  }
  return true;
}

// `s` as a line in `loop` (loop-invariant: step 0), built from the loop's affine
// recurrences with constant steps by sums, constant multiples, truncations and
// extensions (SCEV cannot always prove that `(long)(uint)(x0 + lid)` does not wrap: the
// test before the loop does). Steps stay below 2^31 so that (trip - 1) * step fits 64
// bits (trip < 2^32 is tested before the loop).
bool asLine(const llvm::SCEV *s, llvm::Loop &loop, llvm::ScalarEvolution &se, Line &line,
            const llvm::Loop *inner = nullptr) {
  constexpr int64_t kMaxStep = int64_t(1) << 31;
  line = {};
  if (se.isLoopInvariant(s, &loop)) {
    line.start = s;
    return true;
  }
  auto small = [&](int64_t step) { return step > -kMaxStep && step < kMaxStep; };
  if (auto *rec = llvm::dyn_cast<llvm::SCEVAddRecExpr>(s)) {
    auto *step = llvm::dyn_cast<llvm::SCEVConstant>(rec->getStepRecurrence(se));
    if (!rec->isAffine() || !step || step->getAPInt().getSignificantBits() > 32)
      return false;
    if (inner && rec->getLoop() == inner) { // from a line of the outer loop
      if (!asLine(rec->getStart(), loop, se, line))
        return false;
      line.innerStep = step->getAPInt().getSExtValue();
      return small(line.innerStep);
    }
    if (rec->getLoop() != &loop)
      return false;
    line.start = rec->getStart();
    line.step = step->getAPInt().getSExtValue();
    return small(line.step);
  }
  if (auto *add = llvm::dyn_cast<llvm::SCEVAddExpr>(s)) {
    llvm::SmallVector<const llvm::SCEV *, 4> starts;
    for (const llvm::SCEV *op : add->operands()) {
      Line part;
      if (!asLine(op, loop, se, part, inner))
        return false;
      starts.push_back(part.start);
      line.step += part.step;
      line.innerStep += part.innerStep;
      line.unwrapped.insert(line.unwrapped.end(), part.unwrapped.begin(), part.unwrapped.end());
      if (!small(line.step) || !small(line.innerStep))
        return false;
    }
    line.start = se.getAddExpr(starts);
    return true;
  }
  if (auto *mul = llvm::dyn_cast<llvm::SCEVMulExpr>(s)) {
    auto *factor = llvm::dyn_cast<llvm::SCEVConstant>(mul->getOperand(0));
    if (mul->getNumOperands() != 2 || !factor || factor->getAPInt().getSignificantBits() > 32 ||
        !asLine(mul->getOperand(1), loop, se, line, inner))
      return false;
    line.start = se.getMulExpr(factor, line.start);
    line.step *= factor->getAPInt().getSExtValue();
    line.innerStep *= factor->getAPInt().getSExtValue();
    return small(line.step) && small(line.innerStep);
  }
  auto *cast = llvm::dyn_cast<llvm::SCEVCastExpr>(s);
  if (!cast || !asLine(cast->getOperand(0), loop, se, line, inner))
    return false;
  llvm::Type *type = cast->getType();
  if (llvm::isa<llvm::SCEVZeroExtendExpr>(s) || llvm::isa<llvm::SCEVSignExtendExpr>(s)) {
    bool isSigned = llvm::isa<llvm::SCEVSignExtendExpr>(s);
    line.unwrapped.push_back({line.start, line.step, isSigned, line.innerStep});
    line.start =
        isSigned ? se.getSignExtendExpr(line.start, type) : se.getZeroExtendExpr(line.start, type);
    return true;
  }
  if (llvm::isa<llvm::SCEVTruncateExpr>(s)) {
    line.start = se.getTruncateExpr(line.start, type);
    return type->getIntegerBitWidth() >= 32; // the step, < 2^31, is the same
  }
  if (llvm::isa<llvm::SCEVPtrToIntExpr>(s)) {
    line.start = se.getPtrToIntExpr(line.start, type);
    return !llvm::isa<llvm::SCEVCouldNotCompute>(line.start);
  }
  return false;
}

// `s` at iteration `item` (an i64 SCEV) of `loop`: its recurrences in `loop` replaced
// by their values there, exactly as the program computes them (modulo their widths).
// `ok` turns false if `s` has a recurrence of a loop inside `loop`.
class AtIteration : public llvm::SCEVRewriteVisitor<AtIteration> {
public:
  AtIteration(llvm::ScalarEvolution &se, const llvm::Loop &loop, const llvm::SCEV *item)
      : SCEVRewriteVisitor(se), loop_(loop), item_(item) {}
  const llvm::SCEV *visitAddRecExpr(const llvm::SCEVAddRecExpr *rec) {
    if (rec->getLoop() != &loop_ && rec->getLoop()->contains(&loop_))
      return rec; // (the same in every iteration of `loop`)
    if (rec->getLoop() != &loop_ || !rec->isAffine()) {
      ok = false;
      return rec;
    }
    const llvm::SCEV *step = rec->getStepRecurrence(SE);
    return SE.getAddExpr(visit(rec->getStart()),
                         SE.getMulExpr(step, SE.getTruncateOrZeroExtend(item_, step->getType())));
  }
  bool ok = true;

private:
  const llvm::Loop &loop_;
  const llvm::SCEV *item_;
};

// A race record in a loop each work-item runs inside the work-item loop (`for (i = lid;
// i < n; i += size) tile[i] = ...`): work-item x makes it trips(x) times, the k-th at
// start(x) + k * stride, with start a line in the index. trips(x) is the inner loop's
// backedge-taken count plus one where its guard lets it run, 0 elsewhere.
struct NestedLine {
  llvm::Loop *inner = nullptr;
  // The branches before it, each with the value that runs it: loop-invariant
  // conditions, and compares of values known at every iteration (Versioner::knownAtIterations).
  std::vector<std::pair<llvm::Value *, bool>> guards;
  int64_t stride = 0;
};

// A condition a check's branch needs for the access to go on: `value == okWhen`. A
// branch on `a && b` (LLVM's logical and, a select) needs both.
struct Need {
  llvm::Value *value;
  bool okWhen;
  bool uninit;
};

// The value `v` is, when it is a phi of one value and constants that are `okWhen`
// (access_checks.cpp's `written` past a bounds check's phi: true where the access was
// skipped): that value == okWhen is enough for v == okWhen. Else nullptr.
llvm::Value *mergedWith(llvm::Value *v, bool okWhen) {
  auto *phi = llvm::dyn_cast<llvm::PHINode>(v);
  if (!phi || !phi->getType()->isIntegerTy(1))
    return nullptr;
  llvm::Value *only = nullptr;
  for (llvm::Value *in : phi->incoming_values()) {
    if (auto *c = llvm::dyn_cast<llvm::ConstantInt>(in)) {
      if (c->isOne() != okWhen)
        return nullptr;
    } else if (only && in != only) {
      return nullptr;
    } else {
      only = in;
    }
  }
  return only;
}

// A logical and that must be false (or an or that must be true) with a loop-invariant
// operand needs only that operand: enough, if not always necessary.
void needsOf(const LoopCheck &c, llvm::Loop &loop, std::vector<Need> &needs) {
  using namespace llvm::PatternMatch;
  std::vector<std::pair<llvm::Value *, bool>> work{{c.branch->getCondition(), c.okWhen}};
  while (!work.empty()) {
    auto [v, okWhen] = work.back();
    work.pop_back();
    llvm::Value *a, *b;
    if ((okWhen && match(v, m_LogicalAnd(m_Value(a), m_Value(b)))) ||
        (!okWhen && match(v, m_LogicalOr(m_Value(a), m_Value(b))))) {
      work.push_back({a, okWhen});
      work.push_back({b, okWhen});
    } else if (match(v, m_Not(m_Value(a)))) {
      work.push_back({a, !okWhen});
    } else if (llvm::Value *only = mergedWith(v, okWhen)) {
      work.push_back({only, okWhen}); // uninit's `written` past a bounds check's phi
    } else if (llvm::Value *part = invariantPart(v, okWhen, loop)) {
      needs.push_back({part, okWhen, c.uninit});
    } else {
      needs.push_back({v, okWhen, c.uninit});
    }
  }
}

// uninit: the context a load of the group's shadow tag reads from (access_checks.cpp's
// tagOf: N <= 16 bytes of ctx->local_shadow_tag, each byte the tag, perhaps narrowed by
// LLVM to fewer), or nullptr if `v` is not such a load.
llvm::Value *shadowTagContext(llvm::Value *v) {
  while (auto *narrowed = llvm::dyn_cast<llvm::TruncInst>(v))
    v = narrowed->getOperand(0);
  auto *load = llvm::dyn_cast<llvm::LoadInst>(v);
  if (!load || !load->isSimple() || !load->getType()->isIntegerTy())
    return nullptr;
  const llvm::DataLayout &dl = load->getModule()->getDataLayout();
  int64_t offset = 0;
  llvm::Value *ctx = llvm::GetPointerBaseWithConstantOffset(load->getPointerOperand(), offset, dl);
  const int64_t field = offsetof(fcl_group_ctx, local_shadow_tag);
  const int64_t end = field + int64_t(sizeof(fcl_group_ctx::local_shadow_tag));
  const int64_t bytes = int64_t(dl.getTypeStoreSize(load->getType()).getFixedValue());
  return llvm::isa<llvm::Argument>(ctx) && offset >= field && offset + bytes <= end ? ctx : nullptr;
}

// The shadow bytes the group's versioned loops found written so far, [lo, hi): two
// i64 slots at the work-group function's entry, 0 when it starts (once per group, each
// with its own tag). A shadow byte only goes from another value to the tag,
// so a span inside them needs no scan, and one that starts inside them only a scan of
// its part past them: a reduction's tree steps read within the first step's span, a
// stencil's next row of the tile adds one row.
struct WrittenSpan {
  llvm::AllocaInst *lo = nullptr, *hi = nullptr;
};

WrittenSpan writtenSpanOf(llvm::Function &f) {
  llvm::IRBuilder<> b(&*f.getEntryBlock().getFirstInsertionPt());
  WrittenSpan w;
  w.lo = b.CreateAlloca(b.getInt64Ty(), nullptr, "check.written.lo");
  w.hi = b.CreateAlloca(b.getInt64Ty(), nullptr, "check.written.hi");
  b.CreateStore(b.getInt64(0), w.lo);
  b.CreateStore(b.getInt64(0), w.hi);
  return w;
}

// The known-written span once [lo, hi) is found written too: their union when they
// touch, else [lo, hi) (the newest; an empty known span touches nothing).
std::pair<llvm::Value *, llvm::Value *> grownWritten(llvm::IRBuilder<> &b, llvm::Value *knownLo,
                                                     llvm::Value *knownHi, llvm::Value *lo,
                                                     llvm::Value *hi) {
  llvm::Value *touches = b.CreateAnd(b.CreateICmpULE(lo, knownHi), b.CreateICmpUGE(hi, knownLo));
  return {b.CreateSelect(touches, b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, lo, knownLo), lo),
          b.CreateSelect(touches, b.CreateBinaryIntrinsic(llvm::Intrinsic::umax, hi, knownHi), hi)};
}

class Versioner {
public:
  // `inner`: versioning a nest (Line), whose inner loop runs the same number of times in
  // every iteration of `loop`.
  Versioner(llvm::Loop &loop, llvm::ScalarEvolution &se, llvm::Instruction *at, WrittenSpan written,
            llvm::Loop *inner = nullptr)
      : loop_(loop), inner_(inner), se_(se), written_(written),
        expander_(se, loop.getHeader()->getModule()->getDataLayout(), "check.version"),
        ranges_(loop, se, expander_), at_(at), b_(at) {}

  // Where the conditions are emitted from now on.
  void emitBefore(llvm::Instruction *at) { at_ = at; }
  // Whether every need can be decided before the loop (else `why`). Emits nothing.
  bool decidable(const std::vector<Need> &needs, std::string &why);
  // Whether the race record `call`, made in every iteration, is a line (CHECK_RACE_LINE).
  bool isLine(llvm::CallInst *call);
  bool plainLocalRecord(llvm::CallInst *call);
  // Whether the race record `call`, made in a loop inside this one, is a line of each of
  // the inner loop's iterations (NestedLine). All of the loop's are in one inner loop:
  // CHECK_RACE_TRIPS has one buffer.
  bool isNestedLine(llvm::CallInst *call, llvm::LoopInfo &li, llvm::DominatorTree &dt);
  std::string nestedWhy; // why the last record isNestedLine looked at is not one
  size_t ranged = 0;     // checks allHold decided by their ranges
  bool isNested(llvm::CallInst *call) const { return nested_.count(call) > 0; }
  // uninit: whether `store`, a shadow store (kShadowStoreMetadata) the caller found in
  // every iteration, marks a line of addresses without gaps: the copy without checks
  // leaves it out and marks its span before the loop (markSpans).
  bool isShadowSpan(llvm::StoreInst *store);
  // Whether `store` marks bytes one of `needs`' reads checks at the same address in the
  // same iteration (`tmp[lid] += ...`): when the copy runs they are marked already.
  bool markedByRead(llvm::StoreInst *store, const std::vector<Need> &needs);
  // The condition under which every need holds in every iteration, emitted before
  // `at` (after decidable()); the arguments of CHECK_RACE_LINE for each of `lines` but
  // its `state` (after isLine()); the spans of `marks` (after isShadowSpan()).
  llvm::Value *allHold(const std::vector<Need> &needs, const std::vector<llvm::CallInst *> &lines,
                       std::vector<std::vector<llvm::Value *>> &lineArguments,
                       const std::vector<llvm::StoreInst *> &marks);
  // Before `at`, in the copy's preheader: each of the marks' spans that is not inside
  // the known-written span is set to the tag, and the known span grows by it.
  void markSpans(llvm::Instruction *at);

private:
  // Compare: both sides lines; Range: a bounds check decided by its offset's range
  // (LoopValueRanges), not a line.
  enum class Kind { Invariant, Compare, Range, Shadow, Unknown };
  Kind kindOf(const Need &n, std::string &why);
  bool lineKnown(const llvm::SCEV *s, Line &line);
  // The loads of the shadow an uninit check compares with the group's tag (`==` when it
  // passes; the tag's context is kept in tagContext_).
  bool shadowLoads(const Need &n, llvm::SmallVectorImpl<llvm::LoadInst *> &loads);
  // The tag as a byte, loaded before the builder's point (after shadowLoads or
  // isShadowSpan found the tag's context).
  llvm::Value *tagByte(llvm::IRBuilder<> &b);
  llvm::Value *expand(const llvm::SCEV *s) { return expander_.expandCodeFor(s, s->getType(), at_); }
  // The value at the first and last iteration.
  void ends(const Line &line, llvm::Value *&first, llvm::Value *&last);
  llvm::Value *forward(int64_t step, llvm::Value *v0, llvm::Value *vN, bool isSigned);
  void unwrappedParts(const Line &line);
  llvm::Value *compareHolds(const Need &n);
  // The shadow spans the loop's reads cover (added to spans_).
  void shadowSpans(const Need &n);
  llvm::Value *allWritten(llvm::Value *from, llvm::Value *bytes);
  void storeSpan(llvm::StoreInst *store);
  llvm::Value *lastIteration();
  llvm::Value *lastInnerIteration();
  std::vector<llvm::Value *> lineArguments(llvm::CallInst *call);
  // Whether SCEV `s`, of the loop or of one inside it, can be computed before the loop
  // at any of its iterations.
  bool knownAtIterations(const llvm::SCEV *s);
  llvm::Value *expandAt(const llvm::SCEV *s, llvm::Value *item, llvm::Instruction *at);
  // CHECK_RACE_TRIPS's buffer, filled with each work-item's trips through `inner`.
  llvm::Value *trips(const NestedLine &n, llvm::Value *ctx);

  llvm::Loop &loop_;
  llvm::Loop *inner_;
  llvm::Value *tagContext_ = nullptr; // the fcl_group_ctx the shadow tag is loaded from
  llvm::ScalarEvolution &se_;
  WrittenSpan written_;
  llvm::SCEVExpander expander_;
  LoopValueRanges ranges_;
  llvm::Instruction *at_;
  llvm::IRBuilder<> b_;
  llvm::Value *lastIteration_ = nullptr; // backedge-taken count, i64
  llvm::Value *lastInner_ = nullptr;     // the inner loop's, in a nest
  std::vector<llvm::Value *> conditions_;
  std::vector<std::pair<llvm::Value *, llvm::Value *>> spans_;  // shadow: first byte, bytes
  std::vector<std::pair<llvm::Value *, llvm::Value *>> marked_; // likewise, of the marks
  std::map<llvm::CallInst *, NestedLine> nested_;
  llvm::Value *trips_ = nullptr; // the filled buffer
};

bool Versioner::shadowLoads(const Need &n, llvm::SmallVectorImpl<llvm::LoadInst *> &loads) {
  auto *cmp = llvm::dyn_cast<llvm::ICmpInst>(n.value);
  if (!cmp || !cmp->isEquality() || (cmp->getPredicate() == llvm::CmpInst::ICMP_EQ) != n.okWhen)
    return false;
  llvm::Value *seen = nullptr;
  for (unsigned i = 0; i < 2; ++i)
    if (llvm::Value *ctx = shadowTagContext(cmp->getOperand(1 - i))) {
      seen = cmp->getOperand(i);
      tagContext_ = ctx;
    }
  // LLVM may carry a load to the next work-item (tile[x + 1] is the next one's tile[x]):
  // a phi of the load before the loop and the one in it.
  llvm::SmallVector<llvm::Value *, 2> values{seen};
  if (auto *phi = llvm::dyn_cast_or_null<llvm::PHINode>(seen))
    values.assign(phi->incoming_values().begin(), phi->incoming_values().end());
  for (llvm::Value *v : values) {
    auto *load = llvm::dyn_cast_or_null<llvm::LoadInst>(v);
    if (!load || !load->isSimple())
      return false;
    loads.push_back(load);
  }
  return true;
}

// `s` as a line whose parts can be computed before the loop.
bool Versioner::lineKnown(const llvm::SCEV *s, Line &line) {
  if (!asLine(s, loop_, se_, line, inner_) || !expander_.isSafeToExpandAt(line.start, at_) ||
      !oneDirection(line.step, line.innerStep))
    return false;
  for (const Unwrapped &u : line.unwrapped)
    if (!expander_.isSafeToExpandAt(u.start, at_) || !oneDirection(u.step, u.innerStep))
      return false;
  return true;
}

Versioner::Kind Versioner::kindOf(const Need &n, std::string &why) {
  // A need computed in the loop from values the same in every iteration (a bound or an
  // argument's flags, loaded from the launch's table where the access is, perhaps
  // behind the branch of a gather), or such a side of a compare, is computed before it.
  auto *cmp = llvm::dyn_cast<llvm::ICmpInst>(n.value);
  for (llvm::Value *v :
       {n.value, cmp ? cmp->getOperand(0) : nullptr, cmp ? cmp->getOperand(1) : nullptr})
    if (auto *i = llvm::dyn_cast_or_null<llvm::Instruction>(v);
        i && loop_.contains(i) && hoistedInvariant(i, loop_, at_))
      se_.forgetLoopDispositions();
  if (loop_.isLoopInvariant(n.value)) {
    auto *i = llvm::dyn_cast<llvm::Instruction>(n.value);
    return !i || i->getParent() != at_->getParent() || i->comesBefore(at_) ? Kind::Invariant
                                                                           : Kind::Unknown;
  }
  if (n.uninit) {
    Line line;
    llvm::SmallVector<llvm::LoadInst *, 2> loads;
    bool known = shadowLoads(n, loads);
    for (llvm::LoadInst *load : loads)
      known = known && lineKnown(se_.getSCEV(load->getPointerOperand()), line);
    if (known)
      return Kind::Shadow;
    why = "an uninit check of a __local read that is not a line in the work-item's index";
    if (debugChannel("check")) {
      llvm::raw_string_ostream os(why);
      os << ":" << *n.value;
      for (llvm::LoadInst *load : loads)
        os << " [" << *se_.getSCEV(load->getPointerOperand()) << "]";
    }
    return Kind::Unknown;
  }
  Line lhs, rhs;
  if (cmp && !cmp->isEquality() && cmp->getOperand(0)->getType()->isIntegerTy() &&
      lineKnown(se_.getSCEV(cmp->getOperand(0)), lhs) &&
      lineKnown(se_.getSCEV(cmp->getOperand(1)), rhs) &&
      !(direction(lhs.step, lhs.innerStep) && direction(rhs.step, rhs.innerStep)))
    return Kind::Compare;
  if (cmp && !cmp->isEquality() && cmp->getOperand(0)->getType()->isIntegerTy() &&
      ranges_.decidable(cmp->getPredicate(), se_.getSCEV(cmp->getOperand(0)),
                        se_.getSCEV(cmp->getOperand(1)), at_))
    return Kind::Range;
  why = "a bounds check whose offset is neither a line in the work-item's index nor of a "
        "range known before the loop";
  if (debugChannel("check")) {
    llvm::raw_string_ostream os(why);
    os << ":" << *n.value;
    if (cmp)
      os << " [" << *se_.getSCEV(cmp->getOperand(0)) << " | " << *se_.getSCEV(cmp->getOperand(1))
         << "]";
    if (ranges_.unfollowed)
      os << "; its range does not follow " << *ranges_.unfollowed;
  }
  return Kind::Unknown;
}

bool Versioner::decidable(const std::vector<Need> &needs, std::string &why) {
  if (needs.size() > 256) {
    why = "too many checks";
    return false;
  }
  for (const Need &n : needs)
    if (kindOf(n, why) == Kind::Unknown)
      return false;
  const llvm::SCEV *taken = se_.getBackedgeTakenCount(&loop_);
  if (llvm::isa<llvm::SCEVCouldNotCompute>(taken) || taken->getType()->getIntegerBitWidth() > 64 ||
      !expander_.isSafeToExpandAt(taken, at_)) {
    why = "a work-item count not known before the loop";
    return false;
  }
  if (inner_) {
    const llvm::SCEV *innerTaken = se_.getBackedgeTakenCount(inner_);
    if (llvm::isa<llvm::SCEVCouldNotCompute>(innerTaken) ||
        innerTaken->getType()->getIntegerBitWidth() > 64 ||
        !se_.isLoopInvariant(innerTaken, &loop_) || !expander_.isSafeToExpandAt(innerTaken, at_)) {
      why = "an inner work-item count that is not the same in every iteration";
      return false;
    }
  }
  return true;
}

llvm::Value *Versioner::lastIteration() {
  if (!lastIteration_) {
    llvm::Value *n = expand(se_.getBackedgeTakenCount(&loop_));
    b_.SetInsertPoint(at_);
    lastIteration_ = b_.CreateZExt(n, b_.getInt64Ty(), "check.last.iteration");
  }
  return lastIteration_;
}

llvm::Value *Versioner::lastInnerIteration() {
  if (!lastInner_) {
    llvm::Value *n = expand(se_.getBackedgeTakenCount(inner_));
    b_.SetInsertPoint(at_);
    lastInner_ = b_.CreateZExt(n, b_.getInt64Ty(), "check.last.inner.iteration");
  }
  return lastInner_;
}

// In a nest, the first iteration of both loops and the last of both: a line moving
// one way in both has its extremes there.
void Versioner::ends(const Line &line, llvm::Value *&first, llvm::Value *&last) {
  first = expand(line.start);
  last = first;
  llvm::Type *t = first->getType();
  unsigned bits = t->isPointerTy() ? 64 : t->getIntegerBitWidth();
  // No wrap between the ends: the distance, (last iteration) * |step| (plus the inner
  // loop's in a nest, each below 2^(bits - 2) then), is below 2^(bits - 1); asLine's
  // |step| < 2^31 keeps each product within 64 bits.
  const uint64_t half = uint64_t(1) << (std::min(bits, 64u) - (line.innerStep ? 2 : 1));
  std::pair<int64_t, llvm::Value *> moves[2] = {{line.step, nullptr}, {line.innerStep, nullptr}};
  if (line.step)
    moves[0].second = lastIteration();
  if (line.innerStep)
    moves[1].second = lastInnerIteration();
  for (auto [step, n] : moves) {
    if (!step)
      continue;
    b_.SetInsertPoint(at_);
    uint64_t magnitude = uint64_t(step < 0 ? -step : step);
    conditions_.push_back(b_.CreateICmpULT(n, b_.getInt64(half / magnitude), "check.no.wrap"));
    if (t->isPointerTy())
      last = b_.CreateGEP(b_.getInt8Ty(), last, b_.CreateMul(n, b_.getInt64(uint64_t(step))));
    else
      last = b_.CreateAdd(
          last, b_.CreateMul(b_.CreateZExtOrTrunc(n, t), llvm::ConstantInt::get(t, step)));
  }
}

// Whether `v0` .. `vN`, a line's ends, show it did not wrap (its |step| * trips is below
// half its range, which ends() tests).
llvm::Value *Versioner::forward(int64_t step, llvm::Value *v0, llvm::Value *vN, bool isSigned) {
  b_.SetInsertPoint(at_);
  if (v0->getType()->isPointerTy()) {
    v0 = b_.CreatePtrToInt(v0, b_.getInt64Ty());
    vN = b_.CreatePtrToInt(vN, b_.getInt64Ty());
  }
  llvm::CmpInst::Predicate ge = isSigned ? llvm::CmpInst::ICMP_SGE : llvm::CmpInst::ICMP_UGE;
  return step > 0 ? b_.CreateICmp(ge, vN, v0) : step < 0 ? b_.CreateICmp(ge, v0, vN) : b_.getTrue();
}

// The parts of `line` under extensions do not wrap.
void Versioner::unwrappedParts(const Line &line) {
  for (const Unwrapped &u : line.unwrapped) {
    llvm::Value *v0, *vN;
    ends(Line{u.start, u.step, {}, u.innerStep}, v0, vN);
    conditions_.push_back(forward(direction(u.step, u.innerStep), v0, vN, u.isSigned));
  }
}

// `a pred b` with one side a line in the index and the other the same throughout holds
// for every iteration if it holds at both ends and the line does not wrap between
// them, in the compare's signedness.
llvm::Value *Versioner::compareHolds(const Need &n) {
  auto *cmp = llvm::cast<llvm::ICmpInst>(n.value);
  llvm::CmpInst::Predicate pred = n.okWhen ? cmp->getPredicate() : cmp->getInversePredicate();
  Line lhs, rhs;
  asLine(se_.getSCEV(cmp->getOperand(0)), loop_, se_, lhs, inner_);
  asLine(se_.getSCEV(cmp->getOperand(1)), loop_, se_, rhs, inner_);
  llvm::Value *l0, *lN, *r0, *rN;
  ends(lhs, l0, lN);
  ends(rhs, r0, rN);
  unwrappedParts(lhs);
  unwrappedParts(rhs);
  b_.SetInsertPoint(at_);
  llvm::Value *ok = b_.CreateAnd(b_.CreateICmp(pred, l0, r0), b_.CreateICmp(pred, lN, rN));
  int64_t moves = direction(lhs.step, lhs.innerStep);
  bool left = moves != 0;
  if (!left)
    moves = direction(rhs.step, rhs.innerStep);
  return b_.CreateAnd(
      ok, forward(moves, left ? l0 : r0, left ? lN : rN, llvm::CmpInst::isSigned(pred)));
}

// uninit: every shadow byte the loop's reads cover is written before it.
void Versioner::shadowSpans(const Need &n) {
  llvm::SmallVector<llvm::LoadInst *, 2> loads;
  shadowLoads(n, loads);
  for (llvm::LoadInst *load : loads) {
    Line line;
    asLine(se_.getSCEV(load->getPointerOperand()), loop_, se_, line, inner_);
    llvm::Value *first, *last;
    ends(line, first, last);
    unwrappedParts(line);
    const int64_t moves = direction(line.step, line.innerStep);
    conditions_.push_back(forward(moves, first, last, false));
    const llvm::DataLayout &dl = load->getModule()->getDataLayout();
    b_.SetInsertPoint(at_);
    llvm::Value *low = moves < 0 ? last : first, *high = moves < 0 ? first : last;
    spans_.emplace_back(low, b_.CreateAdd(b_.CreateSub(b_.CreatePtrToInt(high, b_.getInt64Ty()),
                                                       b_.CreatePtrToInt(low, b_.getInt64Ty())),
                                          b_.getInt64(dl.getTypeStoreSize(load->getType()))));
  }
}

bool Versioner::isShadowSpan(llvm::StoreInst *store) {
  llvm::Value *ctx = shadowTagContext(store->getValueOperand());
  if (inner_ || !store->getMetadata(kShadowStoreMetadata) || !store->isSimple() || !ctx)
    return false;
  Line line;
  if (!lineKnown(se_.getSCEV(store->getPointerOperand()), line))
    return false;
  tagContext_ = ctx;
  const uint64_t bytes = store->getModule()
                             ->getDataLayout()
                             .getTypeStoreSize(store->getValueOperand()->getType())
                             .getFixedValue();
  return uint64_t(line.step < 0 ? -line.step : line.step) <= bytes; // no gaps
}

llvm::Value *Versioner::tagByte(llvm::IRBuilder<> &b) {
  llvm::LoadInst *tag = b.CreateLoad(
      b.getInt8Ty(),
      b.CreateConstGEP1_64(b.getInt8Ty(), tagContext_, offsetof(fcl_group_ctx, local_shadow_tag)),
      "shadow.tag");
  tag->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(b.getContext(), {}));
  return tag;
}

bool Versioner::markedByRead(llvm::StoreInst *store, const std::vector<Need> &needs) {
  const llvm::DataLayout &dl = store->getModule()->getDataLayout();
  const llvm::SCEV *at = se_.getSCEV(store->getPointerOperand());
  for (const Need &n : needs) {
    llvm::SmallVector<llvm::LoadInst *, 2> loads;
    if (!n.uninit || !shadowLoads(n, loads))
      continue;
    for (llvm::LoadInst *load : loads)
      if (loop_.contains(load) && se_.getSCEV(load->getPointerOperand()) == at &&
          dl.getTypeStoreSize(load->getType()) >=
              dl.getTypeStoreSize(store->getValueOperand()->getType()))
        return true;
  }
  return false;
}

// A mark's span (marked_) and the conditions that its line does not wrap.
void Versioner::storeSpan(llvm::StoreInst *store) {
  Line line;
  asLine(se_.getSCEV(store->getPointerOperand()), loop_, se_, line, inner_);
  llvm::Value *first, *last;
  ends(line, first, last);
  unwrappedParts(line);
  conditions_.push_back(forward(line.step, first, last, false));
  b_.SetInsertPoint(at_);
  llvm::Value *low = line.step < 0 ? last : first, *high = line.step < 0 ? first : last;
  const llvm::DataLayout &dl = store->getModule()->getDataLayout();
  llvm::Type *i64 = b_.getInt64Ty();
  marked_.emplace_back(
      low, b_.CreateAdd(b_.CreateSub(b_.CreatePtrToInt(high, i64), b_.CreatePtrToInt(low, i64)),
                        b_.getInt64(dl.getTypeStoreSize(store->getValueOperand()->getType()))));
}

// Within a group a shadow byte only goes to the tag, so a span inside the known-written
// one needs nothing (a reduction's tree steps write within what its first region
// wrote); one outside it is set at once, a memset instead of a store per work-item.
void Versioner::markSpans(llvm::Instruction *at) {
  llvm::Type *i64 = llvm::Type::getInt64Ty(at->getContext());
  for (auto [from, bytes] : marked_) {
    llvm::IRBuilder<> b(at);
    llvm::Value *knownLo = b.CreateLoad(i64, written_.lo),
                *knownHi = b.CreateLoad(i64, written_.hi);
    llvm::Value *lo = b.CreatePtrToInt(from, i64), *hi = b.CreateAdd(lo, bytes);
    llvm::Value *inside = b.CreateAnd(b.CreateICmpUGE(lo, knownLo), b.CreateICmpULE(hi, knownHi));
    llvm::Instruction *mark = llvm::SplitBlockAndInsertIfThen(
        b.CreateNot(inside), at, false,
        llvm::MDBuilder(at->getContext()).createBranchWeights(1, 1u << 10));
    b.SetInsertPoint(mark);
    b.CreateMemSet(from, tagByte(b), bytes, llvm::MaybeAlign(1));
    auto [newLo, newHi] = grownWritten(b, knownLo, knownHi, lo, hi);
    b.CreateStore(newLo, written_.lo);
    b.CreateStore(newHi, written_.hi);
  }
}

// Whether the `bytes` shadow bytes from `from` are all the tag, emitted before `at_`
// (which it moves to a block after the scan): at once if they are inside the
// known-written span (WrittenSpan); else an OR of those not known written XOR the tag,
// a loop LLVM vectorises, after which the known span grows by them if they are.
llvm::Value *Versioner::allWritten(llvm::Value *whole, llvm::Value *wholeBytes) {
  b_.SetInsertPoint(at_);
  llvm::Type *i64 = b_.getInt64Ty();
  llvm::Value *lo = b_.CreatePtrToInt(whole, i64), *hi = b_.CreateAdd(lo, wholeBytes);
  llvm::Value *knownLo = b_.CreateLoad(i64, written_.lo),
              *knownHi = b_.CreateLoad(i64, written_.hi);
  llvm::Value *inside =
      b_.CreateAnd(b_.CreateICmpUGE(lo, knownLo), b_.CreateICmpULE(hi, knownHi), "check.inside");
  llvm::BasicBlock *before = at_->getParent();
  llvm::BasicBlock *after = llvm::SplitBlock(before, at_);
  llvm::LLVMContext &c = before->getContext();
  llvm::Function *f = before->getParent();
  auto *outside = llvm::BasicBlock::Create(c, "check.outside", f, after);
  auto *scan = llvm::BasicBlock::Create(c, "check.scan", f, after);
  auto *scanned = llvm::BasicBlock::Create(c, "check.scanned", f, after);
  before->getTerminator()->eraseFromParent();
  llvm::MDBuilder md(c);
  llvm::IRBuilder<> b(before);
  b.CreateCondBr(inside, after, outside, md.createBranchWeights(1u << 10, 1));
  // Only the part past the known span is scanned when the span starts inside it.
  b.SetInsertPoint(outside);
  llvm::Value *extends =
      b.CreateAnd(b.CreateICmpUGE(lo, knownLo), b.CreateICmpULE(lo, knownHi), "check.extends");
  llvm::Value *start =
      b.CreateSelect(extends, b.CreateBinaryIntrinsic(llvm::Intrinsic::umax, lo, knownHi), lo);
  llvm::Value *bytes = b.CreateBinaryIntrinsic(llvm::Intrinsic::usub_sat, hi, start);
  llvm::Value *from = b.CreateGEP(b.getInt8Ty(), whole, b.CreateSub(start, lo));
  llvm::Value *tag = tagByte(b);
  b.CreateCondBr(b.CreateICmpEQ(bytes, b.getInt64(0)), scanned, scan);
  b.SetInsertPoint(scan);
  llvm::PHINode *i = b.CreatePHI(b.getInt64Ty(), 2, "scan.i");
  llvm::PHINode *differs = b.CreatePHI(b.getInt8Ty(), 2, "scan.differs");
  i->addIncoming(b.getInt64(0), outside);
  differs->addIncoming(b.getInt8(0), outside);
  llvm::Value *byte = b.CreateLoad(b.getInt8Ty(), b.CreateGEP(b.getInt8Ty(), from, i));
  llvm::Value *nextDiffers = b.CreateOr(differs, b.CreateXor(byte, tag));
  llvm::Value *next = b.CreateAdd(i, b.getInt64(1));
  i->addIncoming(next, scan);
  differs->addIncoming(nextDiffers, scan);
  b.CreateCondBr(b.CreateICmpEQ(next, bytes), scanned, scan);
  b.SetInsertPoint(scanned);
  llvm::PHINode *result = b.CreatePHI(b.getInt8Ty(), 2, "scan.result");
  result->addIncoming(b.getInt8(0), outside);
  result->addIncoming(nextDiffers, scan);
  llvm::Value *ok = b.CreateICmpEQ(result, b.getInt8(0));
  auto [newLo, newHi] = grownWritten(b, knownLo, knownHi, lo, hi);
  b.CreateStore(b.CreateSelect(ok, newLo, knownLo), written_.lo);
  b.CreateStore(b.CreateSelect(ok, newHi, knownHi), written_.hi);
  b.CreateBr(after);
  b_.SetInsertPoint(at_);
  llvm::PHINode *written = b_.CreatePHI(b_.getInt1Ty(), 2, "check.written");
  written->addIncoming(b_.getTrue(), before);
  written->addIncoming(ok, scanned);
  return written;
}

// CHECK_RACE's arguments: (ctx, site, address, bytes, how, value, x, y, z).
// A record a line can stand for: a plain __local access of a known site and size (no
// atomic, no ordering), made by work-items (x + i, y, z) for the loop's iterations i.
bool Versioner::plainLocalRecord(llvm::CallInst *call) {
  auto *site = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(1));
  auto *bytes = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(3));
  auto *how = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(4));
  constexpr uint64_t kOrdering =
      FCL_RACE_ATOMIC | FCL_RACE_ACQUIRE | FCL_RACE_RELEASE | FCL_RACE_NARROW | FCL_RACE_AFTER;
  Line x, y, z;
  return site && bytes && how && (how->getZExtValue() & FCL_RACE_LOCAL) &&
         !(how->getZExtValue() & kOrdering) && bytes->getZExtValue() - 1 < 64 &&
         loop_.isLoopInvariant(call->getArgOperand(0)) &&
         lineKnown(se_.getSCEV(call->getArgOperand(6)), x) && x.step == 1 && x.unwrapped.empty() &&
         lineKnown(se_.getSCEV(call->getArgOperand(7)), y) && y.step == 0 &&
         lineKnown(se_.getSCEV(call->getArgOperand(8)), z) && z.step == 0;
}

bool Versioner::isLine(llvm::CallInst *call) {
  Line address;
  return plainLocalRecord(call) && lineKnown(se_.getSCEV(call->getArgOperand(2)), address);
}

bool Versioner::knownAtIterations(const llvm::SCEV *s) {
  AtIteration rewrite(se_, loop_, se_.getZero(llvm::Type::getInt64Ty(s->getType()->getContext())));
  const llvm::SCEV *atZero = rewrite.visit(s);
  return rewrite.ok && se_.isLoopInvariant(atZero, &loop_) &&
         expander_.isSafeToExpandAt(atZero, at_);
}

llvm::Value *Versioner::expandAt(const llvm::SCEV *s, llvm::Value *item, llvm::Instruction *at) {
  AtIteration rewrite(se_, loop_, se_.getUnknown(item));
  const llvm::SCEV *there = rewrite.visit(s);
  return expander_.expandCodeFor(there, there->getType(), at);
}

bool Versioner::isNestedLine(llvm::CallInst *call, llvm::LoopInfo &li, llvm::DominatorTree &dt) {
  auto notNested = [&](const char *why) {
    nestedWhy = why;
    return false;
  };
  llvm::Loop *inner = li.getLoopFor(call->getParent());
  if (!inner || inner->getParentLoop() != &loop_ || !inner->isInnermost())
    return notNested("not in a loop directly inside the work-item loop, innermost");
  // (a guarded loop often shares its exit with the guard's other side: given its own)
  if (!inner->isLoopSimplifyForm())
    llvm::simplifyLoop(inner, &dt, &li, &se_, nullptr, nullptr, false);
  if (!inner->isLoopSimplifyForm() || inner->getExitingBlock() != inner->getLoopLatch())
    return notNested("a loop of another shape (one exit, at its latch)");
  if (!dt.dominates(call->getParent(), inner->getLoopLatch()))
    return notNested("not made in every iteration of its loop");
  if (!nested_.empty() && nested_.begin()->second.inner != inner)
    return notNested("records in two loops inside the work-item loop");
  NestedLine n;
  n.inner = inner;
  // The inner loop is entered only through its preheader, reached by a chain of blocks
  // each the only successor of the one before. The block before the chain runs once per
  // iteration of this loop; if it ends in a conditional branch (the guard), the inner
  // loop runs when the branch takes the chain.
  llvm::BasicBlock *runs = inner->getLoopPreheader();
  while (llvm::BasicBlock *before = runs->getSinglePredecessor()) {
    auto *br = llvm::dyn_cast<llvm::BranchInst>(before->getTerminator());
    if (!br || li.getLoopFor(before) != &loop_)
      break;
    if (br->isConditional()) {
      llvm::Value *condition = br->getCondition();
      auto *cmp = llvm::dyn_cast<llvm::ICmpInst>(condition);
      if (br->getSuccessor(0) == br->getSuccessor(1) ||
          !(loop_.isLoopInvariant(condition) ||
            (cmp && cmp->getOperand(0)->getType()->isIntOrPtrTy() &&
             knownAtIterations(se_.getSCEV(cmp->getOperand(0))) &&
             knownAtIterations(se_.getSCEV(cmp->getOperand(1)))))) {
        if (debugChannel("check"))
          llvm::errs() << "FiberCL: checked loop versions: guard " << *condition << "\n";
        return notNested("a branch before its loop on a condition not known at every work-item");
      }
      n.guards.emplace_back(condition, br->getSuccessor(0) == runs);
    }
    runs = before;
  }
  if (li.getLoopFor(runs) != &loop_ || !dt.dominates(runs, loop_.getLoopLatch()))
    return notNested("its loop is not entered once per work-item after branches known before");
  const llvm::SCEV *taken = se_.getBackedgeTakenCount(inner);
  if (llvm::isa<llvm::SCEVCouldNotCompute>(taken) || taken->getType()->getIntegerBitWidth() > 64 ||
      !knownAtIterations(taken))
    return notNested("its loop's trip count not known before the work-item loop");
  // The access: an affine recurrence of the inner loop from a line of this one.
  if (!plainLocalRecord(call))
    return notNested("not a plain __local access, or its ids not the work-item loop's");
  auto *rec = llvm::dyn_cast<llvm::SCEVAddRecExpr>(se_.getSCEV(call->getArgOperand(2)));
  if (!rec || rec->getLoop() != inner || !rec->isAffine())
    return notNested("not at an affine address in its loop");
  auto *stride = llvm::dyn_cast<llvm::SCEVConstant>(rec->getStepRecurrence(se_));
  if (!stride || stride->getAPInt().getSignificantBits() > 32 || stride->getAPInt().isZero())
    return notNested("not a constant stride in its loop");
  n.stride = stride->getAPInt().getSExtValue();
  Line start;
  if (!lineKnown(rec->getStart(), start))
    return notNested("its first address not a line in the work-item's index");
  nested_[call] = n;
  return true;
}

// Before the loop: for each work-item i of it, trips[i] = the inner loop's
// backedge-taken count + 1 if its guard lets it run, else 0 (saturated at 2^32 - 1:
// the runtime takes no more than a few hundred lines). At most
// FIBERCL_MAX_WORK_GROUP_SIZE work-items are written; the runtime refuses more.
llvm::Value *Versioner::trips(const NestedLine &n, llvm::Value *ctx) {
  if (trips_)
    return trips_;
  llvm::Value *last = lastIteration_; // (made by lineArguments)
  // What the fill loop computes, with the enclosing loops' recurrences computed here
  // first (the fill loop's block is in no loop LoopInfo knows).
  auto outerKnown = [&](const llvm::SCEV *s) {
    struct Outer : llvm::SCEVRewriteVisitor<Outer> {
      Outer(llvm::ScalarEvolution &se, Versioner &v) : SCEVRewriteVisitor(se), v(v) {}
      const llvm::SCEV *visitAddRecExpr(const llvm::SCEVAddRecExpr *rec) {
        if (rec->getLoop() == &v.loop_ || !rec->getLoop()->contains(&v.loop_))
          return SCEVRewriteVisitor::visitAddRecExpr(rec);
        return SE.getUnknown(v.expand(rec));
      }
      Versioner &v;
    } outer(se_, *this);
    return outer.visit(s);
  };
  const llvm::SCEV *taken = outerKnown(se_.getBackedgeTakenCount(n.inner));
  std::vector<std::pair<const llvm::SCEV *, const llvm::SCEV *>> compared;
  for (auto [condition, enterWhen] : n.guards)
    if (!loop_.isLoopInvariant(condition)) {
      auto *cmp = llvm::cast<llvm::ICmpInst>(condition);
      compared.emplace_back(outerKnown(se_.getSCEV(cmp->getOperand(0))),
                            outerKnown(se_.getSCEV(cmp->getOperand(1))));
    }
  b_.SetInsertPoint(at_);
  llvm::FunctionCallee buffer =
      declareHostFunction(*at_->getModule(), HostFunction::CHECK_RACE_TRIPS);
  trips_ = b_.CreateCall(buffer, {ctx}, "check.trips");
  llvm::Value *items =
      b_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, b_.CreateAdd(last, b_.getInt64(1)),
                               b_.getInt64(FIBERCL_MAX_WORK_GROUP_SIZE));
  llvm::BasicBlock *before = at_->getParent();
  llvm::BasicBlock *after = llvm::SplitBlock(before, at_);
  auto *fill = llvm::BasicBlock::Create(before->getContext(), "check.trips.fill",
                                        before->getParent(), after);
  before->getTerminator()->eraseFromParent();
  llvm::BranchInst::Create(fill, before);
  llvm::IRBuilder<> b(fill);
  llvm::PHINode *i = b.CreatePHI(b.getInt64Ty(), 2, "trips.i");
  i->addIncoming(b.getInt64(0), before);
  llvm::Instruction *end = b.CreateUnreachable(); // (a place to expand before)
  b.SetInsertPoint(end);
  llvm::Value *takenThere = b.CreateZExt(expandAt(taken, i, end), b.getInt64Ty());
  b.SetInsertPoint(end);
  llvm::Value *count = b.CreateBinaryIntrinsic(
      llvm::Intrinsic::umin, b.CreateAdd(takenThere, b.getInt64(1)), b.getInt64(0xFFFFFFFFu));
  size_t compare = 0;
  for (auto [condition, enterWhen] : n.guards) {
    llvm::Value *runs = condition;
    if (!loop_.isLoopInvariant(condition)) {
      auto *cmp = llvm::cast<llvm::ICmpInst>(condition);
      auto [left, right] = compared[compare++];
      llvm::Value *lhs = expandAt(left, i, end);
      llvm::Value *rhs = expandAt(right, i, end);
      b.SetInsertPoint(end);
      runs = b.CreateICmp(cmp->getPredicate(), lhs, rhs);
    }
    b.SetInsertPoint(end);
    count = b.CreateSelect(enterWhen ? runs : b.CreateNot(runs), count, b.getInt64(0));
  }
  b.CreateStore(b.CreateTrunc(count, b.getInt32Ty()), b.CreateGEP(b.getInt32Ty(), trips_, i));
  llvm::Value *next = b.CreateAdd(i, b.getInt64(1));
  i->addIncoming(next, fill);
  b.CreateCondBr(b.CreateICmpEQ(next, items), after, fill);
  end->eraseFromParent();
  return trips_;
}

// (ctx, site, address, step, bytes, how, x, y, z, count, stride, trips) at the first
// iteration; the address's parts under extensions must not wrap.
std::vector<llvm::Value *> Versioner::lineArguments(llvm::CallInst *call) {
  Line address, x;
  auto nested = nested_.find(call);
  const llvm::SCEV *at = se_.getSCEV(call->getArgOperand(2));
  if (nested != nested_.end())
    at = llvm::cast<llvm::SCEVAddRecExpr>(at)->getStart();
  asLine(at, loop_, se_, address);
  asLine(se_.getSCEV(call->getArgOperand(6)), loop_, se_, x);
  unwrappedParts(address);
  std::vector<llvm::Value *> args{call->getArgOperand(0), call->getArgOperand(1),
                                  expand(address.start)};
  llvm::Value *y = expand(se_.getSCEV(call->getArgOperand(7)));
  llvm::Value *z = expand(se_.getSCEV(call->getArgOperand(8)));
  llvm::Value *last = lastIteration();
  b_.SetInsertPoint(at_);
  // (count < 2^32; the runtime takes no more work-items than the group's)
  conditions_.push_back(b_.CreateICmpULT(last, b_.getInt64(0xFFFFFFFFu), "check.line.items"));
  args.push_back(b_.getInt64(uint64_t(address.step)));
  args.push_back(call->getArgOperand(3));
  args.push_back(call->getArgOperand(4));
  args.push_back(expand(x.start));
  args.push_back(y);
  args.push_back(z);
  b_.SetInsertPoint(at_);
  args.push_back(b_.CreateTrunc(b_.CreateAdd(last, b_.getInt64(1)), b_.getInt32Ty()));
  if (nested == nested_.end()) {
    args.push_back(b_.getInt64(0));
    args.push_back(llvm::ConstantPointerNull::get(b_.getPtrTy()));
  } else {
    args.push_back(b_.getInt64(uint64_t(nested->second.stride)));
    args.push_back(nullptr); // trips(), once everything else is expanded
  }
  return args;
}

llvm::Value *Versioner::allHold(const std::vector<Need> &needs,
                                const std::vector<llvm::CallInst *> &lines,
                                std::vector<std::vector<llvm::Value *>> &lineArgs,
                                const std::vector<llvm::StoreInst *> &marks) {
  std::string ignored;
  for (llvm::CallInst *call : lines)
    lineArgs.push_back(lineArguments(call));
  // Everything is expanded before the shadow scans split the block at `at_`.
  for (const Need &n : needs) {
    Kind kind = kindOf(n, ignored);
    b_.SetInsertPoint(at_);
    if (kind == Kind::Invariant)
      conditions_.push_back(n.okWhen ? n.value : b_.CreateNot(n.value));
    else if (kind == Kind::Compare)
      conditions_.push_back(compareHolds(n));
    else if (kind == Kind::Range) {
      auto *cmp = llvm::cast<llvm::ICmpInst>(n.value);
      conditions_.push_back(ranges_.holdsThroughout(
          n.okWhen ? cmp->getPredicate() : cmp->getInversePredicate(),
          se_.getSCEV(cmp->getOperand(0)), se_.getSCEV(cmp->getOperand(1)), at_));
      ++ranged;
    } else if (kind == Kind::Shadow)
      shadowSpans(n);
  }
  for (llvm::StoreInst *store : marks)
    storeSpan(store);
  // The trips loop splits the block at `at_` too.
  for (size_t i = 0; i < lines.size(); ++i)
    if (!lineArgs[i].back())
      lineArgs[i].back() = trips(nested_.at(lines[i]), lines[i]->getArgOperand(0));
  // One scan from the lowest span's start to the highest one's end: more bytes than the
  // reads cover if the spans have gaps (then perhaps the checked loop for nothing), but
  // one scan's set-up instead of one per read (a reduction's tree step reads two
  // adjacent spans, a stencil's five overlapping ones).
  if (!spans_.empty()) {
    b_.SetInsertPoint(at_);
    llvm::Value *low = nullptr, *high = nullptr;
    for (auto [from, bytes] : spans_) {
      llvm::Value *start = b_.CreatePtrToInt(from, b_.getInt64Ty());
      llvm::Value *end = b_.CreateAdd(start, bytes);
      low = low ? b_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, low, start) : start;
      high = high ? b_.CreateBinaryIntrinsic(llvm::Intrinsic::umax, high, end) : end;
    }
    llvm::Value *from = spans_.front().first;
    llvm::Value *first = b_.CreateGEP(b_.getInt8Ty(), from,
                                      b_.CreateSub(low, b_.CreatePtrToInt(from, b_.getInt64Ty())));
    conditions_.push_back(allWritten(first, b_.CreateSub(high, low)));
  }
  b_.SetInsertPoint(at_);
  llvm::Value *all = b_.getTrue();
  for (llvm::Value *v : conditions_)
    all = b_.CreateAnd(all, v);
  return all;
}

// What version() did, for FIBERCL_DEBUG=vectorize.
struct VersionSummary {
  bool nest = false;        // rows of work-item loops, versioned at once
  size_t lines = 0;         // race records made lines
  size_t nestedLines = 0;   // of which in a loop inside
  size_t ranged = 0;        // bounds checks decided by their offset's range
  size_t marks = 0;         // shadow stores marked before the copy
  size_t markedByReads = 0; // ... whose bytes its reads' decision found written
};

//   P --all pass--> check.fast.ph -> the copy without checks -> check.fast.exit --+
//     \--otherwise--> check.checked.ph -> the checked loop -> its exit <------------+
// (both loops leave to the exit block, whose LCSSA phis take either's values).
bool version(llvm::Loop &loop, const std::vector<LoopCheck> &checks, WrittenSpan written,
             const std::vector<llvm::CallInst *> &records, llvm::LoopInfo &li,
             llvm::DominatorTree &dt, llvm::ScalarEvolution &se, std::string &why,
             VersionSummary &summary) {
  llvm::BasicBlock *header = loop.getHeader(), *latch = loop.getLoopLatch();
  llvm::BasicBlock *preheader = loop.getLoopPreheader();
  llvm::BasicBlock *exit = loop.getExitBlock();
  if (!preheader || !latch || !exit || loop.getExitingBlock() != latch) {
    why = "a loop of another shape";
    return false;
  }
  // A nest of two work-item loops (a 2-D group's rows) is versioned once for all its
  // rows when its checks are lines in both indices; not its race records (a line is
  // one row).
  llvm::Loop *inner = nullptr;
  if (llvm::findOptionMDForLoop(&loop, kWorkItemRowsMetadata)) {
    if (loop.getSubLoops().size() != 1 ||
        !llvm::findOptionMDForLoop(loop.getSubLoops()[0], kWorkItemLoopMetadata)) {
      why = "rows of work-item loops of another shape";
      return false;
    }
    if (!records.empty()) {
      why = "a nest with race records (its rows are versioned one by one)";
      return false;
    }
    inner = loop.getSubLoops()[0];
  }
  summary.nest = inner != nullptr;
  std::vector<Need> needs;
  for (const LoopCheck &c : checks)
    needsOf(c, loop, needs);
  Versioner v(loop, se, preheader->getTerminator(), written, inner);
  if (!v.decidable(needs, why))
    return false;
  // The race records become lines if every one is: a line and a record in one loop
  // would not see each other.
  std::vector<llvm::CallInst *> lines;
  auto notLine = std::find_if(records.begin(), records.end(), [&](llvm::CallInst *call) {
    return !(dt.dominates(call->getParent(), latch) && v.isLine(call)) &&
           !v.isNestedLine(call, li, dt);
  });
  if (notLine == records.end())
    lines = records;
  summary.lines = lines.size();
  summary.nestedLines = size_t(std::count_if(
      lines.begin(), lines.end(), [&](llvm::CallInst *call) { return v.isNested(call); }));
  // uninit: the shadow stores of every iteration the copy marks at once.
  std::vector<llvm::StoreInst *> marks, leftOut; // leftOut: marks and those its reads mark
  for (llvm::BasicBlock *bb : loop.blocks())
    if (li.getLoopFor(bb) == &loop && dt.dominates(bb, latch))
      for (llvm::Instruction &i : *bb)
        if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&i); store && v.isShadowSpan(store)) {
          if (!v.markedByRead(store, needs))
            marks.push_back(store);
          leftOut.push_back(store);
        }
  summary.marks = marks.size();
  summary.markedByReads = leftOut.size() - marks.size();
  if (needs.empty() && lines.empty() && marks.empty() && records.empty()) {
    why = inner ? "rows whose shadow stores are marked per work-item (a nest's are not one line)"
                : "shadow stores that are not lines in the work-item's index";
    return false;
  }
  if (needs.empty() && lines.empty() && marks.empty()) {
    why = "race records that are not lines in the work-item's index";
    if (debugChannel("check")) {
      llvm::raw_string_ostream os(why);
      os << ":" << **notLine << " [";
      for (unsigned i : {2u, 6u, 7u, 8u})
        os << " " << *se.getSCEV((*notLine)->getArgOperand(i));
      os << " ]" << (dt.dominates((*notLine)->getParent(), latch) ? "" : " (not every item)");
      if (!v.nestedWhy.empty())
        os << "; in a loop inside: " << v.nestedWhy;
      for (llvm::BasicBlock *p : llvm::predecessors((*notLine)->getParent()))
        if (auto *br = llvm::dyn_cast<llvm::BranchInst>(p->getTerminator());
            br && br->isConditional())
          os << "\n  from a branch on: " << *br->getCondition();
    }
    return false;
  }
  llvm::formLCSSA(loop, dt, &li, &se);
  exit = loop.getExitBlock();
  // The checked loop's own preheader, then the copy's before it.
  llvm::BasicBlock *checkedPh = llvm::SplitEdge(preheader, header, &dt, &li);
  checkedPh->setName("check.checked.ph");
  v.emitBefore(preheader->getTerminator()); // (the split moved the old one to checkedPh)
  std::vector<std::vector<llvm::Value *>> lineArgs;
  llvm::Value *pass = v.allHold(needs, lines, lineArgs, marks);
  summary.ranged = v.ranged;
  dt.recalculate(*header->getParent());                         // the shadow scans' blocks
  llvm::BasicBlock *decide = checkedPh->getSinglePredecessor(); // the scans may have split P
  llvm::ValueToValueMapTy vmap;
  llvm::SmallVector<llvm::BasicBlock *, 16> cloned;
  llvm::Loop *fast =
      llvm::cloneLoopWithPreheader(checkedPh, decide, &loop, vmap, ".fast", &li, &dt, cloned);
  llvm::remapInstructionsInBlocks(cloned, vmap);
  for (llvm::Loop *copy : fast->getLoopsInPreorder())
    giveOwnLoopID(*copy);
  llvm::BasicBlock *fastPh = fast->getLoopPreheader();
  fastPh->setName("check.fast.ph");
  auto *fastLatch = llvm::cast<llvm::BasicBlock>(vmap[latch]);
  // From here on the CFG changes without DT or LoopInfo (invalidated by the caller).
  llvm::IRBuilder<> b(decide->getTerminator());
  // The lines are recorded when everything else holds; the copy makes no record.
  llvm::FunctionCallee recordLine =
      declareHostFunction(*header->getModule(), HostFunction::CHECK_RACE_LINE);
  llvm::Value *state = b.CreateZExt(pass, b.getInt32Ty());
  for (size_t i = 0; i < lines.size(); ++i) {
    std::vector<llvm::Value *> args = lineArgs[i];
    args.insert(args.begin() + 1, state);
    llvm::Value *recorded = b.CreateICmpNE(b.CreateCall(recordLine, args), b.getInt32(0));
    state = b.CreateSelect(recorded, b.getInt32(FCL_RACE_LINE_MORE), b.getInt32(0));
    pass = recorded;
    llvm::cast<llvm::Instruction>(vmap[lines[i]])->eraseFromParent();
  }
  b.CreateCondBr(pass, fastPh, checkedPh,
                 llvm::MDBuilder(b.getContext()).createBranchWeights(1u << 20, 1));
  decide->getTerminator()->eraseFromParent();
  // The copy leaves through a block of its own to the exit.
  auto *fastExit =
      llvm::BasicBlock::Create(b.getContext(), "check.fast.exit", header->getParent(), exit);
  auto *fastBr = llvm::cast<llvm::BranchInst>(fastLatch->getTerminator());
  for (unsigned i = 0; i < fastBr->getNumSuccessors(); ++i)
    if (fastBr->getSuccessor(i) == exit)
      fastBr->setSuccessor(i, fastExit);
  llvm::BranchInst::Create(exit, fastExit);
  for (llvm::PHINode &phi : exit->phis()) {
    llvm::Value *v = phi.getIncomingValueForBlock(latch);
    auto mapped = vmap.find(v);
    phi.addIncoming(mapped != vmap.end() ? static_cast<llvm::Value *>(mapped->second) : v,
                    fastExit);
  }
  // The copy marks the shadow before it, not in it.
  for (llvm::StoreInst *store : leftOut)
    llvm::cast<llvm::Instruction>(vmap[store])->eraseFromParent();
  v.markSpans(fastPh->getTerminator());
  // The copy's checks pass.
  for (const LoopCheck &c : checks) {
    auto *br = llvm::cast_or_null<llvm::BranchInst>(vmap.lookup(c.branch));
    if (!br || !br->isConditional())
      continue;
    br->setCondition(llvm::ConstantInt::getBool(b.getContext(), c.okWhen));
    llvm::ConstantFoldTerminator(br->getParent(), /*DeleteDeadConditions=*/true);
  }
  return true;
}

} // namespace

llvm::PreservedAnalyses CheckedLoopVersionsPass::run(llvm::Function &f,
                                                     llvm::FunctionAnalysisManager &fam) {
  if (!f.getName().starts_with("__fibercl_wg_") || f.hasFnAttribute(kSubGroupVectorsAttr))
    return llvm::PreservedAnalyses::all();
  bool report = debugChannel("vectorize");
  bool changed = false;
  // Loops already looked at (by header: the checked loop keeps its header).
  llvm::SmallPtrSet<llvm::BasicBlock *, 16> seen;
  WrittenSpan written; // made at the first versioned loop
  for (unsigned versions = 0; versions < kMaxVersionsPerFunction; ++versions) {
    auto &li = fam.getResult<llvm::LoopAnalysis>(f);
    llvm::Loop *candidate = nullptr;
    std::vector<LoopCheck> checks;
    std::vector<llvm::CallInst *> records;
    std::string why;
    for (llvm::Loop *loop : li.getLoopsInPreorder()) {
      if (seen.count(loop->getHeader()) ||
          !(llvm::findOptionMDForLoop(loop, kWorkItemLoopMetadata) ||
            llvm::findOptionMDForLoop(loop, kWorkItemRowsMetadata)))
        continue;
      seen.insert(loop->getHeader());
      checks.clear();
      why.clear();
      unsigned size = 0;
      for (llvm::BasicBlock *bb : loop->blocks())
        size += bb->size();
      records.clear();
      bool found =
          findChecks(*loop, fam.getResult<llvm::DominatorTreeAnalysis>(f), checks, records, why);
      // (it may have moved invariant conditions out of the loop; version() may give an
      // inner loop a preheader of its own even when it does not version: IR changed)
      fam.getResult<llvm::ScalarEvolutionAnalysis>(f).forgetLoopDispositions();
      changed = changed || !checks.empty() || !records.empty();
      if (!found || (checks.empty() && records.empty() && !hasShadowStores(*loop)))
        ;
      else if (size > kMaxLoopInstructions || !loop->isLoopSimplifyForm() || !loop->isSafeToClone())
        why = "a loop this pass does not copy";
      else {
        candidate = loop;
        break;
      }
      if (report && !why.empty())
        llvm::errs() << "FiberCL: " << f.getName()
                     << ": checked work-item loop not versioned: " << why << "\n";
    }
    if (!candidate)
      break;
    VersionSummary summary;
    if (!written.lo)
      written = writtenSpanOf(f);
    bool versioned = version(*candidate, checks, written, records, li,
                             fam.getResult<llvm::DominatorTreeAnalysis>(f),
                             fam.getResult<llvm::ScalarEvolutionAnalysis>(f), why, summary);
    if (report) {
      llvm::errs() << "FiberCL: " << f.getName() << ": checked work-item loop ";
      if (!why.empty())
        llvm::errs() << "not versioned: " << why;
      else
        llvm::errs() << "versioned: its " << checks.size() << " checks decided before it"
                     << (summary.nest ? " (a nest: for all its rows)" : "");
      if (why.empty() && summary.ranged)
        llvm::errs() << ", " << summary.ranged << " by their offset's range";
      if (why.empty() && summary.lines)
        llvm::errs() << ", its " << summary.lines << " race records lines";
      if (why.empty() && summary.nestedLines)
        llvm::errs() << " (" << summary.nestedLines << " in a loop inside)";
      if (why.empty() && summary.marks)
        llvm::errs() << ", its " << summary.marks << " shadow stores marked before it";
      if (why.empty() && summary.markedByReads)
        llvm::errs() << ", its " << summary.markedByReads << " shadow stores marked by its reads";
      llvm::errs() << "\n";
    }
    if (versioned) {
      llvm::removeUnreachableBlocks(f);
      fam.invalidate(f, llvm::PreservedAnalyses::none());
      changed = true;
    }
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace fibercl::compiler

// WorkItemRangeSplitPass (passes.hpp). GPU code guards work with the work-item's id
// against a bound that is the same for the whole group -- a reduction's tree step
// `if (lid < s) tmp[lid] += tmp[lid + s]`, a scan's `if (lid >= offset)` -- so in a
// work-item loop the condition is true on a prefix of the iterations and false on the
// rest. Vectorised as it stands, every work-item pays for it: masked loads and stores
// for all of them, active or not (AVX2's masked stores are slow: on Zen 3 the masked
// tree step of 256 work-items took ~10x the time of the split one). Such a loop is
// split at the bound into two loops, the condition a constant in each:
//     for (x = 0; x < n; ++x) { if (x < s) A; B; }
//  -> for (x = 0; x < min(s, n); ++x) { A; B; }  for (; x < n; ++x) { B; }
// The iterations run in the same order as before, so the split is valid for any loop;
// only work-item loops are split (their bodies are what the vectoriser widens). Runs
// just before ParallelWorkItemLoopsPass, which then declares both loops parallel.
#include "fibercl/compiler/debug.hpp"
#include "passes.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

namespace fibercl::compiler {
namespace {

using namespace llvm::PatternMatch;

// Loops larger than this are not duplicated; a function is split at most this often.
constexpr unsigned kMaxLoopInstructions = 2000;
constexpr unsigned kMaxSplitsPerFunction = 8;

// A work-item loop `for (iv = start; iv != trip; ++iv)` (rotated: the latch compares
// iv + 1 with the trip count and exits; start is 0, or where an earlier split left
// off) and a condition on iv inside it.
struct Candidate {
  llvm::Loop *loop = nullptr;
  llvm::PHINode *iv = nullptr;
  llvm::Value *start = nullptr; // loop-invariant
  llvm::ICmpInst *exitCmp = nullptr;
  unsigned tripOperand = 0; // exitCmp's operand that is the trip count
  llvm::ICmpInst *cond = nullptr;
  llvm::Value *bound = nullptr;    // loop-invariant
  llvm::CmpInst::Predicate pred{}; // `iv pred bound` (iv perhaps truncated to bound's type)
};

bool findExit(llvm::Loop &loop, llvm::ScalarEvolution &se, Candidate &c) {
  llvm::BasicBlock *latch = loop.getLoopLatch(), *exit = loop.getExitBlock();
  if (!latch || !exit || !loop.getLoopPreheader() || loop.getExitingBlock() != latch)
    return false;
  auto *br = llvm::dyn_cast<llvm::BranchInst>(latch->getTerminator());
  auto *cmp =
      br && br->isConditional() ? llvm::dyn_cast<llvm::ICmpInst>(br->getCondition()) : nullptr;
  if (!cmp || !cmp->isEquality() || !cmp->hasOneUse())
    return false;
  // It must exit when iv + 1 reaches the trip count.
  if ((cmp->getPredicate() == llvm::CmpInst::ICMP_EQ) != (br->getSuccessor(0) == exit))
    return false;
  for (llvm::PHINode &phi : loop.getHeader()->phis()) {
    if (!phi.getType()->isIntegerTy())
      continue;
    auto *rec = llvm::dyn_cast<llvm::SCEVAddRecExpr>(se.getSCEV(&phi));
    if (!rec || rec->getLoop() != &loop || !rec->isAffine() || !rec->getStepRecurrence(se)->isOne())
      continue;
    llvm::Value *start = phi.getIncomingValueForBlock(loop.getLoopPreheader());
    if (!loop.isLoopInvariant(start))
      continue;
    llvm::Value *next = phi.getIncomingValueForBlock(latch);
    for (unsigned i = 0; i < 2; ++i)
      if (cmp->getOperand(i) == next && loop.isLoopInvariant(cmp->getOperand(1 - i))) {
        c.iv = &phi;
        c.start = start;
        c.exitCmp = cmp;
        c.tripOperand = 1 - i;
        return true;
      }
  }
  return false;
}

// Does `x`, compared as `pred` in its own width, see iv's exact value? True when x is
// iv, or iv truncated and the trip count fits the narrower type; for a signed compare
// the values must also be non-negative there.
bool comparesIndex(llvm::Value *x, llvm::CmpInst::Predicate pred, const Candidate &c,
                   llvm::ScalarEvolution &se) {
  const llvm::SCEV *iv = se.getSCEV(c.iv);
  unsigned ivBits = c.iv->getType()->getIntegerBitWidth();
  unsigned bits = x->getType()->getIntegerBitWidth();
  const llvm::SCEV *xs = se.getSCEV(x);
  if (xs != iv && !(bits < ivBits && se.getTruncateExpr(iv, x->getType()) == xs))
    return false;
  unsigned valueBits = llvm::CmpInst::isSigned(pred) ? bits - 1 : bits;
  if (valueBits >= ivBits)
    return true;
  // iv < trip <= 2^valueBits
  llvm::APInt tripMax = se.getUnsignedRangeMax(se.getSCEV(c.exitCmp->getOperand(c.tripOperand)));
  return tripMax.ule(llvm::APInt::getOneBitSet(ivBits, valueBits));
}

bool findCondition(llvm::Loop &loop, llvm::ScalarEvolution &se, Candidate &c) {
  for (llvm::BasicBlock *bb : loop.blocks()) {
    auto *br = llvm::dyn_cast<llvm::BranchInst>(bb->getTerminator());
    if (!br || !br->isConditional() || bb == loop.getLoopLatch())
      continue;
    // The branch's condition, or a factor of it (`lid < s && ...`).
    llvm::SmallVector<llvm::Value *, 4> work{br->getCondition()};
    while (!work.empty()) {
      llvm::Value *v = work.pop_back_val();
      llvm::Value *a, *b;
      if (match(v, m_LogicalAnd(m_Value(a), m_Value(b))) ||
          match(v, m_LogicalOr(m_Value(a), m_Value(b)))) {
        work.push_back(a);
        work.push_back(b);
        continue;
      }
      auto *cmp = llvm::dyn_cast<llvm::ICmpInst>(v);
      if (!cmp || !loop.contains(cmp) || cmp == c.exitCmp || cmp->isEquality() ||
          !cmp->getOperand(0)->getType()->isIntegerTy())
        continue;
      for (unsigned i = 0; i < 2; ++i) {
        llvm::Value *x = cmp->getOperand(i), *bound = cmp->getOperand(1 - i);
        auto pred = i == 0 ? cmp->getPredicate() : cmp->getSwappedPredicate();
        if (!loop.isLoopInvariant(bound) || !comparesIndex(x, pred, c, se))
          continue;
        c.cond = cmp;
        c.bound = bound;
        c.pred = pred;
        return true;
      }
    }
  }
  return false;
}

// The first iteration at which the condition changes (clamped to [start, trip]), and
// whether it holds before it. Emitted before `at`.
llvm::Value *splitPoint(const Candidate &c, llvm::Instruction *at, bool &trueFirst) {
  llvm::IRBuilder<> b(at);
  llvm::Type *ivType = c.iv->getType();
  llvm::Value *trip = c.exitCmp->getOperand(c.tripOperand);
  llvm::Value *one = llvm::ConstantInt::get(ivType, 1);
  // iv < bound: up to min(bound, trip); iv <= bound: up to min(bound, trip - 1) + 1
  // (which cannot overflow).
  auto belowBound = [&](llvm::Value *bound) {
    return b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, b.CreateZExt(bound, ivType), trip);
  };
  auto upToBound = [&](llvm::Value *bound) {
    return b.CreateAdd(b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, b.CreateZExt(bound, ivType),
                                               b.CreateSub(trip, one)),
                       one);
  };
  llvm::Value *bound = c.bound;
  llvm::Value *zero = llvm::ConstantInt::get(bound->getType(), 0);
  llvm::Value *splitAt = nullptr;
  switch (c.pred) {
  case llvm::CmpInst::ICMP_ULT:
    trueFirst = true;
    splitAt = belowBound(bound);
    break;
  case llvm::CmpInst::ICMP_UGE:
    trueFirst = false;
    splitAt = belowBound(bound);
    break;
  case llvm::CmpInst::ICMP_ULE:
    trueFirst = true;
    splitAt = upToBound(bound);
    break;
  case llvm::CmpInst::ICMP_UGT:
    trueFirst = false;
    splitAt = upToBound(bound);
    break;
  // The index is non-negative (comparesIndex): a negative bound is below all of it.
  case llvm::CmpInst::ICMP_SLT:
  case llvm::CmpInst::ICMP_SGE:
    trueFirst = c.pred == llvm::CmpInst::ICMP_SLT;
    splitAt = belowBound(b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, bound, zero));
    break;
  default: // SLE, SGT
    trueFirst = c.pred == llvm::CmpInst::ICMP_SLE;
    splitAt = b.CreateSelect(b.CreateICmpSLT(bound, zero), llvm::ConstantInt::get(ivType, 0),
                             upToBound(bound));
    break;
  }
  splitAt = b.CreateBinaryIntrinsic(llvm::Intrinsic::umax, splitAt, c.start, nullptr, "split.at");
  return splitAt;
}

// Replaces `cond` by a constant and folds what that decides in `blocks`.
void foldCondition(llvm::ICmpInst *cond, bool value, llvm::ArrayRef<llvm::BasicBlock *> blocks) {
  cond->replaceAllUsesWith(llvm::ConstantInt::getBool(cond->getContext(), value));
  cond->eraseFromParent();
  for (llvm::BasicBlock *bb : blocks)
    llvm::SimplifyInstructionsInBlock(bb);
  for (llvm::BasicBlock *bb : blocks)
    llvm::ConstantFoldTerminator(bb, /*DeleteDeadConditions=*/true);
}

//   P (the preheader) --split.at == start-----------------------------+
//     \-> pre-loop [start, split.at), condition == trueFirst            |
//           -> split.pre.exit ----------------------------------------> split.mid
//   split.mid --split.at == trip--> split.rest.skip ----------------+
//     \-> the loop [split.at, trip), condition == !trueFirst          |
//           -> its exit block (LCSSA phis) ------------------------> split.after
void split(Candidate &c, llvm::LoopInfo &li, llvm::DominatorTree &dt) {
  llvm::Loop &loop = *c.loop;
  llvm::BasicBlock *header = loop.getHeader(), *latch = loop.getLoopLatch();
  llvm::BasicBlock *preheader = loop.getLoopPreheader();
  llvm::BasicBlock *exit = loop.getExitBlock();
  llvm::Function &f = *header->getParent();
  llvm::LLVMContext &ctx = f.getContext();
  llvm::Value *trip = c.exitCmp->getOperand(c.tripOperand);

  bool trueFirst = false;
  llvm::Value *at = splitPoint(c, preheader->getTerminator(), trueFirst);

  llvm::SmallVector<llvm::PHINode *, 8> headerPhis, liveOuts;
  for (llvm::PHINode &phi : header->phis())
    headerPhis.push_back(&phi);
  for (llvm::PHINode &phi : exit->phis())
    liveOuts.push_back(&phi);

  // `mid` becomes the loop's preheader (DT and LoopInfo kept: the clone needs them).
  llvm::BasicBlock *mid = llvm::SplitEdge(preheader, header, &dt, &li);
  mid->setName("split.mid");
  llvm::ValueToValueMapTy vmap;
  llvm::SmallVector<llvm::BasicBlock *, 16> cloned;
  llvm::Loop *pre =
      llvm::cloneLoopWithPreheader(mid, preheader, &loop, vmap, ".pre", &li, &dt, cloned);
  llvm::remapInstructionsInBlocks(cloned, vmap);
  giveOwnLoopID(*pre);
  llvm::BasicBlock *preHeader = pre->getLoopPreheader();
  auto *preLatch = llvm::cast<llvm::BasicBlock>(vmap[latch]);
  llvm::cast<llvm::ICmpInst>(vmap[c.exitCmp])->setOperand(c.tripOperand, at);
  // From here on the CFG changes without DT or LoopInfo (invalidated by the caller).
  llvm::BasicBlock *after = exit->splitBasicBlock(exit->getFirstNonPHIIt(), "split.after");

  // P: skip the pre-loop when it has no iteration.
  llvm::IRBuilder<> b(preheader->getTerminator());
  b.CreateCondBr(b.CreateICmpEQ(at, c.start), mid, preHeader);
  preheader->getTerminator()->eraseFromParent();

  // The pre-loop leaves through a block of its own to mid (its latch went to `exit`).
  auto *preExit = llvm::BasicBlock::Create(ctx, "split.pre.exit", &f, mid);
  auto *preBr = llvm::cast<llvm::BranchInst>(preLatch->getTerminator());
  for (unsigned i = 0; i < preBr->getNumSuccessors(); ++i)
    if (preBr->getSuccessor(i) == exit)
      preBr->setSuccessor(i, preExit);
  llvm::BranchInst::Create(mid, preExit);

  // A value of the loop as the pre-loop left it (`ifSkipped` when it did not run).
  llvm::IRBuilder<> midPhis(mid, mid->begin());
  auto carry = [&](llvm::Value *v, llvm::Value *ifSkipped) {
    llvm::Value *preValue = vmap.count(v) ? static_cast<llvm::Value *>(vmap[v]) : v;
    llvm::IRBuilder<> eb(preExit, preExit->begin());
    llvm::PHINode *lcssa = eb.CreatePHI(v->getType(), 1, v->getName() + ".pre");
    lcssa->addIncoming(preValue, preLatch);
    llvm::PHINode *phi = midPhis.CreatePHI(v->getType(), 2, v->getName() + ".mid");
    phi->addIncoming(ifSkipped, preheader);
    phi->addIncoming(lcssa, preExit);
    return phi;
  };
  // The loop's header phis start where the pre-loop's stopped.
  llvm::PHINode *startOfRest = nullptr;
  for (llvm::PHINode *phi : headerPhis) {
    llvm::PHINode *m =
        carry(phi->getIncomingValueForBlock(latch), phi->getIncomingValueForBlock(mid));
    phi->setIncomingValueForBlock(mid, m);
    if (phi == c.iv)
      startOfRest = m; // == split.at
  }
  // Values used after the loop: the pre-loop's, when the loop itself does not run.
  llvm::DenseMap<llvm::Value *, llvm::PHINode *> fromPre;
  for (llvm::PHINode *phi : liveOuts) {
    llvm::Value *v = phi->getIncomingValueForBlock(latch);
    if (!fromPre.count(v))
      fromPre[v] = carry(v, llvm::PoisonValue::get(v->getType()));
  }
  auto *restSkip = llvm::BasicBlock::Create(ctx, "split.rest.skip", &f, after);
  llvm::BranchInst::Create(after, restSkip);
  b.SetInsertPoint(mid->getTerminator());
  b.CreateCondBr(b.CreateICmpULT(startOfRest, trip), header, restSkip);
  mid->getTerminator()->eraseFromParent();
  b.SetInsertPoint(after, after->begin());
  for (llvm::PHINode *phi : liveOuts) {
    llvm::PHINode *merged = b.CreatePHI(phi->getType(), 2, phi->getName() + ".split");
    phi->replaceAllUsesWith(merged);
    merged->addIncoming(phi, exit);
    merged->addIncoming(fromPre[phi->getIncomingValueForBlock(latch)], restSkip);
  }

  // The condition is a constant in each loop.
  foldCondition(llvm::cast<llvm::ICmpInst>(vmap[c.cond]), trueFirst, cloned);
  llvm::SmallVector<llvm::BasicBlock *, 16> blocks(loop.blocks());
  foldCondition(c.cond, !trueFirst, blocks);
}

} // namespace

void giveOwnLoopID(llvm::Loop &loop) {
  llvm::MDNode *id = loop.getLoopID();
  if (!id)
    return;
  llvm::SmallVector<llvm::Metadata *, 4> ops{nullptr};
  for (unsigned i = 1; i < id->getNumOperands(); ++i)
    ops.push_back(id->getOperand(i));
  llvm::MDNode *fresh = llvm::MDNode::getDistinct(id->getContext(), ops);
  fresh->replaceOperandWith(0, fresh);
  loop.setLoopID(fresh);
}

llvm::PreservedAnalyses WorkItemRangeSplitPass::run(llvm::Function &f,
                                                    llvm::FunctionAnalysisManager &fam) {
  // A vector copy's vectors must start at sub-group boundaries (sub_group_vectors.cpp).
  if (f.hasFnAttribute(kSubGroupVectorsAttr))
    return llvm::PreservedAnalyses::all();
  if (!f.getName().starts_with("__fibercl_wg_"))
    return llvm::PreservedAnalyses::all();
  bool changed = false;
  for (unsigned splits = 0; splits < kMaxSplitsPerFunction; ++splits) {
    auto &li = fam.getResult<llvm::LoopAnalysis>(f);
    auto &dt = fam.getResult<llvm::DominatorTreeAnalysis>(f);
    auto &se = fam.getResult<llvm::ScalarEvolutionAnalysis>(f);
    Candidate found;
    for (llvm::Loop *loop : li.getLoopsInPreorder()) {
      if (!loop->isInnermost() || !llvm::findOptionMDForLoop(loop, kWorkItemLoopMetadata) ||
          !loop->isLoopSimplifyForm() || !loop->isSafeToClone())
        continue;
      unsigned size = 0;
      for (llvm::BasicBlock *bb : loop->blocks())
        size += bb->size();
      Candidate c;
      c.loop = loop;
      if (size <= kMaxLoopInstructions && findExit(*loop, se, c) && findCondition(*loop, se, c)) {
        found = c;
        break;
      }
    }
    if (!found.loop)
      break;
    if (debugChannel("vectorize")) { // beside the loop vectoriser's remarks
      llvm::errs() << "FiberCL: " << f.getName() << ": ";
      if (const llvm::DebugLoc &loc = found.cond->getDebugLoc())
        llvm::errs() << loc->getFilename() << ":" << loc.getLine() << ":" << loc.getCol() << ": ";
      llvm::errs() << "work-item loop split where the work-item's index passes a bound ("
                   << llvm::CmpInst::getPredicateName(found.pred) << ")\n";
    }
    llvm::formLCSSA(*found.loop, dt, &li, &se);
    split(found, li, dt);
    llvm::removeUnreachableBlocks(f);
    fam.invalidate(f, llvm::PreservedAnalyses::none());
    changed = true;
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace fibercl::compiler

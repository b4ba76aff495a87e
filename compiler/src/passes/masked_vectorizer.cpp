// MaskedWorkItemVectorizerPass (passes.hpp): SIMD across work-items for work-item
// loops whose body has loops of its own, which LLVM's loop vectoriser does not take
// (it vectorises innermost loops; its outer-loop path needs uniform inner trip counts).
//
// The work-item loop `for x: body(x)` becomes `for x in steps of W: body(x..x+W-1)`,
// the body "linearised" (Karrenberg & Hack, CGO'11; masked_widening.cpp emits it).
// This file decides which loops are taken and records what widening needs: the
// blocks of each loop level in order, the work-item loop's induction steps, the
// accesses to consecutive elements and which values differ between work-items
// (work_item_divergence.hpp).
//
// Taken: integer/float/pointer values, plain loads and stores, pure calls; a body
// with atomics, fences, private arrays, vector-typed values or calls with side
// effects keeps the scalar loop (FIBERCL_DEBUG=vectorize says why).
#include "masked_vectorizer.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include <functional>
#include <string>
#include <vector>

#include "fibercl/compiler/debug.hpp"
#include "passes.hpp"
#include "sub_group_lanes.hpp"

namespace fibercl::compiler {

bool isDroppedIntrinsic(const llvm::Instruction &i) {
  auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&i);
  if (!call)
    return false;
  switch (call->getIntrinsicID()) {
  case llvm::Intrinsic::lifetime_start:
  case llvm::Intrinsic::lifetime_end:
  case llvm::Intrinsic::assume:
  case llvm::Intrinsic::experimental_noalias_scope_decl:
  case llvm::Intrinsic::dbg_declare:
  case llvm::Intrinsic::dbg_value:
  case llvm::Intrinsic::dbg_label:
  case llvm::Intrinsic::dbg_assign:
  case llvm::Intrinsic::pseudoprobe:
    return true;
  default:
    return false;
  }
}

namespace {

bool isPureCall(const llvm::CallInst &call) {
  return call.doesNotAccessMemory() && call.willReturn() && call.doesNotThrow() &&
         !call.isConvergent();
}

} // namespace

llvm::Loop *MaskedWorkItemLoop::childLoopAt(llvm::Loop *level, llvm::BasicBlock *block) const {
  llvm::Loop *l = loops_.getLoopFor(block);
  while (l && l->getParentLoop() != level)
    l = l->getParentLoop();
  return l;
}

// The blocks and inner loops (by header) of one loop level in an order where every
// node follows its predecessors (the back edge to the level's header left out).
// False if there is no such order (an irreducible cycle).
bool MaskedWorkItemLoop::orderLevel(llvm::Loop *level, std::vector<llvm::BasicBlock *> &nodes) {
  llvm::DenseMap<llvm::BasicBlock *, int> state; // 1 on the stack, 2 done
  bool ok = true;
  std::function<void(llvm::BasicBlock *)> visit = [&](llvm::BasicBlock *node) {
    int s = state.lookup(node);
    if (s == 2)
      return;
    if (s == 1) {
      ok = false;
      return;
    }
    state[node] = 1;
    // A block's successors; an inner loop's exits.
    llvm::SmallVector<llvm::BasicBlock *, 4> next;
    if (loops_.getLoopFor(node) == level)
      next.append(llvm::succ_begin(node), llvm::succ_end(node));
    else
      childLoopAt(level, node)->getUniqueExitBlocks(next);
    for (llvm::BasicBlock *succ : next) {
      if (succ == level->getHeader() || !level->contains(succ))
        continue; // the back edge, or leaving the level
      if (loops_.getLoopFor(succ) != level && childLoopAt(level, succ)->getHeader() != succ) {
        ok = false; // entering a loop elsewhere than at its header
        return;
      }
      visit(succ);
    }
    state[node] = 2;
    nodes.push_back(node);
  };
  visit(level->getHeader());
  std::reverse(nodes.begin(), nodes.end());
  if (!ok)
    return false;
  order_[level] = nodes;
  for (llvm::Loop *child : level->getSubLoops()) {
    std::vector<llvm::BasicBlock *> inner;
    if (!orderLevel(child, inner))
      return false;
  }
  return true;
}

std::string MaskedWorkItemLoop::checkInstruction(const llvm::Instruction &i) const {
  if (i.isTerminator())
    return llvm::isa<llvm::BranchInst>(i) || llvm::isa<llvm::SwitchInst>(i)
               ? ""
               : std::string("a ") + i.getOpcodeName() + " instruction";
  if (isDroppedIntrinsic(i))
    return "";
  auto scalarType = [](llvm::Type *t) {
    return t->isIntegerTy() || t->isFloatingPointTy() || t->isPointerTy() || t->isVoidTy();
  };
  if (!scalarType(i.getType()))
    return "a value of vector or aggregate type";
  for (const llvm::Use &op : i.operands())
    if (!scalarType(op->getType()) && !llvm::isa<llvm::Function>(op.get()) &&
        !llvm::isa<llvm::BasicBlock>(op.get()))
      return "an operand of vector or aggregate type";
  if (laneHelpers && (llvm::isa<llvm::AtomicRMWInst>(i) || llvm::isa<llvm::FenceInst>(i)))
    return "";
  if (i.isAtomic() || llvm::isa<llvm::FenceInst>(i))
    return "an atomic operation";
  if (llvm::isa<llvm::AllocaInst>(i))
    return "a private array or variable in memory";
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&i); load && load->isVolatile())
    return "a volatile access";
  if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&i); store && store->isVolatile())
    return "a volatile access";
  if (auto *call = llvm::dyn_cast<llvm::CallInst>(&i)) {
    llvm::Function *callee = call->getCalledFunction();
    if (!callee)
      return "an indirect call";
    if (subGroupLanes && isSubGroupLaneOp(callee))
      return "";
    if (laneHelpers && (isLaneYield(callee) || isLaneCheck(callee)))
      return "";
    if (!isPureCall(*call))
      return "a call with side effects (" + callee->getName().str() + ")";
    return "";
  }
  if (llvm::isa<llvm::BinaryOperator>(i) || llvm::isa<llvm::UnaryOperator>(i) ||
      llvm::isa<llvm::CastInst>(i) || llvm::isa<llvm::CmpInst>(i) ||
      llvm::isa<llvm::SelectInst>(i) || llvm::isa<llvm::GetElementPtrInst>(i) ||
      llvm::isa<llvm::PHINode>(i) || llvm::isa<llvm::LoadInst>(i) ||
      llvm::isa<llvm::StoreInst>(i) || llvm::isa<llvm::FreezeInst>(i))
    return "";
  return std::string("an instruction it does not widen (") + i.getOpcodeName() + ")";
}

// Private arrays are allocated once per work-group function, before the work-item
// loop: every lane would share one copy.
bool MaskedWorkItemLoop::usesPrivateMemory() const {
  llvm::Function &f = *loop_.getHeader()->getParent();
  std::vector<const llvm::Value *> work;
  for (llvm::Instruction &i : llvm::instructions(f))
    if (llvm::isa<llvm::AllocaInst>(i))
      work.push_back(&i);
  llvm::SmallPtrSet<const llvm::Value *, 16> seen;
  while (!work.empty()) {
    const llvm::Value *v = work.back();
    work.pop_back();
    if (!seen.insert(v).second)
      continue;
    for (const llvm::User *u : v->users()) {
      auto *i = llvm::dyn_cast<llvm::Instruction>(u);
      if (!i || isDroppedIntrinsic(*i))
        continue;
      if (loop_.contains(i))
        return true;
      // Its address kept in memory or given to a call: it may be reached in the loop.
      if (auto *store = llvm::dyn_cast<llvm::StoreInst>(i); store && store->getValueOperand() == v)
        return true;
      if (llvm::isa<llvm::CallBase>(i))
        return true;
      if (i->getType()->isPointerTy())
        work.push_back(i);
    }
  }
  return false;
}

// The work-item index a loop over x leaves behind is where the next row (y) starts: its
// value after the loop is computed from the trip count instead, so that the only
// values that leave the loop are the ones the work-items computed (which are refused).
void MaskedWorkItemLoop::rewriteIndexExitValues() {
  llvm::BasicBlock *exit = loop_.getExitBlock();
  llvm::SCEVExpander expander(scev_, exit->getDataLayout(), "index.exit");
  for (llvm::PHINode &phi : llvm::make_early_inc_range(exit->phis())) {
    if (phi.use_empty() || phi.getNumIncomingValues() != 1)
      continue;
    auto *rec = llvm::dyn_cast<llvm::SCEVAddRecExpr>(scev_.getSCEV(phi.getIncomingValue(0)));
    if (!rec || rec->getLoop() != &loop_)
      continue;
    const llvm::SCEV *after = scev_.getSCEVAtScope(rec, loop_.getParentLoop());
    if (llvm::isa<llvm::SCEVCouldNotCompute>(after) || !scev_.isLoopInvariant(after, &loop_) ||
        !expander.isSafeToExpand(after))
      continue;
    llvm::Value *value =
        expander.expandCodeFor(after, phi.getType(), &*exit->getFirstInsertionPt());
    phi.replaceAllUsesWith(value);
    changedIR_ = true;
  }
}

std::string MaskedWorkItemLoop::check() {
  if (!loop_.isLoopSimplifyForm())
    changedIR_ |= llvm::simplifyLoop(&loop_, &dominators_, &loops_, &scev_, nullptr, nullptr,
                                     /*PreserveLCSSA=*/false);
  llvm::BasicBlock *latch = loop_.getLoopLatch();
  if (!loop_.isLoopSimplifyForm())
    return "the work-item loop is not in simplified form";
  if (!latch || loop_.getExitingBlock() != latch || !loop_.getExitBlock())
    return "the work-item loop has exits besides its latch";
  auto *latchBranch = llvm::dyn_cast<llvm::BranchInst>(latch->getTerminator());
  if (!latchBranch || !latchBranch->isConditional())
    return "the work-item loop is not in simplified form";
  // Inner loops need a preheader, one latch and exits of their own (the passes before
  // may have folded them away).
  for (llvm::Loop *inner : loop_.getLoopsInPreorder())
    if (inner != &loop_ && !inner->isLoopSimplifyForm())
      changedIR_ |= llvm::simplifyLoop(inner, &dominators_, &loops_, &scev_, nullptr, nullptr,
                                       /*PreserveLCSSA=*/false);
  for (llvm::Loop *inner : loop_.getLoopsInPreorder())
    if (!inner->isLoopSimplifyForm() || loops_.getLoopFor(inner->getLoopLatch()) != inner)
      return "an inner loop is not in simplified form";
  if (!loop_.isRecursivelyLCSSAForm(dominators_, loops_))
    changedIR_ |= llvm::formLCSSARecursively(loop_, dominators_, &loops_, &scev_);

  const llvm::SCEV *backedges = scev_.getBackedgeTakenCount(&loop_);
  if (llvm::isa<llvm::SCEVCouldNotCompute>(backedges))
    return "the number of work-items is not computable";
  for (llvm::PHINode &phi : loop_.getHeader()->phis()) {
    auto *rec = llvm::dyn_cast<llvm::SCEVAddRecExpr>(scev_.getSCEV(&phi));
    if (!phi.getType()->isIntegerTy() || !rec || rec->getLoop() != &loop_ || !rec->isAffine() ||
        !llvm::isa<llvm::SCEVConstant>(rec->getStepRecurrence(scev_)))
      return "a value carried from work-item to work-item";
  }
  rewriteIndexExitValues();
  for (llvm::PHINode &phi : loop_.getExitBlock()->phis())
    if (!phi.use_empty())
      return "a value used after the work-item loop";

  for (llvm::BasicBlock *block : loop_.blocks())
    for (llvm::Instruction &i : *block)
      if (std::string why = checkInstruction(i); !why.empty())
        return why;
  if (usesPrivateMemory())
    return "a private array or variable in memory";
  // ScalarEvolution is asked now: it cannot follow the loop once vectorise() starts
  // changing it.
  for (llvm::PHINode &phi : loop_.getHeader()->phis())
    steps_[&phi] =
        llvm::cast<llvm::SCEVConstant>(
            llvm::cast<llvm::SCEVAddRecExpr>(scev_.getSCEV(&phi))->getStepRecurrence(scev_))
            ->getAPInt();
  for (llvm::BasicBlock *block : loop_.blocks())
    for (llvm::Instruction &i : *block)
      if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&i)) {
        if (isConsecutive(load->getPointerOperand(), load->getType()))
          consecutive_.insert(&i);
        else if (isConsecutiveInInnerLoop(load->getPointerOperand(), load->getType()))
          consecutiveInner_.insert(&i);
      } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&i)) {
        llvm::Type *stored = store->getValueOperand()->getType();
        if (isConsecutive(store->getPointerOperand(), stored))
          consecutive_.insert(&i);
        else if (isConsecutiveInInnerLoop(store->getPointerOperand(), stored))
          consecutiveInner_.insert(&i);
      }
  std::vector<llvm::BasicBlock *> top;
  if (!orderLevel(&loop_, top))
    return "irreducible control flow";

  postDominators_.recalculate(*loop_.getHeader()->getParent());
  divergence_ = std::make_unique<WorkItemDivergence>(loop_, loops_, postDominators_);
  return "";
}

// {{p, +, size}<work-item loop>, +, s}<a loop in it>, s the same for every work-item.
bool MaskedWorkItemLoop::isConsecutiveInInnerLoop(llvm::Value *pointer, llvm::Type *element) const {
  auto *rec = llvm::dyn_cast<llvm::SCEVAddRecExpr>(scev_.getSCEV(pointer));
  return rec && rec->isAffine() && rec->getLoop() != &loop_ && loop_.contains(rec->getLoop()) &&
         scev_.isLoopInvariant(rec->getStepRecurrence(scev_), &loop_) &&
         isConsecutive(rec->getStart(), element);
}

bool MaskedWorkItemLoop::isConsecutive(llvm::Value *pointer, llvm::Type *element) const {
  return isConsecutive(scev_.getSCEV(pointer), element);
}

bool MaskedWorkItemLoop::isConsecutive(const llvm::SCEV *address, llvm::Type *element) const {
  const llvm::DataLayout &layout = loop_.getHeader()->getDataLayout();
  auto *rec = llvm::dyn_cast<llvm::SCEVAddRecExpr>(address);
  if (!rec || rec->getLoop() != &loop_ || !rec->isAffine())
    return false;
  auto *step = llvm::dyn_cast<llvm::SCEVConstant>(rec->getStepRecurrence(scev_));
  uint64_t size = layout.getTypeStoreSize(element);
  // Not i1: consecutive booleans are a byte each in memory, but a vector of i1 is loaded
  // and stored bit by bit (a plain <16 x i1> load read 2 bytes for 16 flags; the masked
  // one happened to be widened to bytes by the x86 backend).
  return step && size == layout.getTypeAllocSize(element) &&
         layout.getTypeSizeInBits(element).getFixedValue() == 8 * size &&
         step->getAPInt().getSExtValue() == int64_t(size);
}

namespace {

// A vector register's worth of the widest floating-point or 32-bit value in the loop.
// 64-bit integers (sizes and indices: get_global_id is a size_t) do not count: they take
// two registers.
unsigned lanesFor(const llvm::Loop &loop, const llvm::TargetTransformInfo &tti) {
  unsigned widest = 32;
  for (llvm::BasicBlock *block : loop.blocks())
    for (llvm::Instruction &i : *block)
      if (i.getType()->isFloatingPointTy())
        widest = std::max<unsigned>(widest, i.getType()->getPrimitiveSizeInBits());
  unsigned bits =
      tti.getRegisterBitWidth(llvm::TargetTransformInfo::RGK_FixedWidthVector).getFixedValue();
  return bits / widest;
}

// A checked loop (FIBERCL_CHECK=bounds, ...): LLVM's loop vectoriser cannot take a loop
// with its checks' calls, this pass can (they run lane by lane, and only for lanes whose
// check failed). A loop whose checks were decided before it (checked_loop_versions.cpp)
// has none left.
bool checksAccesses(const llvm::Loop &loop) {
  for (const llvm::BasicBlock *bb : loop.blocks())
    for (const llvm::Instruction &i : *bb)
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(&i);
          call && isLaneCheck(call->getCalledFunction()))
        return true;
  return false;
}

} // namespace

llvm::PreservedAnalyses MaskedWorkItemVectorizerPass::run(llvm::Function &f,
                                                          llvm::FunctionAnalysisManager &fam) {
  if (!f.getName().starts_with("__fibercl_wg_"))
    return llvm::PreservedAnalyses::all();
  bool report = debugChannel("vectorize");
  bool changed = false;
  // One loop at a time: vectorising one invalidates the analyses.
  for (;;) {
    auto &loops = fam.getResult<llvm::LoopAnalysis>(f);
    llvm::Loop *candidate = nullptr;
    // A vector copy's loops are all taken (LLVM's vectoriser knows nothing of
    // sub-groups); elsewhere those without inner loops are left to LLVM's.
    bool subGroupLanes = f.hasFnAttribute(kSubGroupVectorsAttr);
    bool laneHelpers = false;
    for (llvm::Loop *l : loops.getLoopsInPreorder())
      if (llvm::findOptionMDForLoop(l, kWorkItemLoopMetadata) &&
          (subGroupLanes || checksAccesses(*l) || !l->getSubLoops().empty())) {
        candidate = l;
        laneHelpers = subGroupLanes || checksAccesses(*l);
        break;
      }
    if (!candidate)
      break;
    // Either way, it is not looked at again.
    llvm::MDNode *id = candidate->getLoopID();
    candidate->setLoopID(
        llvm::makePostTransformationMetadata(f.getContext(), id, {kWorkItemLoopMetadata}, {}));
    unsigned lanes = lanesFor(*candidate, fam.getResult<llvm::TargetIRAnalysis>(f));
    if (subGroupLanes)
      f.getFnAttribute(kSubGroupVectorsAttr).getValueAsString().getAsInteger(10, lanes);
    MaskedWorkItemLoop v(*candidate, loops, fam.getResult<llvm::DominatorTreeAnalysis>(f),
                         fam.getResult<llvm::ScalarEvolutionAnalysis>(f));
    v.subGroupLanes = subGroupLanes;
    v.laneHelpers = laneHelpers;
    const llvm::TargetLibraryInfo &libraryInfo = fam.getResult<llvm::TargetLibraryAnalysis>(f);
    // kSerialItemsAttr: __local atomics lowered to plain operations make one work-item
    // depend on the one before it. (Barrier regions of a yielding kernel kept the
    // barrier's fence, which hid this, until its decision moved behind the fence: a
    // __local histogram then lost counts.) Yield points are calls: check() refuses
    // the loops that have one.
    std::string why = lanes < 2                            ? "no vector registers"
                      : f.hasFnAttribute(kSerialItemsAttr) ? "work-items run one after another "
                                                             "(__local atomics)"
                                                           : v.check();
    if (why.empty()) {
      widenWorkItemLoop(v, libraryInfo, lanes);
      if (laneHelpers)
        inlineLaneHelpers(f);
    }
    if (why.empty() || v.changedIR()) {
      changed = true;
      fam.invalidate(f, llvm::PreservedAnalyses::none());
    }
    if (report) {
      llvm::errs() << "FiberCL: " << f.getName() << ": work-item loop ";
      if (why.empty())
        llvm::errs() << "masked-vectorised, " << lanes << " lanes\n";
      else
        llvm::errs() << "not masked-vectorised: " << why << "\n";
    }
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace fibercl::compiler

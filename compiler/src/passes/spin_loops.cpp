// Shared-memory classification and spin-loop detection (spin_loops.hpp).
#include "spin_loops.hpp"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Operator.h>

#include "passes.hpp"

#include "fibercl/pipe_abi.h"

namespace fibercl::compiler {
namespace {

bool isFence(const llvm::Instruction &i) { return llvm::isa<llvm::FenceInst>(i); }

// Does `i` read memory that another work-group may be changing while this loop runs?
// Plain loads count only in loops that synchronise (`sync`): without an atomic or a
// fence, a plain load is not guaranteed to see another group's store at all.
bool observesOthers(const llvm::Instruction &i, bool sync) {
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&i))
    return isShared(load->getPointerOperand()) && (load->isAtomic() || load->isVolatile() || sync);
  if (llvm::isa<llvm::AtomicRMWInst>(i) || llvm::isa<llvm::AtomicCmpXchgInst>(i))
    return isShared(accessedPointer(i));
  // The runtime's pipe functions read the pipe's counters, which other groups move:
  // `while (read_pipe(p, &x) != 0) {}` waits for a writer.
  if (auto *call = llvm::dyn_cast<llvm::CallInst>(&i))
    if (const llvm::Function *f = call->getCalledFunction())
      return f->getName() == FIBERCL_HOST_PIPE_RESERVE || f->getName() == FIBERCL_HOST_PIPE_PACKETS;
  return false;
}

// The stores in `loop` that may write the memory `pointer` points to (same underlying
// object, or one of them unknown).
llvm::SmallVector<const llvm::StoreInst *, 4> storesTo(const llvm::Loop &loop,
                                                       const llvm::Value *pointer) {
  const llvm::Value *object = llvm::getUnderlyingObject(pointer);
  bool known = llvm::isa<llvm::AllocaInst>(object) || llvm::isa<llvm::GlobalVariable>(object);
  llvm::SmallVector<const llvm::StoreInst *, 4> stores;
  for (const llvm::BasicBlock *bb : loop.blocks())
    for (const llvm::Instruction &i : *bb)
      if (auto *s = llvm::dyn_cast<llvm::StoreInst>(&i)) {
        const llvm::Value *other = llvm::getUnderlyingObject(s->getPointerOperand());
        bool otherKnown =
            llvm::isa<llvm::AllocaInst>(other) || llvm::isa<llvm::GlobalVariable>(other);
        if (other == object || !known || !otherKnown)
          stores.push_back(s);
      }
  return stores;
}

// Does an exit condition of `loop` depend, through values computed in the loop, on
// memory another group can change? (The backward slice of every exit condition, cut at
// values defined outside the loop.) Returns the instruction that reads that memory (or
// the terminator of an exit not understood, or of the header of a loop without exit),
// nullptr if the loop does not wait.
const llvm::Instruction *exitWaitsOnOthers(const llvm::Loop &loop) {
  bool sync = false;
  for (const llvm::BasicBlock *bb : loop.blocks())
    for (const llvm::Instruction &i : *bb)
      sync |= isFence(i) || isSharedAtomic(i);

  llvm::SmallVector<const llvm::Value *, 16> work;
  llvm::SmallVector<llvm::BasicBlock *, 4> exiting;
  loop.getExitingBlocks(exiting);
  if (exiting.empty()) // never ends by itself: whatever it does, it is stuck
    return loop.getHeader()->getTerminator();
  for (llvm::BasicBlock *bb : exiting) {
    const llvm::Instruction *t = bb->getTerminator();
    if (auto *br = llvm::dyn_cast<llvm::BranchInst>(t)) {
      if (br->isConditional())
        work.push_back(br->getCondition());
    } else if (auto *sw = llvm::dyn_cast<llvm::SwitchInst>(t)) {
      work.push_back(sw->getCondition());
    } else {
      return t; // an exit we do not understand: assume it may wait
    }
  }
  // A phi's value also depends on which way the loop's branches went to reach it.
  llvm::SmallPtrSet<const llvm::BasicBlock *, 16> branchesSeen;
  auto pushBranchesReaching = [&](const llvm::BasicBlock *to) {
    llvm::SmallVector<const llvm::BasicBlock *, 8> blocks{to};
    while (!blocks.empty()) {
      const llvm::BasicBlock *bb = blocks.pop_back_val();
      if (!loop.contains(bb) || !branchesSeen.insert(bb).second)
        continue;
      const llvm::Instruction *t = bb->getTerminator();
      if (auto *br = llvm::dyn_cast<llvm::BranchInst>(t); br && br->isConditional())
        work.push_back(br->getCondition());
      else if (auto *sw = llvm::dyn_cast<llvm::SwitchInst>(t))
        work.push_back(sw->getCondition());
      if (bb != loop.getHeader())
        for (const llvm::BasicBlock *pred : llvm::predecessors(bb))
          blocks.push_back(pred);
    }
  };
  llvm::SmallPtrSet<const llvm::Value *, 32> seen;
  while (!work.empty()) {
    const llvm::Value *v = work.pop_back_val();
    auto *i = llvm::dyn_cast<llvm::Instruction>(v);
    if (!i || !loop.contains(i) || !seen.insert(i).second)
      continue;
    if (observesOthers(*i, sync))
      return i;
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(i)) {
      // Private or __local memory: follow what the loop stores there (work-item 0
      // reading a flag into a __local variable for the whole group is the common
      // way to wait). Unsynchronised plain global loads are not another group's.
      if (!isShared(load->getPointerOperand()))
        for (const llvm::StoreInst *s : storesTo(loop, load->getPointerOperand()))
          work.push_back(s->getValueOperand());
      continue;
    }
    if (auto *phi = llvm::dyn_cast<llvm::PHINode>(i)) {
      // Which way the loop's branches went matters only where the phi merges different
      // values coming from inside the loop (a header phi with one latch does not: a
      // strided `for` whose body has an `if` is not chosen by that `if`).
      const llvm::Value *first = nullptr;
      bool differ = false;
      for (unsigned k = 0; k < phi->getNumIncomingValues(); ++k)
        if (loop.contains(phi->getIncomingBlock(k))) {
          const llvm::Value *in = phi->getIncomingValue(k);
          differ |= first && in != first;
          first = first ? first : in;
        }
      if (differ)
        for (const llvm::BasicBlock *in : phi->blocks())
          pushBranchesReaching(in);
    }
    for (const llvm::Use &op : i->operands())
      work.push_back(op.get());
  }
  return nullptr;
}

// Does some exit of `loop` come by itself, whatever memory it reads? An exit taken
// once a counter of the loop (an induction variable with a constant step) passes a
// bound -- `for (i = 0; i < p->count; i += 16)` -- does, even when the bound is
// re-read from shared memory each iteration (a seq_cst atomic in the loop keeps LLVM
// from hoisting the load, so ScalarEvolution cannot count the trips): another group
// changing the bound may make the loop longer, but never makes it wait.
bool exitsByItself(const llvm::Loop &loop, llvm::ScalarEvolution &scev) {
  llvm::SmallVector<llvm::BasicBlock *, 4> exiting;
  loop.getExitingBlocks(exiting);
  for (llvm::BasicBlock *bb : exiting) {
    auto *br = llvm::dyn_cast<llvm::BranchInst>(bb->getTerminator());
    auto *cmp =
        br && br->isConditional() ? llvm::dyn_cast<llvm::ICmpInst>(br->getCondition()) : nullptr;
    if (!cmp || !cmp->isRelational())
      continue;
    // The predicate under which the loop goes on, counter on the left.
    llvm::CmpInst::Predicate stay =
        loop.contains(br->getSuccessor(0)) ? cmp->getPredicate() : cmp->getInversePredicate();
    const llvm::SCEV *counter = scev.getSCEV(cmp->getOperand(0));
    if (!llvm::isa<llvm::SCEVAddRecExpr>(counter)) {
      counter = scev.getSCEV(cmp->getOperand(1));
      stay = llvm::CmpInst::getSwappedPredicate(stay);
    }
    auto *rec = llvm::dyn_cast<llvm::SCEVAddRecExpr>(counter);
    if (!rec || rec->getLoop() != &loop || !rec->isAffine())
      continue;
    auto *step = llvm::dyn_cast<llvm::SCEVConstant>(rec->getStepRecurrence(scev));
    if (!step || step->getValue()->isZero())
      continue;
    // Counting up, the loop must stay only while below the bound; down, while above.
    bool up = step->getAPInt().isStrictlyPositive();
    if (up ? llvm::ICmpInst::isLT(stay) || llvm::ICmpInst::isLE(stay)
           : llvm::ICmpInst::isGT(stay) || llvm::ICmpInst::isGE(stay))
      return true;
  }
  return false;
}

} // namespace

bool isShared(const llvm::Value *pointer) {
  llvm::SmallVector<const llvm::Value *, 8> work{pointer};
  llvm::SmallPtrSet<const llvm::Value *, 16> seen;
  while (!work.empty()) {
    const llvm::Value *v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (seen.size() > 64)
      return true; // give up: assume shared
    if (!v->getType()->isPointerTy())
      return true;
    unsigned as = v->getType()->getPointerAddressSpace();
    if (as == kGlobalAddressSpace)
      return true;
    if (as == kPrivateAddressSpace || as == kLocalAddressSpace || as == kConstantAddressSpace)
      continue;
    // A generic pointer: follow it to where it came from.
    if (auto *cast = llvm::dyn_cast<llvm::AddrSpaceCastOperator>(v))
      work.push_back(cast->getPointerOperand());
    else if (auto *gep = llvm::dyn_cast<llvm::GEPOperator>(v))
      work.push_back(gep->getPointerOperand());
    else if (auto *phi = llvm::dyn_cast<llvm::PHINode>(v))
      for (const llvm::Value *in : phi->incoming_values())
        work.push_back(in);
    else if (auto *sel = llvm::dyn_cast<llvm::SelectInst>(v)) {
      work.push_back(sel->getTrueValue());
      work.push_back(sel->getFalseValue());
    } else if (!llvm::isa<llvm::ConstantPointerNull>(v) && !llvm::isa<llvm::UndefValue>(v))
      return true; // an argument, a loaded pointer, an integer cast: unknown
  }
  return false;
}

const llvm::Value *accessedPointer(const llvm::Instruction &i) {
  if (auto *l = llvm::dyn_cast<llvm::LoadInst>(&i))
    return l->getPointerOperand();
  if (auto *s = llvm::dyn_cast<llvm::StoreInst>(&i))
    return s->getPointerOperand();
  if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&i))
    return rmw->getPointerOperand();
  if (auto *cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&i))
    return cas->getPointerOperand();
  if (auto *mem = llvm::dyn_cast<llvm::AnyMemIntrinsic>(&i))
    return mem->getRawDest();
  return nullptr;
}

bool isSharedAtomic(const llvm::Instruction &i) {
  bool atomic = llvm::isa<llvm::AtomicRMWInst>(i) || llvm::isa<llvm::AtomicCmpXchgInst>(i);
  if (auto *l = llvm::dyn_cast<llvm::LoadInst>(&i))
    atomic = l->isAtomic();
  else if (auto *s = llvm::dyn_cast<llvm::StoreInst>(&i))
    atomic = s->isAtomic();
  return atomic && isShared(accessedPointer(i));
}

bool isSharedVolatile(const llvm::Instruction &i) {
  bool isVolatile = false;
  if (auto *l = llvm::dyn_cast<llvm::LoadInst>(&i))
    isVolatile = l->isVolatile() && !l->isAtomic();
  else if (auto *s = llvm::dyn_cast<llvm::StoreInst>(&i))
    isVolatile = s->isVolatile() && !s->isAtomic();
  return isVolatile && isShared(accessedPointer(i));
}

SpinLoops::SpinLoops(llvm::LoopInfo &loops, llvm::ScalarEvolution &scev) : loops_(loops) {
  for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
    const llvm::Instruction *why = exitWaitsOnOthers(*loop);
    if (!why)
      continue;
    // A loop LLVM can bound (some exit with a computable count) ends by itself.
    if (!llvm::isa<llvm::SCEVCouldNotCompute>(scev.getSymbolicMaxBackedgeTakenCount(loop)) ||
        exitsByItself(*loop, scev))
      continue;
    spinning_.insert(loop);
    reasons_.push_back({loop, why});
  }
}

bool SpinLoops::waitingAt(const llvm::Instruction &i) const {
  for (const llvm::Loop *l = loops_.getLoopFor(i.getParent()); l; l = l->getParentLoop())
    if (spinning_.count(l))
      return true;
  return false;
}

} // namespace fibercl::compiler

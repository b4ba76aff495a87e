// Shared-memory classification and spin-loop detection (spin_loops.hpp).
#include "spin_loops.hpp"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Operator.h>

#include "passes.hpp"

namespace fibercl::compiler {
namespace {

constexpr unsigned kPrivateAddressSpace = 0;
constexpr unsigned kConstantAddressSpace = 2;

bool isFence(const llvm::Instruction &i) { return llvm::isa<llvm::FenceInst>(i); }

// Does `i` read memory that another work-group may be changing while this loop runs?
// Plain loads count only in loops that synchronise (`sync`): without an atomic or a
// fence, a plain load is not guaranteed to see another group's store at all.
bool observesOthers(const llvm::Instruction &i, bool sync) {
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&i))
    return isShared(load->getPointerOperand()) &&
           (load->isAtomic() || load->isVolatile() || sync);
  if (llvm::isa<llvm::AtomicRMWInst>(i) || llvm::isa<llvm::AtomicCmpXchgInst>(i))
    return isShared(accessedPointer(i));
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
// values defined outside the loop.)
bool exitWaitsOnOthers(const llvm::Loop &loop) {
  bool sync = false;
  for (const llvm::BasicBlock *bb : loop.blocks())
    for (const llvm::Instruction &i : *bb)
      sync |= isFence(i) || isSharedAtomic(i);

  llvm::SmallVector<const llvm::Value *, 16> work;
  llvm::SmallVector<llvm::BasicBlock *, 4> exiting;
  loop.getExitingBlocks(exiting);
  if (exiting.empty())
    return true; // never ends by itself: whatever it does, it is stuck
  for (llvm::BasicBlock *bb : exiting) {
    const llvm::Instruction *t = bb->getTerminator();
    if (auto *br = llvm::dyn_cast<llvm::BranchInst>(t)) {
      if (br->isConditional())
        work.push_back(br->getCondition());
    } else if (auto *sw = llvm::dyn_cast<llvm::SwitchInst>(t)) {
      work.push_back(sw->getCondition());
    } else {
      return true; // an exit we do not understand: assume it may wait
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
      return true;
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

SpinLoops::SpinLoops(llvm::LoopInfo &loops, llvm::ScalarEvolution &scev)
    : loops_(loops) {
  for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
    if (!exitWaitsOnOthers(*loop))
      continue;
    // A loop LLVM can bound (some exit with a computable count) ends by itself.
    if (!llvm::isa<llvm::SCEVCouldNotCompute>(scev.getSymbolicMaxBackedgeTakenCount(loop)))
      continue;
    spinning_.insert(loop);
  }
}

bool SpinLoops::waitingAt(const llvm::Instruction &i) const {
  for (const llvm::Loop *l = loops_.getLoopFor(i.getParent()); l; l = l->getParentLoop())
    if (spinning_.count(l))
      return true;
  return false;
}

} // namespace fibercl::compiler

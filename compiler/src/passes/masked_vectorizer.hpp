// MaskedWorkItemVectorizerPass (passes.hpp) in two halves: which work-item loops it
// can widen, and what widening needs to know of them (masked_vectorizer.cpp); the
// widened loop's IR (masked_widening.cpp).
#pragma once

#include <llvm/ADT/APInt.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/PostDominators.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "work_item_divergence.hpp"

namespace llvm {
class BasicBlock;
class DominatorTree;
class Instruction;
class Loop;
class LoopInfo;
class PHINode;
class ScalarEvolution;
class SCEV;
class TargetLibraryInfo;
class Type;
class Value;
} // namespace llvm

namespace fibercl::compiler {

// A work-item loop with loops inside. check() says whether it can be widened and, if
// so, records what widening needs -- while ScalarEvolution can still follow the loop,
// before its IR starts changing.
class MaskedWorkItemLoop {
public:
  MaskedWorkItemLoop(llvm::Loop &loop, llvm::LoopInfo &loops, llvm::DominatorTree &dominators,
                     llvm::ScalarEvolution &scev)
      : loop_(loop), loops_(loops), dominators_(dominators), scev_(scev) {}

  // Empty if the loop can be vectorised, else why not.
  std::string check();
  // In a kernel's vector copy (sub_group_vectors.cpp) the lanes are a sub-group: its
  // collectives become lane operations.
  bool subGroupLanes = false;
  // Vector copies and checked kernels (FIBERCL_CHECK=bounds): atomic read-modify-writes,
  // yield points and failed checks run lane by lane over the active lanes
  // (sub_group_lanes.hpp), and a load of consecutive elements is a plain vector load
  // when every lane is active. Scatters run lane by lane in vector copies only (where
  // one lane often stores alone); a checked loop keeps the scatter of the unchecked one.
  bool laneHelpers = false;
  // check() may have put the loops in simplified or LCSSA form.
  bool changedIR() const { return changedIR_; }

  // What check() found, for widenWorkItemLoop.
  llvm::Loop &loop() const { return loop_; }
  llvm::LoopInfo &loops() const { return loops_; }
  llvm::DominatorTree &dominators() const { return dominators_; }
  llvm::ScalarEvolution &scev() const { return scev_; }
  const WorkItemDivergence &divergence() const { return *divergence_; }
  // The blocks and inner loops (by header) of a loop level, each after its predecessors.
  std::vector<llvm::BasicBlock *> &order(llvm::Loop *level) { return order_[level]; }
  // The loop one level below `level` that contains `block`.
  llvm::Loop *childLoopAt(llvm::Loop *level, llvm::BasicBlock *block) const;
  // The step of a header phi of the work-item loop (an induction variable).
  const llvm::APInt &step(llvm::PHINode *phi) { return steps_[phi]; }
  // A load or store where consecutive work-items touch consecutive elements.
  bool isConsecutiveAccess(llvm::Instruction *i) const { return consecutive_.contains(i); }
  // ... in a loop inside the work-item loop (`for (i = lid; i < n; i += size)`): the lanes
  // still in it are at the same iteration, so consecutive from the first of them (the
  // others' addresses may be stale).
  bool isConsecutiveFromFirstActive(llvm::Instruction *i) const {
    return consecutiveInner_.contains(i);
  }

private:
  std::string checkInstruction(const llvm::Instruction &i) const;
  void rewriteIndexExitValues();
  bool usesPrivateMemory() const;
  bool orderLevel(llvm::Loop *level, std::vector<llvm::BasicBlock *> &nodes);
  bool isConsecutive(llvm::Value *pointer, llvm::Type *element) const;
  bool isConsecutive(const llvm::SCEV *address, llvm::Type *element) const;
  bool isConsecutiveInInnerLoop(llvm::Value *pointer, llvm::Type *element) const;

  llvm::Loop &loop_;
  llvm::LoopInfo &loops_;
  llvm::DominatorTree &dominators_;
  llvm::PostDominatorTree postDominators_; // after check() has simplified the loops
  llvm::ScalarEvolution &scev_;
  std::unique_ptr<WorkItemDivergence> divergence_;
  std::map<llvm::Loop *, std::vector<llvm::BasicBlock *>> order_;
  bool changedIR_ = false;
  // The work-item loop's induction steps, and the accesses where consecutive
  // work-items touch consecutive elements.
  llvm::DenseMap<llvm::PHINode *, llvm::APInt> steps_;
  llvm::SmallPtrSet<llvm::Instruction *, 8> consecutive_, consecutiveInner_;
};

// Intrinsics the widened loop leaves out (lifetime markers, assumptions, debug info).
bool isDroppedIntrinsic(const llvm::Instruction &i);

// Replaces `loop` (accepted by check()) with a loop over `lanes` work-items at a time.
void widenWorkItemLoop(MaskedWorkItemLoop &loop, const llvm::TargetLibraryInfo &libraryInfo,
                       unsigned lanes);

} // namespace fibercl::compiler

// Which values of a work-item loop's body differ between the work-items of one vector
// (masked_vectorizer.cpp): "varying" values need a lane per work-item, "uniform" ones
// are the same for every work-item that computes them and stay scalar.
//
// Varying: the loop's induction variables (the work-item's coordinate), what is
// computed from a varying value, phis where paths that a varying branch separated
// meet again (reachable from two of its successors before they must meet: its
// immediate post-dominator), and the values leaving a loop
// that contains a varying branch (work-items leave it at different iterations).
#pragma once

#include <llvm/ADT/SmallPtrSet.h>

namespace llvm {
class Loop;
class LoopInfo;
class Value;
class BasicBlock;
class PostDominatorTree;
} // namespace llvm

namespace fibercl::compiler {

class WorkItemDivergence {
public:
  // `itemLoop`: the work-item loop; its header phis are the seeds.
  WorkItemDivergence(llvm::Loop &itemLoop, llvm::LoopInfo &loops,
                     llvm::PostDominatorTree &postDominators);

  bool isVarying(const llvm::Value *v) const { return varying_.contains(v); }
  // A loop inside the work-item loop whose work-items may leave it at different
  // iterations or by different exits.
  bool isDivergent(const llvm::Loop *loop) const { return divergentLoops_.contains(loop); }
  // True if some branch of the body depends on the work-item.
  bool hasDivergence() const { return !divergentBranches_.empty(); }

private:
  bool markVarying(const llvm::Value *v);
  bool propagateBranch(const llvm::BasicBlock *block);

  llvm::Loop &itemLoop_;
  llvm::LoopInfo &loops_;
  llvm::PostDominatorTree &postDominators_;
  llvm::SmallPtrSet<const llvm::Value *, 32> varying_;
  llvm::SmallPtrSet<const llvm::BasicBlock *, 16> divergentBranches_;
  llvm::SmallPtrSet<const llvm::Loop *, 8> divergentLoops_;
};

} // namespace fibercl::compiler

// WorkItemDivergence (work_item_divergence.hpp): a fixed point over the work-item
// loop's body.
#include "work_item_divergence.hpp"

#include <llvm/ADT/DenseMap.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/Instructions.h>

#include <vector>

namespace fibercl::compiler {

WorkItemDivergence::WorkItemDivergence(llvm::Loop &itemLoop, llvm::LoopInfo &loops,
                                       llvm::PostDominatorTree &postDominators)
    : itemLoop_(itemLoop), loops_(loops), postDominators_(postDominators) {
  for (llvm::PHINode &phi : itemLoop.getHeader()->phis())
    varying_.insert(&phi);
  // Each work-item's read-modify-write returns what the one before it left.
  for (llvm::BasicBlock *block : itemLoop.blocks())
    for (llvm::Instruction &i : *block)
      if (llvm::isa<llvm::AtomicRMWInst>(i) || llvm::isa<llvm::AtomicCmpXchgInst>(i))
        varying_.insert(&i);
  bool changed = true;
  while (changed) {
    changed = false;
    for (llvm::BasicBlock *block : itemLoop.blocks()) {
      for (llvm::Instruction &i : *block) {
        if (varying_.contains(&i))
          continue;
        for (const llvm::Use &op : i.operands())
          if (varying_.contains(op.get())) {
            changed |= markVarying(&i);
            break;
          }
      }
      if (block != itemLoop.getLoopLatch() && !divergentBranches_.contains(block))
        changed |= propagateBranch(block);
    }
  }
}

bool WorkItemDivergence::markVarying(const llvm::Value *v) { return varying_.insert(v).second; }

// A varying branch at the end of `block` makes the phis where its successors' paths
// meet varying, and so every value leaving a loop around it.
bool WorkItemDivergence::propagateBranch(const llvm::BasicBlock *block) {
  const llvm::Instruction *term = block->getTerminator();
  const llvm::Value *condition = nullptr;
  if (auto *br = llvm::dyn_cast<llvm::BranchInst>(term); br && br->isConditional())
    condition = br->getCondition();
  else if (auto *sw = llvm::dyn_cast<llvm::SwitchInst>(term))
    condition = sw->getCondition();
  if (!condition || !varying_.contains(condition))
    return false;
  divergentBranches_.insert(block);

  bool changed = false;
  // Paths stop at the headers of the loops around the branch: the next iteration is
  // not a meeting point of this one's paths.
  llvm::SmallPtrSet<const llvm::BasicBlock *, 8> stops;
  for (llvm::Loop *l = loops_.getLoopFor(block); l; l = l->getParentLoop()) {
    stops.insert(l->getHeader());
    if (l == &itemLoop_)
      break;
    divergentLoops_.insert(l);
    llvm::SmallVector<llvm::BasicBlock *, 4> exits;
    l->getExitBlocks(exits);
    for (llvm::BasicBlock *exit : exits)
      for (llvm::PHINode &phi : exit->phis())
        changed |= markVarying(&phi);
  }
  // Past the immediate post-dominator every path has met.
  const llvm::BasicBlock *meet = nullptr;
  if (auto *node = postDominators_.getNode(block); node && node->getIDom())
    meet = node->getIDom()->getBlock();
  llvm::DenseMap<const llvm::BasicBlock *, unsigned> reachedFrom; // successor index + 1
  for (unsigned s = 0; s < term->getNumSuccessors(); ++s) {
    std::vector<const llvm::BasicBlock *> work{term->getSuccessor(s)};
    llvm::SmallPtrSet<const llvm::BasicBlock *, 16> seen;
    while (!work.empty()) {
      const llvm::BasicBlock *b = work.back();
      work.pop_back();
      if (stops.contains(b) || !itemLoop_.contains(b) || !seen.insert(b).second)
        continue;
      auto [it, first] = reachedFrom.try_emplace(b, s + 1);
      if (!first && it->second != s + 1)
        for (const llvm::PHINode &phi : b->phis())
          changed |= markVarying(&phi);
      if (b == meet)
        continue;
      for (const llvm::BasicBlock *next : llvm::successors(b))
        work.push_back(next);
    }
  }
  return changed;
}

} // namespace fibercl::compiler

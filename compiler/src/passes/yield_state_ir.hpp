// IR helpers for code that touches a work-group's fcl_yield_state (kernel_abi.h):
// the state pointer is null when the launch does not schedule its groups, so every
// access runs in a block that only a scheduled launch enters.
#pragma once

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <cstddef>

namespace fibercl::compiler {

// A block that runs before `before` only when `state` is not null.
struct ScheduledBlock {
  llvm::Instruction *then;       // insert the scheduled-only code before this
  llvm::BasicBlock *skippedFrom; // the block that branched around it
};

inline ScheduledBlock ifScheduled(llvm::Value *state, llvm::Instruction *before) {
  // Tested where it is used (LLVM hoists it): a value computed once at the entry
  // would be one more for the barrier-region splitter to carry or recompute.
  llvm::Value *scheduled = llvm::IRBuilder<>(before).CreateIsNotNull(state, "scheduled");
  llvm::Instruction *then = llvm::SplitBlockAndInsertIfThen(scheduled, before, false);
  return {then, then->getParent()->getSinglePredecessor()};
}

// The address of the fcl_yield_state field at `offset`.
inline llvm::Value *yieldStateField(llvm::IRBuilder<> &b, llvm::Value *state, size_t offset) {
  return b.CreateConstGEP1_64(b.getInt8Ty(), state, offset);
}

} // namespace fibercl::compiler

// SubGroupVectorCopiesPass and dropFailedSubGroupVectorCopies (passes.hpp): the vector
// copy of a kernel that uses sub-groups.
//
// A sub-group's collectives through slots and sub-group barriers cost a barrier round
// and an O(S) fold per work-item (builtins/lib/fcl_sub_group.h). When the work-item
// loop is vectorised with S lanes and each vector starts a sub-group, the sub-group *is*
// the vector: sub_group_reduce_add is a horizontal add, a broadcast an extract, a
// sub-group barrier nothing but its fence (the lanes run in step). So the body of such
// a kernel is cloned before anything else splits it:
//  - the copy, K.fibercl.body.sgvec, sees the builtins' marker __fibercl_sub_group_vectors()
//    as 1 and keeps the collectives' vector forms (calls __fibercl_sg_v_*); its
//    work-group function __fibercl_wg_K.sgvec is masked-vectorised with S lanes
//    (MaskedWorkItemVectorizerPass), which turns those calls into lane operations
//    (sub_group_lanes.hpp);
//  - the original sees 0 and keeps the slots, for the launches the copy cannot run.
// Only copies with no barrier left are kept: a collective without a vector form (scans,
// the cl_khr_subgroup_* extensions) still needs its sub-group barrier, a work-group
// barrier needs regions, and a loop with atomic or volatile accesses may wait for
// another sub-group (independent forward progress, sub_group_yields.cpp), which the
// lanes of one vector cannot give it. After O3, a copy whose loop the vectoriser refused
// (a private array, a call with side effects) still has scalar calls of the vector forms
// and is dropped (dropFailedSubGroupVectorCopies).
//
// The runtime runs the copy when the vectors are the launch's sub-groups: one row of
// work-items (any size: the last vector, masked, is the last, shorter sub-group) or rows
// whose length is a multiple of S (cpu_launch.cpp).
#include "passes.hpp"

#include <algorithm>

#include <llvm/Analysis/InstructionSimplify.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>

#include "fibercl/compiler/debug.hpp"
#include "sub_group_lanes.hpp"

namespace fibercl::compiler {
namespace {

constexpr const char *kVectorsMarker = "__fibercl_sub_group_vectors";

std::vector<llvm::CallInst *> markerCalls(llvm::Function &f) {
  std::vector<llvm::CallInst *> calls;
  for (llvm::BasicBlock &bb : f)
    for (llvm::Instruction &i : bb)
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(&i))
        if (call->getCalledFunction() && call->getCalledFunction()->getName() == kVectorsMarker)
          calls.push_back(call);
  return calls;
}

// Replaces the marker's calls in `f` by `value` and removes the code that decides.
void foldMarker(llvm::Function &f, bool value) {
  std::vector<llvm::CallInst *> calls = markerCalls(f);
  if (calls.empty())
    return;
  for (llvm::CallInst *call : calls) {
    call->replaceAllUsesWith(llvm::ConstantInt::get(call->getType(), value));
    call->eraseFromParent();
  }
  // The marker's uses are branches (possibly through a zext and a compare).
  for (bool changed = true; changed;) {
    changed = false;
    for (llvm::BasicBlock &bb : f) {
      for (llvm::Instruction &i : llvm::make_early_inc_range(bb))
        if (!i.isTerminator() && llvm::isInstructionTriviallyDead(&i))
          i.eraseFromParent();
        else if (llvm::Value *v = llvm::simplifyInstruction(
                     &i, llvm::SimplifyQuery(f.getParent()->getDataLayout()));
                 v && !i.isTerminator()) {
          i.replaceAllUsesWith(v);
          i.eraseFromParent();
          changed = true;
        }
      changed |= llvm::ConstantFoldTerminator(&bb, /*DeleteDeadConditions=*/true);
    }
  }
  llvm::removeUnreachableBlocks(f);
}

// Empty if the copy can run as vectors, else why not (FIBERCL_DEBUG=vectorize).
std::string whyNotVectors(llvm::Function &copy) {
  std::vector<llvm::Function *> callees;
  for (llvm::BasicBlock &bb : copy)
    for (llvm::Instruction &i : bb)
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(&i); call && call->getCalledFunction())
        callees.push_back(call->getCalledFunction());
  auto calls = [&](llvm::StringRef name) {
    return std::any_of(callees.begin(), callees.end(),
                       [&](llvm::Function *f) { return f->getName() == name; });
  };
  if (calls("__fibercl_barrier"))
    return "a work-group barrier";
  if (calls("__fibercl_sub_group_barrier"))
    return "a sub-group function without a vector form";
  bool laneOps = false;
  for (llvm::Function *callee : callees) {
    llvm::StringRef name = callee->getName();
    laneOps |= isSubGroupLaneOp(callee);
    if (name.starts_with("__fibercl_") && !isSubGroupLaneOp(callee) &&
        name != "__fibercl_local_id" && name != "__fibercl_ctx" &&
        name != "__fibercl_sub_group_width")
      return "a call of " + name.str();
  }
  if (!laneOps)
    return "no sub-group collective";
  llvm::DominatorTree dt(copy);
  llvm::LoopInfo loops(dt);
  for (llvm::Loop *loop : loops.getLoopsInPreorder())
    for (llvm::BasicBlock *bb : loop->blocks())
      for (llvm::Instruction &i : *bb) {
        auto *load = llvm::dyn_cast<llvm::LoadInst>(&i);
        auto *store = llvm::dyn_cast<llvm::StoreInst>(&i);
        if (i.isAtomic() || (load && load->isVolatile()) || (store && store->isVolatile()))
          return "a loop with atomic or volatile accesses (it may wait for another sub-group)";
      }
  return "";
}

} // namespace

std::string subGroupVectorBodyName(llvm::StringRef kernel) { return bodyName(kernel) + ".sgvec"; }

llvm::PreservedAnalyses SubGroupVectorCopiesPass::run(llvm::Module &m,
                                                      llvm::ModuleAnalysisManager &) {
  std::vector<llvm::Function *> bodies;
  for (llvm::Function &f : m)
    if (copies && f.hasFnAttribute(kKernelAttr) && !markerCalls(f).empty())
      bodies.push_back(&f);
  bool report = debugChannel("vectorize");
  for (llvm::Function *body : bodies) {
    llvm::StringRef kernel = body->getFnAttribute(kKernelAttr).getValueAsString();
    llvm::ValueToValueMapTy map;
    llvm::Function *copy = llvm::CloneFunction(body, map);
    copy->setName(subGroupVectorBodyName(kernel));
    foldMarker(*copy, true);
    foldMarker(*body, false);
    std::string why = whyNotVectors(*copy);
    if (report)
      llvm::errs() << "FiberCL: kernel '" << kernel << "': "
                   << (why.empty() ? std::string("sub-groups as vectors (a copy)")
                                   : "sub-groups through slots: " + why)
                   << "\n";
    if (!why.empty()) {
      copy->eraseFromParent();
      continue;
    }
    copy->addFnAttr(kSubGroupVectorsAttr,
                    body->getFnAttribute(kSubGroupSizeAttr).getValueAsString());
  }
  // Anything else that still asks (a function no body inlined) takes the slots.
  for (llvm::Function &f : m)
    if (!f.isDeclaration() && !f.hasFnAttribute(kSubGroupVectorsAttr))
      foldMarker(f, false);
  return llvm::PreservedAnalyses::none();
}

void dropFailedSubGroupVectorCopies(llvm::Module &m, bool report) {
  std::vector<llvm::Function *> failed;
  for (llvm::Function &f : m) {
    if (!f.hasFnAttribute(kSubGroupVectorsAttr) || f.isDeclaration())
      continue;
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &i : bb)
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(&i);
            call && isSubGroupLaneOp(call->getCalledFunction())) {
          failed.push_back(&f);
          goto next;
        }
  next:;
  }
  for (llvm::Function *f : failed) {
    if (report)
      llvm::errs() << "FiberCL: " << f->getName()
                   << ": dropped, its work-item loop was not vectorised with the sub-group's "
                      "lanes (FIBERCL_DEBUG=vectorize says why)\n";
    f->eraseFromParent();
  }
}

} // namespace fibercl::compiler

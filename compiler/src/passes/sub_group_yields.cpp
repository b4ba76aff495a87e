// addSubGroupYields (passes.hpp): independent forward progress between the sub-groups
// of a work-group (CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS).
//
// A group's work-items run one after another on one thread, so a sub-group that spins
// on what another sub-group of its group will write (`while (atomic_load(&flag) != 1);`
// on __local memory) would spin forever. In a kernel with sub-group barriers, every
// loop with an atomic or volatile read gets a call FIBERCL_HOST_SUB_GROUP_YIELD on
// each back-edge: the runtime suspends the work-item there now and then and runs the
// rest of the group's work-items, each sub-group up to its next barrier
// (sub_group_release.hpp). Such kernels run on fibers (fibersRequiredFor): a region
// cannot stop in the middle of a loop.
#include "passes.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include "host_functions.hpp"

namespace fibercl::compiler {
namespace {

// What a wait reads: an atomic or volatile load, or the old value of an atomic
// read-modify-write. (Fences and stores alone never wait: the sub-group barriers'
// own fences are in every loop around one.)
bool mayWaitOnAnother(const llvm::Instruction &i) {
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&i))
    return load->isAtomic() || load->isVolatile();
  return llvm::isa<llvm::AtomicRMWInst>(i) || llvm::isa<llvm::AtomicCmpXchgInst>(i);
}

bool loopMayWait(const llvm::Loop &loop) {
  for (const llvm::BasicBlock *bb : loop.blocks())
    for (const llvm::Instruction &i : *bb)
      if (mayWaitOnAnother(i))
        return true;
  return false;
}

} // namespace

void addSubGroupYields(llvm::Function &body, llvm::Value *ctx, uint32_t width) {
  llvm::DominatorTree dt(body);
  llvm::LoopInfo loops(dt);
  std::vector<llvm::Instruction *> backEdges;
  for (const llvm::Loop *loop : loops.getLoopsInPreorder()) {
    if (!loopMayWait(*loop))
      continue;
    llvm::SmallVector<llvm::BasicBlock *, 4> latches;
    loop->getLoopLatches(latches);
    for (llvm::BasicBlock *latch : latches)
      backEdges.push_back(latch->getTerminator());
  }
  if (backEdges.empty())
    return;
  llvm::FunctionCallee yield =
      declareHostFunction(*body.getParent(), HostFunction::SUB_GROUP_YIELD);
  for (llvm::Instruction *at : backEdges) {
    llvm::IRBuilder<> b(at);
    b.CreateCall(yield, {ctx, b.getInt32(width)})->setDebugLoc(at->getDebugLoc());
  }
  body.addFnAttr(kSubGroupYieldsAttr);
}

} // namespace fibercl::compiler

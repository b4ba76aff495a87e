// EndlessLoopsPass (passes.hpp): a loop the optimised code can never leave is entered
// only to hang the work-group, and with it clFinish. The commonest way to write one is
// a wait on a plain load (`while (flag[0] == 0) {}`): nothing in the loop changes
// memory, so LLVM reads the flag once, before the loop, and the loop left behind has no
// exit. Such a loop -- no exit, and no call that could end the group (a barrier, a
// yield point) or that the application sees (printf) -- is replaced by a call of the
// runtime's FIBERCL_HOST_ENDLESS_LOOP, which reports it and fails the command.
// Loops that may spin on another group's writes keep their yield points and the
// scheduler's deadlock detection.
#include "passes.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Local.h>

#include <string>
#include <utility>
#include <vector>

#include "fibercl/kernel_abi.h"
#include "host_functions.hpp"

namespace fibercl::compiler {
namespace {

// Calls that neither leave the loop some other way nor do anything the application
// could see: intrinsics (lifetime markers, math), functions that only read memory, and
// checked mode's reports (they touch only the runtime's memory; a loop that fails a
// check on every round never ends either).
bool onlyPureCalls(const llvm::Loop &loop) {
  for (const llvm::BasicBlock *bb : loop.blocks())
    for (const llvm::Instruction &i : *bb)
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(&i))
        if (!llvm::isa<llvm::IntrinsicInst>(call) && !call->onlyReadsMemory() &&
            !call->onlyAccessesInaccessibleMemory())
          return false;
  return true;
}

// "<source>:12" for the loop's first line, "" when unknown.
std::string whereIs(const llvm::Loop &loop) {
  const llvm::DILocation *loc = loop.getStartLoc().get();
  for (const llvm::BasicBlock *bb : loop.blocks()) {
    if (loc && loc->getLine())
      break;
    for (const llvm::Instruction &i : *bb)
      if ((loc = i.getDebugLoc().get()) && loc->getLine())
        break;
  }
  return loc && loc->getLine() ? sourceFileOf(*loc) + ":" + std::to_string(loc->getLine())
                               : std::string();
}

} // namespace

llvm::PreservedAnalyses EndlessLoopsPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  llvm::FunctionCallee report;
  bool changed = false;
  for (llvm::Function &f : m) {
    if (f.isDeclaration())
      continue;
    std::vector<std::pair<llvm::BasicBlock *, std::string>> endless;
    {
      llvm::DominatorTree dt(f);
      llvm::LoopInfo loops(dt);
      for (llvm::Loop *loop : loops.getLoopsInPreorder())
        if (loop->hasNoExitBlocks() && onlyPureCalls(*loop))
          endless.emplace_back(loop->getHeader(), whereIs(*loop));
    }
    if (endless.empty())
      continue;
    if (!report) {
      report = declareHostFunction(m, HostFunction::ENDLESS_LOOP);
      if (auto *decl = llvm::dyn_cast<llvm::Function>(report.getCallee())) {
        decl->setDoesNotReturn();
        decl->setDoesNotThrow();
      }
    }
    for (auto &[header, where] : endless) {
      // The header keeps its phis; entering the loop is the report. What followed them
      // (and the rest of the loop) becomes unreachable.
      llvm::Instruction *first = &*header->getFirstInsertionPt();
      llvm::DebugLoc loc = first->getDebugLoc();
      header->splitBasicBlock(first);
      header->getTerminator()->eraseFromParent();
      llvm::IRBuilder<> b(header);
      if (loc)
        b.SetCurrentDebugLocation(loc);
      llvm::CallInst *call = b.CreateCall(report, {b.CreateGlobalStringPtr(where, "endless.loop")});
      call->setDoesNotReturn();
      call->setDoesNotThrow();
      b.CreateUnreachable();
    }
    llvm::removeUnreachableBlocks(f);
    changed = true;
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace fibercl::compiler

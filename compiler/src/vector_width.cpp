// Streaming kernels' vector width (vector_width.hpp).
#include "vector_width.hpp"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

#include "fibercl/compiler/compiler.hpp"
#include "passes/passes.hpp"

namespace fibercl::compiler {
namespace {

// Arithmetic operations per global access at most, for a kernel to stream memory.
constexpr unsigned kOpsPerAccess = 2;
// What a call of a library function (a math function) counts as.
constexpr unsigned kCallOps = 16;

bool hasCycle(const llvm::BasicBlock &bb, llvm::SmallPtrSetImpl<const llvm::BasicBlock *> &onPath,
              llvm::SmallPtrSetImpl<const llvm::BasicBlock *> &done) {
  if (done.contains(&bb))
    return false;
  if (!onPath.insert(&bb).second)
    return true;
  for (const llvm::BasicBlock *next : llvm::successors(&bb))
    if (hasCycle(*next, onPath, done))
      return true;
  onPath.erase(&bb);
  done.insert(&bb);
  return false;
}

bool isGlobal(const llvm::Value *pointer) {
  unsigned as = pointer->getType()->getPointerAddressSpace();
  return as == kGlobalAddressSpace || as == kConstantAddressSpace || as == kGenericAddressSpace;
}

} // namespace

bool streamsMemory(const llvm::Function &body) {
  if (body.isDeclaration())
    return false;
  llvm::SmallPtrSet<const llvm::BasicBlock *, 16> onPath, done;
  if (hasCycle(body.getEntryBlock(), onPath, done))
    return false;
  unsigned accesses = 0, ops = 0;
  for (const llvm::BasicBlock &bb : body)
    for (const llvm::Instruction &i : bb) {
      if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&i))
        accesses += isGlobal(load->getPointerOperand());
      else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&i))
        accesses += isGlobal(store->getPointerOperand());
      else if (auto *binary = llvm::dyn_cast<llvm::BinaryOperator>(&i))
        // Adds and subtracts are mostly the index arithmetic every kernel has.
        ops += binary->getOpcode() != llvm::Instruction::Add &&
               binary->getOpcode() != llvm::Instruction::Sub;
      else if (llvm::isa<llvm::UnaryOperator>(i))
        ++ops;
      else if (auto *call = llvm::dyn_cast<llvm::CallBase>(&i)) {
        if (!llvm::isa<llvm::IntrinsicInst>(call))
          ops += kCallOps;
        else if (call->getType()->isFPOrFPVectorTy())
          ++ops; // fma, fmuladd, sqrt, ...
      }
    }
  return accesses > 0 && ops <= kOpsPerAccess * accesses;
}

void narrowStreamingKernels(llvm::Module &m, const std::vector<KernelInfo> &kernels,
                            const llvm::TargetMachine &tm) {
  if (!tm.getTargetFeatureString().contains("+avx512f"))
    return; // 256 bits or fewer already
  for (const KernelInfo &k : kernels) {
    llvm::Function *body = findBody(m, k.name);
    llvm::Function *group = m.getFunction(workGroupName(k.name));
    if (!body || !group || k.usesBarriers || k.yields || k.cooperative || !streamsMemory(*body))
      continue;
    body->addFnAttr("prefer-vector-width", "256");
    group->addFnAttr("prefer-vector-width", "256");
  }
}

} // namespace fibercl::compiler

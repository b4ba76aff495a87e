// AddressSpaceAliasPass (passes.hpp): __global (and __constant) memory never overlaps
// a group's __local memory, but on x86 every address space is one flat space and LLVM
// assumes they may alias: a loop reading a global buffer into a local tile would need
// run-time overlap checks, which LLVM cannot emit across address spaces, so it was
// not vectorised. Scoped no-alias metadata states the fact: every access to global
// memory is in the "global" scope and does not alias the "local" scope, and the
// reverse. Generic (addrspace 4) and private accesses get none: they may be either.
// The slots barrier regions keep values in (kFrameSlotMetadata) are a third scope:
// the group's frames are the runtime's, never a buffer or local memory.
#include "passes.hpp"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

namespace fibercl::compiler {
namespace {

constexpr unsigned kConstantAddressSpace = 2;

// The address space of the memory `i` accesses, or ~0u if it is not a plain access.
unsigned accessedAddressSpace(const llvm::Instruction &i) {
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&i))
    return load->getPointerAddressSpace();
  if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&i))
    return store->getPointerAddressSpace();
  if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&i))
    return rmw->getPointerAddressSpace();
  if (auto *cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&i))
    return cas->getPointerAddressSpace();
  return ~0u;
}

void addScopes(llvm::Instruction &i, llvm::MDNode *scope, llvm::MDNode *notScope) {
  i.setMetadata(llvm::LLVMContext::MD_alias_scope,
                llvm::MDNode::concatenate(i.getMetadata(llvm::LLVMContext::MD_alias_scope), scope));
  i.setMetadata(llvm::LLVMContext::MD_noalias,
                llvm::MDNode::concatenate(i.getMetadata(llvm::LLVMContext::MD_noalias), notScope));
}

} // namespace

llvm::PreservedAnalyses AddressSpaceAliasPass::run(llvm::Module &m,
                                                   llvm::ModuleAnalysisManager &) {
  llvm::LLVMContext &c = m.getContext();
  llvm::MDBuilder md(c);
  llvm::MDNode *domain = md.createAnonymousAliasScopeDomain("fibercl.address-spaces");
  llvm::MDNode *localScope = md.createAnonymousAliasScope(domain, "local");
  llvm::MDNode *globalScope = md.createAnonymousAliasScope(domain, "global");
  llvm::MDNode *frameScope = md.createAnonymousAliasScope(domain, "frames");
  llvm::MDNode *local = llvm::MDNode::get(c, {localScope});
  llvm::MDNode *global = llvm::MDNode::get(c, {globalScope});
  llvm::MDNode *frames = llvm::MDNode::get(c, {frameScope});
  llvm::MDNode *notLocal = llvm::MDNode::get(c, {globalScope, frameScope});
  llvm::MDNode *notGlobal = llvm::MDNode::get(c, {localScope, frameScope});
  llvm::MDNode *notFrames = llvm::MDNode::get(c, {localScope, globalScope});
  unsigned frameKind = c.getMDKindID(kFrameSlotMetadata);
  for (llvm::Function &f : m)
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &i : bb) {
        unsigned as = accessedAddressSpace(i);
        if (as == kGlobalAddressSpace || as == kConstantAddressSpace)
          addScopes(i, global, notGlobal);
        else if (as == kLocalAddressSpace)
          addScopes(i, local, notLocal);
        else if (i.getMetadata(frameKind))
          addScopes(i, frames, notFrames);
      }
  return llvm::PreservedAnalyses::none();
}

} // namespace fibercl::compiler

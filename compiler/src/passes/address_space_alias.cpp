// AddressSpaceAliasPass (passes.hpp): __global (and __constant) memory never overlaps
// a group's __local memory, but on x86 every address space is one flat space and LLVM
// assumes they may alias: a loop reading a global buffer into a local tile would need
// run-time overlap checks, which LLVM cannot emit across address spaces, so it was
// not vectorised. Scoped no-alias metadata states the fact: every access to global
// memory is in the "global" scope and does not alias the "local" scope, and the
// reverse. Generic (addrspace 4) and private accesses get none: they may be either.
// The frames barrier regions keep values in (kFrameSlotMetadata) are three more scopes
// -- per-work-item arrays, and the two copies of the uniform values (one read, one
// written in a round) -- the runtime's memory, never a buffer or local memory.
#include "passes.hpp"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

#include <iterator>
#include <vector>

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
  // Disjoint kinds of memory: each access is in its kind's scope and does not alias
  // the others'.
  const char *kinds[] = {"global", "local", "items", "uniform.in", "uniform.out"};
  constexpr size_t kKinds = std::size(kinds);
  llvm::MDNode *scopes[kKinds], *own[kKinds], *others[kKinds];
  for (size_t k = 0; k < kKinds; ++k)
    scopes[k] = md.createAnonymousAliasScope(domain, kinds[k]);
  for (size_t k = 0; k < kKinds; ++k) {
    std::vector<llvm::Metadata *> rest;
    for (size_t j = 0; j < kKinds; ++j)
      if (j != k)
        rest.push_back(scopes[j]);
    own[k] = llvm::MDNode::get(c, {scopes[k]});
    others[k] = llvm::MDNode::get(c, rest);
  }
  unsigned frameKind = c.getMDKindID(kFrameSlotMetadata);
  for (llvm::Function &f : m)
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &i : bb) {
        unsigned as = accessedAddressSpace(i);
        size_t k = kKinds;
        if (as == kGlobalAddressSpace || as == kConstantAddressSpace)
          k = 0;
        else if (as == kLocalAddressSpace)
          k = 1;
        else if (llvm::MDNode *part = i.getMetadata(frameKind))
          for (size_t j = 2; j < kKinds; ++j)
            if (llvm::cast<llvm::MDString>(part->getOperand(0))->getString() == kinds[j])
              k = j;
        if (k < kKinds)
          addScopes(i, own[k], others[k]);
      }
  return llvm::PreservedAnalyses::none();
}

} // namespace fibercl::compiler

// AddressSpaceAliasPass (passes.hpp): __global (and __constant) memory never overlaps
// a group's __local memory, but on x86 every address space is one flat space and LLVM
// assumes they may alias: a loop reading a global buffer into a local tile would need
// run-time overlap checks, which LLVM cannot emit across address spaces, so it was
// not vectorised. Scoped no-alias metadata states the fact: every access to global
// memory is in the "global" scope and does not alias the "local" scope, and the
// reverse. Generic (addrspace 4) and private accesses get none: they may be either.
// The frames barrier regions keep values in (kFrameSlotMetadata) are the runtime's
// memory, never a buffer or local memory: per-work-item arrays and uniform values are
// two more scopes; the uniform values' two copies (one read, one written in a round)
// are told apart per inlined region (roundScopes).
#include "passes.hpp"
#include "spin_loops.hpp"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

#include <iterator>
#include <vector>

namespace fibercl::compiler {
namespace {

// The address space of the memory `i` accesses, or ~0u if it is not a plain access
// (memory intrinsics touch two pointers and are left untagged).
unsigned accessedAddressSpace(const llvm::Instruction &i) {
  const llvm::Value *pointer = accessedPointer(i);
  if (!pointer || llvm::isa<llvm::AnyMemIntrinsic>(i))
    return ~0u;
  return pointer->getType()->getPointerAddressSpace();
}

void addScopes(llvm::Instruction &i, llvm::MDNode *scope, llvm::MDNode *notScope) {
  i.setMetadata(llvm::LLVMContext::MD_alias_scope,
                llvm::MDNode::concatenate(i.getMetadata(llvm::LLVMContext::MD_alias_scope), scope));
  i.setMetadata(llvm::LLVMContext::MD_noalias,
                llvm::MDNode::concatenate(i.getMetadata(llvm::LLVMContext::MD_noalias), notScope));
}

} // namespace

llvm::Instruction *markFrameSlot(llvm::Instruction *i, const char *part) {
  llvm::LLVMContext &c = i->getContext();
  i->setMetadata(kFrameSlotMetadata, llvm::MDNode::get(c, {llvm::MDString::get(c, part)}));
  return i;
}

llvm::PreservedAnalyses AddressSpaceAliasPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  llvm::LLVMContext &c = m.getContext();
  llvm::MDBuilder md(c);
  llvm::MDNode *domain = md.createAnonymousAliasScopeDomain("fibercl.address-spaces");
  // Disjoint kinds of memory: each access is in its kind's scope and does not alias
  // the others'. The two copies of the uniform values are disjoint only within one
  // round, i.e. within one inlined instance of a region: that pair is tagged before
  // inlining (the inliner gives each instance its own copy of the scopes); the
  // kinds that never overlap anywhere are tagged after it, in one domain.
  std::vector<const char *> kinds;
  if (roundScopes)
    kinds = {"uniform.in", "uniform.out"};
  else
    kinds = {"global", "local", "items", "uniform"};
  size_t n = kinds.size();
  std::vector<llvm::MDNode *> scopes(n), own(n), others(n);
  for (size_t k = 0; k < n; ++k)
    scopes[k] = md.createAnonymousAliasScope(domain, kinds[k]);
  for (size_t k = 0; k < n; ++k) {
    std::vector<llvm::Metadata *> rest;
    for (size_t j = 0; j < n; ++j)
      if (j != k)
        rest.push_back(scopes[j]);
    own[k] = llvm::MDNode::get(c, {scopes[k]});
    others[k] = llvm::MDNode::get(c, rest);
  }
  auto kindOf = [&](llvm::Instruction &i) -> size_t {
    unsigned as = accessedAddressSpace(i);
    llvm::MDNode *part = i.getMetadata(c.getMDKindID(kFrameSlotMetadata));
    llvm::StringRef frame =
        part ? llvm::cast<llvm::MDString>(part->getOperand(0))->getString() : "";
    if (roundScopes)
      return frame == "uniform.in" ? 0 : frame == "uniform.out" ? 1 : n;
    if (as == kGlobalAddressSpace || as == kConstantAddressSpace)
      return 0;
    if (as == kLocalAddressSpace)
      return 1;
    if (frame == "items")
      return 2;
    if (frame.starts_with("uniform"))
      return 3;
    return n;
  };
  for (llvm::Function &f : m)
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &i : bb)
        if (size_t k = kindOf(i); k < n)
          addScopes(i, own[k], others[k]);
  return llvm::PreservedAnalyses::none();
}

} // namespace fibercl::compiler

// LocalMemoryPass (passes.hpp): kernel-scope __local variables (address space 3 in
// Clang's SPIR-like numbering) get offsets in the work-group's local block. Each
// work-group that is occupant at the same time has its own block, so the variables
// cannot stay globals. The scratch area of the work-group collective functions (the
// builtins library's marker __fibercl_collective_scratch) is placed in the same block.
#include "passes.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/ReplaceConstant.h>

#include <cstddef>
#include <set>

#include "fibercl/kernel_abi.h"

namespace fibercl::compiler {
namespace {
constexpr uint64_t kMinAlign = 16;
} // namespace

llvm::PreservedAnalyses LocalMemoryPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  const llvm::DataLayout &dl = m.getDataLayout();
  std::vector<llvm::GlobalVariable *> locals;
  for (llvm::GlobalVariable &g : m.globals())
    if (g.getAddressSpace() == kLocalAddressSpace)
      locals.push_back(&g);

  llvm::Function *scratchMarker = m.getFunction(kScratchMarker);

  for (llvm::Function &body : m) {
    if (!body.hasFnAttribute(kKernelAttr))
      continue;
    unsigned n = body.arg_size() - 4;
    llvm::Value *base = nullptr;
    auto localBlock = [&]() -> llvm::Value * {
      if (!base) {
        llvm::IRBuilder<> b(&*body.getEntryBlock().getFirstInsertionPt());
        llvm::Value *field =
            b.CreateConstGEP1_64(b.getInt8Ty(), body.getArg(n), offsetof(fcl_group_ctx, local_mem));
        llvm::Value *addr = b.CreateLoad(b.getInt64Ty(), field, "fibercl.local_mem");
        base = b.CreateIntToPtr(addr, llvm::PointerType::get(m.getContext(), kLocalAddressSpace));
      }
      return base;
    };
    // Places `bytes` at the next offset aligned to `align` and returns its address.
    uint64_t size = 0;
    auto place = [&](uint64_t bytes, uint64_t align, const llvm::Twine &name) {
      llvm::Value *block = localBlock();
      size = (size + align - 1) / align * align;
      llvm::IRBuilder<> b(llvm::cast<llvm::Instruction>(block)->getNextNode());
      llvm::Value *p = b.CreateConstGEP1_64(b.getInt8Ty(), block, size, name);
      size += bytes;
      return p;
    };

    if (!locals.empty()) {
      std::vector<llvm::Constant *> consts(locals.begin(), locals.end());
      llvm::convertUsersOfConstantsToInstructions(consts, &body);
      for (llvm::GlobalVariable *g : locals) {
        bool used = false;
        for (llvm::User *u : g->users())
          if (auto *i = llvm::dyn_cast<llvm::Instruction>(u))
            used |= i->getFunction() == &body;
        if (!used)
          continue;
        uint64_t align = std::max<uint64_t>(kMinAlign, g->getAlign().valueOrOne().value());
        llvm::Value *p = place(dl.getTypeAllocSize(g->getValueType()), align, g->getName());
        g->replaceUsesWithIf(p, [&](llvm::Use &use) {
          auto *i = llvm::dyn_cast<llvm::Instruction>(use.getUser());
          return i && i->getFunction() == &body;
        });
      }
    }

    // The work-group collective functions' scratch area, shared by all their calls.
    if (scratchMarker) {
      std::vector<llvm::CallInst *> calls;
      for (llvm::User *u : scratchMarker->users())
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(u))
          if (call->getFunction() == &body)
            calls.push_back(call);
      if (!calls.empty()) {
        llvm::Value *scratch =
            place(FIBERCL_COLLECTIVE_SCRATCH_BYTES, kMinAlign, "fibercl.wg_scratch");
        for (llvm::CallInst *call : calls) {
          call->replaceAllUsesWith(scratch);
          call->eraseFromParent();
        }
      }
    }
    body.addFnAttr(kLocalSizeAttr, std::to_string(size));
  }
  return llvm::PreservedAnalyses::none();
}

} // namespace fibercl::compiler

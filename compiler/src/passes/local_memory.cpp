// LocalMemoryPass (passes.hpp): kernel-scope __local variables (address space 3 in
// Clang's SPIR-like numbering) get offsets in the work-group's local block. Each
// work-group that is occupant at the same time has its own block, so the variables
// cannot stay globals.
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

  for (llvm::Function &body : m) {
    if (!body.hasFnAttribute(kKernelAttr))
      continue;
    uint64_t size = 0;
    if (!locals.empty()) {
      std::vector<llvm::Constant *> consts(locals.begin(), locals.end());
      llvm::convertUsersOfConstantsToInstructions(consts, &body);

      unsigned n = body.arg_size() - 4;
      llvm::IRBuilder<> b(&*body.getEntryBlock().getFirstInsertionPt());
      llvm::Value *base = nullptr;
      for (llvm::GlobalVariable *g : locals) {
        bool used = false;
        for (llvm::User *u : g->users())
          if (auto *i = llvm::dyn_cast<llvm::Instruction>(u))
            used |= i->getFunction() == &body;
        if (!used)
          continue;
        if (!base) {
          llvm::Value *field = b.CreateConstGEP1_64(b.getInt8Ty(), body.getArg(n),
                                                    offsetof(fcl_group_ctx, local_mem));
          llvm::Value *addr = b.CreateLoad(b.getInt64Ty(), field, "fibercl.local_mem");
          base = b.CreateIntToPtr(addr, llvm::PointerType::get(m.getContext(),
                                                               kLocalAddressSpace));
        }
        uint64_t align = std::max<uint64_t>(kMinAlign, g->getAlign().valueOrOne().value());
        size = (size + align - 1) / align * align;
        llvm::Value *p = b.CreateConstGEP1_64(b.getInt8Ty(), base, size, g->getName());
        size += dl.getTypeAllocSize(g->getValueType());
        g->replaceUsesWithIf(p, [&](llvm::Use &use) {
          auto *i = llvm::dyn_cast<llvm::Instruction>(use.getUser());
          return i && i->getFunction() == &body;
        });
      }
    }
    body.addFnAttr(kLocalSizeAttr, std::to_string(size));
  }
  return llvm::PreservedAnalyses::none();
}

} // namespace fibercl::compiler

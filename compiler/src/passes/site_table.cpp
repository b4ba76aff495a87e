// SiteTable (passes.hpp): numbering of barrier and yield sites with their source lines.
#include "passes.hpp"

#include "frontend.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instruction.h>
#include <llvm/IR/Module.h>

namespace fibercl::compiler {

std::string sourceFileOf(const llvm::DILocation &loc) {
  std::string file = loc.getFilename().str();
  std::string dir = std::string(kVirtualSourceDir) + "/";
  return file.rfind(dir, 0) == 0 ? file.substr(dir.size()) : file;
}

uint32_t SiteTable::add(llvm::Function &body, const llvm::Instruction *at, SiteInfo::Kind kind,
                        bool waiting) {
  SiteInfo site;
  site.id = nextId++;
  site.kind = kind;
  site.waiting = waiting;
  if (at) {
    if (const llvm::DILocation *loc = at->getDebugLoc().get()) {
      site.line = loc->getLine();
      site.file = sourceFileOf(*loc);
      if (const llvm::DISubprogram *sp = loc->getScope()->getSubprogram()) {
        site.function = sp->getName().str();
        auto p = progressOf.find(site.function);
        if (p != progressOf.end())
          site.progress = p->second;
      }
    }
  }
  std::string kernel = body.getFnAttribute(kKernelAttr).getValueAsString().str();
  byKernel[kernel].push_back(site);
  return site.id;
}

uint32_t SiteTable::addCheck(llvm::Function &body, const llvm::Instruction *at, SiteInfo::Kind kind,
                             std::string object, uint64_t objectBytes) {
  uint32_t id = add(body, at, kind);
  SiteInfo &site = byKernel[body.getFnAttribute(kKernelAttr).getValueAsString().str()].back();
  site.object = std::move(object);
  site.objectBytes = objectBytes;
  return id;
}

void readProgressAnnotations(llvm::Module &m, SiteTable &sites) {
  llvm::GlobalVariable *list = m.getNamedGlobal("llvm.global.annotations");
  if (!list || !list->hasInitializer())
    return;
  auto *entries = llvm::dyn_cast<llvm::ConstantArray>(list->getInitializer());
  if (!entries)
    return;
  const llvm::StringRef prefix = "fibercl.progress:";
  for (const llvm::Use &u : entries->operands()) {
    auto *entry = llvm::dyn_cast<llvm::ConstantStruct>(u.get());
    if (!entry || entry->getNumOperands() < 2)
      continue;
    auto *fn = llvm::dyn_cast<llvm::Function>(entry->getOperand(0)->stripPointerCasts());
    auto *text = llvm::dyn_cast<llvm::GlobalVariable>(entry->getOperand(1)->stripPointerCasts());
    if (!fn || !text || !text->hasInitializer())
      continue;
    auto *data = llvm::dyn_cast<llvm::ConstantDataArray>(text->getInitializer());
    if (!data || !data->isCString() || !data->getAsCString().starts_with(prefix))
      continue;
    sites.progressOf[fn->getName().str()] = data->getAsCString().substr(prefix.size()).str();
  }
  // The list would keep the annotated functions alive after inlining, with the
  // builtins' markers in them.
  list->eraseFromParent();
}

} // namespace fibercl::compiler

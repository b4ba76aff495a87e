// SiteTable (passes.hpp): numbering of barrier and yield sites with their source lines.
#include "passes.hpp"

#include "frontend.hpp"

#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instruction.h>

namespace fibercl::compiler {

uint32_t SiteTable::add(llvm::Function &body, const llvm::Instruction *at,
                        SiteInfo::Kind kind, bool waiting) {
  SiteInfo site;
  site.id = nextId++;
  site.kind = kind;
  site.waiting = waiting;
  if (at) {
    if (const llvm::DILocation *loc = at->getDebugLoc().get()) {
      site.line = loc->getLine();
      site.file = loc->getFilename().str();
      std::string dir = std::string(kVirtualSourceDir) + "/";
      if (site.file.rfind(dir, 0) == 0)
        site.file = site.file.substr(dir.size()); // "<source>" or a header's name
    }
  }
  std::string kernel = body.getFnAttribute(kKernelAttr).getValueAsString().str();
  byKernel[kernel].push_back(site);
  return site.id;
}

} // namespace fibercl::compiler

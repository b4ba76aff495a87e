// WorkGroupFunctionPass (passes.hpp): the entry point the runtime calls per work-group.
//
// Barrier-free kernel K:
//   __fibercl_wg_K(args, ctx) { load K's arguments once;
//     for z, y, x over ctx->local_size: K.fibercl.body(arguments, ctx, x, y, z) }
// The body is inlined, so x is an induction variable of a plain loop and LLVM's loop
// vectoriser runs across work-items. No fiber, no stack.
//
// Kernel K with barriers: a loop over its barrier regions (region_driver.cpp), or,
// when the body cannot be split (barrier_regions.hpp says when),
//   __fibercl_wg_K(args, ctx) { __fibercl_host_run_items(ctx, K.fibercl.item, args) }
// and the runtime runs K.fibercl.item for each work-item, switching fibers at barriers.
#include "passes.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <optional>

#include "barrier_decisions.hpp"
#include "barrier_regions.hpp"
#include "fibercl/compiler/debug.hpp"
#include "fibercl/kernel_abi.h"
#include "host_functions.hpp"
#include "work_item_loop.hpp"

namespace fibercl::compiler {
namespace {

void buildLoopNest(llvm::Function &wg, llvm::Function &body, llvm::DILocation *loc) {
  llvm::Value *args = wg.getArg(0), *ctx = wg.getArg(1);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(wg.getContext(), "entry", &wg));
  b.SetCurrentDebugLocation(loc);
  std::vector<llvm::Value *> values = loadArguments(b, body, args, ctx);
  llvm::Value *size[3];
  loadLocalSize(b, ctx, size);
  emitWorkItemLoop(
      b, size,
      [&](llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *y, llvm::Value *z, llvm::Value *) {
        std::vector<llvm::Value *> callArgs = values;
        callArgs.insert(callArgs.end(), {ctx, x, y, z});
        b.CreateCall(&body, callArgs);
      });
  b.CreateRetVoid();
}

void buildItemRunner(llvm::Module &m, llvm::Function &wg, llvm::Function &body,
                     llvm::StringRef kernelName, llvm::DILocation *loc) {
  llvm::LLVMContext &c = m.getContext();
  llvm::Type *ptr = llvm::PointerType::get(c, 0);
  llvm::Type *i32 = llvm::Type::getInt32Ty(c);
  llvm::Type *voidTy = llvm::Type::getVoidTy(c);

  auto *itemType = llvm::FunctionType::get(voidTy, {ptr, ptr, i32, i32, i32}, false);
  auto *item =
      llvm::Function::Create(itemType, llvm::GlobalValue::InternalLinkage, itemName(kernelName), m);
  item->addParamAttr(1, llvm::Attribute::NoAlias);
  llvm::DILocation *itemLoc = giveSubprogram(*item, body.getSubprogram());
  {
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(c, "entry", item));
    b.SetCurrentDebugLocation(itemLoc);
    std::vector<llvm::Value *> callArgs = loadArguments(b, body, item->getArg(0), item->getArg(1));
    callArgs.insert(callArgs.end(),
                    {item->getArg(1), item->getArg(2), item->getArg(3), item->getArg(4)});
    b.CreateCall(&body, callArgs);
    b.CreateRetVoid();
  }

  llvm::FunctionCallee runItems = declareHostFunction(m, HostFunction::RUN_ITEMS);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(c, "entry", &wg));
  b.SetCurrentDebugLocation(loc);
  b.CreateCall(runItems, {wg.getArg(1), item, wg.getArg(0)});
  b.CreateRetVoid();
}

// Regions when the body can be split at its barriers, else fibers; FIBERCL_DEBUG=barriers
// says which and why.
void buildBarrierEntry(llvm::Module &m, llvm::Function &wg, llvm::Function &body,
                       llvm::StringRef kernelName, llvm::DILocation *loc) {
  std::string why = fibersRequiredFor(body);
  std::optional<RegionPlan> plan;
  if (why.empty())
    plan = planBarrierRegions(body, why);
  if (plan) {
    for (RegionPlan::Region &region : plan->regions)
      dropBarrierDecisions(*region.step);
    buildRegionDriver(m, wg, body, *plan, barrierDecisionSites(body), loc);
    dropBarrierDecisions(body);
    body.addFnAttr(kRegionsAttr, std::to_string(plan->regions.size()));
  } else {
    lowerBarrierDecisions(body);
    buildItemRunner(m, wg, body, kernelName, loc);
  }
  if (!debugChannel("barriers"))
    return;
  if (plan)
    llvm::errs() << "FiberCL: kernel '" << kernelName << "': barriers as " << plan->regions.size()
                 << " regions (" << plan->spilledValues << " values stored (" << plan->uniformValues
                 << " once per group), " << plan->rematerialisedValues << " recomputed, "
                 << plan->movedArrays << " private arrays moved; " << plan->bytesPerItem()
                 << " bytes per work-item)\n";
  else
    llvm::errs() << "FiberCL: kernel '" << kernelName << "': barriers on fibers: " << why << "\n";
}

} // namespace

llvm::PreservedAnalyses WorkGroupFunctionPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  llvm::LLVMContext &c = m.getContext();
  llvm::Type *ptr = llvm::PointerType::get(c, 0);
  auto *wgType = llvm::FunctionType::get(llvm::Type::getVoidTy(c), {ptr, ptr}, false);

  std::vector<llvm::Function *> bodies;
  for (llvm::Function &f : m)
    if (f.hasFnAttribute(kKernelAttr))
      bodies.push_back(&f);

  std::vector<llvm::Function *> kernels;
  for (llvm::Function *body : bodies) {
    std::string name = body->getFnAttribute(kKernelAttr).getValueAsString().str();
    // A vector copy (sub_group_vectors.cpp) is the entry point K.sgvec.
    bool vectorCopy = body->hasFnAttribute(kSubGroupVectorsAttr);
    auto *wg = llvm::Function::Create(wgType, llvm::GlobalValue::ExternalLinkage,
                                      workGroupName(vectorCopy ? name + ".sgvec" : name), m);
    if (vectorCopy)
      wg->addFnAttr(body->getFnAttribute(kSubGroupVectorsAttr));
    wg->addParamAttr(0, llvm::Attribute::NoAlias);
    wg->addParamAttr(1, llvm::Attribute::NoAlias);
    // The group's ctx is never written while the group runs (kernel_abi.h): its fields
    // can be loaded once, and ahead of the branches that use them.
    wg->addParamAttr(1, llvm::Attribute::ReadOnly);
    wg->addParamAttr(1, llvm::Attribute::getWithAlignment(c, llvm::Align(8)));
    wg->addParamAttr(1, llvm::Attribute::getWithDereferenceableBytes(c, sizeof(fcl_group_ctx)));
    if (body->hasFnAttribute(kSerialItemsAttr))
      wg->addFnAttr(kSerialItemsAttr);
    llvm::DILocation *loc = giveSubprogram(*wg, body->getSubprogram());
    if (body->hasFnAttribute(kBarriersAttr))
      buildBarrierEntry(m, *wg, *body, name, loc);
    else
      buildLoopNest(*wg, *body, loc);
    body->addFnAttr(llvm::Attribute::AlwaysInline);
    if (llvm::Function *kernel = m.getFunction(name);
        kernel && std::find(kernels.begin(), kernels.end(), kernel) == kernels.end())
      kernels.push_back(kernel);
  }

  // The original kernels have been inlined into the bodies; what is left of them is
  // dead, and the spir_kernel calling convention cannot be compiled for x86.
  for (llvm::Function *kernel : kernels) {
    if (kernel->use_empty()) {
      kernel->eraseFromParent();
    } else {
      kernel->setCallingConv(llvm::CallingConv::C);
      kernel->setLinkage(llvm::GlobalValue::InternalLinkage);
    }
  }
  std::vector<llvm::GlobalVariable *> deadLocals;
  for (llvm::GlobalVariable &g : m.globals())
    if (g.getAddressSpace() == kLocalAddressSpace) {
      g.removeDeadConstantUsers();
      if (g.use_empty())
        deadLocals.push_back(&g);
    }
  for (llvm::GlobalVariable *g : deadLocals)
    g->eraseFromParent();
  return llvm::PreservedAnalyses::none();
}

} // namespace fibercl::compiler

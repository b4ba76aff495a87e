// WorkGroupFunctionPass (passes.hpp): the entry point the runtime calls per work-group.
//
// Barrier-free kernel K:
//   __fibercl_wg_K(args, ctx) { load K's arguments once;
//     for z, y, x over ctx->local_size: K.fibercl.body(arguments, ctx, x, y, z) }
// The body is inlined, so x is an induction variable of a plain loop and LLVM's loop
// vectoriser runs across work-items. No fiber, no stack.
//
// Kernel K with barriers:
//   __fibercl_wg_K(args, ctx) { __fibercl_host_run_items(ctx, K.fibercl.item, args) }
// and the runtime runs K.fibercl.item for each work-item, switching fibers at barriers.
#include "passes.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <cstddef>

#include "fibercl/kernel_abi.h"

namespace fibercl::compiler {
namespace {


llvm::Value *loadCtxField(llvm::IRBuilder<> &b, llvm::Value *ctx, size_t offset,
                          const char *name) {
  llvm::Value *p = b.CreateConstGEP1_64(b.getInt8Ty(), ctx, offset);
  return b.CreateLoad(b.getInt64Ty(), p, name);
}

// Loads the kernel's arguments from the `args` array (layout in kernel_abi.h).
std::vector<llvm::Value *> loadArguments(llvm::IRBuilder<> &b, llvm::Function &body,
                                         llvm::Value *args, llvm::Value *ctx) {
  llvm::LLVMContext &c = b.getContext();
  llvm::Type *ptr = llvm::PointerType::get(c, 0);
  std::vector<llvm::Value *> values;
  llvm::Value *localBase = nullptr;
  for (unsigned i = 0, n = body.arg_size() - 4; i < n; ++i) {
    llvm::Argument &param = *body.getArg(i);
    llvm::Value *slot = b.CreateLoad(ptr, b.CreateConstGEP1_64(ptr, args, i));
    llvm::Type *type = param.getType();
    llvm::Value *v;
    if (type->isPointerTy() && type->getPointerAddressSpace() == kLocalAddressSpace) {
      if (!localBase)
        localBase = b.CreateIntToPtr(
            loadCtxField(b, ctx, offsetof(fcl_group_ctx, local_mem), "local_mem"),
            llvm::PointerType::get(c, kLocalAddressSpace));
      llvm::Value *offset = b.CreateLoad(b.getInt64Ty(), slot);
      v = b.CreateGEP(b.getInt8Ty(), localBase, offset);
    } else if (body.getAttributes().hasParamAttr(i, kByValAttr)) {
      v = slot; // the body's call to the kernel copies it per work-item
    } else {
      auto *load = b.CreateLoad(type, slot);
      load->setAlignment(llvm::Align(1));
      v = load;
    }
    v->setName(param.getName());
    values.push_back(v);
  }
  return values;
}

void buildLoopNest(llvm::Function &wg, llvm::Function &body, llvm::DILocation *loc) {
  llvm::LLVMContext &c = wg.getContext();
  llvm::Value *args = wg.getArg(0), *ctx = wg.getArg(1);
  auto *entry = llvm::BasicBlock::Create(c, "entry", &wg);
  llvm::IRBuilder<> b(entry);
  b.SetCurrentDebugLocation(loc);
  std::vector<llvm::Value *> values = loadArguments(b, body, args, ctx);
  llvm::Value *size[3];
  for (int d = 0; d < 3; ++d)
    size[d] = b.CreateTrunc(
        loadCtxField(b, ctx, offsetof(fcl_group_ctx, local_size) + 8 * d, "local_size"),
        b.getInt32Ty());

  // Do-while loops: every dimension of a work-group has at least one work-item.
  auto *zLoop = llvm::BasicBlock::Create(c, "z.loop", &wg);
  auto *yLoop = llvm::BasicBlock::Create(c, "y.loop", &wg);
  auto *xLoop = llvm::BasicBlock::Create(c, "x.loop", &wg);
  auto *yLatch = llvm::BasicBlock::Create(c, "y.latch", &wg);
  auto *zLatch = llvm::BasicBlock::Create(c, "z.latch", &wg);
  auto *exit = llvm::BasicBlock::Create(c, "exit", &wg);
  b.CreateBr(zLoop);

  b.SetInsertPoint(zLoop);
  llvm::PHINode *z = b.CreatePHI(b.getInt32Ty(), 2, "z");
  b.CreateBr(yLoop);
  b.SetInsertPoint(yLoop);
  llvm::PHINode *y = b.CreatePHI(b.getInt32Ty(), 2, "y");
  b.CreateBr(xLoop);
  b.SetInsertPoint(xLoop);
  llvm::PHINode *x = b.CreatePHI(b.getInt32Ty(), 2, "x");
  std::vector<llvm::Value *> callArgs = values;
  callArgs.insert(callArgs.end(), {ctx, x, y, z});
  b.CreateCall(&body, callArgs);
  llvm::Value *xNext = b.CreateNUWAdd(x, b.getInt32(1), "x.next");
  b.CreateCondBr(b.CreateICmpULT(xNext, size[0]), xLoop, yLatch);

  b.SetInsertPoint(yLatch);
  llvm::Value *yNext = b.CreateNUWAdd(y, b.getInt32(1), "y.next");
  b.CreateCondBr(b.CreateICmpULT(yNext, size[1]), yLoop, zLatch);
  b.SetInsertPoint(zLatch);
  llvm::Value *zNext = b.CreateNUWAdd(z, b.getInt32(1), "z.next");
  b.CreateCondBr(b.CreateICmpULT(zNext, size[2]), zLoop, exit);
  b.SetInsertPoint(exit);
  b.CreateRetVoid();

  z->addIncoming(b.getInt32(0), entry);
  z->addIncoming(zNext, zLatch);
  y->addIncoming(b.getInt32(0), zLoop);
  y->addIncoming(yNext, yLatch);
  x->addIncoming(b.getInt32(0), yLoop);
  x->addIncoming(xNext, xLoop);
}

void buildItemRunner(llvm::Module &m, llvm::Function &wg, llvm::Function &body,
                     llvm::StringRef kernelName, llvm::DILocation *loc) {
  llvm::LLVMContext &c = m.getContext();
  llvm::Type *ptr = llvm::PointerType::get(c, 0);
  llvm::Type *i32 = llvm::Type::getInt32Ty(c);
  llvm::Type *voidTy = llvm::Type::getVoidTy(c);

  auto *itemType = llvm::FunctionType::get(voidTy, {ptr, ptr, i32, i32, i32}, false);
  auto *item = llvm::Function::Create(itemType, llvm::GlobalValue::InternalLinkage,
                                      itemName(kernelName), m);
  item->addParamAttr(1, llvm::Attribute::NoAlias);
  llvm::DILocation *itemLoc = giveSubprogram(*item, body.getSubprogram());
  {
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(c, "entry", item));
    b.SetCurrentDebugLocation(itemLoc);
    std::vector<llvm::Value *> callArgs =
        loadArguments(b, body, item->getArg(0), item->getArg(1));
    callArgs.insert(callArgs.end(),
                    {item->getArg(1), item->getArg(2), item->getArg(3), item->getArg(4)});
    b.CreateCall(&body, callArgs);
    b.CreateRetVoid();
  }

  llvm::FunctionCallee runItems = m.getOrInsertFunction(
      FIBERCL_HOST_RUN_ITEMS, llvm::FunctionType::get(voidTy, {ptr, ptr, ptr}, false));
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(c, "entry", &wg));
  b.SetCurrentDebugLocation(loc);
  b.CreateCall(runItems, {wg.getArg(1), item, wg.getArg(0)});
  b.CreateRetVoid();
}

} // namespace

llvm::PreservedAnalyses WorkGroupFunctionPass::run(llvm::Module &m,
                                                   llvm::ModuleAnalysisManager &) {
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
    auto *wg = llvm::Function::Create(wgType, llvm::GlobalValue::ExternalLinkage,
                                      workGroupName(name), m);
    wg->addParamAttr(0, llvm::Attribute::NoAlias);
    wg->addParamAttr(1, llvm::Attribute::NoAlias);
    llvm::DILocation *loc = giveSubprogram(*wg, body->getSubprogram());
    if (body->hasFnAttribute(kBarriersAttr))
      buildItemRunner(m, *wg, *body, name, loc);
    else
      buildLoopNest(*wg, *body, loc);
    body->addFnAttr(llvm::Attribute::AlwaysInline);
    if (llvm::Function *kernel = m.getFunction(name))
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

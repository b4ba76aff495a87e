// work_item_loop.hpp: arguments, ctx fields and the work-item loop nest.
#include "work_item_loop.hpp"

#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Metadata.h>

#include "fibercl/kernel_abi.h"
#include "passes.hpp"

namespace fibercl::compiler {

llvm::Value *loadCtxField(llvm::IRBuilder<> &b, llvm::Value *ctx, size_t offset, const char *name) {
  llvm::Value *p = b.CreateConstGEP1_64(b.getInt8Ty(), ctx, offset);
  return b.CreateLoad(b.getInt64Ty(), p, name);
}

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
        localBase =
            b.CreateIntToPtr(loadCtxField(b, ctx, offsetof(fcl_group_ctx, local_mem), "local_mem"),
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

void loadLocalSize(llvm::IRBuilder<> &b, llvm::Value *ctx, llvm::Value *size[3]) {
  // 1..FIBERCL_MAX_WORK_GROUP_SIZE (the runtime refuses larger groups): what tells
  // ScalarEvolution that a work-item's index fits any integer type it is compared in.
  llvm::MDBuilder md(b.getContext());
  llvm::MDNode *range =
      md.createRange(llvm::APInt(64, 1), llvm::APInt(64, FIBERCL_MAX_WORK_GROUP_SIZE + 1));
  for (int d = 0; d < 3; ++d) {
    auto *load = llvm::cast<llvm::LoadInst>(
        loadCtxField(b, ctx, offsetof(fcl_group_ctx, local_size) + 8 * d, "local_size"));
    load->setMetadata(llvm::LLVMContext::MD_range, range);
    size[d] = b.CreateTrunc(load, b.getInt32Ty());
  }
}

void emitWorkItemLoop(llvm::IRBuilder<> &b, llvm::Value *const size[3],
                      llvm::function_ref<void(llvm::IRBuilder<> &, llvm::Value *, llvm::Value *,
                                              llvm::Value *, llvm::Value *)>
                          item) {
  emitWorkItemLoop(b, size, {},
                   [&](llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *y, llvm::Value *z,
                       llvm::Value *index,
                       std::vector<llvm::Value *> &) { item(b, x, y, z, index); });
}

std::vector<llvm::Value *> emitWorkItemLoop(
    llvm::IRBuilder<> &b, llvm::Value *const size[3], std::vector<llvm::Value *> carried,
    llvm::function_ref<void(llvm::IRBuilder<> &, llvm::Value *, llvm::Value *, llvm::Value *,
                            llvm::Value *, std::vector<llvm::Value *> &)>
        item) {
  llvm::LLVMContext &c = b.getContext();
  llvm::Function &f = *b.GetInsertBlock()->getParent();
  llvm::BasicBlock *before = b.GetInsertBlock();
  auto *zLoop = llvm::BasicBlock::Create(c, "z.loop", &f);
  auto *yLoop = llvm::BasicBlock::Create(c, "y.loop", &f);
  auto *xLoop = llvm::BasicBlock::Create(c, "x.loop", &f);
  auto *yLatch = llvm::BasicBlock::Create(c, "y.latch", &f);
  auto *zLatch = llvm::BasicBlock::Create(c, "z.latch", &f);
  auto *done = llvm::BasicBlock::Create(c, "items.done", &f);
  b.CreateBr(zLoop);

  // Per loop level: its induction variable, the linear index and the carried values.
  auto phis = [&](const char *name) {
    std::vector<llvm::PHINode *> v;
    v.push_back(b.CreatePHI(b.getInt32Ty(), 2, name));
    v.push_back(b.CreatePHI(b.getInt64Ty(), 2, std::string(name) + ".index"));
    for (llvm::Value *init : carried)
      v.push_back(b.CreatePHI(init->getType(), 2, std::string(name) + ".carried"));
    return v;
  };
  b.SetInsertPoint(zLoop);
  std::vector<llvm::PHINode *> z = phis("z");
  b.CreateBr(yLoop);
  b.SetInsertPoint(yLoop);
  std::vector<llvm::PHINode *> y = phis("y");
  b.CreateBr(xLoop);
  b.SetInsertPoint(xLoop);
  std::vector<llvm::PHINode *> x = phis("x");
  std::vector<llvm::Value *> next(x.begin() + 2, x.end());
  item(b, x[0], y[0], z[0], x[1], next);
  llvm::BasicBlock *xLatch = b.GetInsertBlock();
  llvm::Value *xNext = b.CreateNUWAdd(x[0], b.getInt32(1), "x.next");
  llvm::Value *indexNext = b.CreateNUWAdd(x[1], b.getInt64(1), "index.next");
  next.insert(next.begin(), indexNext);
  llvm::BranchInst *xBack = b.CreateCondBr(b.CreateICmpULT(xNext, size[0]), xLoop, yLatch);
  // Named for MaskedWorkItemVectorizerPass (a distinct loop id refers to itself).
  llvm::MDNode *marker = llvm::MDNode::get(c, llvm::MDString::get(c, kWorkItemLoopMetadata));
  // Vectorised, not interleaved: with AVX-512's 16 lanes an interleave of 4 leaves the
  // main vector loop to groups of 64 work-items or more, and smaller groups -- and a
  // reduction's tree steps, a stencil's halo rows -- to the 8-lane epilogue and scalar
  // code (issue 30: reduction 2.2x, stencil 1.4x, the barrier loop in groups of 32
  // 0.69x -> 1.04x PoCL; streaming and compute kernels unchanged).
  llvm::Metadata *noInterleave[] = {
      llvm::MDString::get(c, "llvm.loop.interleave.count"),
      llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(c), 1))};
  llvm::MDNode *loopId =
      llvm::MDNode::getDistinct(c, {nullptr, marker, llvm::MDNode::get(c, noInterleave)});
  loopId->replaceOperandWith(0, loopId);
  xBack->setMetadata(llvm::LLVMContext::MD_loop, loopId);

  b.SetInsertPoint(yLatch);
  llvm::Value *yNext = b.CreateNUWAdd(y[0], b.getInt32(1), "y.next");
  llvm::BranchInst *yBack = b.CreateCondBr(b.CreateICmpULT(yNext, size[1]), yLoop, zLatch);
  llvm::MDNode *rows = llvm::MDNode::getDistinct(
      c, {nullptr, llvm::MDNode::get(c, llvm::MDString::get(c, kWorkItemRowsMetadata))});
  rows->replaceOperandWith(0, rows);
  yBack->setMetadata(llvm::LLVMContext::MD_loop, rows);
  b.SetInsertPoint(zLatch);
  llvm::Value *zNext = b.CreateNUWAdd(z[0], b.getInt32(1), "z.next");
  b.CreateCondBr(b.CreateICmpULT(zNext, size[2]), zLoop, done);
  b.SetInsertPoint(done);

  // next = {index after, carried after}: the values at every latch (they all follow
  // the x loop's last work-item).
  z[0]->addIncoming(b.getInt32(0), before);
  z[0]->addIncoming(zNext, zLatch);
  y[0]->addIncoming(b.getInt32(0), zLoop);
  y[0]->addIncoming(yNext, yLatch);
  x[0]->addIncoming(b.getInt32(0), yLoop);
  x[0]->addIncoming(xNext, xLatch);
  for (size_t k = 1; k < z.size(); ++k) {
    z[k]->addIncoming(k == 1 ? b.getInt64(0) : carried[k - 2], before);
    z[k]->addIncoming(next[k - 1], zLatch);
    y[k]->addIncoming(z[k], zLoop);
    y[k]->addIncoming(next[k - 1], yLatch);
    x[k]->addIncoming(y[k], yLoop);
    x[k]->addIncoming(next[k - 1], xLatch);
  }
  return std::vector<llvm::Value *>(next.begin() + 1, next.end());
}

} // namespace fibercl::compiler

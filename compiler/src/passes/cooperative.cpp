// CooperativePass and renameCooperativeQueries (passes.hpp): cooperative kernels.
//
// Runs on the inlined bodies before SROA, while every private variable is still an
// alloca: a forked group enters the body at a fork site with its locals in memory, so
// poisoning them and copying the transmitted ones in is a memset and a memcpy each.
// Values still in registers across a fork site are demoted to the stack afterwards.
#include "passes.hpp"

#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Local.h>

#include "fibercl/kernel_abi.h"
#include "host_functions.hpp"

namespace fibercl::compiler {
namespace {

constexpr const char *kPointMarker = "__fibercl_coop_point";
constexpr const char *kTransmitAnnotation = "fibercl.transmit";
constexpr uint8_t kPoisonByte = 0xA5;

bool isTransmitAnnotation(const llvm::CallInst &call) {
  auto *intr = llvm::dyn_cast<llvm::IntrinsicInst>(&call);
  if (!intr || intr->getIntrinsicID() != llvm::Intrinsic::var_annotation)
    return false;
  auto *gv = llvm::dyn_cast<llvm::GlobalVariable>(intr->getArgOperand(1)->stripPointerCasts());
  if (!gv || !gv->hasInitializer())
    return false;
  auto *data = llvm::dyn_cast<llvm::ConstantDataArray>(gv->getInitializer());
  return data && data->isCString() && data->getAsCString() == kTransmitAnnotation;
}

struct Transmitted {
  llvm::AllocaInst *slot;
  uint64_t offset, size;
};

// Every use of an instruction that the new entry edges left undominated goes through
// a stack slot (forked groups read it poisoned, like any other private state).
void repairDominance(llvm::Function &body) {
  llvm::DominatorTree dt(body);
  std::vector<llvm::Instruction *> demote;
  for (llvm::BasicBlock &bb : body)
    for (llvm::Instruction &i : bb) {
      if (llvm::isa<llvm::AllocaInst>(i))
        continue;
      for (const llvm::Use &u : i.uses())
        if (!dt.dominates(&i, u)) {
          demote.push_back(&i);
          break;
        }
    }
  for (llvm::Instruction *i : demote) {
    if (auto *phi = llvm::dyn_cast<llvm::PHINode>(i))
      llvm::DemotePHIToStack(phi);
    else
      llvm::DemoteRegToStack(*i);
  }
}

} // namespace

void renameCooperativeQueries(llvm::Module &m) {
  bool cooperative = false;
  for (const char *name : {"offer_kill", "request_fork", "global_barrier",
                           "resizing_global_barrier", "cooperative_query"})
    if (llvm::Function *f = m.getFunction(name); f && !f->use_empty())
      cooperative = true;
  if (!cooperative)
    return;
  const std::pair<const char *, const char *> renames[] = {
      {"_Z14get_num_groupsj", "__fibercl_coop_num_groups"},
      {"_Z15get_global_sizej", "__fibercl_coop_global_size"}};
  for (auto [from, to] : renames)
    if (llvm::Function *f = m.getFunction(from); f && f->isDeclaration() && !m.getFunction(to))
      f->setName(to);
}

llvm::PreservedAnalyses CooperativePass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  llvm::LLVMContext &c = m.getContext();
  llvm::Type *i8 = llvm::Type::getInt8Ty(c), *i32 = llvm::Type::getInt32Ty(c);
  llvm::Type *i64 = llvm::Type::getInt64Ty(c);
  const llvm::DataLayout &dl = m.getDataLayout();
  llvm::Function *marker = m.getFunction(kPointMarker);
  if (!marker || marker->use_empty())
    return llvm::PreservedAnalyses::all();
  llvm::FunctionCallee hostCoop = declareHostFunction(m, HostFunction::COOP);

  for (llvm::Function &body : m) {
    if (!body.hasFnAttribute(kKernelAttr))
      continue;
    std::vector<llvm::CallInst *> points, annotations, lifetimes;
    for (llvm::BasicBlock &bb : body)
      for (llvm::Instruction &i : bb)
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(&i)) {
          if (call->getCalledFunction() == marker)
            points.push_back(call);
          else if (isTransmitAnnotation(*call))
            annotations.push_back(call);
          else if (call->isLifetimeStartOrEnd())
            lifetimes.push_back(call);
        }
    if (points.empty())
      continue;
    body.addFnAttr(kCooperativeAttr);
    const unsigned n = body.arg_size() - 4;
    llvm::Value *ctx = body.getArg(n), *x = body.getArg(n + 1), *y = body.getArg(n + 2),
                *z = body.getArg(n + 3);
    llvm::BasicBlock &entry = body.getEntryBlock();

    // The transmit frame: each transmitted variable's bytes, 16-byte aligned.
    std::vector<Transmitted> transmitted;
    uint64_t frameSize = 0;
    for (llvm::CallInst *a : annotations) {
      auto *slot = llvm::dyn_cast<llvm::AllocaInst>(a->getArgOperand(0)->stripPointerCasts());
      a->eraseFromParent();
      if (!slot || std::any_of(transmitted.begin(), transmitted.end(),
                               [&](const Transmitted &t) { return t.slot == slot; }))
        continue;
      uint64_t size =
          slot->getAllocationSize(dl).value_or(llvm::TypeSize::getFixed(0)).getFixedValue();
      transmitted.push_back({slot, frameSize, size});
      frameSize += (size + 15) & ~uint64_t(15);
    }
    llvm::IRBuilder<> eb(&entry, entry.begin());
    llvm::AllocaInst *frame =
        eb.CreateAlloca(llvm::ArrayType::get(i8, std::max<uint64_t>(frameSize, 16)));
    frame->setAlignment(llvm::Align(16));
    llvm::Value *frameBytes = llvm::ConstantInt::get(i64, frameSize);

    auto copyIntoFrame = [&](llvm::IRBuilder<> &b) {
      for (const Transmitted &t : transmitted)
        b.CreateMemCpy(b.CreateConstInBoundsGEP1_64(i8, frame, t.offset), llvm::Align(16), t.slot,
                       t.slot->getAlign(), t.size);
    };

    // Each point becomes a runtime call; leaving groups return; fork sites get a resume
    // block.
    llvm::BasicBlock *leave = nullptr;
    std::vector<std::pair<uint32_t, llvm::BasicBlock *>> resumeAt;
    for (llvm::CallInst *point : points) {
      auto *opConst = llvm::dyn_cast<llvm::ConstantInt>(point->getArgOperand(0));
      uint32_t op = opConst ? uint32_t(opConst->getZExtValue()) : FCL_COOP_QUERY;
      uint32_t site = sites->add(body, point, SiteInfo::Kind::Cooperative);
      const bool forks = op == FCL_COOP_FORK || op == FCL_COOP_RESIZE;
      const bool mayLeave = op == FCL_COOP_KILL || op == FCL_COOP_RESIZE;
      llvm::IRBuilder<> b(point);
      if (forks)
        copyIntoFrame(b);
      llvm::CallInst *call =
          b.CreateCall(hostCoop, {ctx, llvm::ConstantInt::get(i32, op),
                                  llvm::ConstantInt::get(i32, site), x, y, z, frame, frameBytes});
      call->setDebugLoc(point->getDebugLoc());
      point->replaceAllUsesWith(b.CreateZExtOrTrunc(call, point->getType()));
      llvm::BasicBlock *after =
          point->getParent()->splitBasicBlock(point->getNextNode(), "coop.after");
      point->eraseFromParent();
      if (mayLeave) {
        if (!leave) {
          leave = llvm::BasicBlock::Create(c, "coop.leave", &body);
          llvm::ReturnInst::Create(c, leave);
        }
        llvm::Instruction *br = call->getParent()->getTerminator();
        llvm::IRBuilder<> tb(br);
        tb.CreateCondBr(tb.CreateICmpEQ(call, llvm::ConstantInt::get(i32, FCL_COOP_LEAVE)), leave,
                        after);
        br->eraseFromParent();
      }
      if (forks)
        resumeAt.push_back({site, after});
    }

    if (!resumeAt.empty()) {
      // Allocations the runtime may overwrite on a forked start: all but the frame.
      std::vector<llvm::AllocaInst *> allocas;
      std::vector<llvm::StoreInst *> parameterStores;
      for (llvm::Instruction &i : entry) {
        if (auto *a = llvm::dyn_cast<llvm::AllocaInst>(&i); a && a != frame)
          allocas.push_back(a);
        if (auto *s = llvm::dyn_cast<llvm::StoreInst>(&i))
          if (llvm::isa<llvm::Argument>(s->getValueOperand()) &&
              llvm::isa<llvm::AllocaInst>(s->getPointerOperand()))
            parameterStores.push_back(s);
      }
      // Lifetime markers would make the poisoned slots dead on the resume paths.
      for (llvm::CallInst *l : lifetimes)
        l->eraseFromParent();

      llvm::Instruction *firstCode = &*entry.getFirstNonPHIOrDbgOrAlloca();
      llvm::BasicBlock *start = entry.splitBasicBlock(firstCode, "coop.start");
      llvm::Instruction *br = entry.getTerminator();
      llvm::IRBuilder<> b(br);
      llvm::CallInst *where =
          b.CreateCall(hostCoop, {ctx, llvm::ConstantInt::get(i32, FCL_COOP_ENTRY),
                                  llvm::ConstantInt::get(i32, 0), x, y, z, frame, frameBytes});
      llvm::SwitchInst *sw = b.CreateSwitch(where, start, unsigned(resumeAt.size()));
      br->eraseFromParent();
      for (auto [site, target] : resumeAt) {
        llvm::BasicBlock *resume = llvm::BasicBlock::Create(c, "coop.resume", &body, target);
        llvm::IRBuilder<> rb(resume);
        for (llvm::AllocaInst *a : allocas)
          if (auto size = a->getAllocationSize(dl))
            rb.CreateMemSet(a, llvm::ConstantInt::get(i8, kPoisonByte), size->getFixedValue(),
                            a->getAlign());
        for (llvm::StoreInst *s : parameterStores) // kernel arguments are the same
          rb.Insert(s->clone());
        for (const Transmitted &t : transmitted)
          rb.CreateMemCpy(t.slot, t.slot->getAlign(),
                          rb.CreateConstInBoundsGEP1_64(i8, frame, t.offset), llvm::Align(16),
                          t.size);
        rb.CreateBr(target);
        sw->addCase(llvm::ConstantInt::get(llvm::cast<llvm::IntegerType>(i32), site), resume);
      }
      repairDominance(body);
    }
  }
  return llvm::PreservedAnalyses::none();
}

} // namespace fibercl::compiler

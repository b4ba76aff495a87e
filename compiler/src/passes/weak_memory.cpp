// WeakMemoryPass (passes.hpp): FIBERCL_CHECK=weak. The accesses AccessChecksPass marked
// (__global memory other groups see) go through the group's store buffer in the runtime
// (runtime/exec/weak_memory.cpp):
//   plain or relaxed load   -> WEAK_LOAD_VALUE(address, bytes) (up to 8 bytes), else
//                              WEAK_LOAD(address, bytes, tmp); load tmp
//   plain or relaxed store  -> store tmp; WEAK_STORE(address, bytes, tmp, site)
//   stronger atomic load    -> WEAK_SYNC(address, bytes, 0) first: the group's own
//                              buffered stores there reach memory before it reads
//   release store, RMW      -> WEAK_SYNC(..., FCL_RACE_RELEASE if release of device
//                              scope): everything buffered reaches memory first
//   memcpy/memset           -> WEAK_SYNC(0, 0, release): all first (they are not weak)
// and release fences of device scope and barriers drain the buffer (WEAK_SYNC). Loads and
// stores of work-group scope (or narrower) order nothing for other groups: buffered as
// relaxed ones are. `tmp` is an alloca of the access's type at the body's entry.
#include "passes.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include <vector>

#include "fibercl/kernel_abi.h"
#include "host_functions.hpp"

namespace fibercl::compiler {

namespace {

bool relaxedAtMost(llvm::AtomicOrdering o) {
  return o == llvm::AtomicOrdering::NotAtomic || o == llvm::AtomicOrdering::Unordered ||
         o == llvm::AtomicOrdering::Monotonic;
}

class BodyWeakening {
public:
  BodyWeakening(llvm::Function &body, SiteTable &sites) : body_(body), sites_(sites) {
    llvm::Module &m = *body.getParent();
    load_ = declareHostFunction(m, HostFunction::WEAK_LOAD);
    loadValue_ = declareHostFunction(m, HostFunction::WEAK_LOAD_VALUE);
    if (auto *f = llvm::dyn_cast<llvm::Function>(loadValue_.getCallee())) {
      f->setOnlyReadsMemory();
      f->setDoesNotThrow();
      f->setWillReturn();
    }
    store_ = declareHostFunction(m, HostFunction::WEAK_STORE);
    sync_ = declareHostFunction(m, HostFunction::WEAK_SYNC);
    ctx_ = body.getArg(body.arg_size() - 4);
  }

  void run() {
    std::vector<llvm::Instruction *> work;
    for (llvm::BasicBlock &bb : body_)
      for (llvm::Instruction &i : bb)
        if (i.getMetadata(kWeakMetadata) || llvm::isa<llvm::FenceInst>(i) || isHostBarrier(&i))
          work.push_back(&i);
    for (llvm::Instruction *i : work)
      weaken(*i);
  }

private:
  void weaken(llvm::Instruction &i) {
    const llvm::DataLayout &dl = body_.getParent()->getDataLayout();
    llvm::IRBuilder<> b(&i);
    const bool narrow = i.getMetadata(kNarrowScopeMetadata) != nullptr;
    auto bytesOf = [&](llvm::Type *t) { return b.getInt64(dl.getTypeStoreSize(t)); };
    auto address = [&](llvm::Value *p) { return b.CreatePtrToInt(p, b.getInt64Ty()); };
    auto drain = [&](llvm::Value *at, llvm::Value *bytes, bool all) {
      b.CreateCall(sync_, {ctx_, at, bytes, b.getInt32(all ? FCL_RACE_RELEASE : 0)});
    };
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&i)) {
      if (!relaxedAtMost(load->getOrdering()) && !narrow) {
        drain(address(load->getPointerOperand()), bytesOf(load->getType()), false);
        return;
      }
      llvm::Type *t = load->getType();
      const uint64_t bits = dl.getTypeSizeInBits(t).getFixedValue();
      llvm::Value *seen = nullptr;
      // (Not for an atomic or volatile load: LLVM may not hoist those out of a loop.)
      if (!load->isAtomic() && !load->isVolatile() && bits <= 64 &&
          bits == 8 * dl.getTypeStoreSize(t).getFixedValue() &&
          (t->isIntOrIntVectorTy() || t->isFPOrFPVectorTy() || t->isPointerTy())) {
        llvm::Value *v =
            b.CreateCall(loadValue_, {ctx_, address(load->getPointerOperand()), bytesOf(t)});
        v = b.CreateTrunc(v, b.getIntNTy(unsigned(bits)));
        seen = t->isPointerTy() ? b.CreateIntToPtr(v, t) : b.CreateBitCast(v, t);
      } else {
        llvm::AllocaInst *tmp = scratch(t);
        b.CreateCall(load_, {ctx_, address(load->getPointerOperand()), bytesOf(t), tmp});
        seen = b.CreateLoad(t, tmp);
      }
      seen->takeName(load);
      load->replaceAllUsesWith(seen);
      load->eraseFromParent();
    } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&i)) {
      llvm::Value *v = store->getValueOperand();
      if (!relaxedAtMost(store->getOrdering()) && !narrow) {
        drain(address(store->getPointerOperand()), bytesOf(v->getType()), true);
        return;
      }
      llvm::AllocaInst *tmp = scratch(v->getType());
      b.CreateStore(v, tmp);
      uint32_t site = sites_.addCheck(body_, store, SiteInfo::Kind::BoundsWrite, "", 0);
      b.CreateCall(store_, {ctx_, address(store->getPointerOperand()), bytesOf(v->getType()), tmp,
                            b.getInt32(site)});
      store->eraseFromParent();
    } else if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&i)) {
      drain(address(rmw->getPointerOperand()), bytesOf(rmw->getType()),
            llvm::isReleaseOrStronger(rmw->getOrdering()) && !narrow);
    } else if (auto *cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&i)) {
      drain(address(cas->getPointerOperand()), bytesOf(cas->getCompareOperand()->getType()),
            llvm::isReleaseOrStronger(cas->getSuccessOrdering()) && !narrow);
    } else if (auto *fence = llvm::dyn_cast<llvm::FenceInst>(&i)) {
      if (llvm::isReleaseOrStronger(fence->getOrdering()) && !narrow && !isBarrierFence(*fence))
        drain(b.getInt64(0), b.getInt64(0), true);
    } else if (llvm::isa<llvm::MemIntrinsic>(i) || isHostBarrier(&i)) {
      drain(b.getInt64(0), b.getInt64(0), true);
    }
  }

  // Room for one value of type `t`, in the body's entry block.
  llvm::AllocaInst *scratch(llvm::Type *t) {
    llvm::IRBuilder<> e(&*body_.getEntryBlock().getFirstInsertionPt());
    return e.CreateAlloca(t, nullptr, "weak.tmp");
  }

  llvm::Function &body_;
  SiteTable &sites_;
  llvm::FunctionCallee load_, loadValue_, store_, sync_;
  llvm::Value *ctx_ = nullptr;
};

} // namespace

llvm::PreservedAnalyses WeakMemoryPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  std::vector<llvm::Function *> bodies;
  for (llvm::Function &f : m)
    if (f.hasFnAttribute(kKernelAttr))
      bodies.push_back(&f);
  for (llvm::Function *body : bodies)
    BodyWeakening(*body, *sites).run();
  return llvm::PreservedAnalyses::none();
}

} // namespace fibercl::compiler

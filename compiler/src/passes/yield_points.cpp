// YieldPointsPass (passes.hpp). Each yield point is inline and cheap when it does not
// yield:
//     state = (fcl_yield_state *)ctx->yield_state        (loop-invariant, hoisted)
//     if (state && (int64)--state->countdown <= 0) __fibercl_host_yield(ctx, site);
// and, inside loops that may spin, every write to shared memory that changed it does
// state->progress += 1, as does entering such a loop; loops that may spin also get
// failed-await checks (await_checks.hpp): the scheduler tells
// groups that wait from groups that make progress by them. A launch that does not
// schedule its groups (a kernel whose atomics cannot wait, in the default mode) has no
// state: its yield points are a branch on a loop-invariant null, not a store next to
// every atomic (which cost 40% of a loop of atomic_inc on Zen 3). Which loops may spin
// and which memory is shared: spin_loops.hpp.
#include "await_checks.hpp"
#include "barrier_decisions.hpp"
#include "fibercl/compiler/debug.hpp"
#include "host_functions.hpp"
#include "passes.hpp"
#include "spin_loops.hpp"
#include "yield_state_ir.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <cstddef>

#include "fibercl/kernel_abi.h"

namespace fibercl::compiler {
namespace {

// `a != b` for values of one type, as an i1 (true where the type cannot be compared).
llvm::Value *differs(llvm::IRBuilder<> &b, const llvm::DataLayout &dl, llvm::Value *x,
                     llvm::Value *y) {
  llvm::Type *t = x->getType();
  if (t->isPointerTy()) {
    x = b.CreatePtrToInt(x, b.getInt64Ty());
    y = b.CreatePtrToInt(y, b.getInt64Ty());
  } else if (!t->isIntegerTy()) {
    uint64_t bits = dl.getTypeSizeInBits(t).getFixedValue();
    if (!(t->isFloatingPointTy() || t->isVectorTy()) || t->getScalarType()->isPointerTy() ||
        bits == 0 || bits > 128 || bits % 8)
      return b.getTrue();
    x = b.CreateBitCast(x, b.getIntNTy(unsigned(bits)));
    y = b.CreateBitCast(y, b.getIntNTy(unsigned(bits)));
  }
  return b.CreateICmpNE(x, y);
}

// The value an atomicrmw stores, computed from the value it returns: to tell whether
// it changed memory (an exchange of the value already there did not).
llvm::Value *changedByRMW(llvm::IRBuilder<> &b, llvm::AtomicRMWInst *rmw) {
  llvm::Value *old = rmw->getType()->isIntegerTy() ? static_cast<llvm::Value *>(rmw) : nullptr;
  llvm::Value *v = rmw->getValOperand();
  if (!old) // floating-point or pointer operations: count them as changing memory
    return b.getTrue();
  llvm::Value *next;
  using Op = llvm::AtomicRMWInst::BinOp;
  switch (rmw->getOperation()) {
  case Op::Xchg:
    next = v;
    break;
  case Op::Add:
    next = b.CreateAdd(old, v);
    break;
  case Op::Sub:
    next = b.CreateSub(old, v);
    break;
  case Op::And:
    next = b.CreateAnd(old, v);
    break;
  case Op::Or:
    next = b.CreateOr(old, v);
    break;
  case Op::Xor:
    next = b.CreateXor(old, v);
    break;
  case Op::Max:
    next = b.CreateSelect(b.CreateICmpSGT(old, v), old, v);
    break;
  case Op::Min:
    next = b.CreateSelect(b.CreateICmpSLT(old, v), old, v);
    break;
  case Op::UMax:
    next = b.CreateSelect(b.CreateICmpUGT(old, v), old, v);
    break;
  case Op::UMin:
    next = b.CreateSelect(b.CreateICmpULT(old, v), old, v);
    break;
  default:
    return b.getTrue();
  }
  return b.CreateICmpNE(old, next);
}

class Inserter {
public:
  Inserter(llvm::Function &body, SiteTable &sites) : body_(body), sites_(sites) {
    unsigned n = body.arg_size() - 4;
    ctx_ = body.getArg(n);
    state_ = loadYieldState(&*body.getEntryBlock().getFirstInsertionPt(), ctx_);
  }

  // A yield point just before `before`; `waiting`: inside a loop that may spin. After
  // a barrier, the marker of the group's decision there (barrier_decisions.hpp).
  void poll(llvm::Instruction *before, const llvm::Instruction *at, SiteInfo::Kind kind,
            bool waiting) {
    uint32_t site = sites_.add(body_, at, kind, waiting);
    if (waiting)
      site |= FIBERCL_SITE_WAITING;
    if (kind == SiteInfo::Kind::Barrier)
      markBarrierDecision(llvm::cast<llvm::CallInst>(at), before, ctx_, site);
    else
      emitYieldPoint(before, ctx_, state_, site, at->getDebugLoc());
  }

  llvm::Value *state() const { return state_; }

  void progress(llvm::Instruction *before, llvm::Value *changed) {
    llvm::IRBuilder<> b(ifScheduled(state_, before).then);
    llvm::Value *p = yieldStateField(b, state_, offsetof(fcl_yield_state, progress));
    llvm::Value *count = b.CreateLoad(b.getInt64Ty(), p);
    b.CreateStore(b.CreateAdd(count, b.CreateZExt(changed, b.getInt64Ty())), p);
  }

  // Counts a store (or memory intrinsic) to shared memory as progress if it changes
  // the value there: a loop that keeps storing the same value is still waiting.
  void progressOfWrite(llvm::Instruction *w, llvm::Instruction *before) {
    llvm::Value *changed = llvm::ConstantInt::getTrue(w->getContext());
    if (auto *s = llvm::dyn_cast<llvm::StoreInst>(w)) {
      // Read what is there before the store (only when scheduled: that is a load
      // before every shared store).
      ScheduledBlock guard = ifScheduled(state_, w);
      llvm::IRBuilder<> b(guard.then);
      llvm::Value *v = s->getValueOperand();
      llvm::LoadInst *old =
          b.CreateAlignedLoad(v->getType(), s->getPointerOperand(), s->getAlign(), s->isVolatile());
      if (s->isAtomic())
        old->setAtomic(llvm::AtomicOrdering::Monotonic, s->getSyncScopeID());
      llvm::Value *differ = differs(b, body_.getParent()->getDataLayout(), old, v);
      b.SetInsertPoint(w);
      llvm::PHINode *phi = b.CreatePHI(b.getInt1Ty(), 2, "changed");
      phi->addIncoming(differ, guard.then->getParent());
      phi->addIncoming(b.getFalse(), guard.skippedFrom);
      changed = phi;
    }
    progress(before, changed);
  }

  // Progress accounting for an atomic read-modify-write or compare-exchange, placed
  // before `next` (the instruction that followed it).
  void progressOfAtomic(llvm::Instruction *i, llvm::Instruction *next) {
    llvm::IRBuilder<> b(next);
    if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(i)) {
      progress(next, changedByRMW(b, rmw));
    } else if (auto *cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(i)) {
      llvm::Value *stored = b.CreateExtractValue(cas, 1);
      llvm::Value *same = b.CreateICmpEQ(cas->getCompareOperand(), cas->getNewValOperand());
      progress(next, b.CreateAnd(stored, b.CreateNot(same)));
    }
  }

private:
  llvm::Function &body_;
  SiteTable &sites_;
  llvm::Value *ctx_;
  llvm::Value *state_;
};

// The kind of the yield point after `i`; `atomic`: it is a shared atomic (else a
// shared volatile access, a fence or a barrier).
SiteInfo::Kind kindOf(const llvm::Instruction &i, bool atomic) {
  if (llvm::isa<llvm::FenceInst>(i))
    return SiteInfo::Kind::Fence;
  if (isHostBarrier(&i))
    return SiteInfo::Kind::Barrier;
  bool writes = !llvm::isa<llvm::LoadInst>(i);
  if (atomic)
    return writes ? SiteInfo::Kind::AtomicWrite : SiteInfo::Kind::AtomicRead;
  return writes ? SiteInfo::Kind::VolatileWrite : SiteInfo::Kind::VolatileRead;
}

// "file:line" of `i`, or its function's name when it has no location.
std::string whereIs(const llvm::Instruction &i) {
  if (const llvm::DILocation *loc = i.getDebugLoc().get())
    return sourceFileOf(*loc) + ":" + std::to_string(loc->getLine());
  return ("in " + i.getFunction()->getName()).str();
}

// FIBERCL_DEBUG=yields: why a kernel runs under the scheduler (a kernel with yield
// points but no loop that may spin runs its groups to completion at full speed).
void reportYields(const llvm::Function &body, const SpinLoops &spin) {
  llvm::StringRef name = body.getFnAttribute(kKernelAttr).getValueAsString();
  llvm::errs() << "FiberCL: kernel '" << name << "': yield points; ";
  if (spin.empty()) {
    llvm::errs() << "no loop may wait for another group\n";
    return;
  }
  llvm::errs() << spin.reasons().size() << " loop(s) may wait for another group:";
  for (const SpinLoops::Reason &r : spin.reasons()) {
    llvm::errs() << " loop at " << whereIs(*r.loop->getHeader()->getFirstNonPHI()) << " exits on '";
    r.waitsOn->print(llvm::errs());
    llvm::errs() << "' (" << whereIs(*r.waitsOn) << ");";
  }
  llvm::errs() << "\n";
}

} // namespace

llvm::PreservedAnalyses YieldPointsPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &mam) {
  auto &fam = mam.getResult<llvm::FunctionAnalysisManagerModuleProxy>(m).getManager();
  for (llvm::Function &body : m) {
    if (!body.hasFnAttribute(kKernelAttr))
      continue;
    llvm::LoopInfo &loops = fam.getResult<llvm::LoopAnalysis>(body);
    SpinLoops spin(loops, fam.getResult<llvm::ScalarEvolutionAnalysis>(body));

    // Everything is found (and classified) before any block is split.
    struct Point {
      llvm::Instruction *at;
      SiteInfo::Kind kind;
      bool waiting;
    };
    std::vector<Point> after;                // yield point right after `at`
    std::vector<llvm::Instruction *> writes; // plain stores to shared memory
    bool seesOthers = false;
    for (llvm::BasicBlock &bb : body)
      for (llvm::Instruction &i : bb) {
        bool atomic = isSharedAtomic(i), vol = isSharedVolatile(i);
        seesOthers |= atomic || vol;
        // A barrier's own fences get no yield point: the barrier's is enough.
        if (atomic || vol || isHostBarrier(&i) ||
            (llvm::isa<llvm::FenceInst>(i) && !isBarrierFence(i)))
          after.push_back({&i, kindOf(i, atomic), spin.waitingAt(i)});
        else if ((llvm::isa<llvm::StoreInst>(i) || llvm::isa<llvm::AnyMemIntrinsic>(i)) &&
                 isShared(accessedPointer(i)) && spin.waitingAt(i))
          writes.push_back(&i);
      }
    // Only a kernel that can see other work-groups (atomics or volatile accesses on
    // global memory) gets yield points; __local atomics and barriers alone never
    // make a kernel wait for another group.
    if (!seesOthers && spin.empty())
      continue;
    // A loop that may spin gets a poll on each back-edge, unless every iteration
    // already passes one of its own yield points (an atomic in the loop that
    // dominates the latch): a second decision right after it would only let the
    // group reach its next atomic one turn later.
    llvm::DominatorTree &dom = fam.getResult<llvm::DominatorTreeAnalysis>(body);
    std::vector<llvm::Instruction *> latches;
    for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
      if (!spin.spins(loop))
        continue;
      llvm::SmallVector<llvm::BasicBlock *, 4> loopLatches;
      loop->getLoopLatches(loopLatches);
      for (llvm::BasicBlock *latch : loopLatches) {
        bool covered = false;
        for (const Point &p : after)
          covered |= loops.getLoopFor(p.at->getParent()) == loop &&
                     dom.dominates(p.at, latch->getTerminator());
        if (!covered)
          latches.push_back(latch->getTerminator());
      }
    }

    // Entering a loop that may spin from code that does not wait is progress (the
    // scheduler judges a group only at yield points inside such loops: what it did
    // before it got there, writes included, was work). Counted on the loop's entry
    // instead of at every write outside such loops: a counter updated by every
    // work-item's writes would keep the work-item loops of those regions from being
    // vectorised.
    std::vector<llvm::Instruction *> waitEntries;
    for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
      bool outermost = true;
      for (llvm::Loop *l = loop->getParentLoop(); l; l = l->getParentLoop())
        outermost &= !spin.spins(l);
      if (spin.spins(loop) && outermost)
        if (llvm::BasicBlock *preheader = loop->getLoopPreheader())
          waitEntries.push_back(preheader->getTerminator());
    }
    AwaitChecks awaits(body, loops, spin); // planned before any block is split
    Inserter inserter(body, *sites);
    awaits.insert(inserter.state());
    for (llvm::Instruction *w : writes)
      inserter.progressOfWrite(w, w->getNextNode());
    for (llvm::Instruction *entry : waitEntries)
      inserter.progress(entry, llvm::ConstantInt::getTrue(body.getContext()));
    for (const Point &p : after) {
      // Progress is counted before the yield point, where the scheduler looks at it.
      llvm::Instruction *next = p.at->getNextNode();
      // A barrier's decision goes after its own fence, which must stay next to it
      // (the region splitter removes the two together).
      if (p.kind == SiteInfo::Kind::Barrier && llvm::isa<llvm::FenceInst>(next) &&
          isBarrierFence(*next))
        next = next->getNextNode();
      if (llvm::isa<llvm::StoreInst>(p.at))
        inserter.progressOfWrite(p.at, next);
      else
        inserter.progressOfAtomic(p.at, next);
      inserter.poll(next, p.at, p.kind, p.waiting);
    }
    for (llvm::Instruction *terminator : latches)
      inserter.poll(terminator, terminator, SiteInfo::Kind::LoopPoll, true);
    // Work-item loops with a yield point in them keep their work-items in order
    // (ParallelWorkItemLoopsPass and the masked vectoriser refuse loops with calls that
    // touch memory); the others may be vectorised.
    body.addFnAttr(kYieldsAttr);
    if (debugChannel("yields"))
      reportYields(body, spin);
    if (!spin.empty())
      body.addFnAttr(kMayBlockAttr);
    fam.invalidate(body, llvm::PreservedAnalyses::none());
  }
  return llvm::PreservedAnalyses::none();
}

} // namespace fibercl::compiler

// Failed-await checks on loops that may spin (await_checks.hpp).
#include "await_checks.hpp"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include <cstddef>
#include <vector>

#include "fibercl/kernel_abi.h"
#include "fibercl/pipe_abi.h"
#include "spin_loops.hpp"
#include "yield_state_ir.hpp"

namespace fibercl::compiler {
namespace {

// splitmix64's finaliser: every input bit reaches every output bit.
llvm::Value *mix64(llvm::IRBuilder<> &b, llvm::Value *x) {
  x = b.CreateXor(x, b.CreateLShr(x, 30));
  x = b.CreateMul(x, b.getInt64(0xbf58476d1ce4e5b9ull));
  x = b.CreateXor(x, b.CreateLShr(x, 27));
  x = b.CreateMul(x, b.getInt64(0x94d049bb133111ebull));
  return b.CreateXor(x, b.CreateLShr(x, 31));
}

// `v`'s bits folded into an i64 (pointers by address, floats and vectors by their
// bits); a constant for what has no fixed size.
llvm::Value *toI64(llvm::IRBuilder<> &b, const llvm::DataLayout &dl, llvm::Value *v) {
  llvm::Type *t = v->getType();
  if (t->isPtrOrPtrVectorTy()) {
    llvm::Type *ints = b.getInt64Ty();
    if (auto *vt = llvm::dyn_cast<llvm::VectorType>(t))
      ints = llvm::VectorType::get(ints, vt->getElementCount());
    v = b.CreatePtrToInt(v, ints);
    t = ints;
  }
  if (!t->isIntegerTy()) {
    llvm::TypeSize size = dl.getTypeSizeInBits(t);
    if (!(t->isFloatingPointTy() || t->isVectorTy()) || size.isScalable() ||
        size.getFixedValue() == 0 || size.getFixedValue() > 1024)
      return b.getInt64(0x5eed);
    v = b.CreateBitCast(v, b.getIntNTy(unsigned(size.getFixedValue())));
  }
  unsigned bits = v->getType()->getIntegerBitWidth();
  while (bits > 64) { // fold the upper half onto the lower one
    unsigned half = (bits + 1) / 2;
    llvm::Value *hi = b.CreateTrunc(b.CreateLShr(v, half), b.getIntNTy(half));
    v = b.CreateXor(b.CreateTrunc(v, b.getIntNTy(half)), hi);
    bits = half;
  }
  return b.CreateZExt(v, b.getInt64Ty());
}

bool isPipeCounterCall(const llvm::Instruction &i) {
  auto *call = llvm::dyn_cast<llvm::CallInst>(&i);
  const llvm::Function *f = call ? call->getCalledFunction() : nullptr;
  return f &&
         (f->getName() == FIBERCL_HOST_PIPE_RESERVE || f->getName() == FIBERCL_HOST_PIPE_PACKETS);
}

// A change of private or __local memory inside a loop that may spin (or a pipe's
// counters read there): part of what an iteration's state is made of.
struct Observation {
  llvm::Instruction *at;
  llvm::Value *address;
};

// Where a loop's instruction changes the group's own memory (a store, an atomic or a
// memory intrinsic on private or __local memory) or reads a pipe's counters, which
// the runtime moves; nullptr: `i` is not an observation. Reads of shared memory are
// not observations: shared memory changes only by writes, every write that changes
// it is progress, so while no group makes progress every iteration reads the same
// values at the same addresses -- what may differ is the rest of its state.
const llvm::Value *observedAddress(const llvm::Instruction &i) {
  const llvm::Value *p = accessedPointer(i);
  if (llvm::isa<llvm::StoreInst>(i) || llvm::isa<llvm::AtomicRMWInst>(i) ||
      llvm::isa<llvm::AtomicCmpXchgInst>(i) || llvm::isa<llvm::AnyMemSetInst>(i) ||
      llvm::isa<llvm::AnyMemTransferInst>(i))
    return p && !isShared(p) ? p : nullptr;
  if (isPipeCounterCall(i))
    return llvm::cast<llvm::CallInst>(i).getArgOperand(0);
  return nullptr;
}

// What an observation wrote (or read), inserted with `b` after it: a memory
// intrinsic by its value or source and length.
llvm::Value *observedValue(llvm::IRBuilder<> &b, const llvm::DataLayout &dl, llvm::Instruction *i) {
  if (auto *store = llvm::dyn_cast<llvm::StoreInst>(i))
    return toI64(b, dl, store->getValueOperand());
  if (llvm::isa<llvm::AtomicCmpXchgInst>(i))
    return toI64(b, dl, b.CreateExtractValue(i, 0));
  if (auto *set = llvm::dyn_cast<llvm::AnyMemSetInst>(i))
    return b.CreateXor(toI64(b, dl, set->getValue()), toI64(b, dl, set->getLength()));
  if (auto *copy = llvm::dyn_cast<llvm::AnyMemTransferInst>(i))
    return b.CreateXor(toI64(b, dl, copy->getRawSource()), toI64(b, dl, copy->getLength()));
  return toI64(b, dl, i);
}

} // namespace

// Marks of the carried fingerprint (a real one has bit 1 set).
constexpr uint64_t kNoStart = 0, kStarted = 1;

struct AwaitChecks::Plan {
  struct Latch {
    llvm::Instruction *terminator;
    llvm::SmallVector<llvm::Value *, 4> carried; // the state variables' next values
  };
  struct Loop {
    llvm::BasicBlock *header;
    llvm::SmallVector<llvm::Instruction *, 2> entering; // terminators of outside preds
    llvm::SmallVector<Latch, 2> latches;
  };
  llvm::Function &body;
  std::vector<Observation> observations;
  std::vector<Loop> loops;
  explicit Plan(llvm::Function &f) : body(f) {}
};

namespace {

// The header phis of `loop` that what the loop does depends on (through values
// computed in it): its branches (exits included) and the addresses it reads and writes.
// Those are its state variables; a counter of tries used only after the loop is not.
llvm::SmallVector<llvm::PHINode *, 4> stateVariables(const llvm::Loop &loop) {
  llvm::SmallVector<const llvm::Value *, 16> work;
  for (const llvm::BasicBlock *bb : loop.blocks()) {
    const llvm::Instruction *t = bb->getTerminator();
    if (auto *br = llvm::dyn_cast<llvm::BranchInst>(t); br && br->isConditional())
      work.push_back(br->getCondition());
    else if (auto *sw = llvm::dyn_cast<llvm::SwitchInst>(t))
      work.push_back(sw->getCondition());
    for (const llvm::Instruction &i : *bb)
      if (const llvm::Value *p = accessedPointer(i))
        work.push_back(p);
  }
  llvm::SmallVector<llvm::PHINode *, 4> state;
  llvm::SmallPtrSet<const llvm::Value *, 32> seen;
  while (!work.empty()) {
    auto *i = llvm::dyn_cast<llvm::Instruction>(work.pop_back_val());
    if (!i || !loop.contains(i) || !seen.insert(i).second)
      continue;
    if (auto *phi = llvm::dyn_cast<llvm::PHINode>(i); phi && phi->getParent() == loop.getHeader())
      state.push_back(const_cast<llvm::PHINode *>(phi));
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(i)) {
      work.push_back(load->getPointerOperand()); // its value is observed, or is state
      continue;
    }
    for (const llvm::Use &op : i->operands())
      work.push_back(op.get());
  }
  return state;
}

} // namespace

AwaitChecks::AwaitChecks(llvm::Function &body, llvm::LoopInfo &loops, const SpinLoops &spin)
    : plan_(std::make_unique<Plan>(body)) {
  if (spin.empty())
    return;
  for (llvm::BasicBlock &bb : body)
    for (llvm::Instruction &i : bb)
      if (spin.waitingAt(i))
        if (const llvm::Value *address = observedAddress(i))
          plan_->observations.push_back({&i, const_cast<llvm::Value *>(address)});
  for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
    if (!spin.spins(loop))
      continue;
    Plan::Loop l{loop->getHeader(), {}, {}};
    for (llvm::BasicBlock *pred : llvm::predecessors(l.header))
      if (!loop->contains(pred))
        l.entering.push_back(pred->getTerminator());
    llvm::SmallVector<llvm::PHINode *, 4> state = stateVariables(*loop);
    llvm::SmallVector<llvm::BasicBlock *, 4> latches;
    loop->getLoopLatches(latches);
    for (llvm::BasicBlock *latch : latches) {
      Plan::Latch lt{latch->getTerminator(), {}};
      for (llvm::PHINode *phi : state)
        lt.carried.push_back(phi->getIncomingValueForBlock(latch));
      l.latches.push_back(std::move(lt));
    }
    plan_->loops.push_back(std::move(l));
  }
}

AwaitChecks::~AwaitChecks() = default;

void AwaitChecks::insert(llvm::Value *state) {
  llvm::Function &body = plan_->body;
  const llvm::DataLayout &dl = body.getParent()->getDataLayout();
  llvm::LLVMContext &c = body.getContext();
  llvm::Type *i64 = llvm::Type::getInt64Ty(c);
  const size_t observedAt = offsetof(fcl_yield_state, observed);
  const size_t progressAt = offsetof(fcl_yield_state, progress);

  // What a state pointer that may be null is read through: zeros when the launch is
  // not scheduled (the values read are then never used).
  llvm::Module &m = *body.getParent();
  auto *zerosTy = llvm::ArrayType::get(i64, sizeof(fcl_yield_state) / 8);
  llvm::GlobalVariable *zeros = m.getGlobalVariable("fibercl.unscheduled_yield_state", true);
  if (!zeros)
    zeros = new llvm::GlobalVariable(m, zerosTy, true, llvm::GlobalValue::InternalLinkage,
                                     llvm::ConstantAggregateZero::get(zerosTy),
                                     "fibercl.unscheduled_yield_state");
  auto readable = [&](llvm::IRBuilder<> &b) {
    return b.CreateSelect(b.CreateIsNull(state), zeros, state);
  };
  // A block that runs before `before` only while the runtime asks for the checks.
  auto ifChecking = [&](llvm::Instruction *before) {
    llvm::IRBuilder<> b(before);
    llvm::Value *flag =
        b.CreateLoad(i64, yieldStateField(b, readable(b), offsetof(fcl_yield_state, checking)));
    llvm::Instruction *then =
        llvm::SplitBlockAndInsertIfThen(b.CreateIsNotNull(flag, "checking"), before, false);
    return ScheduledBlock{then, then->getParent()->getSinglePredecessor()};
  };

  // observed += mix(address, value) after each observation.
  for (const Observation &o : plan_->observations) {
    llvm::IRBuilder<> b(ifChecking(o.at->getNextNode()).then);
    llvm::Value *key =
        b.CreateXor(b.CreateMul(toI64(b, dl, o.address), b.getInt64(0x9e3779b97f4a7c15ull)),
                    observedValue(b, dl, o.at));
    llvm::Value *field = yieldStateField(b, state, observedAt);
    b.CreateStore(b.CreateAdd(b.CreateLoad(i64, field), mix64(b, key)), field);
  }

  for (Plan::Loop &l : plan_->loops) {
    // await.prev: the previous iteration's fingerprint, or kNoStart / kStarted while
    // there is none (just entered, or the checks were off).
    llvm::IRBuilder<> hb(&*l.header->begin());
    llvm::PHINode *prev = hb.CreatePHI(i64, 2, "await.prev");
    llvm::PHINode *seenAt = hb.CreatePHI(i64, 2, "await.observed"); // at its start
    llvm::PHINode *wroteAt = hb.CreatePHI(i64, 2, "await.progress");
    for (llvm::Instruction *t : l.entering) {
      llvm::IRBuilder<> b(t);
      llvm::Value *from = readable(b);
      prev->addIncoming(b.getInt64(kNoStart), t->getParent());
      seenAt->addIncoming(b.CreateLoad(i64, yieldStateField(b, from, observedAt)), t->getParent());
      wroteAt->addIncoming(b.CreateLoad(i64, yieldStateField(b, from, progressAt)), t->getParent());
    }
    for (size_t k = 0; k < l.latches.size(); ++k) {
      Plan::Latch &lt = l.latches[k];
      ScheduledBlock guard = ifChecking(lt.terminator);
      llvm::IRBuilder<> b(guard.then);
      llvm::Value *seen = b.CreateLoad(i64, yieldStateField(b, state, observedAt));
      llvm::Value *wrote = b.CreateLoad(i64, yieldStateField(b, state, progressAt));
      llvm::Value *print = b.CreateAdd(b.CreateSub(seen, seenAt), b.getInt64(k));
      for (llvm::Value *v : lt.carried)
        print = mix64(b, b.CreateXor(print, toI64(b, dl, v)));
      print = b.CreateOr(print, b.getInt64(2)); // never kNoStart or kStarted
      // Nothing to compare with: the iteration's start was not recorded (kNoStart: its
      // difference is meaningless, the next one's is not) or there is no fingerprint
      // yet (kStarted). Such an iteration is neither a failed await nor an advance.
      llvm::Value *first = b.CreateICmpULE(prev, b.getInt64(kStarted));
      llvm::Value *same = b.CreateAnd(b.CreateICmpEQ(print, prev), b.CreateICmpEQ(wrote, wroteAt));
      auto count = [&](size_t offset, llvm::Value *when) {
        llvm::Value *field = yieldStateField(b, state, offset);
        b.CreateStore(b.CreateAdd(b.CreateLoad(i64, field), b.CreateZExt(when, i64)), field);
      };
      count(offsetof(fcl_yield_state, awaits), same);
      count(offsetof(fcl_yield_state, advances), b.CreateNot(b.CreateOr(same, first)));
      llvm::Value *next =
          b.CreateSelect(b.CreateICmpEQ(prev, b.getInt64(kNoStart)), b.getInt64(kStarted), print);
      // The next iteration starts from here (the skipped path keeps the old values).
      b.SetInsertPoint(lt.terminator);
      llvm::BasicBlock *checked = guard.then->getParent();
      auto join = [&](llvm::Value *now, llvm::Value *before, const char *name) {
        llvm::PHINode *phi = b.CreatePHI(i64, 2, name);
        phi->addIncoming(now, checked);
        phi->addIncoming(before, guard.skippedFrom);
        return phi;
      };
      llvm::BasicBlock *latch = lt.terminator->getParent();
      // Iterations while the checks are off record nothing: the next check starts over.
      prev->addIncoming(join(next, b.getInt64(kNoStart), "await.print"), latch);
      seenAt->addIncoming(join(seen, seenAt, "await.seen"), latch);
      wroteAt->addIncoming(join(wrote, wroteAt, "await.wrote"), latch);
    }
  }
}

} // namespace fibercl::compiler

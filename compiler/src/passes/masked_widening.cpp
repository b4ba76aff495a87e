// The widened work-item loop of MaskedWorkItemVectorizerPass (masked_vectorizer.hpp).
//
// The work-item loop `for x: body(x)` becomes `for x in steps of W: body(x..x+W-1)`,
// the body "linearised" (Karrenberg & Hack, CGO'11): every block runs for all W
// work-items under a mask of the lanes that would have reached it, branches become
// masks, phis where paths meet become selects, and each inner loop repeats while any
// lane still iterates, remembering each lane's live-out values at the iteration it
// left. Values the same for every lane (work_item_divergence.hpp) stay scalar. Memory
// is touched only for active lanes: masked loads and stores where consecutive
// work-items access consecutive elements, gathers and scatters elsewhere. The last
// partial vector runs with the lanes past the end masked off.
#include "masked_vectorizer.hpp"

#include <llvm/ADT/DenseMap.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include <map>
#include <vector>

#include "passes.hpp"
#include "sub_group_lanes.hpp"

namespace fibercl::compiler {
namespace {

// Lanes moving along a CFG edge, and the values they bring to the target's phis.
struct Edge {
  llvm::Value *mask = nullptr;
  llvm::DenseMap<llvm::PHINode *, llvm::Value *> values;
};

// What a loop level produced: the lanes that take the back edge (and the values they
// carry to the header's phis), and the edges leaving the level, by target block.
struct LevelResult {
  llvm::Value *continueMask = nullptr;
  llvm::DenseMap<llvm::PHINode *, llvm::Value *> latchValues;
  std::map<llvm::BasicBlock *, std::vector<Edge>> exits;
};

// Alias scopes and TBAA still hold for every lane's access.
void copyAccessMetadata(llvm::Instruction &to, const llvm::Instruction &from) {
  to.copyMetadata(from, {llvm::LLVMContext::MD_tbaa, llvm::LLVMContext::MD_alias_scope,
                         llvm::LLVMContext::MD_noalias, llvm::LLVMContext::MD_nontemporal});
}

void nameLike(llvm::Value *v, const llvm::Value &original) {
  if (llvm::isa<llvm::Instruction>(v) && original.hasName())
    v->setName(original.getName());
}

class MaskedLoopWidener {
public:
  MaskedLoopWidener(MaskedWorkItemLoop &plan, const llvm::TargetLibraryInfo &libraryInfo,
                    unsigned lanes)
      : plan_(plan), loop_(plan.loop()), loops_(plan.loops()), dominators_(plan.dominators()),
        scev_(plan.scev()), libraryInfo_(libraryInfo), lanes_(lanes),
        b_(loop_.getHeader()->getContext()) {}

  void vectorise();

private:
  void emitLevel(llvm::Loop *level, llvm::Value *entryMask, LevelResult &out);
  // Returns, per exit block (in LoopInfo's order), the lanes that left by it.
  std::vector<std::pair<llvm::BasicBlock *, Edge>> emitInnerLoop(llvm::Loop *inner,
                                                                 std::vector<Edge> &entries);
  void emitBlock(llvm::Loop *level, llvm::BasicBlock *block, llvm::Value *mask,
                 std::map<llvm::BasicBlock *, std::vector<Edge>> &incoming, LevelResult &out);
  void emitInstruction(llvm::Instruction &i, llvm::Value *mask, bool alwaysExecuted);
  void emitVaryingInstruction(llvm::Instruction &i, llvm::Value *mask);
  void emitMemory(llvm::Instruction &i, llvm::Value *mask, bool alwaysExecuted);
  llvm::Value *emitCall(llvm::CallInst &call, bool varying);
  llvm::Value *blend(llvm::PHINode &phi, const std::vector<Edge> &edges);

  // The new value of `v`: scalar for uniform values, a vector for varying ones.
  llvm::Value *get(llvm::Value *v) const;
  llvm::Value *vec(llvm::Value *v);
  llvm::Type *widened(llvm::Type *t) const { return llvm::FixedVectorType::get(t, lanes_); }
  bool varying(const llvm::Value *v) const { return plan_.divergence().isVarying(v); }
  llvm::Value *any(llvm::Value *mask) { return b_.CreateOrReduce(mask); }
  llvm::Value *noLanes() { return llvm::Constant::getNullValue(widened(b_.getInt1Ty())); }
  llvm::Value *orMask(llvm::Value *a, llvm::Value *b) {
    return a ? (b ? b_.CreateOr(a, b) : a) : b;
  }

  MaskedWorkItemLoop &plan_;
  llvm::Loop &loop_;
  llvm::LoopInfo &loops_;
  llvm::DominatorTree &dominators_;
  llvm::ScalarEvolution &scev_;
  const llvm::TargetLibraryInfo &libraryInfo_;
  unsigned lanes_;
  llvm::IRBuilder<> b_;
  llvm::DenseMap<llvm::Value *, llvm::Value *> map_;
};

llvm::Value *MaskedLoopWidener::get(llvm::Value *v) const {
  if (auto *i = llvm::dyn_cast<llvm::Instruction>(v); i && loop_.contains(i))
    return map_.lookup(v);
  return v;
}

llvm::Value *MaskedLoopWidener::vec(llvm::Value *v) {
  llvm::Value *n = get(v);
  if (n->getType()->isVectorTy())
    return n;
  return b_.CreateVectorSplat(lanes_, n);
}

llvm::Value *MaskedLoopWidener::blend(llvm::PHINode &phi, const std::vector<Edge> &edges) {
  bool isVarying = varying(&phi);
  llvm::Value *result = nullptr;
  for (const Edge &e : edges) {
    llvm::Value *v = e.values.lookup(&phi);
    if (isVarying && !v->getType()->isVectorTy())
      v = b_.CreateVectorSplat(lanes_, v);
    if (!result)
      result = v;
    else if (isVarying)
      result = b_.CreateSelect(e.mask, v, result);
    else // every lane that reaches the phi came along the same edge
      result = b_.CreateSelect(any(e.mask), v, result);
  }
  return result;
}

llvm::Value *MaskedLoopWidener::emitCall(llvm::CallInst &call, bool isVarying) {
  llvm::Function *callee = call.getCalledFunction();
  std::vector<llvm::Value *> args;
  if (!isVarying) {
    for (llvm::Value *a : call.args())
      args.push_back(get(a));
    llvm::CallInst *copy = b_.CreateCall(call.getFunctionType(), callee, args);
    copy->setAttributes(call.getAttributes());
    copy->setCallingConv(call.getCallingConv());
    return copy;
  }
  llvm::Module &m = *call.getModule();
  llvm::Intrinsic::ID id = call.getIntrinsicID();
  if (id != llvm::Intrinsic::not_intrinsic && llvm::isTriviallyVectorizable(id)) {
    std::vector<llvm::Type *> overloads;
    if (llvm::isVectorIntrinsicWithOverloadTypeAtArg(id, -1))
      overloads.push_back(widened(call.getType()));
    for (unsigned k = 0; k < call.arg_size(); ++k) {
      bool scalar = llvm::isVectorIntrinsicWithScalarOpAtArg(id, k);
      args.push_back(scalar ? get(call.getArgOperand(k)) : vec(call.getArgOperand(k)));
      if (llvm::isVectorIntrinsicWithOverloadTypeAtArg(id, k))
        overloads.push_back(args.back()->getType());
    }
    return b_.CreateCall(llvm::Intrinsic::getDeclaration(&m, id, overloads), args);
  }
  bool allFloat = call.getType()->isFloatingPointTy();
  for (llvm::Value *a : call.args())
    allFloat &= a->getType()->isFloatingPointTy();
  llvm::StringRef variant = allFloat ? libraryInfo_.getVectorizedFunction(
                                           callee->getName(), llvm::ElementCount::getFixed(lanes_))
                                     : llvm::StringRef();
  if (!variant.empty()) {
    std::vector<llvm::Type *> types;
    for (llvm::Value *a : call.args()) {
      args.push_back(vec(a));
      types.push_back(args.back()->getType());
    }
    llvm::FunctionCallee f = m.getOrInsertFunction(
        variant, llvm::FunctionType::get(widened(call.getType()), types, false));
    return b_.CreateCall(f, args);
  }
  // A pure function without a vector variant: once per lane (inactive lanes too: it
  // has no effect).
  llvm::Value *result = llvm::PoisonValue::get(widened(call.getType()));
  for (unsigned lane = 0; lane < lanes_; ++lane) {
    std::vector<llvm::Value *> laneArgs;
    for (llvm::Value *a : call.args()) {
      llvm::Value *n = get(a);
      laneArgs.push_back(n->getType()->isVectorTy() ? b_.CreateExtractElement(n, lane) : n);
    }
    llvm::CallInst *c = b_.CreateCall(call.getFunctionType(), callee, laneArgs);
    c->setAttributes(call.getAttributes());
    result = b_.CreateInsertElement(result, c, lane);
  }
  return result;
}

void MaskedLoopWidener::emitMemory(llvm::Instruction &i, llvm::Value *mask, bool alwaysExecuted) {
  auto *load = llvm::dyn_cast<llvm::LoadInst>(&i);
  auto *store = llvm::dyn_cast<llvm::StoreInst>(&i);
  llvm::Value *pointer = load ? load->getPointerOperand() : store->getPointerOperand();
  llvm::Type *element = load ? load->getType() : store->getValueOperand()->getType();
  llvm::Align align = load ? load->getAlign() : store->getAlign();
  llvm::Instruction *made = nullptr;
  if (!varying(&i) && !(store && varying(store->getValueOperand()))) {
    // Every active lane does the same access: once, if any lane is active.
    if (alwaysExecuted) {
      made = i.clone();
      for (llvm::Use &op : made->operands())
        op.set(get(op.get()));
      b_.Insert(made);
    } else {
      llvm::Type *one = llvm::FixedVectorType::get(element, 1);
      llvm::Value *oneMask = b_.CreateVectorSplat(1, any(mask));
      if (load) {
        llvm::Value *v = b_.CreateMaskedLoad(one, get(pointer), align, oneMask);
        made = llvm::cast<llvm::Instruction>(v);
        map_[&i] = b_.CreateExtractElement(v, uint64_t(0));
        copyAccessMetadata(*made, i);
        return;
      }
      made = b_.CreateMaskedStore(b_.CreateVectorSplat(1, get(store->getValueOperand())),
                                  get(pointer), align, oneMask);
    }
  } else if (!varying(pointer)) {
    // Same address, different values: the last active lane's store stays, as when
    // the work-items run in order (scatters write lanes in order).
    made = plan_.subGroupLanes
               ? emitLaneStores(b_, *store, b_.CreateVectorSplat(lanes_, get(pointer)),
                                vec(store->getValueOperand()), mask)
               : b_.CreateMaskedScatter(vec(store->getValueOperand()),
                                        b_.CreateVectorSplat(lanes_, get(pointer)), align, mask);
  } else if (plan_.isConsecutiveAccess(&i) || plan_.isConsecutiveFromFirstActive(&i)) {
    llvm::Value *first = b_.CreateExtractElement(get(pointer), uint64_t(0));
    if (plan_.isConsecutiveFromFirstActive(&i)) {
      // Lane 0's address, from the first active lane's (lane `lanes - 1` when none is:
      // then nothing is accessed).
      llvm::Value *bits = b_.CreateBitCast(mask, b_.getIntNTy(lanes_));
      llvm::Value *lane = b_.CreateBinaryIntrinsic(
          llvm::Intrinsic::umin,
          b_.CreateIntrinsic(llvm::Intrinsic::cttz, {bits->getType()}, {bits, b_.getFalse()}),
          b_.getIntN(lanes_, lanes_ - 1));
      lane = b_.CreateZExt(lane, b_.getInt64Ty());
      first = b_.CreateGEP(element, b_.CreateExtractElement(get(pointer), lane), b_.CreateNeg(lane),
                           "first.lane.address");
    }
    if (load)
      made = plan_.laneHelpers ? emitLaneLoad(b_, *load, widened(element), first, mask)
                               : b_.CreateMaskedLoad(widened(element), first, align, mask);
    else
      made = b_.CreateMaskedStore(vec(store->getValueOperand()), first, align, mask);
  } else if (load) {
    made = b_.CreateMaskedGather(widened(element), get(pointer), align, mask);
  } else {
    made = plan_.subGroupLanes
               ? emitLaneStores(b_, *store, get(pointer), vec(store->getValueOperand()), mask)
               : b_.CreateMaskedScatter(vec(store->getValueOperand()), get(pointer), align, mask);
  }
  copyAccessMetadata(*made, i);
  if (load)
    map_[&i] = made;
}

void MaskedLoopWidener::emitInstruction(llvm::Instruction &i, llvm::Value *mask,
                                        bool alwaysExecuted) {
  if (isDroppedIntrinsic(i))
    return;
  b_.SetCurrentDebugLocation(i.getDebugLoc());
  if (llvm::isa<llvm::LoadInst>(i) || llvm::isa<llvm::StoreInst>(i))
    return emitMemory(i, mask, alwaysExecuted);
  if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&i)) { // vector copies only
    map_[&i] =
        emitLaneAtomics(b_, *rmw, vec(rmw->getPointerOperand()), vec(rmw->getValOperand()), mask);
    return;
  }
  if (auto *call = llvm::dyn_cast<llvm::CallInst>(&i);
      call && isLaneCheck(call->getCalledFunction())) { // checked kernels only
    std::vector<llvm::Value *> args;
    for (llvm::Value *a : call->args())
      args.push_back(get(a));
    return emitLaneCalls(b_, *call, args, mask);
  }
  if (auto *call = llvm::dyn_cast<llvm::CallInst>(&i);
      call && isLaneYield(call->getCalledFunction())) { // vector copies only
    std::vector<llvm::Value *> args;
    for (llvm::Value *a : call->args()) {
      llvm::Value *n = get(a);
      args.push_back(n->getType()->isVectorTy() ? b_.CreateExtractElement(n, uint64_t(0)) : n);
    }
    return emitLaneYield(b_, *call, args, mask);
  }
  if (auto *call = llvm::dyn_cast<llvm::CallInst>(&i);
      call && isSubGroupLaneOp(call->getCalledFunction())) { // vector copies only
    llvm::Value *index = call->arg_size() > 1 ? get(call->getArgOperand(1)) : nullptr;
    llvm::Value *v = emitSubGroupLaneOp(b_, *call, vec(call->getArgOperand(0)), index, mask);
    map_[&i] = varying(&i) ? b_.CreateVectorSplat(lanes_, v) : v;
    return;
  }
  if (auto *call = llvm::dyn_cast<llvm::CallInst>(&i)) {
    llvm::Value *v = emitCall(*call, varying(&i));
    nameLike(v, i);
    map_[&i] = v;
    return;
  }
  if (varying(&i))
    return emitVaryingInstruction(i, mask);
  llvm::Instruction *copy = i.clone();
  for (llvm::Use &op : copy->operands())
    op.set(get(op.get()));
  // A division no active lane reaches must not trap on the divisor it sees.
  if (mayTrapOnDivisor(i) && !alwaysExecuted)
    copy->setOperand(
        1, b_.CreateSelect(any(mask), copy->getOperand(1), llvm::ConstantInt::get(i.getType(), 1)));
  b_.Insert(copy, i.getName());
  map_[&i] = copy;
}

void MaskedLoopWidener::emitVaryingInstruction(llvm::Instruction &i, llvm::Value *mask) {
  llvm::Value *v = nullptr;
  if (auto *bin = llvm::dyn_cast<llvm::BinaryOperator>(&i)) {
    llvm::Value *rhs = vec(bin->getOperand(1));
    if (mayTrapOnDivisor(*bin)) // inactive lanes divide by 1 (safe constants stay)
      rhs = b_.CreateSelect(mask, rhs, llvm::ConstantInt::get(rhs->getType(), 1));
    v = b_.CreateBinOp(bin->getOpcode(), vec(bin->getOperand(0)), rhs);
  } else if (auto *un = llvm::dyn_cast<llvm::UnaryOperator>(&i)) {
    v = b_.CreateUnOp(un->getOpcode(), vec(un->getOperand(0)));
  } else if (auto *cast = llvm::dyn_cast<llvm::CastInst>(&i)) {
    v = b_.CreateCast(cast->getOpcode(), vec(cast->getOperand(0)), widened(cast->getType()));
  } else if (auto *cmp = llvm::dyn_cast<llvm::CmpInst>(&i)) {
    v = b_.CreateCmp(cmp->getPredicate(), vec(cmp->getOperand(0)), vec(cmp->getOperand(1)));
  } else if (auto *sel = llvm::dyn_cast<llvm::SelectInst>(&i)) {
    llvm::Value *c =
        varying(sel->getCondition()) ? vec(sel->getCondition()) : get(sel->getCondition());
    v = b_.CreateSelect(c, vec(sel->getTrueValue()), vec(sel->getFalseValue()));
  } else if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(&i)) {
    std::vector<llvm::Value *> indices;
    for (llvm::Value *idx : gep->indices())
      indices.push_back(get(idx));
    llvm::Value *base = get(gep->getPointerOperand());
    // A vector GEP needs a vector base or at least one vector index.
    if (!base->getType()->isVectorTy())
      base = b_.CreateVectorSplat(lanes_, base);
    v = b_.CreateGEP(gep->getSourceElementType(), base, indices, "", gep->isInBounds());
  } else if (auto *fr = llvm::dyn_cast<llvm::FreezeInst>(&i)) {
    v = b_.CreateFreeze(vec(fr->getOperand(0)));
  }
  if (auto *made = llvm::dyn_cast<llvm::Instruction>(v))
    if (made->getOpcode() == i.getOpcode())
      made->copyIRFlags(&i);
  nameLike(v, i);
  map_[&i] = v;
}

void MaskedLoopWidener::emitBlock(llvm::Loop *level, llvm::BasicBlock *block, llvm::Value *mask,
                                  std::map<llvm::BasicBlock *, std::vector<Edge>> &incoming,
                                  LevelResult &out) {
  if (block != level->getHeader())
    for (llvm::PHINode &phi : block->phis())
      map_[&phi] = blend(phi, incoming[block]);
  // Blocks of the work-item loop's own level that every work-item runs: some lane is
  // active there, so uniform loads and stores need no check.
  bool alwaysExecuted = level == &loop_ && dominators_.dominates(block, loop_.getLoopLatch());
  for (llvm::Instruction &i : *block)
    if (!llvm::isa<llvm::PHINode>(i) && !i.isTerminator())
      emitInstruction(i, mask, alwaysExecuted);
  if (level == &loop_ && block == loop_.getLoopLatch())
    return; // the work-item loop's own branch

  // The lanes taking each successor.
  llvm::Instruction *term = block->getTerminator();
  b_.SetCurrentDebugLocation(term->getDebugLoc());
  std::vector<std::pair<llvm::BasicBlock *, llvm::Value *>> taken;
  if (auto *br = llvm::dyn_cast<llvm::BranchInst>(term)) {
    if (br->isUnconditional()) {
      taken.push_back({br->getSuccessor(0), mask});
    } else {
      llvm::Value *c = br->getCondition();
      llvm::Value *lanes = varying(c) ? vec(c) : b_.CreateVectorSplat(lanes_, get(c));
      // Logical ands: an inactive lane's condition may be poison (it computed on
      // whatever it had), its mask bit must still be false.
      taken.push_back({br->getSuccessor(0), b_.CreateLogicalAnd(mask, lanes)});
      taken.push_back({br->getSuccessor(1), b_.CreateLogicalAnd(mask, b_.CreateNot(lanes))});
    }
  } else {
    auto *sw = llvm::cast<llvm::SwitchInst>(term);
    llvm::Value *c = vec(sw->getCondition());
    llvm::Value *rest = mask;
    for (auto &kase : sw->cases()) {
      llvm::Value *hit = b_.CreateLogicalAnd(mask, b_.CreateICmpEQ(c, vec(kase.getCaseValue())));
      taken.push_back({kase.getCaseSuccessor(), hit});
      rest = b_.CreateLogicalAnd(rest, b_.CreateNot(hit));
    }
    taken.push_back({sw->getDefaultDest(), rest});
  }
  // One edge per successor (a switch may name one several times).
  std::map<llvm::BasicBlock *, llvm::Value *> bySuccessor;
  std::vector<llvm::BasicBlock *> successors;
  for (auto &[succ, m] : taken) {
    if (!bySuccessor.count(succ))
      successors.push_back(succ);
    bySuccessor[succ] = orMask(bySuccessor[succ], m);
  }
  for (llvm::BasicBlock *succ : successors) {
    Edge e;
    e.mask = bySuccessor[succ];
    for (llvm::PHINode &phi : succ->phis())
      e.values[&phi] = get(phi.getIncomingValueForBlock(block));
    if (succ == level->getHeader()) {
      out.continueMask = e.mask;
      out.latchValues = std::move(e.values);
    } else if (!level->contains(succ)) {
      out.exits[succ].push_back(std::move(e));
    } else {
      incoming[succ].push_back(std::move(e));
    }
  }
}

void MaskedLoopWidener::emitLevel(llvm::Loop *level, llvm::Value *entryMask, LevelResult &out) {
  std::map<llvm::BasicBlock *, std::vector<Edge>> incoming;
  for (llvm::BasicBlock *node : plan_.order(level)) {
    if (loops_.getLoopFor(node) != level) {
      llvm::Loop *inner = plan_.childLoopAt(level, node);
      for (auto &[exit, edge] : emitInnerLoop(inner, incoming[node])) {
        if (level->contains(exit))
          incoming[exit].push_back(std::move(edge));
        else
          out.exits[exit].push_back(std::move(edge));
      }
      continue;
    }
    llvm::Value *mask = entryMask;
    if (node != level->getHeader()) {
      mask = nullptr;
      for (const Edge &e : incoming[node])
        mask = orMask(mask, e.mask);
    }
    emitBlock(level, node, mask, incoming, out);
  }
}

// An inner loop: repeated while any lane takes its back edge; each exit collects the
// lanes that left by it and the values they took along.
std::vector<std::pair<llvm::BasicBlock *, Edge>>
MaskedLoopWidener::emitInnerLoop(llvm::Loop *inner, std::vector<Edge> &entries) {
  llvm::LLVMContext &c = b_.getContext();
  llvm::Function *f = b_.GetInsertBlock()->getParent();
  llvm::Value *entryMask = nullptr;
  for (const Edge &e : entries)
    entryMask = orMask(entryMask, e.mask);
  // The header phis' start values are blended before the loop: blending emits selects,
  // which must not come between the header's phis.
  std::vector<llvm::Value *> starts;
  for (llvm::PHINode &phi : inner->getHeader()->phis())
    starts.push_back(blend(phi, entries));
  llvm::BasicBlock *before = b_.GetInsertBlock();
  auto *header = llvm::BasicBlock::Create(c, inner->getHeader()->getName() + ".lanes", f);
  auto *after = llvm::BasicBlock::Create(c, inner->getHeader()->getName() + ".lanes.exit", f);
  b_.CreateCondBr(any(entryMask), header, after); // no lane enters: skip it

  b_.SetInsertPoint(header);
  llvm::Type *maskType = widened(b_.getInt1Ty());
  llvm::PHINode *active = b_.CreatePHI(maskType, 2, "lanes.active");
  active->addIncoming(entryMask, before);
  std::vector<llvm::PHINode *> headerPhis;
  size_t k = 0;
  for (llvm::PHINode &phi : inner->getHeader()->phis()) {
    llvm::Value *start = starts[k++];
    llvm::PHINode *n = b_.CreatePHI(start->getType(), 2, phi.getName());
    n->addIncoming(start, before);
    map_[&phi] = n;
    headerPhis.push_back(&phi);
  }
  llvm::SmallVector<llvm::BasicBlock *, 4> exitBlocks;
  inner->getUniqueExitBlocks(exitBlocks);
  struct Collected {
    llvm::PHINode *mask;
    llvm::DenseMap<llvm::PHINode *, llvm::PHINode *> values;
  };
  std::map<llvm::BasicBlock *, Collected> collected;
  for (llvm::BasicBlock *exit : exitBlocks) {
    Collected &col = collected[exit];
    col.mask = b_.CreatePHI(maskType, 2, "lanes.left");
    col.mask->addIncoming(noLanes(), before);
    for (llvm::PHINode &phi : exit->phis()) {
      llvm::Type *t = varying(&phi) ? widened(phi.getType()) : phi.getType();
      col.values[&phi] = b_.CreatePHI(t, 2, phi.getName() + ".left");
      col.values[&phi]->addIncoming(llvm::PoisonValue::get(t), before);
    }
  }

  LevelResult body;
  emitLevel(inner, active, body);
  std::map<llvm::BasicBlock *,
           std::pair<llvm::Value *, llvm::DenseMap<llvm::PHINode *, llvm::Value *>>>
      now;
  for (llvm::BasicBlock *exit : exitBlocks) {
    Collected &col = collected[exit];
    llvm::Value *mask = col.mask;
    llvm::DenseMap<llvm::PHINode *, llvm::Value *> values;
    for (llvm::PHINode &phi : exit->phis())
      values[&phi] = col.values[&phi];
    for (Edge &e : body.exits[exit]) {
      mask = b_.CreateOr(mask, e.mask);
      for (llvm::PHINode &phi : exit->phis()) { // in block order: reproducible builds
        llvm::Value *&acc = values[&phi];
        llvm::Value *v = e.values.lookup(&phi);
        if (acc->getType()->isVectorTy()) {
          if (!v->getType()->isVectorTy())
            v = b_.CreateVectorSplat(lanes_, v);
          acc = b_.CreateSelect(e.mask, v, acc);
        } else {
          acc = b_.CreateSelect(any(e.mask), v, acc);
        }
      }
    }
    now[exit] = {mask, values};
  }
  llvm::BasicBlock *end = b_.GetInsertBlock();
  llvm::Value *again = body.continueMask ? body.continueMask : noLanes();
  active->addIncoming(again, end);
  for (llvm::PHINode *phi : headerPhis) {
    llvm::Value *v = body.latchValues.lookup(phi);
    auto *n = llvm::cast<llvm::PHINode>(map_[phi]);
    if (n->getType()->isVectorTy() && !v->getType()->isVectorTy())
      v = b_.CreateVectorSplat(lanes_, v);
    n->addIncoming(v, end);
  }
  for (llvm::BasicBlock *exit : exitBlocks) {
    collected[exit].mask->addIncoming(now[exit].first, end);
    for (llvm::PHINode &phi : exit->phis())
      collected[exit].values[&phi]->addIncoming(now[exit].second[&phi], end);
  }
  b_.CreateCondBr(any(again), header, after);

  b_.SetInsertPoint(after);
  std::vector<std::pair<llvm::BasicBlock *, Edge>> result;
  for (llvm::BasicBlock *exit : exitBlocks) {
    Edge e;
    llvm::PHINode *mask = b_.CreatePHI(maskType, 2, "lanes.out");
    mask->addIncoming(noLanes(), before);
    mask->addIncoming(now[exit].first, end);
    e.mask = mask;
    for (llvm::PHINode &phi : exit->phis()) {
      llvm::Value *v = now[exit].second[&phi];
      llvm::PHINode *out = b_.CreatePHI(v->getType(), 2, phi.getName());
      out->addIncoming(llvm::PoisonValue::get(v->getType()), before);
      out->addIncoming(v, end);
      e.values[&phi] = out;
    }
    result.emplace_back(exit, std::move(e));
  }
  return result;
}

void MaskedLoopWidener::vectorise() {
  llvm::LLVMContext &c = b_.getContext();
  llvm::BasicBlock *preheader = loop_.getLoopPreheader();
  llvm::BasicBlock *exit = loop_.getExitBlock();
  llvm::Function *f = preheader->getParent();
  const llvm::DataLayout &layout = f->getDataLayout();

  llvm::SCEVExpander expander(scev_, layout, "items");
  llvm::Value *backedges = expander.expandCodeFor(scev_.getBackedgeTakenCount(&loop_), nullptr,
                                                  preheader->getTerminator());
  b_.SetInsertPoint(preheader->getTerminator());
  b_.SetCurrentDebugLocation(preheader->getTerminator()->getDebugLoc());
  llvm::Value *items = b_.CreateAdd(b_.CreateZExt(backedges, b_.getInt64Ty()), b_.getInt64(1));
  llvm::Value *itemsSplat = b_.CreateVectorSplat(lanes_, items);
  std::vector<llvm::Constant *> laneNumbers;
  for (unsigned lane = 0; lane < lanes_; ++lane)
    laneNumbers.push_back(b_.getInt64(lane));
  llvm::Constant *laneVector = llvm::ConstantVector::get(laneNumbers);

  auto *header = llvm::BasicBlock::Create(c, "items.lanes", f, loop_.getHeader());
  preheader->getTerminator()->eraseFromParent();
  b_.SetInsertPoint(preheader);
  b_.CreateBr(header);
  b_.SetInsertPoint(header);
  llvm::PHINode *first = b_.CreatePHI(b_.getInt64Ty(), 2, "item.first");
  first->addIncoming(b_.getInt64(0), preheader);
  llvm::Value *lane = b_.CreateAdd(b_.CreateVectorSplat(lanes_, first), laneVector, "item.lanes");
  llvm::Value *mask = b_.CreateICmpULT(lane, itemsSplat, "items.active");
  for (llvm::PHINode &phi : loop_.getHeader()->phis()) {
    const llvm::APInt &step = plan_.step(&phi);
    llvm::Type *t = phi.getType();
    llvm::Value *start = phi.getIncomingValueForBlock(preheader);
    llvm::Value *offset = b_.CreateMul(b_.CreateZExtOrTrunc(lane, widened(t)),
                                       llvm::ConstantInt::get(widened(t), step));
    map_[&phi] = b_.CreateAdd(b_.CreateVectorSplat(lanes_, start), offset, phi.getName());
  }

  LevelResult body;
  emitLevel(&loop_, mask, body);
  llvm::Value *next = b_.CreateAdd(first, b_.getInt64(lanes_), "item.next");
  first->addIncoming(next, b_.GetInsertBlock());
  llvm::BranchInst *latch = b_.CreateCondBr(b_.CreateICmpULT(next, items), header, exit);
  // Done: LLVM's loop vectoriser is not to widen the widened loop again.
  llvm::Metadata *done[] = {
      llvm::MDString::get(c, "llvm.loop.isvectorized"),
      llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(c), 1))};
  llvm::MDNode *loopId = llvm::MDNode::getDistinct(c, {nullptr, llvm::MDNode::get(c, done)});
  loopId->replaceOperandWith(0, loopId);
  latch->setMetadata(llvm::LLVMContext::MD_loop, loopId);

  // The scalar loop is now unreachable.
  for (llvm::PHINode &phi : llvm::make_early_inc_range(exit->phis()))
    phi.eraseFromParent();
  std::vector<llvm::BasicBlock *> dead(loop_.block_begin(), loop_.block_end());
  for (llvm::BasicBlock *block : dead)
    block->dropAllReferences();
  for (llvm::BasicBlock *block : dead)
    block->eraseFromParent();
}

// A vector register's worth of the widest floating-point or 32-bit value in the loop.
// 64-bit integers (sizes and indices: get_global_id is a size_t) do not count: they take

} // namespace

void widenWorkItemLoop(MaskedWorkItemLoop &loop, const llvm::TargetLibraryInfo &libraryInfo,
                       unsigned lanes) {
  MaskedLoopWidener(loop, libraryInfo, lanes).vectorise();
}

} // namespace fibercl::compiler

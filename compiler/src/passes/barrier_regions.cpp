// planBarrierRegions (barrier_regions.hpp): continuation-style splitting of a kernel
// body at its barriers (Karrenberg & Hack, CC'12; AdaptiveCpp's CBS).
//
// The body is cloned into one "step" function that takes the region to resume as a
// parameter. Each barrier ends its block: the values live after it are stored to the
// work-item's slots and the step returns the barrier's site. A reload block per barrier
// loads them back (or recomputes them, when they are cheap functions of the arguments
// and the group's ctx) and continues where the barrier was; an SSA update makes every
// later use see the right definition. Private arrays whose contents or addresses live
// across a barrier move into the work-item's block of `frames`. The step is then
// cloned once per region with the resume point constant, so each region keeps only
// the code between its start and the barriers that end it, and each becomes a plain
// work-item loop in the work-group function (vectorisable like barrier-free code).
//
// Nothing here depends on loops being reducible or barriers being outside loops: a
// barrier in a loop is a return inside it, and its region resumes inside it.
// Work-items run in the same order as on fibers (item 0 to the first barrier, then
// item 1, ...), so results and races on __local memory are the same.
#include "barrier_regions.hpp"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SetVector.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/SSAUpdater.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include "fibercl/kernel_abi.h"
#include "passes.hpp"

namespace fibercl::compiler {

bool RegionPlan::needsExitArray() const {
  if (subGroupWidth)
    return true;
  for (const Region &r : regions)
    if (r.exits.size() > 1)
      return true;
  return false;
}

std::string fibersRequiredFor(const llvm::Function &body) {
  if (const char *env = std::getenv("FIBERCL_BARRIERS"))
    if (std::string(env) == "fibers")
      return "FIBERCL_BARRIERS=fibers";
  if (body.hasFnAttribute(kCooperativeAttr))
    return "cooperative kernel (forked groups resume inside work-items)";
  if (body.hasFnAttribute(kSubGroupYieldsAttr))
    return "a sub-group may wait for another (a loop with atomics in a kernel with sub-group "
           "barriers: the work-items switch inside it)";
  return "";
}

namespace {

// Limits past which a kernel stays on fibers.
constexpr uint64_t kMaxBytesPerItem = 64 * 1024;        // frames per work-item
constexpr uint64_t kMaxLivenessSteps = 50'000'000;      // analysis effort
constexpr uint64_t kMaxRegionInstructions = 1'500'000;  // code over all regions
constexpr unsigned kMaxRematInstructions = 12;          // recomputed per value
constexpr unsigned kMaxLaunchConstantInstructions = 48; // likewise, launch constants

struct BarrierPoint {
  llvm::CallInst *call = nullptr;
  uint32_t site = 0;
  llvm::BasicBlock *before = nullptr; // ends where the barrier was
  llvm::BasicBlock *resume = nullptr; // starts after it
  llvm::BasicBlock *reload = nullptr;
  std::vector<llvm::Instruction *> live; // values live across it
};

// The split of one body. Parameters of the step: the body's, then frames, index, n,
// resume.
class Splitter {
public:
  Splitter(llvm::Function &body, RegionPlan &plan) : body_(body), plan_(plan) {}
  bool run(std::string &why);

private:
  llvm::Function &body_;
  RegionPlan &plan_;
  llvm::Function *step_ = nullptr;
  llvm::BasicBlock *entry_ = nullptr; // the step's dispatch block
  llvm::Value *ctx_ = nullptr, *frames_ = nullptr, *n64_ = nullptr, *index64_ = nullptr;
  // Values the same for every work-item at a barrier live once per group, read from
  // `uniform.in` (what the previous round's barrier stored) and written to
  // `uniform.out` (the driver swaps them every round: item 0 must not overwrite what
  // item 1 has yet to read).
  llvm::Value *uniformIn_ = nullptr, *uniformOut_ = nullptr;
  std::set<const llvm::Value *> divergent_;
  llvm::DenseMap<llvm::Instruction *, uint64_t> uniformOffset_;
  std::vector<BarrierPoint> barriers_;
  llvm::SetVector<llvm::Instruction *> liveAnywhere_; // in program order
  std::vector<llvm::AllocaInst *> moved_;
  llvm::DenseMap<llvm::Instruction *, uint64_t> slotOffset_; // per-item area offset
  std::set<llvm::Instruction *> remat_;
  // Per barrier site: each live value's reloaded (or recomputed) copy.
  std::map<uint32_t, llvm::DenseMap<llvm::Value *, llvm::Value *>> reloaded_;

  void createStep();
  void splitAtBarriers();
  bool computeLiveness(std::string &why);
  bool moveArrays(std::string &why);
  void computeDivergence();
  bool isCtxField(const llvm::LoadInst *load) const;
  bool chooseSlots(std::string &why);
  void rewriteBarriers();
  void updateSsa();
  bool makeRegions(std::string &why);

  bool available(const llvm::Value *v) const {
    auto *i = llvm::dyn_cast<llvm::Instruction>(v);
    return !i || i->getParent() == entry_; // arguments, constants, the dispatch block
  }
  bool canRematerialise(llvm::Instruction *i, unsigned &budget, bool launchConstant = false) const;
  llvm::Value *rematerialise(llvm::Value *v, llvm::IRBuilder<> &b,
                             llvm::DenseMap<llvm::Value *, llvm::Value *> &done);
  llvm::Value *slotAddress(llvm::IRBuilder<> &b, llvm::Instruction *v, bool store);
  const llvm::DataLayout &layout() const { return body_.getParent()->getDataLayout(); }
};

void Splitter::createStep() {
  llvm::Module &m = *body_.getParent();
  llvm::LLVMContext &c = m.getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(c);
  std::vector<llvm::Type *> params(body_.getFunctionType()->param_begin(),
                                   body_.getFunctionType()->param_end());
  llvm::Type *i64 = llvm::Type::getInt64Ty(c);
  llvm::Type *ptr = llvm::PointerType::get(c, 0);
  params.insert(params.end(), {ptr, i64, i64, ptr, ptr, i32});
  auto *type = llvm::FunctionType::get(i32, params, false);
  step_ = llvm::Function::Create(type, llvm::GlobalValue::InternalLinkage,
                                 body_.getName() + ".step", m);
  llvm::ValueToValueMapTy vmap;
  for (unsigned i = 0; i < body_.arg_size(); ++i) {
    vmap[body_.getArg(i)] = step_->getArg(i);
    step_->getArg(i)->setName(body_.getArg(i)->getName());
  }
  llvm::SmallVector<llvm::ReturnInst *, 8> returns;
  llvm::CloneFunctionInto(step_, &body_, vmap, llvm::CloneFunctionChangeType::LocalChangesOnly,
                          returns);
  for (const char *attr : {kKernelAttr, kBarriersAttr, kPrintfAttr, kLocalSizeAttr, kYieldsAttr,
                           kMayBlockAttr, kCooperativeAttr})
    step_->removeFnAttr(attr);
  for (llvm::ReturnInst *ret : returns) {
    auto *end = llvm::ReturnInst::Create(c, llvm::ConstantInt::get(i32, 0), ret);
    end->setDebugLoc(ret->getDebugLoc());
    ret->eraseFromParent();
  }
  unsigned n = body_.arg_size();
  ctx_ = step_->getArg(n - 4);
  frames_ = step_->getArg(n);
  frames_->setName("frames");
  // Not noalias: once inlined into a loop, that would put a scope declaration in
  // every iteration; the driver's frames come from a noalias call anyway.
  step_->getArg(n + 1)->setName("index");
  step_->getArg(n + 2)->setName("n");
  step_->getArg(n + 3)->setName("uniform.in");
  step_->getArg(n + 4)->setName("uniform.out");
  step_->getArg(n + 5)->setName("resume");
  llvm::removeUnreachableBlocks(*step_);

  llvm::BasicBlock *first = &step_->getEntryBlock();
  entry_ = llvm::BasicBlock::Create(c, "regions.entry", step_, first);
  llvm::IRBuilder<> b(entry_);
  n64_ = step_->getArg(n + 2);
  index64_ = step_->getArg(n + 1);
  uniformIn_ = step_->getArg(n + 3);
  uniformOut_ = step_->getArg(n + 4);
  b.CreateBr(first); // becomes the dispatch on `resume` (rewriteBarriers)
}

void Splitter::splitAtBarriers() {
  std::vector<llvm::CallInst *> calls;
  for (llvm::BasicBlock &bb : *step_)
    for (llvm::Instruction &i : bb)
      if (isHostBarrier(&i))
        calls.push_back(llvm::cast<llvm::CallInst>(&i));
  for (llvm::CallInst *call : calls) {
    // The barrier's own fences (isBarrierFence) keep the compiler from moving memory
    // accesses across the opaque barrier call. Here the barrier becomes the end of a
    // work-item loop, which orders them by itself (the group's work-items run in
    // program order on one thread), and the fences would keep the loops from being
    // vectorised.
    for (llvm::Instruction *near :
         {call->getPrevNonDebugInstruction(), call->getNextNonDebugInstruction()})
      if (near && llvm::isa<llvm::FenceInst>(near))
        near->eraseFromParent();
    BarrierPoint p;
    p.call = call;
    p.site = uint32_t(llvm::cast<llvm::ConstantInt>(call->getArgOperand(1))->getZExtValue());
    if (call->getCalledFunction()->getName() == FIBERCL_HOST_SUB_GROUP_BARRIER)
      plan_.subGroupWidth =
          uint32_t(llvm::cast<llvm::ConstantInt>(call->getArgOperand(2))->getZExtValue());
    p.before = call->getParent();
    p.resume = p.before->splitBasicBlock(call->getNextNode(), "resume." + llvm::Twine(p.site));
    barriers_.push_back(p);
  }
}

// SSA liveness per value: walk back from each use to the definition; a value is live
// across a barrier if it is live on entry to the block that resumes after it.
bool Splitter::computeLiveness(std::string &why) {
  llvm::DenseMap<llvm::BasicBlock *, std::vector<size_t>> resumeOf;
  for (size_t k = 0; k < barriers_.size(); ++k)
    resumeOf[barriers_[k].resume].push_back(k);
  uint64_t steps = 0;
  llvm::SmallPtrSet<llvm::BasicBlock *, 32> liveIn;
  llvm::SmallVector<llvm::BasicBlock *, 64> work;
  for (llvm::BasicBlock &bb : *step_) {
    if (&bb == entry_)
      continue;
    for (llvm::Instruction &v : bb) {
      liveIn.clear();
      for (llvm::Use &u : v.uses()) {
        auto *user = llvm::cast<llvm::Instruction>(u.getUser());
        llvm::BasicBlock *at = user->getParent();
        if (auto *phi = llvm::dyn_cast<llvm::PHINode>(user))
          at = phi->getIncomingBlock(u); // used at the end of the incoming block
        if (at != &bb && liveIn.insert(at).second)
          work.push_back(at);
      }
      while (!work.empty()) {
        llvm::BasicBlock *at = work.pop_back_val();
        for (llvm::BasicBlock *pred : llvm::predecessors(at))
          if (pred != &bb && liveIn.insert(pred).second)
            work.push_back(pred);
        if (++steps > kMaxLivenessSteps) {
          why = "too large to analyse (liveness across barriers)";
          return false;
        }
      }
      for (llvm::BasicBlock *in : liveIn) {
        auto it = resumeOf.find(in);
        if (it == resumeOf.end())
          continue;
        for (size_t k : it->second)
          barriers_[k].live.push_back(&v);
        liveAnywhere_.insert(&v);
      }
    }
  }
  return true;
}

// Private arrays (allocas left after SROA) whose address, or anything derived from it,
// lives across a barrier -- or escapes into memory -- move to the work-item's block.
bool Splitter::moveArrays(std::string &why) {
  std::vector<llvm::AllocaInst *> allocas;
  for (llvm::BasicBlock &bb : *step_)
    for (llvm::Instruction &i : bb)
      if (auto *a = llvm::dyn_cast<llvm::AllocaInst>(&i))
        allocas.push_back(a);
  uint64_t offset = 0;
  std::vector<std::pair<llvm::AllocaInst *, uint64_t>> placed;
  for (llvm::AllocaInst *a : allocas) {
    bool move = false;
    llvm::SmallPtrSet<llvm::Instruction *, 16> derived;
    llvm::SmallVector<llvm::Instruction *, 16> work{a};
    derived.insert(a);
    while (!work.empty() && !move) {
      llvm::Instruction *p = work.pop_back_val();
      if (liveAnywhere_.count(p))
        move = true;
      for (llvm::User *u : p->users()) {
        auto *ui = llvm::cast<llvm::Instruction>(u);
        if (auto *store = llvm::dyn_cast<llvm::StoreInst>(ui)) {
          if (store->getValueOperand() == p)
            move = true; // the address escapes into memory
        } else if (llvm::isa<llvm::GetElementPtrInst, llvm::CastInst, llvm::PHINode,
                             llvm::SelectInst>(ui)) {
          if (derived.insert(ui).second)
            work.push_back(ui);
        }
      }
    }
    if (!move)
      continue;
    auto size = a->getAllocationSize(layout());
    if (!size || size->isScalable()) {
      why = "a private array of run-time size lives across a barrier";
      return false;
    }
    uint64_t align = a->getAlign().value();
    if (align > kFramesAlign) {
      why = "a private array aligned to more than 64 bytes lives across a barrier";
      return false;
    }
    offset = (offset + align - 1) / align * align;
    placed.push_back({a, offset});
    offset += size->getFixedValue();
  }
  plan_.privateBytes = (offset + kFramesAlign - 1) / kFramesAlign * kFramesAlign;
  if (plan_.privateBytes > kMaxBytesPerItem) {
    why = "private arrays live across barriers take " + std::to_string(plan_.privateBytes) +
          " bytes per work-item (more than 64 KiB)";
    return false;
  }
  if (placed.empty())
    return true;

  llvm::IRBuilder<> b(entry_->getTerminator());
  llvm::Value *block =
      b.CreateGEP(b.getInt8Ty(), frames_, b.CreateMul(index64_, b.getInt64(plan_.privateBytes)),
                  "private.block");
  for (auto [a, at] : placed) {
    // Lifetime markers name the alloca itself; its storage is now the group's.
    std::vector<llvm::Instruction *> markers;
    for (llvm::User *u : a->users())
      if (auto *ii = llvm::dyn_cast<llvm::IntrinsicInst>(u))
        if (ii->isLifetimeStartOrEnd())
          markers.push_back(ii);
    for (llvm::Instruction *mk : markers)
      mk->eraseFromParent();
    llvm::Value *p = b.CreateConstGEP1_64(b.getInt8Ty(), block, at, a->getName());
    if (p->getType() != a->getType())
      p = b.CreateAddrSpaceCast(p, a->getType());
    a->replaceAllUsesWith(p);
    liveAnywhere_.remove(a);
    for (BarrierPoint &bp : barriers_)
      bp.live.erase(std::remove(bp.live.begin(), bp.live.end(), a), bp.live.end());
    a->eraseFromParent();
    ++plan_.movedArrays;
  }
  return true;
}

// A load of a field of the group's ctx: not modified while the group runs
// (kernel_abi.h), the same for every work-item.
bool Splitter::isCtxField(const llvm::LoadInst *load) const {
  if (!load->isSimple())
    return false;
  const llvm::Value *p = load->getPointerOperand();
  while (true) {
    if (auto *gep = llvm::dyn_cast<llvm::GEPOperator>(p); gep && gep->hasAllConstantIndices())
      p = gep->getPointerOperand();
    else if (auto *cast = llvm::dyn_cast<llvm::Operator>(p);
             cast && (cast->getOpcode() == llvm::Instruction::AddrSpaceCast ||
                      cast->getOpcode() == llvm::Instruction::BitCast))
      p = cast->getOperand(0);
    else
      break;
  }
  return p == ctx_;
}

// Which values may differ between work-items (conservatively): the local ids and
// what depends on them, every memory read but ctx fields (another work-item may have
// written in between), and, below a branch on such a value, the phis where its paths
// meet again (up to and at its immediate post-dominator) and everything in a loop the
// branch can leave (a loop left at different iterations). A branch inside a loop whose
// paths meet again inside it (`for (s = n / 2; s > 0; s >>= 1) { if (lid < s) ...;
// barrier(...); }`) leaves the loop's own values uniform. Where the post-dominator or
// the loops are not known (no join, irreducible cycles), every phi below the branch and
// every cycle through it count as divergent.
void Splitter::computeDivergence() {
  unsigned nb = body_.arg_size();
  for (unsigned k = nb - 3; k < nb; ++k)
    divergent_.insert(step_->getArg(k));
  divergent_.insert(index64_);
  llvm::DominatorTree dominators(*step_);
  llvm::LoopInfo loops(dominators);
  llvm::PostDominatorTree postDominators(*step_);
  std::set<llvm::BasicBlock *> branches, reached, cyclic;
  auto addBranch = [&](llvm::BasicBlock *from) {
    std::vector<llvm::BasicBlock *> work(llvm::succ_begin(from), llvm::succ_end(from));
    std::set<llvm::BasicBlock *> below; // every block the branch leads to
    while (!work.empty()) {
      llvm::BasicBlock *bb = work.back();
      work.pop_back();
      if (below.insert(bb).second)
        work.insert(work.end(), llvm::succ_begin(bb), llvm::succ_end(bb));
    }
    std::set<llvm::BasicBlock *> back;
    work.assign(llvm::pred_begin(from), llvm::pred_end(from));
    while (!work.empty()) {
      llvm::BasicBlock *bb = work.back();
      work.pop_back();
      if (back.insert(bb).second)
        work.insert(work.end(), llvm::pred_begin(bb), llvm::pred_end(bb));
    }
    std::set<llvm::BasicBlock *> cycles; // blocks on a cycle through the branch
    for (llvm::BasicBlock *bb : below)
      if (back.count(bb))
        cycles.insert(bb);
    // The loops the branch can leave: its paths meet again only outside them.
    llvm::DomTreeNode *node = postDominators.getNode(from);
    llvm::BasicBlock *join = node && node->getIDom() ? node->getIDom()->getBlock() : nullptr;
    std::set<llvm::BasicBlock *> left;
    for (llvm::Loop *l = loops.getLoopFor(from); l; l = l->getParentLoop())
      if (!join || !l->contains(join))
        left.insert(l->block_begin(), l->block_end());
    std::set<llvm::BasicBlock *> inLoops;
    for (llvm::Loop *l = loops.getLoopFor(from); l; l = l->getParentLoop())
      inLoops.insert(l->block_begin(), l->block_end());
    bool known = join != nullptr &&
                 std::includes(inLoops.begin(), inLoops.end(), cycles.begin(), cycles.end());
    if (!known) {
      reached.insert(below.begin(), below.end());
      cyclic.insert(cycles.begin(), cycles.end());
      return;
    }
    work.assign(llvm::succ_begin(from), llvm::succ_end(from));
    std::set<llvm::BasicBlock *> apart; // on the paths, up to where they meet
    while (!work.empty()) {
      llvm::BasicBlock *bb = work.back();
      work.pop_back();
      if (bb != join && apart.insert(bb).second)
        work.insert(work.end(), llvm::succ_begin(bb), llvm::succ_end(bb));
    }
    reached.insert(apart.begin(), apart.end());
    reached.insert(join);
    cyclic.insert(left.begin(), left.end());
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (llvm::BasicBlock &bb : *step_) {
      for (llvm::Instruction &i : bb) {
        if (divergent_.count(&i))
          continue;
        bool d = cyclic.count(&bb) > 0;
        if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&i))
          d = d || !isCtxField(load);
        else if (llvm::isa<llvm::AllocaInst>(i) || i.mayReadOrWriteMemory() ||
                 i.mayHaveSideEffects())
          d = true;
        if (llvm::isa<llvm::PHINode>(i) && reached.count(&bb))
          d = true;
        for (llvm::Value *op : i.operands())
          d = d || divergent_.count(op) > 0;
        if (d) {
          divergent_.insert(&i);
          changed = true;
        }
      }
      llvm::Instruction *term = bb.getTerminator();
      llvm::Value *cond = nullptr;
      if (auto *br = llvm::dyn_cast<llvm::BranchInst>(term); br && br->isConditional())
        cond = br->getCondition();
      else if (auto *sw = llvm::dyn_cast<llvm::SwitchInst>(term))
        cond = sw->getCondition();
      if (cond && divergent_.count(cond) && branches.insert(&bb).second) {
        addBranch(&bb);
        changed = true;
      }
    }
  }
}

// `launchConstant`: and computed without the work-item's ids, so the same for the whole
// launch (a race check's `argument is race-free`): LICM takes it out of the work-item
// loops, which then test it once, so it may take more instructions.
bool Splitter::canRematerialise(llvm::Instruction *i, unsigned &budget, bool launchConstant) const {
  if (budget == 0)
    return false;
  --budget;
  if (llvm::isa<llvm::PHINode, llvm::AllocaInst>(i) || i->isTerminator() ||
      i->getType()->isTokenTy())
    return false;
  // A load of memory that never changes (the launch's check table, through a ctx
  // field) reads the same after the barrier.
  auto *load = llvm::dyn_cast<llvm::LoadInst>(i);
  if (load && isCtxField(load))
    return true;
  if (!(load && load->isSimple() && load->hasMetadata(llvm::LLVMContext::MD_invariant_load)) &&
      (i->mayReadOrWriteMemory() || i->mayHaveSideEffects()))
    return false;
  for (llvm::Value *op : i->operands()) {
    auto *arg = llvm::dyn_cast<llvm::Argument>(op);
    if (launchConstant && arg && arg->getArgNo() + 3 >= body_.arg_size()) // x, y, z
      return false;
    if (available(op))
      continue;
    auto *oi = llvm::dyn_cast<llvm::Instruction>(op);
    if (!oi || !canRematerialise(oi, budget, launchConstant))
      return false;
  }
  return true;
}

llvm::Value *Splitter::rematerialise(llvm::Value *v, llvm::IRBuilder<> &b,
                                     llvm::DenseMap<llvm::Value *, llvm::Value *> &done) {
  if (available(v))
    return v;
  auto it = done.find(v);
  if (it != done.end())
    return it->second;
  auto *i = llvm::cast<llvm::Instruction>(v);
  llvm::Instruction *copy = i->clone();
  for (unsigned k = 0; k < i->getNumOperands(); ++k)
    copy->setOperand(k, rematerialise(i->getOperand(k), b, done));
  b.Insert(copy, i->getName() + ".again");
  done[v] = copy;
  return copy;
}

// Values live across barriers: recomputed after the barrier when that is cheap,
// otherwise given a slot (one array per value, indexed by work-item: consecutive
// work-items touch consecutive addresses, as vector code wants).
bool Splitter::chooseSlots(std::string &why) {
  std::vector<llvm::Instruction *> spilled;
  for (llvm::Instruction *v : liveAnywhere_) {
    unsigned budget = kMaxRematInstructions, more = kMaxLaunchConstantInstructions;
    if (canRematerialise(v, budget) || canRematerialise(v, more, true)) {
      remat_.insert(v);
      continue;
    }
    llvm::Type *t = v->getType();
    if (!t->isSized() || t->isTokenTy()) {
      why = "a value of a type that cannot be stored lives across a barrier";
      return false;
    }
    if (layout().getABITypeAlign(t).value() > kFramesAlign) {
      why = "a value aligned to more than 64 bytes lives across a barrier";
      return false;
    }
    spilled.push_back(v);
  }
  // Largest alignment first, so every array starts aligned for its type.
  std::stable_sort(spilled.begin(), spilled.end(), [&](auto *a, auto *b) {
    return layout().getABITypeAlign(a->getType()) > layout().getABITypeAlign(b->getType());
  });
  uint64_t offset = 0, uniform = 0;
  for (llvm::Instruction *v : spilled) {
    uint64_t size = layout().getTypeAllocSize(v->getType()).getFixedValue();
    // With sub-group barriers, rounds run some of the work-items only (the driver's
    // masked rounds), so the two copies of the uniform values would not follow each
    // work-item's own sequence of barriers: every value has a slot per work-item.
    if (!divergent_.count(v) && !plan_.subGroupWidth) {
      uniformOffset_[v] = uniform;
      uniform += size;
      ++plan_.uniformValues;
      continue;
    }
    slotOffset_[v] = offset;
    offset += size;
  }
  plan_.slotBytes = (offset + kFramesAlign - 1) / kFramesAlign * kFramesAlign;
  plan_.uniformBytes = (uniform + kFramesAlign - 1) / kFramesAlign * kFramesAlign;
  plan_.spilledValues = unsigned(spilled.size());
  plan_.rematerialisedValues = unsigned(remat_.size());
  if (plan_.privateBytes + plan_.slotBytes > kMaxBytesPerItem) {
    why = "values live across barriers take " +
          std::to_string(plan_.privateBytes + plan_.slotBytes) +
          " bytes per work-item (more than 64 KiB)";
    return false;
  }
  return true;
}

llvm::Value *Splitter::slotAddress(llvm::IRBuilder<> &b, llvm::Instruction *v, bool store) {
  auto u = uniformOffset_.find(v);
  if (u != uniformOffset_.end())
    return b.CreateConstGEP1_64(b.getInt8Ty(), store ? uniformOut_ : uniformIn_, u->second,
                                v->getName() + ".uniform");
  uint64_t area = plan_.privateBytes + slotOffset_.lookup(v);
  llvm::Value *array = b.CreateGEP(b.getInt8Ty(), frames_, b.CreateMul(n64_, b.getInt64(area)));
  return b.CreateGEP(v->getType(), array, index64_, v->getName() + ".slot");
}

// Each barrier becomes: store what lives across it, return its site. Its reload block
// brings the values back and continues after it. The dispatch block jumps to the
// region `resume` names.
void Splitter::rewriteBarriers() {
  llvm::LLVMContext &c = step_->getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(c);
  for (BarrierPoint &p : barriers_) {
    llvm::DebugLoc loc = p.call->getDebugLoc();
    llvm::Instruction *br = p.before->getTerminator();
    llvm::IRBuilder<> b(br);
    b.SetCurrentDebugLocation(loc);
    for (llvm::Instruction *v : p.live)
      if (!remat_.count(v)) {
        llvm::Type *t = v->getType();
        markFrameSlot(b.CreateAlignedStore(v, slotAddress(b, v, true), layout().getABITypeAlign(t)),
                      uniformOffset_.count(v) ? "uniform.out" : "items");
      }
    b.CreateRet(llvm::ConstantInt::get(i32, p.site));
    br->eraseFromParent();
    p.call->eraseFromParent();

    p.reload = llvm::BasicBlock::Create(c, "reload." + llvm::Twine(p.site), step_, p.resume);
    b.SetInsertPoint(p.reload);
    llvm::BranchInst *toResume = b.CreateBr(p.resume);
    b.SetInsertPoint(toResume);
    llvm::DenseMap<llvm::Value *, llvm::Value *> done;
    for (llvm::Instruction *v : p.live)
      if (remat_.count(v))
        rematerialise(v, b, done);
      else
        done[v] = markFrameSlot(b.CreateAlignedLoad(v->getType(), slotAddress(b, v, false),
                                                    layout().getABITypeAlign(v->getType()),
                                                    v->getName() + ".reload"),
                                uniformOffset_.count(v) ? "uniform.in" : "items");
    reloaded_[p.site] = std::move(done);
  }
  llvm::Instruction *old = entry_->getTerminator();
  llvm::IRBuilder<> b(old);
  llvm::SwitchInst *sw = b.CreateSwitch(step_->getArg(step_->arg_size() - 1), old->getSuccessor(0),
                                        unsigned(barriers_.size()));
  for (BarrierPoint &p : barriers_)
    sw->addCase(llvm::cast<llvm::ConstantInt>(llvm::ConstantInt::get(i32, p.site)), p.reload);
  old->eraseFromParent();
}

// Every use of a live value that a reload block can reach now sees the reloaded copy
// (or a phi of copies and the original).
void Splitter::updateSsa() {
  for (llvm::Instruction *v : liveAnywhere_) {
    llvm::SSAUpdater ssa;
    ssa.Initialize(v->getType(), v->getName());
    ssa.AddAvailableValue(v->getParent(), v);
    for (BarrierPoint &p : barriers_) {
      auto &copies = reloaded_[p.site];
      auto it = copies.find(v);
      if (it != copies.end())
        ssa.AddAvailableValue(p.reload, it->second);
    }
    std::vector<llvm::Use *> uses;
    for (llvm::Use &u : v->uses())
      uses.push_back(&u);
    for (llvm::Use *u : uses) {
      auto *user = llvm::cast<llvm::Instruction>(u->getUser());
      if (!llvm::isa<llvm::PHINode>(user) && user->getParent() == v->getParent())
        continue; // after the definition in its own block
      ssa.RewriteUse(*u);
    }
  }
}

// One function per region: the step with `resume` constant, minus what that region
// cannot reach.
bool Splitter::makeRegions(std::string &why) {
  llvm::LLVMContext &c = step_->getContext();
  std::vector<uint32_t> ids{0};
  for (BarrierPoint &p : barriers_)
    ids.push_back(p.site);
  std::string kernel = body_.getFnAttribute(kKernelAttr).getValueAsString().str();
  uint64_t instructions = 0;
  for (uint32_t id : ids) {
    llvm::ValueToValueMapTy vmap;
    vmap[step_->getArg(step_->arg_size() - 1)] =
        llvm::ConstantInt::get(llvm::Type::getInt32Ty(c), id);
    llvm::Function *region = llvm::CloneFunction(step_, vmap);
    region->setName(kernel + ".fibercl.region." + std::to_string(id));
    llvm::ConstantFoldTerminator(&region->getEntryBlock(), /*DeleteDeadConditions=*/true);
    llvm::removeUnreachableBlocks(*region);
    region->addFnAttr(llvm::Attribute::AlwaysInline);
    RegionPlan::Region r;
    r.id = id;
    r.step = region;
    for (llvm::BasicBlock &bb : *region) {
      instructions += bb.size();
      if (auto *ret = llvm::dyn_cast<llvm::ReturnInst>(bb.getTerminator()))
        r.exits.push_back(
            uint32_t(llvm::cast<llvm::ConstantInt>(ret->getReturnValue())->getZExtValue()));
    }
    std::sort(r.exits.begin(), r.exits.end());
    r.exits.erase(std::unique(r.exits.begin(), r.exits.end()), r.exits.end());
    plan_.regions.push_back(std::move(r));
  }
  if (instructions > kMaxRegionInstructions) {
    why = "its regions would take " + std::to_string(instructions) + " instructions";
    return false;
  }
  return true;
}

bool Splitter::run(std::string &why) {
  createStep();
  splitAtBarriers();
  bool ok = computeLiveness(why) && moveArrays(why);
  if (ok) {
    computeDivergence();
    ok = chooseSlots(why);
  }
  if (ok) {
    rewriteBarriers();
    updateSsa();
    std::string errors;
    llvm::raw_string_ostream es(errors);
    if (llvm::verifyFunction(*step_, &es)) {
      why = "internal error splitting at barriers: " + es.str();
      ok = false;
    }
  }
  if (ok)
    ok = makeRegions(why);
  if (!ok)
    for (RegionPlan::Region &r : plan_.regions)
      r.step->eraseFromParent();
  step_->eraseFromParent();
  return ok;
}

} // namespace

std::optional<RegionPlan> planBarrierRegions(llvm::Function &body, std::string &why) {
  // Regions drop a barrier's fence flags: flags computed at run time keep the fibers,
  // which check that every work-item gives the same.
  for (llvm::BasicBlock &bb : body)
    for (llvm::Instruction &i : bb)
      if (isHostBarrier(&i) &&
          !llvm::isa<llvm::Constant>(llvm::cast<llvm::CallInst>(i).getArgOperand(2))) {
        why = "a barrier's fence flags are computed at run time (the fibers check them)";
        return std::nullopt;
      }
  RegionPlan plan;
  Splitter splitter(body, plan);
  if (!splitter.run(why))
    return std::nullopt;
  return plan;
}

} // namespace fibercl::compiler

// AccessChecksPass (passes.hpp): FIBERCL_CHECK=bounds and FIBERCL_CHECK=uninit.
//
// uninit: the group's local block has a shadow byte per byte (at ctx->local_shadow from
// it), set to the group's tag (ctx->local_shadow_tag, a new one for each group a runner
// runs: runtime/exec/local_shadow.hpp) by every write to a __local object; a read of a
// __local object whose shadow bytes are not all the tag calls FIBERCL_HOST_CHECK_UNINIT
// (the read still happens: it cannot fault).
//
// races: each access of __local or __global memory (or a generic pointer) first calls
// FIBERCL_HOST_CHECK_RACE with its address, size, kind and the work-item, and each
// fence with its ordering; the runtime keeps who touched each byte since the group's
// last barrier (runtime/exec/races.cpp). Private memory, pipes and images are not
// raced: work-items that run one after another share stack addresses, and pipes and
// images are the builtins' own memory.
//
// bounds:
// In each kernel body, after inlining (every access of the kernel and the functions it
// calls is in it), an access whose pointer comes from one object gets a check:
//
//     off = pointer - object's start           (bytes; signed)
//     if (off within [lo, hi - bytes] && the object allows it) access;
//     else FIBERCL_HOST_CHECK_FAILED(ctx, site, off, bytes, x, y, z);   // a load gives 0
//
// The objects and their [lo, hi):
//  - a pointer argument (__global, __constant, __local): the launch's table at
//    ctx->checks (kernel_abi.h's fcl_check_bounds), filled by the runtime from the
//    buffer, sub-buffer, SVM allocation or __local size given to clSetKernelArg, with
//    READ_ONLY / WRITE_ONLY;
//  - a __local, __constant or program-scope variable, a private variable (alloca): its
//    size, a constant.
// An access whose pointer may come from several objects, or from memory (a pointer
// stored in a buffer), is not checked (FIBERCL_DEBUG=check counts them). The site
// names the object and the source line (SiteInfo::object), for the report.
#include "passes.hpp"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "fibercl/compiler/debug.hpp"
#include "fibercl/kernel_abi.h"
#include "host_functions.hpp"
#include "race_free_arguments.hpp"

namespace fibercl::compiler {
namespace {

// Where a checked pointer points into: argument `argument` (its bounds at run time), or
// a variable of `bytes` bytes starting at `start`.
struct Object {
  bool runtime = false; // the group's ctx: FiberCL's own, not checked
  std::optional<unsigned> argument;
  llvm::Value *start = nullptr;
  uint64_t bytes = 0;
  std::string what;
};

std::string quoted(llvm::StringRef name) {
  return name.empty() ? std::string() : " '" + name.str() + "'";
}

// The source name of an IR name: Clang names a function's __local variable "f.t" (and
// a second one "f.t.1"), and inlining renames a private variable "a" to "a.i" or
// "a.i12". Source identifiers have no dots.
std::string sourceName(llvm::StringRef ir, bool functionPrefix) {
  llvm::SmallVector<llvm::StringRef, 4> parts;
  ir.split(parts, '.');
  size_t first = functionPrefix && parts.size() > 1 ? 1 : 0;
  size_t last = parts.size();
  auto generated = [](llvm::StringRef p) { // "", "1", "i", "i12"
    if (p.starts_with("i"))
      p = p.drop_front();
    return p.find_first_not_of("0123456789") == llvm::StringRef::npos;
  };
  while (last > first + 1 && generated(parts[last - 1]))
    --last;
  std::string name;
  for (size_t i = first; i < last; ++i)
    name += (i > first ? "." : "") + parts[i].str();
  return name;
}

std::optional<Object> objectOf(llvm::Value *pointer, llvm::Function &body) {
  const llvm::DataLayout &dl = body.getParent()->getDataLayout();
  llvm::SmallVector<const llvm::Value *, 4> objects;
  llvm::getUnderlyingObjects(pointer, objects, nullptr, /*MaxLookup=*/0);
  if (objects.size() != 1)
    return std::nullopt;
  auto *o = const_cast<llvm::Value *>(objects[0]);
  Object obj;
  obj.start = o;
  if (auto *arg = llvm::dyn_cast<llvm::Argument>(o)) {
    unsigned kernelArgs = body.arg_size() - 4;
    if (arg->getParent() == &body && arg->getArgNo() >= kernelArgs) {
      obj.runtime = true;
      return obj;
    }
    if (arg->getParent() != &body || !arg->getType()->isPointerTy() ||
        body.getAttributes().hasParamAttr(arg->getArgNo(), kByValAttr))
      return std::nullopt;
    obj.argument = arg->getArgNo();
    obj.what = "argument " + std::to_string(arg->getArgNo()) + quoted(arg->getName());
    return obj;
  }
  if (auto *gv = llvm::dyn_cast<llvm::GlobalVariable>(o)) {
    if (gv->isDeclaration() || gv->getName().starts_with("llvm.") ||
        gv->getName().starts_with("__fibercl"))
      return std::nullopt;
    obj.bytes = dl.getTypeAllocSize(gv->getValueType());
    unsigned as = gv->getAddressSpace();
    obj.what = std::string(as == kLocalAddressSpace      ? "__local variable"
                           : as == kConstantAddressSpace ? "__constant variable"
                                                         : "program-scope variable") +
               quoted(sourceName(gv->getName(), as == kLocalAddressSpace)) + " (" +
               std::to_string(obj.bytes) + " bytes)";
    return obj;
  }
  if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(o)) {
    std::optional<llvm::TypeSize> size = alloca->getAllocationSize(dl);
    if (!size || size->isScalable())
      return std::nullopt;
    obj.bytes = size->getFixedValue();
    obj.what = "private variable" + quoted(sourceName(alloca->getName(), false)) + " (" +
               std::to_string(obj.bytes) + " bytes)";
    return obj;
  }
  return std::nullopt;
}

// A report function: it touches only the runtime's own memory (never the kernel's) and
// returns, so a check inside a loop does not keep LLVM from hoisting the loop's loads
// -- a wait on a plain load must still become the endless loop EndlessLoopsPass
// reports.
llvm::FunctionCallee reportFunction(llvm::Module &m, HostFunction which) {
  llvm::FunctionCallee f = declareHostFunction(m, which);
  if (auto *decl = llvm::dyn_cast<llvm::Function>(f.getCallee())) {
    decl->setMemoryEffects(llvm::MemoryEffects::inaccessibleMemOnly());
    decl->setDoesNotThrow();
    // (A failed check that abandons the group does not return; LLVM may then have read
    // ahead what the kernel would have read next: nothing it can see.)
    decl->setWillReturn();
  }
  return f;
}

// Whether `pointer` may point into private memory.
bool mayBePrivate(llvm::Value *pointer) {
  llvm::SmallVector<const llvm::Value *, 4> objects;
  llvm::getUnderlyingObjects(pointer, objects, nullptr, /*MaxLookup=*/0);
  for (const llvm::Value *o : objects)
    if (llvm::isa<llvm::AllocaInst>(o))
      return true;
  return false;
}

// FCL_RACE_ACQUIRE / _RELEASE for an atomic access or fence's ordering.
uint32_t orderingBits(const llvm::Instruction *i) {
  llvm::AtomicOrdering o = llvm::AtomicOrdering::NotAtomic;
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(i))
    o = load->getOrdering();
  else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(i))
    o = store->getOrdering();
  else if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(i))
    o = rmw->getOrdering();
  else if (auto *cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(i))
    o = cas->getSuccessOrdering();
  else if (auto *fence = llvm::dyn_cast<llvm::FenceInst>(i))
    o = fence->getOrdering();
  return (llvm::isAcquireOrStronger(o) ? FCL_RACE_ACQUIRE : 0) |
         (llvm::isReleaseOrStronger(o) ? FCL_RACE_RELEASE : 0) |
         (i->getMetadata(kNarrowScopeMetadata) ? FCL_RACE_NARROW : 0);
}

// Clang stores a vector's component (`v[i].x = a`) as a load of the whole vector,
// insertelements and a store of it back (a second component's store may reuse the
// first's value). Whether `load` is only that: every use an insertelement into it or a
// store of it back to where it was loaded from.
bool onlyRewritten(const llvm::LoadInst *load) {
  if (!llvm::isa<llvm::FixedVectorType>(load->getType()))
    return false;
  std::vector<const llvm::Value *> work{load};
  while (!work.empty()) {
    const llvm::Value *v = work.back();
    work.pop_back();
    for (const llvm::User *user : v->users()) {
      if (auto *insert = llvm::dyn_cast<llvm::InsertElementInst>(user);
          insert && insert->getOperand(0) == v &&
          llvm::isa<llvm::ConstantInt>(insert->getOperand(2))) {
        work.push_back(insert);
        continue;
      }
      auto *store = llvm::dyn_cast<llvm::StoreInst>(user);
      if (!store || store->getValueOperand() != v ||
          store->getPointerOperand() != load->getPointerOperand())
        return false;
    }
  }
  return true;
}

// For a store of such a read-modify-write: the bytes it changes (element offset and
// size), true; else false.
bool componentLanes(const llvm::StoreInst *store, const llvm::DataLayout &dl,
                    std::vector<std::pair<uint64_t, uint64_t>> &lanes) {
  lanes.clear();
  const llvm::Value *v = store->getValueOperand();
  while (auto *insert = llvm::dyn_cast<llvm::InsertElementInst>(v)) {
    uint64_t element = dl.getTypeStoreSize(insert->getType()->getElementType());
    lanes.emplace_back(
        llvm::cast<llvm::ConstantInt>(insert->getOperand(2))->getZExtValue() * element, element);
    v = insert->getOperand(0);
  }
  auto *load = llvm::dyn_cast<llvm::LoadInst>(v);
  return load && !lanes.empty() && load->getPointerOperand() == store->getPointerOperand() &&
         onlyRewritten(load);
}

struct Access {
  llvm::Instruction *inst;
  llvm::Value *pointer;
  llvm::Value *bytes; // i64
  bool reads, writes;
};

void accessesOf(llvm::Instruction &i, const llvm::DataLayout &dl, std::vector<Access> &out) {
  llvm::IRBuilder<> b(&i);
  auto size = [&](llvm::Type *t) { return b.getInt64(dl.getTypeStoreSize(t)); };
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&i))
    out.push_back({&i, load->getPointerOperand(), size(load->getType()), true, false});
  else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&i))
    out.push_back(
        {&i, store->getPointerOperand(), size(store->getValueOperand()->getType()), false, true});
  else if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&i))
    out.push_back({&i, rmw->getPointerOperand(), size(rmw->getType()), true, true});
  else if (auto *cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&i))
    out.push_back(
        {&i, cas->getPointerOperand(), size(cas->getCompareOperand()->getType()), true, true});
  else if (auto *mem = llvm::dyn_cast<llvm::MemIntrinsic>(&i)) {
    llvm::Value *length = b.CreateZExtOrTrunc(mem->getLength(), b.getInt64Ty());
    out.push_back({&i, mem->getRawDest(), length, false, true});
    if (auto *transfer = llvm::dyn_cast<llvm::MemTransferInst>(mem))
      out.push_back({&i, transfer->getRawSource(), length, true, false});
  }
}

class BodyChecks {
public:
  BodyChecks(llvm::Function &body, SiteTable &sites, bool bounds, bool uninit, bool races,
             bool weak, const std::set<unsigned> &builtinsArgs)
      : body_(body), sites_(sites), bounds_(bounds), uninit_(uninit), races_(races), weak_(weak),
        builtinsArgs_(builtinsArgs) {}
  // Returns how many accesses were left unchecked.
  unsigned run();

private:
  // Whether the access is allowed; sets `start` (the object's first byte, from the
  // pointer's base) and `size` (its bytes).
  llvm::Value *raceFreeAtLaunch(unsigned argument);
  llvm::Value *inBounds(llvm::IRBuilder<> &b, const Access &a, const Object &o, llvm::Value *off,
                        llvm::Value *&start, llvm::Value *&size);
  void check(const Access &a, const Object &o);
  void checkWritten(const Access &a, const Object *o);
  void markShadow(llvm::IRBuilder<> &b, llvm::Value *shadow, llvm::Value *bytes);
  std::vector<std::pair<llvm::Instruction *, llvm::Value *>> reportedAt(llvm::Instruction *read,
                                                                        llvm::Value *written);
  // `bytes` (1..16) shadow bytes as written: ctx->local_shadow_tag's first `bytes`.
  llvm::Value *tagOf(uint64_t bytes);
  void markGenericWrite(const Access &a);
  void checkRace(const Access &a, const Object *o);
  void checkFence(llvm::FenceInst &fence);
  // The memory other work-groups see: __global (or generic, not private), not a pipe's
  // or image's.
  bool shared(const Access &a, const Object *o) const;

  llvm::Function &body_;
  SiteTable &sites_;
  bool bounds_, uninit_, races_, weak_;
  const std::set<unsigned> &builtinsArgs_; // pipes and images
  // uninit: vector components' read-modify-writes (onlyRewritten, componentLanes).
  std::set<const llvm::Instruction *> componentLoads_;
  std::map<const llvm::Instruction *, std::vector<std::pair<uint64_t, uint64_t>>> componentStores_;
  llvm::Value *table_ = nullptr;           // ctx->checks, loaded at the body's entry
  llvm::Value *shadow_ = nullptr;          // ctx->local_shadow, likewise
  std::map<uint64_t, llvm::Value *> tags_; // tagOf's loads, likewise
  llvm::Value *localMem_ = nullptr;        // ctx->local_mem, likewise
  RaceFreeArguments raceFree_;             // races: arguments whose accesses may go unrecorded
  std::map<unsigned, llvm::Value *> raceFreeAtLaunch_;
};

// A load of the launch's table: the same for the whole launch.
llvm::LoadInst *invariant(llvm::LoadInst *load) {
  load->setMetadata(llvm::LLVMContext::MD_invariant_load,
                    llvm::MDNode::get(load->getContext(), {}));
  return load;
}

// Whether the launch found `argument` race-free (FCL_CHECK_RACE_FREE, and what its
// own offsets assume): computed once, at the body's entry, so that it is the same value
// in every loop (CheckedLoopVersionsPass versions loops on it).
llvm::Value *BodyChecks::raceFreeAtLaunch(unsigned argument) {
  if (llvm::Value *known = raceFreeAtLaunch_[argument])
    return known;
  // After the launch's table and the rows' widths, in the entry block.
  auto *after = llvm::cast<llvm::Instruction>(table_);
  if (auto row = raceFree_.rowBytes.find(argument); row != raceFree_.rowBytes.end())
    if (auto *i = llvm::dyn_cast<llvm::Instruction>(row->second);
        i && i->getParent() == after->getParent() && after->comesBefore(i))
      after = i;
  llvm::IRBuilder<> b(after->getNextNode());
  unsigned n = body_.arg_size() - 4;
  llvm::Value *flags = invariant(b.CreateLoad(
      b.getInt64Ty(),
      b.CreateConstGEP1_64(b.getInt8Ty(), table_,
                           argument * sizeof(fcl_check_bounds) + offsetof(fcl_check_bounds, flags)),
      "race.flags"));
  llvm::Value *free = b.CreateICmpNE(b.CreateAnd(flags, FCL_CHECK_RACE_FREE), b.getInt64(0));
  if (raceFree_.ownOffset >> argument & 1) {
    // Own offsets in a 1-D launch, or in 2-D rows that do not overlap; ids that fit
    // 31 bits (for `(int)get_global_id(0)`).
    llvm::Value *ctx = body_.getArg(n), *size[3];
    for (unsigned d = 0; d < 3; ++d)
      size[d] = invariant(b.CreateLoad(
          b.getInt64Ty(),
          b.CreateConstGEP1_64(b.getInt8Ty(), ctx,
                               offsetof(fcl_group_ctx, global_size) + d * sizeof(fcl_u64))));
    llvm::Value *limit = b.getInt64(uint64_t(1) << 31);
    free = b.CreateAnd(free, b.CreateICmpULE(size[0], limit));
    free = b.CreateAnd(free, b.CreateICmpEQ(size[2], b.getInt64(1)));
    auto row = raceFree_.rowBytes.find(argument);
    if (row == raceFree_.rowBytes.end()) {
      free = b.CreateAnd(free, b.CreateICmpEQ(size[1], b.getInt64(1)));
    } else {
      int64_t stride = raceFree_.stride.at(argument);
      llvm::Value *r = b.CreateSExtOrTrunc(row->second, b.getInt64Ty());
      llvm::Value *rowSpan =
          b.CreateMul(size[0], b.getInt64(uint64_t(stride < 0 ? -stride : stride)));
      free = b.CreateAnd(free, b.CreateICmpULE(size[1], limit));
      free = b.CreateAnd(free, b.CreateICmpUGE(r, rowSpan));
      free = b.CreateAnd(free, b.CreateICmpULE(r, b.getInt64(uint64_t(1) << 32)));
    }
  }
  return raceFreeAtLaunch_[argument] = free;
}

llvm::Value *BodyChecks::inBounds(llvm::IRBuilder<> &b, const Access &a, const Object &o,
                                  llvm::Value *off, llvm::Value *&start, llvm::Value *&size) {
  llvm::Value *lo, *hi;
  if (o.argument) {
    llvm::Value *entry =
        b.CreateConstGEP1_64(b.getInt8Ty(), table_, *o.argument * sizeof(fcl_check_bounds));
    lo = invariant(b.CreateLoad(b.getInt64Ty(), entry, "check.lo"));
    hi = invariant(b.CreateLoad(
        b.getInt64Ty(), b.CreateConstGEP1_64(b.getInt8Ty(), entry, offsetof(fcl_check_bounds, hi)),
        "check.hi"));
  } else {
    lo = b.getInt64(0);
    hi = b.getInt64(o.bytes);
  }
  // lo <= off && off + bytes <= hi, as one compare of `off - lo` with a bound the same
  // for every work-item: off - lo <u limit, limit = hi - lo - bytes + 1 when the object
  // has room for the access (and allows it), else 0.
  llvm::Value *span = b.CreateSub(hi, lo);
  start = lo;
  size = span;
  llvm::Value *allowed = b.CreateICmpULE(a.bytes, span);
  if (o.argument) {
    llvm::Value *flags =
        invariant(b.CreateLoad(b.getInt64Ty(),
                               b.CreateConstGEP1_64(b.getInt8Ty(), table_,
                                                    *o.argument * sizeof(fcl_check_bounds) +
                                                        offsetof(fcl_check_bounds, flags)),
                               "check.flags"));
    uint64_t forbidden = (a.reads ? FCL_CHECK_NO_READ : 0) | (a.writes ? FCL_CHECK_NO_WRITE : 0);
    allowed = b.CreateAnd(allowed, b.CreateICmpEQ(b.CreateAnd(flags, forbidden), b.getInt64(0)));
  }
  llvm::Value *limit =
      b.CreateSelect(allowed, b.CreateAdd(b.CreateSub(span, a.bytes), b.getInt64(1)), b.getInt64(0),
                     "check.limit");
  return b.CreateICmpULT(b.CreateSub(off, lo), limit, "check.ok");
}

void BodyChecks::check(const Access &a, const Object &o) {
  llvm::IRBuilder<> b(a.inst);
  llvm::Value *off = b.CreateSub(b.CreatePtrToInt(a.pointer, b.getInt64Ty()),
                                 b.CreatePtrToInt(o.start, b.getInt64Ty()), "check.offset");
  llvm::Value *start = nullptr, *size = nullptr;
  llvm::Value *ok = inBounds(b, a, o, off, start, size);
  // A memory intrinsic of two objects is checked twice: the second split is before it.
  llvm::Instruction *thenTerm = nullptr, *elseTerm = nullptr;
  // In bounds is the likely side.
  llvm::SplitBlockAndInsertIfThenElse(
      ok, a.inst, &thenTerm, &elseTerm,
      llvm::MDBuilder(body_.getContext()).createBranchWeights(1u << 20, 1));
  llvm::BasicBlock *tail = a.inst->getParent();
  a.inst->moveBefore(thenTerm);
  llvm::IRBuilder<> e(elseTerm);
  e.SetCurrentDebugLocation(a.inst->getDebugLoc());
  uint32_t site = sites_.addCheck(
      body_, a.inst, a.writes ? SiteInfo::Kind::BoundsWrite : SiteInfo::Kind::BoundsRead, o.what,
      o.bytes);
  unsigned n = body_.arg_size() - 4;
  llvm::FunctionCallee failed = reportFunction(*body_.getParent(), HostFunction::CHECK_FAILED);
  e.CreateCall(failed, {body_.getArg(n), e.getInt32(site), e.CreateSub(off, start), a.bytes, size,
                        body_.getArg(n + 1), body_.getArg(n + 2), body_.getArg(n + 3)});
  if (a.inst->getType()->isVoidTy() || a.inst->use_empty())
    return;
  // A skipped load (or atomic) gives zero.
  llvm::IRBuilder<> t(&*tail->getFirstInsertionPt());
  llvm::PHINode *value = t.CreatePHI(a.inst->getType(), 2);
  a.inst->replaceAllUsesWith(value);
  value->addIncoming(a.inst, thenTerm->getParent());
  value->addIncoming(llvm::Constant::getNullValue(a.inst->getType()), elseTerm->getParent());
}

// uninit: a read of a __local object checks that its bytes were written; a write marks
// them. Only accesses of up to 16 bytes are read-checked (memcpy from __local is not).
void BodyChecks::checkWritten(const Access &a, const Object *o) {
  unsigned as = a.pointer->getType()->getPointerAddressSpace();
  if (as == kGenericAddressSpace && a.writes)
    return markGenericWrite(a);
  if (as != kLocalAddressSpace)
    return;
  auto *constant = llvm::dyn_cast<llvm::ConstantInt>(a.bytes);
  llvm::IRBuilder<> b(a.inst);
  llvm::Value *shadow = b.CreateGEP(b.getInt8Ty(), a.pointer, shadow_, "shadow");
  // Reads are checked when the object is known (the report names it); every write
  // marks what it wrote, whatever its pointer came from. A vector component's store
  // reads the vector only to write it back: not a read, and only the component is
  // written.
  auto *load = llvm::dyn_cast<llvm::LoadInst>(a.inst);
  bool componentLoad = load && componentLoads_.count(load);
  if (o && a.reads && !componentLoad && constant && constant->getZExtValue() <= 16 &&
      constant->getZExtValue() > 0) {
    llvm::Type *bits = b.getIntNTy(unsigned(constant->getZExtValue() * 8));
    llvm::Value *seen = b.CreateLoad(bits, shadow, "shadow.seen");
    llvm::Value *ok = b.CreateICmpEQ(seen, tagOf(constant->getZExtValue()), "written");
    uint32_t site = sites_.addCheck(body_, a.inst, SiteInfo::Kind::UninitRead, o->what, o->bytes);
    for (auto [at, written] : reportedAt(a.inst, ok)) {
      llvm::Instruction *report = llvm::SplitBlockAndInsertIfThen(
          llvm::IRBuilder<>(at).CreateNot(written), at, false,
          llvm::MDBuilder(body_.getContext()).createBranchWeights(1, 1u << 20));
      llvm::IRBuilder<> r(report);
      r.SetCurrentDebugLocation(a.inst->getDebugLoc());
      unsigned n = body_.arg_size() - 4;
      llvm::Value *off = r.CreateSub(r.CreatePtrToInt(a.pointer, r.getInt64Ty()),
                                     r.CreatePtrToInt(o->start, r.getInt64Ty()));
      r.CreateCall(reportFunction(*body_.getParent(), HostFunction::CHECK_UNINIT),
                   {body_.getArg(n), r.getInt32(site), off, a.bytes, body_.getArg(n + 1),
                    body_.getArg(n + 2), body_.getArg(n + 3)});
    }
  }
  if (!a.writes)
    return;
  b.SetInsertPoint(a.inst->getNextNode());
  if (auto lanes = componentStores_.find(a.inst); lanes != componentStores_.end()) {
    for (auto [at, bytes] : lanes->second)
      markShadow(b, b.CreateConstGEP1_64(b.getInt8Ty(), shadow, at), b.getInt64(bytes));
    return;
  }
  markShadow(b, shadow, a.bytes);
}

// Whether `v` is only stored (the value of a store), directly or through phis that
// merge it with constants (a bounds check's zero for a skipped load); at least once.
bool onlyStored(llvm::Value *v) {
  bool stored = false;
  for (llvm::Use &u : v->uses()) {
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(u.getUser());
        store && u.getOperandNo() == 0) {
      stored = true;
      continue;
    }
    auto *phi = llvm::dyn_cast<llvm::PHINode>(u.getUser());
    if (!phi ||
        !llvm::all_of(phi->incoming_values(),
                      [&](llvm::Value *in) { return in == v || llvm::isa<llvm::Constant>(in); }) ||
        !onlyStored(phi))
      return false;
    stored = true;
  }
  return stored;
}

// Where a read of unwritten bytes is reported, with the condition that it was written
// there: where its value is stored, when storing is all it is used for -- a kernel may
// read past what it wrote and drop those values (clFFT's transposes read their whole
// tile and store only the part they filled); else at the read. (The shadow is read at
// the read either way; past a phi, `written` is a phi too, true where the value is not
// the read's.)
std::vector<std::pair<llvm::Instruction *, llvm::Value *>>
BodyChecks::reportedAt(llvm::Instruction *read, llvm::Value *written) {
  if (!onlyStored(read))
    return {{read, written}};
  std::vector<std::pair<llvm::Instruction *, llvm::Value *>> at;
  std::vector<std::pair<llvm::Value *, llvm::Value *>> work{{read, written}};
  while (!work.empty()) {
    auto [v, ok] = work.back();
    work.pop_back();
    llvm::SmallPtrSet<llvm::User *, 4> users(v->user_begin(), v->user_end());
    for (llvm::User *user : users) {
      if (auto *store = llvm::dyn_cast<llvm::StoreInst>(user)) {
        at.emplace_back(store, ok);
        continue;
      }
      auto *phi = llvm::cast<llvm::PHINode>(user);
      llvm::PHINode *merged = llvm::PHINode::Create(ok->getType(), phi->getNumIncomingValues(),
                                                    "written.merged", phi->getIterator());
      for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i)
        merged->addIncoming(
            phi->getIncomingValue(i) == v ? ok : llvm::ConstantInt::getTrue(ok->getContext()),
            phi->getIncomingBlock(i));
      work.emplace_back(phi, merged);
    }
  }
  return at;
}

void BodyChecks::markShadow(llvm::IRBuilder<> &b, llvm::Value *shadow, llvm::Value *bytes) {
  auto *constant = llvm::dyn_cast<llvm::ConstantInt>(bytes);
  if (constant && constant->getZExtValue() <= 16 && constant->getZExtValue() > 0) {
    llvm::StoreInst *mark = b.CreateStore(tagOf(constant->getZExtValue()), shadow);
    mark->setMetadata(kShadowStoreMetadata, llvm::MDNode::get(b.getContext(), {}));
  } else {
    b.CreateMemSet(shadow, tagOf(1), bytes, llvm::MaybeAlign(1));
  }
}

// The tag is in each of the field's 16 bytes: a load of the first `bytes` is their value
// once written. Loaded at the body's entry, once per size (CheckedLoopVersionsPass knows
// such a load by its address: shadowTagContext).
llvm::Value *BodyChecks::tagOf(uint64_t bytes) {
  llvm::Value *&tag = tags_[bytes];
  if (!tag) {
    llvm::IRBuilder<> b(&*body_.getEntryBlock().getFirstInsertionPt());
    llvm::Value *ctx = body_.getArg(body_.arg_size() - 4);
    llvm::LoadInst *load = b.CreateAlignedLoad(
        b.getIntNTy(unsigned(bytes * 8)),
        b.CreateConstGEP1_64(b.getInt8Ty(), ctx, offsetof(fcl_group_ctx, local_shadow_tag)),
        llvm::Align(8), "shadow.tag");
    load->setMetadata(llvm::LLVMContext::MD_invariant_load,
                      llvm::MDNode::get(body_.getContext(), {}));
    tag = load;
  }
  return tag;
}

// A write through a generic pointer marks the shadow when it lands in the group's
// __local block (its offset from ctx->local_mem below the shadow's distance, which is
// the block's size).
void BodyChecks::markGenericWrite(const Access &a) {
  llvm::Instruction *after = a.inst->getNextNode();
  llvm::IRBuilder<> b(after);
  llvm::Value *off = b.CreateSub(b.CreatePtrToInt(a.pointer, b.getInt64Ty()), localMem_);
  llvm::Value *inBlock = b.CreateICmpULT(off, shadow_);
  llvm::Instruction *then = llvm::SplitBlockAndInsertIfThen(inBlock, after, false);
  b.SetInsertPoint(then);
  markShadow(b, b.CreateGEP(b.getInt8Ty(), a.pointer, shadow_, "shadow"), a.bytes);
}

bool BodyChecks::shared(const Access &a, const Object *o) const {
  unsigned as = a.pointer->getType()->getPointerAddressSpace();
  return (as == kGlobalAddressSpace || as == kGenericAddressSpace) &&
         !(o && o->argument && builtinsArgs_.count(*o->argument)) && !mayBePrivate(a.pointer);
}

// races: the access's address, size and kind go to the runtime first (a store's value
// too, for the same-value warning).
void BodyChecks::checkRace(const Access &a, const Object *o) {
  unsigned as = a.pointer->getType()->getPointerAddressSpace();
  if (as != kLocalAddressSpace && as != kGlobalAddressSpace && as != kGenericAddressSpace)
    return;
  if ((o && o->argument && builtinsArgs_.count(*o->argument)) || mayBePrivate(a.pointer))
    return;
  llvm::IRBuilder<> b(a.inst);
  const llvm::DataLayout &dl = body_.getParent()->getDataLayout();
  bool atomic =
      llvm::isa<llvm::AtomicRMWInst>(a.inst) || llvm::isa<llvm::AtomicCmpXchgInst>(a.inst);
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(a.inst))
    atomic = load->isAtomic();
  llvm::Value *value = b.getInt64(0);
  uint32_t how = (a.reads ? FCL_RACE_READ : 0) | (a.writes ? FCL_RACE_WRITE : 0) |
                 (as == kLocalAddressSpace ? FCL_RACE_LOCAL : 0);
  if (auto *store = llvm::dyn_cast<llvm::StoreInst>(a.inst)) {
    atomic = store->isAtomic();
    llvm::Value *v = store->getValueOperand();
    uint64_t bits = dl.getTypeSizeInBits(v->getType()).getFixedValue();
    if (bits <= 64 && bits % 8 == 0 && !v->getType()->isAggregateType() &&
        !v->getType()->isPtrOrPtrVectorTy()) {
      value = b.CreateZExtOrTrunc(b.CreateBitCast(v, b.getIntNTy(unsigned(bits))), b.getInt64Ty());
      how |= FCL_RACE_VALUE;
    }
  }
  if (atomic)
    how |= FCL_RACE_ATOMIC | orderingBits(a.inst);
  uint32_t site = sites_.addCheck(
      body_, a.inst, a.writes ? SiteInfo::Kind::BoundsWrite : SiteInfo::Kind::BoundsRead,
      o ? o->what : std::string(), 0);
  unsigned n = body_.arg_size() - 4;
  if (o && o->argument && !atomic &&
      ((raceFree_.readOnly | raceFree_.ownOffset) >> *o->argument & 1)) {
    // Recorded only when the launch did not find the argument race-free.
    llvm::Value *free = raceFreeAtLaunch(*o->argument);
    llvm::Instruction *record = llvm::SplitBlockAndInsertIfThen(
        b.CreateNot(free, "race.recorded"), a.inst, false,
        llvm::MDBuilder(body_.getContext()).createBranchWeights(1, 1u << 20));
    b.SetInsertPoint(record);
  }
  llvm::Value *address = b.CreatePtrToInt(a.pointer, b.getInt64Ty());
  llvm::FunctionCallee check = reportFunction(*body_.getParent(), HostFunction::CHECK_RACE);
  b.CreateCall(check, {body_.getArg(n), b.getInt32(site), address, a.bytes, b.getInt32(how), value,
                       body_.getArg(n + 1), body_.getArg(n + 2), body_.getArg(n + 3)});
  // An atomic read takes what other work-groups released once it has read: after it.
  // (Its release half, above, must be recorded before its store can be seen.)
  if (atomic && a.reads) {
    b.SetInsertPoint(a.inst->getNextNode());
    b.CreateCall(check, {body_.getArg(n), b.getInt32(site), address, a.bytes,
                         b.getInt32(how | FCL_RACE_AFTER), b.getInt64(0), body_.getArg(n + 1),
                         body_.getArg(n + 2), body_.getArg(n + 3)});
  }
}

// races: a fence orders the work-item's accesses as a release and/or acquire does.
void BodyChecks::checkFence(llvm::FenceInst &fence) {
  llvm::IRBuilder<> b(&fence);
  unsigned n = body_.arg_size() - 4;
  b.CreateCall(reportFunction(*body_.getParent(), HostFunction::CHECK_RACE),
               {body_.getArg(n), b.getInt32(0), b.getInt64(0), b.getInt64(0),
                b.getInt32(orderingBits(&fence)), b.getInt64(0), body_.getArg(n + 1),
                body_.getArg(n + 2), body_.getArg(n + 3)});
}

unsigned BodyChecks::run() {
  const llvm::DataLayout &dl = body_.getParent()->getDataLayout();
  std::vector<Access> accesses;
  for (llvm::BasicBlock &bb : body_)
    for (llvm::Instruction &i : bb)
      accessesOf(i, dl, accesses);
  if (accesses.empty())
    return 0;
  {
    // The group's context and the launch's table do not change while the group runs:
    // invariant loads, which LLVM may hoist out of the work-item loops (and
    // CheckedLoopVersionsPass then finds the bounds the same in every work-item).
    llvm::IRBuilder<> b(&*body_.getEntryBlock().getFirstInsertionPt());
    llvm::LLVMContext &c = body_.getContext();
    llvm::Value *ctx = body_.getArg(body_.arg_size() - 4);
    auto field = [&](size_t offset, llvm::Type *type, const char *name) {
      llvm::LoadInst *load =
          b.CreateLoad(type, b.CreateConstGEP1_64(b.getInt8Ty(), ctx, offset), name);
      load->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(c, {}));
      return load;
    };
    llvm::LoadInst *table = field(offsetof(fcl_group_ctx, checks), b.getPtrTy(), "checks");
    if (unsigned args = body_.arg_size() - 4; args > 0)
      table->setMetadata(llvm::LLVMContext::MD_dereferenceable,
                         llvm::MDNode::get(c, llvm::ConstantAsMetadata::get(
                                                  b.getInt64(args * sizeof(fcl_check_bounds)))));
    // (and aligned: a load of its flags may move out of a loop, CheckedLoopVersionsPass)
    table->setMetadata(
        llvm::LLVMContext::MD_align,
        llvm::MDNode::get(c, llvm::ConstantAsMetadata::get(b.getInt64(alignof(fcl_check_bounds)))));
    table_ = table;
    shadow_ = field(offsetof(fcl_group_ctx, local_shadow), b.getInt64Ty(), "local.shadow");
    localMem_ = field(offsetof(fcl_group_ctx, local_mem), b.getInt64Ty(), "local.mem");
  }
  unsigned unchecked = 0;
  std::vector<std::pair<const Access *, Object>> checked;
  std::vector<std::pair<const Access *, std::optional<Object>>> raced; // and their object
  for (const Access &a : accesses) {
    std::optional<Object> o = objectOf(a.pointer, body_);
    if (!o)
      ++unchecked;
    else if (!o->runtime)
      checked.emplace_back(&a, *o);
    if (!o || !o->runtime)
      raced.emplace_back(&a, o);
  }
  // Vector components' read-modify-writes, seen before the bounds checks put their
  // loads behind a branch.
  if (uninit_)
    for (const Access &a : accesses) {
      std::vector<std::pair<uint64_t, uint64_t>> lanes;
      if (auto *load = llvm::dyn_cast<llvm::LoadInst>(a.inst); load && onlyRewritten(load))
        componentLoads_.insert(load);
      else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(a.inst);
               store && componentLanes(store, dl, lanes))
        componentStores_[store] = lanes;
    }
  // Bounds first: an access that fails them is skipped, and so is its shadow.
  if (bounds_)
    for (auto &[a, o] : checked)
      check(*a, o);
  if (uninit_)
    for (auto &[a, o] : raced)
      checkWritten(*a, o ? &*o : nullptr);
  // Last, so that an access the bounds skip is not raced either.
  if (races_) {
    std::vector<RaceAccess> described;
    for (auto &[a, o] : raced) {
      unsigned as = a->pointer->getType()->getPointerAddressSpace();
      auto *bytes = llvm::dyn_cast<llvm::ConstantInt>(a->bytes);
      auto *load = llvm::dyn_cast<llvm::LoadInst>(a->inst);
      auto *store = llvm::dyn_cast<llvm::StoreInst>(a->inst);
      described.push_back({a->pointer, bytes ? bytes->getZExtValue() : 0, a->writes,
                           (load && load->isSimple()) || (store && store->isSimple()),
                           as != kLocalAddressSpace && !mayBePrivate(a->pointer),
                           o ? o->argument : std::nullopt, o.has_value()});
    }
    raceFree_ = findRaceFreeArguments(body_, described);
    if (raceFree_.readOnly | raceFree_.ownOffset)
      body_.addFnAttr(kRaceFreeArgsAttr, std::to_string(raceFree_.readOnly) + "," +
                                             std::to_string(raceFree_.ownOffset));
    for (auto &[a, o] : raced)
      checkRace(*a, o ? &*o : nullptr);
    std::vector<llvm::FenceInst *> fences;
    for (llvm::BasicBlock &bb : body_)
      for (llvm::Instruction &i : bb)
        if (auto *fence = llvm::dyn_cast<llvm::FenceInst>(&i); fence && !isBarrierFence(*fence))
          fences.push_back(fence); // (a barrier's own fences: the barrier ends the round)
    for (llvm::FenceInst *fence : fences)
      checkFence(*fence);
  }
  if (weak_)
    for (auto &[a, o] : raced)
      if (shared(*a, o ? &*o : nullptr))
        a->inst->setMetadata(kWeakMetadata, llvm::MDNode::get(body_.getContext(), {}));
  return unchecked;
}

} // namespace

llvm::PreservedAnalyses AccessChecksPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  std::vector<llvm::Function *> bodies;
  for (llvm::Function &f : m)
    if (f.hasFnAttribute(kKernelAttr))
      bodies.push_back(&f);
  for (llvm::Function *body : bodies) {
    llvm::StringRef name = body->getFnAttribute(kKernelAttr).getValueAsString();
    std::set<unsigned> builtinsArgs;
    if (auto known = builtinsArguments.find(name.str()); known != builtinsArguments.end())
      builtinsArgs = known->second;
    unsigned unchecked = BodyChecks(*body, *sites, bounds, uninit, races, weak, builtinsArgs).run();
    if (debugChannel("check"))
      llvm::errs() << "FiberCL: kernel '" << body->getFnAttribute(kKernelAttr).getValueAsString()
                   << "': " << (bounds ? "bounds " : "") << (uninit ? "uninit " : "")
                   << (races ? "races " : "") << (weak ? "weak " : "") << "checked; " << unchecked
                   << " accesses unchecked (their pointer may come from several objects, or "
                      "from memory)\n";
  }
  return llvm::PreservedAnalyses::none();
}

} // namespace fibercl::compiler

// findRaceFreeArguments (race_free_arguments.hpp).
#include "race_free_arguments.hpp"

#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include <cstddef>

#include "fibercl/compiler/debug.hpp"
#include "fibercl/kernel_abi.h"

#include <llvm/Support/raw_ostream.h>

namespace fibercl::compiler {
namespace {

// c * f1 * f2 ... (c a constant) in a sum.
struct Term {
  int64_t coefficient;
  llvm::SmallVector<const llvm::SCEV *, 2> factors;
};

// get_global_id(d) for d > 0 is `work_dim > d ? id : 0`, and `id` is 0 too when the
// launch has fewer dimensions (group, local id and offset 0): the id alone.
const llvm::SCEV *throughDimensionTest(const llvm::SCEV *s, llvm::ScalarEvolution &se) {
  auto *u = llvm::dyn_cast<llvm::SCEVUnknown>(s);
  auto *select = u ? llvm::dyn_cast<llvm::SelectInst>(u->getValue()) : nullptr;
  auto *zero = select ? llvm::dyn_cast<llvm::ConstantInt>(select->getFalseValue()) : nullptr;
  auto *test = select ? llvm::dyn_cast<llvm::ICmpInst>(select->getCondition()) : nullptr;
  auto *dims = test ? llvm::dyn_cast<llvm::LoadInst>(test->getOperand(0)) : nullptr;
  if (!zero || !zero->isZero() || !dims || !llvm::isa<llvm::ConstantInt>(test->getOperand(1)))
    return s;
  const llvm::DataLayout &dl = select->getModule()->getDataLayout();
  llvm::APInt offset(64, 0);
  dims->getPointerOperand()->stripAndAccumulateConstantOffsets(dl, offset, true);
  if (offset != offsetof(fcl_group_ctx, work_dim) || !select->getType()->isIntegerTy())
    return s;
  return se.getSCEV(select->getTrueValue());
}

// `s` times `scale` as a sum of terms (a constant times a sum is distributed).
bool termsOf(const llvm::SCEV *s, std::vector<Term> &out, llvm::ScalarEvolution &se,
             int64_t scale = 1) {
  s = throughDimensionTest(s, se);
  constexpr int64_t kLimit = int64_t(1) << 40;
  if (auto *add = llvm::dyn_cast<llvm::SCEVAddExpr>(s)) {
    for (const llvm::SCEV *op : add->operands())
      if (!termsOf(op, out, se, scale))
        return false;
    return true;
  }
  Term t{scale, {}};
  auto constant = [&](const llvm::SCEV *x) {
    auto *c = llvm::dyn_cast<llvm::SCEVConstant>(x);
    if (!c || c->getAPInt().getSignificantBits() > 32)
      return false;
    t.coefficient *= c->getAPInt().getSExtValue();
    return t.coefficient < kLimit && t.coefficient > -kLimit;
  };
  if (auto *mul = llvm::dyn_cast<llvm::SCEVMulExpr>(s)) {
    const llvm::SCEV *sum = nullptr; // one factor that is a sum is distributed
    for (const llvm::SCEV *op : mul->operands()) {
      op = throughDimensionTest(op, se);
      if (llvm::isa<llvm::SCEVConstant>(op)) {
        if (!constant(op))
          return false;
      } else if (llvm::isa<llvm::SCEVAddExpr>(op) && !sum) {
        sum = op;
      } else {
        t.factors.push_back(op);
      }
    }
    if (sum) {
      std::vector<Term> parts;
      if (!termsOf(sum, parts, se, t.coefficient))
        return false;
      for (Term &p : parts) {
        p.factors.append(t.factors.begin(), t.factors.end());
        out.push_back(p);
      }
      return true;
    }
  } else if (llvm::isa<llvm::SCEVConstant>(s)) {
    if (!constant(s))
      return false;
  } else {
    t.factors.push_back(s);
  }
  out.push_back(t);
  return true;
}

class Offsets {
public:
  Offsets(llvm::Function &body, llvm::ScalarEvolution &se) : body_(body), se_(se) {
    n_ = body.arg_size() - 4;
  }

  // Whether `offset` is `c * get_global_id(0) + k`, k the same for the whole launch
  // (perhaps through a narrower integer: `(int)get_global_id(0)`), or
  // `c * get_global_id(0) + r * get_global_id(1) + k` with r the same for the whole
  // launch (a row's bytes: a kernel argument, or the launch's global size in x as in
  // `out[y * get_global_size(0) + x]`, times a constant); `stride` = c, `row` = r (null
  // in 1-D).
  bool ownPerWorkItem(const llvm::SCEV *offset, int64_t &stride, const llvm::SCEV *&row) const {
    row = nullptr;
    std::vector<Term> terms;
    if (!termsOf(offset, terms, se_))
      return false;
    int64_t x = 0, groupsX = 0;
    const llvm::SCEV *y = nullptr, *groupsY = nullptr;
    const llvm::SCEV *narrow = nullptr;
    int64_t narrowScale = 0;
    for (const Term &t : terms) {
      // The term's factors that name the work-item, and its multiplier.
      llvm::SmallVector<const llvm::SCEV *, 4> ids;
      llvm::SmallVector<const llvm::SCEV *, 4> by{
          se_.getConstant(offset->getType(), uint64_t(t.coefficient), true)};
      // (A group's size is uniform, but pairs with the group's id.)
      bool sizesOnly = true;
      for (const llvm::SCEV *f : t.factors) {
        bool size = isGroupSize(f, 0) || isGroupSize(f, 1);
        (uniform(f) && !size ? by : ids).push_back(f);
        sizesOnly = sizesOnly && (size || uniform(f));
      }
      if (sizesOnly)
        continue;
      const llvm::SCEV *multiplier = se_.getMulExpr(by);
      auto constant = llvm::dyn_cast<llvm::SCEVConstant>(multiplier);
      auto pair = [&](unsigned d) {
        return ids.size() == 2 && ((isGroup(ids[0], d) && isGroupSize(ids[1], d)) ||
                                   (isGroup(ids[1], d) && isGroupSize(ids[0], d)));
      };
      if (ids.empty())
        continue;
      if (ids.size() == 1 && isLocal(ids[0], 0) && constant)
        x += constant->getAPInt().getSExtValue();
      else if (pair(0) && constant)
        groupsX += constant->getAPInt().getSExtValue();
      else if (ids.size() == 1 && isLocal(ids[0], 1) && !y)
        y = multiplier;
      else if (pair(1) && !groupsY)
        groupsY = multiplier;
      else if (ids.size() == 1 && t.factors.size() == 1 && !narrow && extension(ids[0]))
        narrow = ids[0], narrowScale = t.coefficient;
      else
        return false;
    }
    if (y != groupsY || (y && !uniform(y)))
      return false;
    if (narrow) {
      // C * ext(gid + k'): gid + k' differs between work-items in any narrower width
      // the launch's global size fits (the runtime allows 2^31 at most).
      int64_t inner = 0;
      const llvm::SCEV *innerRow = nullptr;
      if (x || groupsX || y ||
          !ownPerWorkItem(llvm::cast<llvm::SCEVCastExpr>(narrow)->getOperand(0), inner, innerRow) ||
          inner != 1 || innerRow)
        return false;
      stride = narrowScale;
      return true;
    }
    if (x != groupsX || x == 0)
      return false;
    stride = x;
    row = y;
    return true;
  }

  // `s`, uniform, computed at the body's entry (`at`): the loads of the group's
  // context it is built from (the launch's sizes) are loaded there again.
  llvm::Value *atEntry(const llvm::SCEV *s, llvm::Instruction *at) const {
    llvm::ValueToSCEVMapTy reloaded;
    llvm::IRBuilder<> b(at);
    llvm::SCEVExprContains(s, [&](const llvm::SCEV *x) {
      auto *u = llvm::dyn_cast<llvm::SCEVUnknown>(x);
      auto *load = u ? llvm::dyn_cast<llvm::LoadInst>(u->getValue()) : nullptr;
      if (load && !reloaded.count(load))
        reloaded[load] = se_.getUnknown(
            b.CreateLoad(load->getType(), b.CreateConstGEP1_64(b.getInt8Ty(), body_.getArg(n_),
                                                               uint64_t(contextOffset(load)))));
      return false;
    });
    const llvm::SCEV *there = llvm::SCEVParameterRewriter::rewrite(s, se_, reloaded);
    llvm::SCEVExpander expander(se_, body_.getParent()->getDataLayout(), "race.row");
    return expander.expandCodeFor(there, there->getType(), at);
  }

private:
  bool extension(const llvm::SCEV *s) const {
    auto *cast = llvm::dyn_cast<llvm::SCEVIntegralCastExpr>(s);
    return cast &&
           (llvm::isa<llvm::SCEVZeroExtendExpr>(s) || llvm::isa<llvm::SCEVSignExtendExpr>(s)) &&
           cast->getOperand()->getType()->getIntegerBitWidth() >= 32;
  }
  // `s` without truncations and zero extensions of it.
  static const llvm::SCEV *stripped(const llvm::SCEV *s) {
    while (llvm::isa<llvm::SCEVTruncateExpr>(s) || llvm::isa<llvm::SCEVZeroExtendExpr>(s))
      s = llvm::cast<llvm::SCEVCastExpr>(s)->getOperand(0);
    return s;
  }
  // A load of the group's context at `field`.
  bool contextField(const llvm::SCEV *s, size_t field) const {
    auto *u = llvm::dyn_cast<llvm::SCEVUnknown>(stripped(s));
    auto *load = u ? llvm::dyn_cast<llvm::LoadInst>(u->getValue()) : nullptr;
    return load && contextOffset(load) == int64_t(field);
  }
  bool isLocal(const llvm::SCEV *s, unsigned d) const {
    auto *u = llvm::dyn_cast<llvm::SCEVUnknown>(stripped(s));
    return u && u->getValue() == body_.getArg(n_ + 1 + d);
  }
  bool isGroup(const llvm::SCEV *s, unsigned d) const {
    return contextField(s, offsetof(fcl_group_ctx, group_id) + d * sizeof(fcl_u64));
  }
  bool isGroupSize(const llvm::SCEV *s, unsigned d) const {
    return contextField(s, offsetof(fcl_group_ctx, enqueued_local_size) + d * sizeof(fcl_u64));
  }
  // The offset in the group's context a load reads at, or -1.
  int64_t contextOffset(const llvm::LoadInst *load) const {
    const llvm::DataLayout &dl = body_.getParent()->getDataLayout();
    llvm::APInt offset(64, 0);
    const llvm::Value *base =
        load->getPointerOperand()->stripAndAccumulateConstantOffsets(dl, offset, true);
    return base == body_.getArg(n_) ? offset.getSExtValue() : -1;
  }
  // The same in every work-item of the launch: built from constants, the kernel's
  // arguments and the launch's sizes and offsets.
  bool uniform(const llvm::SCEV *s) const {
    return !llvm::SCEVExprContains(s, [&](const llvm::SCEV *x) {
      if (llvm::isa<llvm::SCEVAddRecExpr>(x))
        return true;
      auto *u = llvm::dyn_cast<llvm::SCEVUnknown>(x);
      if (!u)
        return false;
      if (auto *arg = llvm::dyn_cast<llvm::Argument>(u->getValue()))
        return arg->getParent() != &body_ || arg->getArgNo() >= n_;
      auto *load = llvm::dyn_cast<llvm::LoadInst>(u->getValue());
      if (!load)
        return true;
      int64_t at = contextOffset(load);
      auto within = [&](size_t field, size_t bytes) {
        return at >= int64_t(field) && at < int64_t(field + bytes);
      };
      return !(within(offsetof(fcl_group_ctx, global_offset), 3 * 8) ||
               within(offsetof(fcl_group_ctx, global_size), 3 * 8) ||
               within(offsetof(fcl_group_ctx, enqueued_local_size), 3 * 8) ||
               within(offsetof(fcl_group_ctx, num_groups), 3 * 8) ||
               at == int64_t(offsetof(fcl_group_ctx, work_dim)));
    });
  }

  llvm::Function &body_;
  llvm::ScalarEvolution &se_;
  unsigned n_;
};

} // namespace

RaceFreeArguments findRaceFreeArguments(llvm::Function &body,
                                        const std::vector<RaceAccess> &accesses) {
  RaceFreeArguments found;
  unsigned n = body.arg_size() - 4;
  if (n > 64)
    return found;
  // An access of unknown origin may reach any argument's memory.
  for (const RaceAccess &a : accesses)
    if (a.global && !a.knownObject)
      return found;
  llvm::TargetLibraryInfoImpl tlii(llvm::Triple(body.getParent()->getTargetTriple()));
  llvm::TargetLibraryInfo tli(tlii);
  llvm::AssumptionCache ac(body);
  llvm::DominatorTree dt(body);
  llvm::LoopInfo li(dt);
  llvm::ScalarEvolution se(body, tli, ac, dt, li);
  Offsets offsets(body, se);
  for (unsigned i = 0; i < n; ++i) {
    llvm::Argument *arg = body.getArg(i);
    auto *type = llvm::dyn_cast<llvm::PointerType>(arg->getType());
    if (!type || (type->getAddressSpace() != 1 && type->getAddressSpace() != 2))
      continue;
    bool reads = true, own = true;
    const llvm::SCEV *common = nullptr;
    uint64_t bytes = 0;
    for (const RaceAccess &a : accesses) {
      if (a.argument != i)
        continue;
      if (!a.plain)
        reads = own = false;
      reads = reads && !a.writes;
      if (!own)
        continue;
      const llvm::SCEV *offset = se.getMinusSCEV(se.getSCEV(a.pointer), se.getSCEV(arg));
      if (llvm::isa<llvm::SCEVCouldNotCompute>(offset) || (common && offset != common) ||
          !a.bytes || (bytes && a.bytes != bytes))
        own = false;
      common = offset;
      bytes = a.bytes;
    }
    int64_t stride = 0;
    const llvm::SCEV *row = nullptr;
    bool ownOffset = false;
    if (reads) {
      found.readOnly |= uint64_t(1) << i;
    } else if (own && common && offsets.ownPerWorkItem(common, stride, row) &&
               uint64_t(stride < 0 ? -stride : stride) >= bytes) {
      if (row)
        found.rowBytes[i] = offsets.atEntry(row, &*body.getEntryBlock().getFirstInsertionPt());
      found.ownOffset |= uint64_t(1) << i;
      found.stride[i] = stride;
      ownOffset = true;
    }
    if (debugChannel("check") && !reads && common)
      llvm::errs() << "FiberCL: races: argument " << i << " at offset " << *common
                   << (ownOffset
                           ? (row ? ": each work-item's own, in rows" : ": each work-item's own")
                           : ": not each work-item's own")
                   << "\n";
  }
  return found;
}

} // namespace fibercl::compiler

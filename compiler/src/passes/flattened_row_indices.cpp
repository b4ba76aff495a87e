// FlattenedRowIndicesPass (passes.hpp): `tile[i / W][i % W]`, a 2-D array of rows of W
// elements indexed by the quotient and the remainder of one index, is element i of the
// rows laid end to end -- the same address, as an index the vectorisers see step by
// one element per work-item (a vector store where they saw a scatter: the tile a
// stencil's work-items load, `for (i = lid; i < 18 * 18; i += 256)`).
//
// q * W + r == i for both unsigned and signed (truncating) division, so the GEP's
// address is the same whatever i is; only the quotient and remainder of one value, by
// the array's own row length, in matching casts, are taken.
#include "passes.hpp"

#include <llvm/Analysis/LazyValueInfo.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Support/MathExtras.h>
#include <llvm/Transforms/Utils/Local.h>

#include <vector>

namespace fibercl::compiler {
namespace {

// `index` as `cast(i op rows)` for op one of udiv/urem (unsigned) or sdiv/srem (signed),
// the cast a zext (unsigned), a sext (signed) or none; i, or null. `keep`: the bits of i
// the element index keeps (all but for a quotient masked as below).
llvm::Value *dividend(llvm::Value *index, bool remainder, uint64_t rows, bool &isSigned,
                      uint64_t &keep) {
  using namespace llvm::PatternMatch;
  llvm::Value *inner = index;
  bool zext = match(index, m_ZExt(m_Value(inner))), sext = match(index, m_SExt(m_Value(inner)));
  llvm::Value *x = nullptr;
  const llvm::APInt *by = nullptr;
  bool unsignedOp = remainder ? match(inner, m_URem(m_Value(x), m_APInt(by)))
                              : match(inner, m_UDiv(m_Value(x), m_APInt(by)));
  bool signedOp = !unsignedOp && (remainder ? match(inner, m_SRem(m_Value(x), m_APInt(by)))
                                            : match(inner, m_SDiv(m_Value(x), m_APInt(by))));
  if ((unsignedOp || signedOp) && by->getZExtValue() == rows && !(unsignedOp && sext) &&
      !(signedOp && zext)) {
    isSigned = signedOp;
    return x;
  }
  // Rows of 2^k: `i >> k` and `i & (2^k - 1)` (or i's low k bits, `(ushort)i` ...).
  isSigned = false;
  const llvm::APInt *bits = nullptr, *low = nullptr;
  if (sext || !llvm::isPowerOf2_64(rows))
    return nullptr;
  const uint64_t k = llvm::Log2_64(rows);
  if (!remainder && match(inner, m_LShr(m_Value(x), m_APInt(bits))) && bits->getZExtValue() == k)
    return x;
  // The quotient of an i32 widened to i64 keeps 32 - k bits, `(i >> k) & (2^(32-k) - 1)`:
  // the element is i's low 32 bits.
  if (!remainder && match(inner, m_And(m_LShr(m_Value(x), m_APInt(bits)), m_APInt(low))) &&
      bits->getZExtValue() == k && (*low + 1).isPowerOf2() && low->getActiveBits() + k <= 64) {
    keep = (low->getZExtValue() << k) | (rows - 1);
    return x;
  }
  if (remainder && match(inner, m_And(m_Value(x), m_APInt(bits))) &&
      bits->getZExtValue() == rows - 1)
    return x;
  if (remainder && zext && match(inner, m_Trunc(m_Value(x))) &&
      inner->getType()->getIntegerBitWidth() == k)
    return x;
  return nullptr;
}

// The same value: one instruction, or the same cast of the same value twice (LLVM
// narrows `i / 18` and `i % 18` each with a truncation of its own).
bool sameValue(llvm::Value *a, llvm::Value *b) {
  if (a == b)
    return true;
  auto *ca = llvm::dyn_cast<llvm::CastInst>(a), *cb = llvm::dyn_cast<llvm::CastInst>(b);
  return ca && cb && ca->getOpcode() == cb->getOpcode() && ca->getType() == cb->getType() &&
         sameValue(ca->getOperand(0), cb->getOperand(0));
}

// Rewrites `gep` if two of its indices are such a pair; whether it did.
bool flatten(llvm::GetElementPtrInst &gep, llvm::LazyValueInfo &values) {
  if (gep.getType()->isVectorTy())
    return false;
  std::vector<llvm::Value *> indices(gep.idx_begin(), gep.idx_end());
  // Index k + 1 indexes into `indexed` (the source type for k = 0); index k steps over
  // whole values of it.
  llvm::Type *indexed = gep.getSourceElementType();
  for (size_t k = 0; k + 1 < indices.size(); ++k) {
    auto *row = llvm::dyn_cast<llvm::ArrayType>(indexed);
    if (!row)
      return false;
    bool divSigned = false, remSigned = false;
    uint64_t keep = ~uint64_t(0), ignored = 0;
    llvm::Value *divided = dividend(indices[k], false, row->getNumElements(), divSigned, keep);
    llvm::Value *remaindered =
        dividend(indices[k + 1], true, row->getNumElements(), remSigned, ignored);
    if (divided && remaindered && sameValue(divided, remaindered) && divSigned == remSigned &&
        row->getNumElements() >= 2 && divided->getType()->getIntegerBitWidth() <= 64) {
      // [the gep of the indices before k], then element x of the rows laid end to end,
      // then the indices after the pair.
      llvm::IRBuilder<> b(&gep);
      llvm::Value *base = gep.getPointerOperand();
      if (k > 0)
        base = b.CreateGEP(gep.getSourceElementType(), base,
                           llvm::ArrayRef<llvm::Value *>(indices).take_front(k), "",
                           gep.getNoWrapFlags());
      // (A GEP sign-extends an index narrower than the pointer's: an unsigned i is
      // widened first. Its quotient by N >= 2 has the sign bit clear, so the quotient's
      // sign extension was its value.)
      llvm::Type *type = gep.getDataLayout().getIndexType(gep.getPointerOperandType());
      // LLVM narrows `i / 18` to 16 bits where i < 2^16 in a loop (`i < 324`): i itself,
      // not its truncation, keeps the index a recurrence ScalarEvolution can follow.
      if (auto *trunc = llvm::dyn_cast<llvm::TruncInst>(divided);
          trunc &&
          values.getConstantRange(trunc->getOperand(0), &gep, /*UndefAllowed=*/false)
                  .getUnsignedMax()
                  .getActiveBits() <= trunc->getType()->getIntegerBitWidth() - (divSigned ? 1 : 0))
        divided = trunc->getOperand(0);
      llvm::Value *x =
          divSigned ? b.CreateSExtOrTrunc(divided, type) : b.CreateZExtOrTrunc(divided, type);
      if (~keep)
        x = b.CreateAnd(x, llvm::ConstantInt::get(type, keep));
      std::vector<llvm::Value *> rest{x};
      rest.insert(rest.end(), indices.begin() + k + 2, indices.end());
      llvm::Value *flat = b.CreateGEP(row->getElementType(), base, rest, gep.getName() + ".flat",
                                      gep.getNoWrapFlags());
      gep.replaceAllUsesWith(flat);
      return true;
    }
    indexed = llvm::GetElementPtrInst::getTypeAtIndex(indexed, indices[k + 1]);
    if (!indexed)
      return false;
  }
  return false;
}

} // namespace

llvm::PreservedAnalyses FlattenedRowIndicesPass::run(llvm::Function &f,
                                                     llvm::FunctionAnalysisManager &fam) {
  llvm::LazyValueInfo &values = fam.getResult<llvm::LazyValueAnalysis>(f);
  std::vector<llvm::GetElementPtrInst *> rewritten;
  for (llvm::BasicBlock &bb : f)
    for (llvm::Instruction &i : bb)
      if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(&i); gep && flatten(*gep, values))
        rewritten.push_back(gep);
  for (llvm::GetElementPtrInst *gep : rewritten)
    llvm::RecursivelyDeleteTriviallyDeadInstructions(gep);
  return rewritten.empty() ? llvm::PreservedAnalyses::all() : llvm::PreservedAnalyses::none();
}

} // namespace fibercl::compiler

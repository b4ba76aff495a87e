#include "local_size_specialisation.hpp"

#include <llvm/ADT/APInt.h>
#include <llvm/Analysis/ConstantFolding.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/IPO/GlobalDCE.h>
#include <llvm/Transforms/IPO/Internalize.h>

#include <cstddef>
#include <vector>

#include "fibercl/compiler/debug.hpp"
#include "fibercl/kernel_abi.h"
#include "passes/barrier_regions.hpp"
#include "passes/passes.hpp"
#include "pipeline.hpp"

namespace fibercl::compiler {
namespace {

// The size fields of fcl_group_ctx a specialised function may take as constants: in a
// uniform launch every group's local_size is the enqueued one.
constexpr uint64_t kEnqueuedSize = offsetof(fcl_group_ctx, enqueued_local_size);
constexpr uint64_t kLocalSize = offsetof(fcl_group_ctx, local_size);
static_assert(kLocalSize == kEnqueuedSize + 24, "the two size fields are adjacent");

// Replaces every load of a size field from the function's context argument by its
// value: an i64, or a vector of them (LLVM's SLP vectoriser joins adjacent loads). False
// if a load reads part of those fields in another shape (a narrower integer): the copy
// would still read them, and the caller gives up.
bool foldSizeLoads(llvm::Function &f, const uint64_t localSize[3]) {
  const llvm::DataLayout &dl = f.getParent()->getDataLayout();
  llvm::Value *ctx = f.getArg(1);
  std::vector<std::pair<llvm::LoadInst *, llvm::Constant *>> folds;
  for (llvm::BasicBlock &bb : f)
    for (llvm::Instruction &i : bb) {
      auto *load = llvm::dyn_cast<llvm::LoadInst>(&i);
      if (!load)
        continue;
      llvm::APInt offset(dl.getIndexTypeSizeInBits(load->getPointerOperandType()), 0);
      if (load->getPointerOperand()->stripAndAccumulateConstantOffsets(dl, offset, true) != ctx)
        continue;
      uint64_t begin = offset.getZExtValue();
      uint64_t end = begin + dl.getTypeStoreSize(load->getType());
      if (end <= kEnqueuedSize || begin >= kLocalSize + 24)
        continue; // another field
      auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(load->getType());
      llvm::Type *element = vector ? vector->getElementType() : load->getType();
      if (!element->isIntegerTy(64) || begin < kEnqueuedSize || end > kLocalSize + 24 ||
          (begin - kEnqueuedSize) % 8 != 0)
        return false;
      // (field j of the six: enqueued_local_size[j], then local_size[j - 3])
      std::vector<llvm::Constant *> values;
      for (uint64_t j = (begin - kEnqueuedSize) / 8; j < (end - kEnqueuedSize) / 8; ++j)
        values.push_back(llvm::ConstantInt::get(element, localSize[j % 3]));
      folds.emplace_back(load, vector ? llvm::ConstantVector::get(values) : values[0]);
    }
  for (auto [load, value] : folds) {
    load->replaceAllUsesWith(value);
    load->eraseFromParent();
  }
  return true;
}

// Folds what the size constants decided (trip counts, frame sizes), so that the
// frames' size below is a constant.
void foldConstants(llvm::Function &f) {
  const llvm::DataLayout &dl = f.getParent()->getDataLayout();
  for (bool changed = true; changed;) {
    changed = false;
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &i : llvm::make_early_inc_range(bb))
        if (llvm::Constant *c = llvm::ConstantFoldInstruction(&i, dl)) {
          i.replaceAllUsesWith(c);
          i.eraseFromParent();
          changed = true;
        }
  }
}

// The generic function keeps its work-items' values across barriers in frames the
// runtime allocates for any size. Once the size is known and the frames are small,
// they become an array on the stack: LLVM then keeps the values in registers where
// the regions' code allows (with groups of one vector, all of them).
// At most 8 KiB: a scheduled group runs on a fiber stack, which may be as small as
// 16 KiB (FIBERCL_STACK_SIZE).
constexpr uint64_t kMostFrameBytesOnStack = 8 * 1024;

bool framesOnStack(llvm::Function &f) {
  for (llvm::BasicBlock &bb : f)
    for (llvm::Instruction &i : bb) {
      auto *call = llvm::dyn_cast<llvm::CallInst>(&i);
      llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
      if (!callee || callee->getName() != FIBERCL_HOST_REGIONS_BEGIN)
        continue;
      auto *bytes = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(2));
      if (!bytes || bytes->getZExtValue() > kMostFrameBytesOnStack)
        return false;
      llvm::IRBuilder<> b(&*f.getEntryBlock().getFirstInsertionPt());
      llvm::AllocaInst *frames = b.CreateAlloca(b.getInt8Ty(), bytes, "frames.stack");
      frames->setAlignment(llvm::Align(kFramesAlign));
      call->replaceAllUsesWith(frames);
      // The runtime still learns the group's shape (for reports), but allocates nothing.
      call->setArgOperand(2, llvm::ConstantInt::get(bytes->getType(), 0));
      // `tail` promises that a callee reads none of the caller's allocas; calls given
      // the frames (the barrier check reads the sites in them, pipes and printf read
      // private values) now do.
      for (llvm::BasicBlock &block : f)
        for (llvm::Instruction &j : block)
          if (auto *other = llvm::dyn_cast<llvm::CallInst>(&j))
            other->setTailCallKind(llvm::CallInst::TCK_None);
      return true;
    }
  return false;
}

// The region driver's dispatch loop swaps the two copies of the group's uniform values
// every round (region_driver.cpp), so a pointer to either reaches each region through
// a phi and those values stay in memory. Unrolled twice, each copy of the loop body
// knows which copy it reads and which it writes, and LLVM keeps them in registers
// once the frames are on the stack. The loop is the one whose header dispatches to
// the regions with a switch.
//
// Only small loops: the barrier loop of bench/limits_bench.cpp (358 instructions)
// goes from 0.79 to 0.57 ms in groups of 16, but the look-back scan (962) from 29 to
// 35 ms, its two copies costing more in instruction cache and branch prediction than
// the registers win.
constexpr size_t kMostInstructionsToUnroll = 512;

void unrollDispatchTwice(llvm::Function &f) {
  llvm::DominatorTree dt(f);
  llvm::LoopInfo loops(dt);
  llvm::LLVMContext &c = f.getContext();
  for (llvm::Loop *loop : loops) {
    if (!llvm::isa<llvm::SwitchInst>(loop->getHeader()->getTerminator()))
      continue;
    size_t size = 0;
    for (llvm::BasicBlock *bb : loop->blocks())
      size += bb->size();
    if (size > kMostInstructionsToUnroll)
      continue;
    llvm::Metadata *count[] = {
        llvm::MDString::get(c, "llvm.loop.unroll.count"),
        llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(c), 2))};
    llvm::TempMDTuple placeholder = llvm::MDNode::getTemporary(c, {});
    llvm::Metadata *operands[] = {placeholder.get(), llvm::MDNode::get(c, count)};
    llvm::MDNode *id = llvm::MDNode::getDistinct(c, operands);
    id->replaceOperandWith(0, id);
    loop->setLoopID(id);
  }
}

// Leaves `keep` the module's only external definition and drops what it does not use.
void keepOnly(llvm::Module &m, const std::string &keep) {
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb;
  pb.registerModuleAnalyses(mam);
  llvm::ModulePassManager mpm;
  mpm.addPass(
      llvm::InternalizePass([&](const llvm::GlobalValue &gv) { return gv.getName() == keep; }));
  mpm.addPass(llvm::GlobalDCEPass());
  mpm.run(m, mam);
}

} // namespace

std::unique_ptr<llvm::Module>
specialiseWorkGroupFunction(llvm::LLVMContext &context, const std::string &bitcode,
                            const std::string &kernel, const uint64_t localSize[3],
                            std::string &specialisedName, std::string &why) {
  auto parsed =
      llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcode, "fibercl-executable"), context);
  if (!parsed) {
    why = "corrupt binary: " + llvm::toString(parsed.takeError());
    return nullptr;
  }
  std::unique_ptr<llvm::Module> m = std::move(*parsed);
  llvm::Function *f = m->getFunction(workGroupName(kernel));
  if (!f || f->isDeclaration() || f->arg_size() != 2) {
    why = "no work-group function for kernel '" + kernel + "'";
    return nullptr;
  }
  specialisedName = workGroupName(kernel) + ".local" + std::to_string(localSize[0]) + "x" +
                    std::to_string(localSize[1]) + "x" + std::to_string(localSize[2]);
  f->setName(specialisedName);
  if (!foldSizeLoads(*f, localSize)) {
    why = "it reads the work-group size in a shape the specialisation does not replace";
    return nullptr;
  }
  foldConstants(*f);
  if (framesOnStack(*f))
    unrollDispatchTwice(*f);
  keepOnly(*m, specialisedName);
  // The copy lives in a module of its own: a variable it wrote would be a second one.
  for (const llvm::GlobalVariable &gv : m->globals())
    if (!gv.isDeclaration() && !gv.isConstant()) {
      why = "the kernel uses the program-scope variable '" + gv.getName().str() + "'";
      return nullptr;
    }
  if (!reoptimise(*m, why))
    return nullptr;
  if (debugChannel("ir")) {
    llvm::errs() << "; FiberCL specialised IR (FIBERCL_DEBUG=ir)\n";
    m->print(llvm::errs(), nullptr);
  }
  return m;
}

} // namespace fibercl::compiler

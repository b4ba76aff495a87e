// buildRegionDriver (barrier_regions.hpp): the work-group function of a kernel whose
// barriers are compiled as regions.
//
//   __fibercl_wg_K(args, ctx) {
//     load K's arguments once; frames = FIBERCL_HOST_REGIONS_BEGIN(ctx, n, bytes)
//     region = 0
//     loop: uniform = a copy of the uniform values the last round stored
//           for each work-item (z, y, x): site[item] = K.fibercl.region.<region>(...)
//           next = the site every work-item returned (FIBERCL_HOST_ROUND_END checks
//                  them; a region with one possible exit needs no check)
//           if next == 0: done; count a barrier round; region = next; the group's
//           scheduling decision at that barrier, if it yields (barrier_decisions.hpp)
//     FIBERCL_HOST_REGIONS_END(ctx)
//   }
// With sub-group barriers (RegionPlan::subGroupWidth), a round after a sub-group
// barrier runs only the work-items waiting there (site[item] == region), every round
// stores every site, and FIBERCL_HOST_SUB_GROUP_ROUND chooses the next region.
// Each region's loop is a plain work-item loop with the region inlined: the
// vectoriser sees it as it sees a barrier-free kernel.
#include "barrier_regions.hpp"

#include "barrier_decisions.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <cstddef>

#include "fibercl/kernel_abi.h"
#include "host_functions.hpp"
#include "passes.hpp"
#include "work_item_loop.hpp"

namespace fibercl::compiler {

void buildRegionDriver(llvm::Module &m, llvm::Function &wg, llvm::Function &body,
                       const RegionPlan &plan, const std::map<uint32_t, uint32_t> &decisions,
                       llvm::DILocation *loc) {
  llvm::LLVMContext &c = m.getContext();
  llvm::Type *ptr = llvm::PointerType::get(c, 0);
  llvm::Type *i32 = llvm::Type::getInt32Ty(c);
  llvm::Type *i64 = llvm::Type::getInt64Ty(c);
  llvm::FunctionCallee begin = declareHostFunction(m, HostFunction::REGIONS_BEGIN);
  llvm::FunctionCallee roundEnd = declareHostFunction(m, HostFunction::ROUND_END);
  llvm::FunctionCallee end = declareHostFunction(m, HostFunction::REGIONS_END);
  const bool subGroups = plan.subGroupWidth != 0;
  if (subGroups)
    wg.addFnAttr(kSubGroupsAttr);
  llvm::FunctionCallee subGroupRound =
      subGroups ? declareHostFunction(m, HostFunction::SUB_GROUP_ROUND) : llvm::FunctionCallee();
  if (auto *f = llvm::dyn_cast<llvm::Function>(begin.getCallee()))
    f->addRetAttr(llvm::Attribute::NoAlias);
  // The end reads the context and writes the runtime's own state, nothing else: the
  // work-items' last sites (stored for a check call's sake in the last round) are dead.
  if (auto *f = llvm::dyn_cast<llvm::Function>(end.getCallee())) {
    f->setMemoryEffects(llvm::MemoryEffects::argMemOnly(llvm::ModRefInfo::Ref) |
                        llvm::MemoryEffects::inaccessibleMemOnly());
    f->setDoesNotThrow();
    f->setWillReturn();
  }

  llvm::Value *args = wg.getArg(0), *ctx = wg.getArg(1);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(c, "entry", &wg));
  b.SetCurrentDebugLocation(loc);
  std::vector<llvm::Value *> values = loadArguments(b, body, args, ctx);
  llvm::Value *size[3];
  loadLocalSize(b, ctx, size);
  llvm::Value *n = b.CreateNUWMul(b.CreateNUWMul(size[0], size[1]), size[2], "n");
  llvm::Value *n64 = b.CreateZExt(n, i64);
  llvm::Value *bytes = b.CreateNUWAdd(b.CreateNUWMul(n64, b.getInt64(plan.bytesPerItem())),
                                      b.getInt64(2 * plan.uniformBytes));
  llvm::Value *frames = b.CreateCall(begin, {ctx, n, bytes}, "frames");
  llvm::Value *uniformA =
      b.CreateGEP(b.getInt8Ty(), frames,
                  b.CreateNUWMul(n64, b.getInt64(plan.privateBytes + plan.slotBytes)), "uniform.a");
  llvm::Value *uniformB =
      b.CreateConstGEP1_64(b.getInt8Ty(), uniformA, plan.uniformBytes, "uniform.b");
  llvm::Value *sites =
      b.CreateConstGEP1_64(b.getInt8Ty(), uniformA, 2 * plan.uniformBytes, "sites");

  // What the regions read of the uniform values: a copy of `uniform.in` made before
  // each round, on the stack. Nothing the round calls can write the copy, so LLVM
  // reads each value once, before the work-item loop, and a condition on one (the exit
  // test of a loop with a barrier in it) is seen to be the same for every work-item:
  // the loop can be split on it and vectorised. Read in place, every work-item would
  // read it again after any call (a yield point, an atomic) that might have written it.
  llvm::Value *uniformCopy = nullptr;
  if (plan.uniformBytes > 0) {
    llvm::AllocaInst *copy =
        b.CreateAlloca(b.getInt8Ty(), b.getInt64(plan.uniformBytes), "uniform.copy");
    copy->setAlignment(llvm::Align(kFramesAlign));
    uniformCopy = copy;
  }

  auto *dispatch = llvm::BasicBlock::Create(c, "dispatch", &wg);
  auto *finished = llvm::BasicBlock::Create(c, "finished", &wg);
  std::vector<llvm::BasicBlock *> starts;
  for (size_t k = 0; k < plan.regions.size(); ++k)
    starts.push_back(llvm::BasicBlock::Create(c, "region." + llvm::Twine(plan.regions[k].id), &wg));
  b.CreateBr(starts[0]);

  b.SetInsertPoint(dispatch);
  llvm::PHINode *next = b.CreatePHI(i32, unsigned(plan.regions.size()), "next");
  // The two copies of the uniform values swap roles every round.
  llvm::PHINode *uniformIn = b.CreatePHI(ptr, unsigned(plan.regions.size()), "uniform.in");
  llvm::PHINode *uniformOut = b.CreatePHI(ptr, unsigned(plan.regions.size()), "uniform.out");
  // With sub-group barriers, FIBERCL_HOST_SUB_GROUP_ROUND's result is the next region,
  // with FIBERCL_ROUND_EVERYONE when every work-item waits there.
  llvm::Value *nextRegion = next, *allHere = nullptr;
  if (subGroups) {
    nextRegion = b.CreateAnd(next, b.getInt32(~FIBERCL_ROUND_EVERYONE), "next.region");
    allHere = b.CreateICmpNE(b.CreateAnd(next, b.getInt32(FIBERCL_ROUND_EVERYONE)), b.getInt32(0),
                             "everyone.here");
  }
  for (size_t k = 0; k < plan.regions.size(); ++k) {
    const RegionPlan::Region &region = plan.regions[k];
    llvm::Value *in = k == 0 ? uniformB : static_cast<llvm::Value *>(uniformIn);
    llvm::Value *out = k == 0 ? uniformA : static_cast<llvm::Value *>(uniformOut);
    b.SetInsertPoint(starts[k]);
    llvm::Value *read = in;
    if (uniformCopy && k > 0) {
      b.CreateMemCpy(uniformCopy, llvm::Align(kFramesAlign), in, llvm::Align(kFramesAlign),
                     plan.uniformBytes);
      read = uniformCopy;
    }
    if (subGroups) {
      // One round: every work-item, or (`masked`) only those waiting at this region's
      // sub-group barrier. Where every work-item waits after an unmasked round: OR and
      // AND agree only if all do (not in masked rounds: the masked vectoriser takes no
      // values carried from work-item to work-item; the runtime looks at the sites).
      auto emitRound = [&](bool masked) {
        std::vector<llvm::Value *> seen = emitWorkItemLoop(
            b, size, {b.getInt32(0), b.getInt32(~0u)},
            [&](llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *y, llvm::Value *z,
                llvm::Value *index, std::vector<llvm::Value *> &acc) {
              llvm::Value *slot = b.CreateGEP(i32, sites, index);
              llvm::BasicBlock *skip = nullptr;
              if (masked) {
                llvm::LoadInst *waits = b.CreateAlignedLoad(i32, slot, llvm::Align(4));
                markFrameSlot(waits, "items");
                auto *run = llvm::BasicBlock::Create(c, "waits.here", &wg);
                skip = llvm::BasicBlock::Create(c, "waits.elsewhere", &wg);
                b.CreateCondBr(b.CreateICmpEQ(waits, b.getInt32(region.id)), run, skip);
                b.SetInsertPoint(run);
              }
              std::vector<llvm::Value *> callArgs = values;
              callArgs.insert(callArgs.end(), {ctx, x, y, z, frames, index, n64, in, out});
              llvm::Value *site = b.CreateCall(region.step, callArgs);
              markFrameSlot(b.CreateAlignedStore(site, slot, llvm::Align(4)), "items");
              if (skip) {
                b.CreateBr(skip);
                b.SetInsertPoint(skip);
                return;
              }
              acc[0] = b.CreateOr(acc[0], site);
              acc[1] = b.CreateAnd(acc[1], site);
            });
        llvm::Value *agreed = masked ? static_cast<llvm::Value *>(b.getInt32(~0u))
                                     : b.CreateSelect(b.CreateICmpEQ(seen[0], seen[1]), seen[0],
                                                      b.getInt32(~0u), "agreed");
        return b.CreateCall(subGroupRound, {ctx, sites, n, b.getInt32(plan.subGroupWidth),
                                            b.getInt32(region.id), agreed});
      };
      llvm::Value *result;
      if (!(region.id & FIBERCL_SITE_SUB_GROUP)) {
        result = emitRound(false); // the start, or after a work-group barrier: everyone
      } else {
        // After a sub-group barrier every work-item usually waits there (sub-groups in
        // step): then the round needs no mask, and its loop is the plain one.
        auto *everyone = llvm::BasicBlock::Create(c, "round.everyone", &wg);
        auto *some = llvm::BasicBlock::Create(c, "round.some", &wg);
        auto *done = llvm::BasicBlock::Create(c, "round.done", &wg);
        b.CreateCondBr(allHere, everyone, some);
        b.SetInsertPoint(everyone);
        llvm::Value *whole = emitRound(false);
        llvm::BasicBlock *wholeEnd = b.GetInsertBlock();
        b.CreateBr(done);
        b.SetInsertPoint(some);
        llvm::Value *part = emitRound(true);
        llvm::BasicBlock *partEnd = b.GetInsertBlock();
        b.CreateBr(done);
        b.SetInsertPoint(done);
        llvm::PHINode *phi = b.CreatePHI(i32, 2, "round.next");
        phi->addIncoming(whole, wholeEnd);
        phi->addIncoming(part, partEnd);
        result = phi;
      }
      next->addIncoming(result, b.GetInsertBlock());
      uniformIn->addIncoming(out, b.GetInsertBlock());
      uniformOut->addIncoming(in, b.GetInsertBlock());
      b.CreateBr(dispatch);
      continue;
    }
    bool check = region.exits.size() > 1;
    // Where every work-item stopped: OR and AND of the sites agree only if all are
    // equal (vectorisable reductions); the runtime then only looks at the stored sites
    // to report a divergence.
    std::vector<llvm::Value *> seen = emitWorkItemLoop(
        b, size, {b.getInt32(0), b.getInt32(~0u)},
        [&](llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *y, llvm::Value *z,
            llvm::Value *index, std::vector<llvm::Value *> &acc) {
          std::vector<llvm::Value *> callArgs = values;
          callArgs.insert(callArgs.end(), {ctx, x, y, z, frames, index, n64, read, out});
          llvm::Value *site = b.CreateCall(region.step, callArgs);
          if (!check)
            return;
          markFrameSlot(b.CreateAlignedStore(site, b.CreateGEP(i32, sites, index), llvm::Align(4)),
                        "items");
          acc[0] = b.CreateOr(acc[0], site);
          acc[1] = b.CreateAnd(acc[1], site);
        });
    llvm::Value *site = b.getInt32(region.exits.empty() ? 0 : region.exits[0]);
    if (check) {
      llvm::BasicBlock *agreed = b.GetInsertBlock();
      auto *disagree = llvm::BasicBlock::Create(c, "disagree", &wg);
      auto *joined = llvm::BasicBlock::Create(c, "agreed", &wg);
      b.CreateCondBr(b.CreateICmpEQ(seen[0], seen[1]), joined, disagree);
      b.SetInsertPoint(disagree);
      llvm::Value *reported = b.CreateCall(roundEnd, {ctx, sites, n, b.getInt32(region.id)});
      b.CreateBr(joined);
      b.SetInsertPoint(joined);
      llvm::PHINode *phi = b.CreatePHI(i32, 2, "site");
      phi->addIncoming(seen[0], agreed);
      phi->addIncoming(reported, disagree);
      site = phi;
    }
    next->addIncoming(site, b.GetInsertBlock());
    uniformIn->addIncoming(out, b.GetInsertBlock());
    uniformOut->addIncoming(in, b.GetInsertBlock());
    b.CreateBr(dispatch);
  }

  b.SetInsertPoint(dispatch);
  if (m.getFunction(FIBERCL_HOST_CHECK_RACE)) // FIBERCL_CHECK=races: a barrier was passed
    b.CreateCall(declareHostFunction(m, HostFunction::CHECK_RACE_ROUND), {ctx});
  llvm::SwitchInst *sw = b.CreateSwitch(nextRegion, finished, unsigned(plan.regions.size()));
  for (size_t k = 1; k < plan.regions.size(); ++k)
    sw->addCase(b.getInt32(plan.regions[k].id), starts[k]);

  b.SetInsertPoint(finished);
  b.CreateCall(end, {ctx});
  b.CreateRetVoid();

  // The group's decision at each barrier: once, before the region after it runs.
  if (decisions.empty())
    return;
  llvm::Value *state = loadYieldState(wg.getEntryBlock().getTerminator(), ctx);
  for (size_t k = 1; k < plan.regions.size(); ++k) {
    auto decision = decisions.find(plan.regions[k].id);
    if (decision != decisions.end())
      emitYieldPoint(&*starts[k]->getFirstInsertionPt(), ctx, state, decision->second, loc);
  }
}

} // namespace fibercl::compiler

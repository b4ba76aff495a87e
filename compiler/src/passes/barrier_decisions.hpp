// A work-group's scheduling decision at a barrier. YieldPointsPass gives every barrier
// of a kernel that yields a marker call, __fibercl_barrier_decision(ctx, yield site,
// barrier site), right after the barrier; WorkGroupFunctionPass lowers it:
//  - barriers as regions: one decision per barrier round, taken by the region driver
//    before the next region runs (buildRegionDriver);
//  - barriers on fibers: a yield point in every work-item, right after its barrier.
// A decision inside every region's work-item loop -- the countdown stored by each
// work-item at each barrier, and a call that spills the loop's registers -- cost a
// look-back scan's groups of 64 work-items half a microsecond each (issue 30).
#pragma once

#include <cstdint>
#include <map>

namespace llvm {
class CallInst;
class DebugLoc;
class Function;
class Instruction;
class Value;
} // namespace llvm

namespace fibercl::compiler {

// The marker of the decision with yield site `yieldSite` after `barrier` (a call to
// FIBERCL_HOST_BARRIER), placed before `before`.
void markBarrierDecision(const llvm::CallInst *barrier, llvm::Instruction *before, llvm::Value *ctx,
                         uint32_t yieldSite);

// The yield sites of `body`'s barrier decisions, by barrier site.
std::map<uint32_t, uint32_t> barrierDecisionSites(const llvm::Function &body);

// Removes the markers from `f` (a region: the driver decides).
void dropBarrierDecisions(llvm::Function &f);

// Turns the markers of `f` into yield points (barriers on fibers).
void lowerBarrierDecisions(llvm::Function &f);

// A yield point before `before` (its code at `loc`): when `ctx`'s launch schedules its
// groups, counts the countdown down and, at zero, calls __fibercl_host_yield(ctx,
// site). `state` is the group's fcl_yield_state pointer (loadYieldState), null if the
// launch does not schedule.
void emitYieldPoint(llvm::Instruction *before, llvm::Value *ctx, llvm::Value *state, uint32_t site,
                    const llvm::DebugLoc &loc);

// The group's fcl_yield_state pointer, loaded from `ctx` before `before`.
llvm::Value *loadYieldState(llvm::Instruction *before, llvm::Value *ctx);

} // namespace fibercl::compiler

// Sub-group collectives as operations across a vector's lanes, for the vector copy of
// a kernel (sub_group_vectors.cpp), where the masked vectoriser widens the work-item
// loop with one lane per work-item of a sub-group. The builtins library's calls
// __fibercl_sg_v_<op>_<type> (builtins/lib/fcl_sub_group.h) become:
//   reduce_add/min/max  the active lanes combined in lane order (integers: one
//                       horizontal reduction; floating point: step by step, as the
//                       slot version does);
//   broadcast           the lane the index names;
//   any / all           an or / and of the active lanes' predicates.
// Every result is the same for all lanes: a scalar.
#pragma once

#include <llvm/IR/IRBuilder.h>

namespace llvm {
class AtomicRMWInst;
class Instruction;
class LoadInst;
class StoreInst;
class CallInst;
class Function;
class Value;
} // namespace llvm

namespace fibercl::compiler {

// The prefix of the builtins' vector forms.
inline constexpr const char *kSubGroupLaneOpPrefix = "__fibercl_sg_v_";

bool isSubGroupLaneOp(const llvm::Function *callee);

// `value`: the call's first argument widened (one lane per work-item); `index`: the
// second (broadcast's lane), scalar or widened; `mask`: the active lanes.
llvm::Value *emitSubGroupLaneOp(llvm::IRBuilder<> &b, const llvm::CallInst &call,
                                llvm::Value *value, llvm::Value *index, llvm::Value *mask);

// Helpers the functions below call, for inlineLaneHelpers to inline once the loop is
// widened (the widener cannot split the block it is emitting into).
inline constexpr const char *kLaneHelperPrefix = "__fibercl_lane_";

// `rmw` done by each active lane in lane order (the order the scalar loop would do
// them in), returning each lane's old value. `pointers` and `values` are widened.
llvm::Value *emitLaneAtomics(llvm::IRBuilder<> &b, llvm::AtomicRMWInst &rmw, llvm::Value *pointers,
                             llvm::Value *values, llvm::Value *mask);

// A store of each active lane, in lane order, for a scatter in a vector copy: a loop
// over the active lanes, so a store only one lane makes costs one store.
llvm::Instruction *emitLaneStores(llvm::IRBuilder<> &b, llvm::StoreInst &store,
                                  llvm::Value *pointers, llvm::Value *values, llvm::Value *mask);

// A load of consecutive elements from `first` for the active lanes: a plain vector load
// when every lane is active. (Zen 5 takes about 18 cycles for a masked 512-bit load
// that a plain one does in 1: a reduction over 2^24 uints, 11.4 -> 5.1 ms.)
llvm::Instruction *emitLaneLoad(llvm::IRBuilder<> &b, llvm::LoadInst &load, llvm::Type *vector,
                                llvm::Value *first, llvm::Value *mask);

// A failed check's report (FIBERCL_HOST_CHECK_FAILED; access_checks.cpp), for each
// active lane in lane order: `args` are the call's, widened or the same for all lanes.
bool isLaneCheck(const llvm::Function *callee);
void emitLaneCalls(llvm::IRBuilder<> &b, llvm::CallInst &call, llvm::ArrayRef<llvm::Value *> args,
                   llvm::Value *mask);

// Inlines the helpers' calls in `f`.
void inlineLaneHelpers(llvm::Function &f);

// A yield point (FIBERCL_HOST_YIELD; yield_points.cpp) reached by the vector: taken
// once, if any lane reaches it. `args` are the call's, all the same in every lane.
bool isLaneYield(const llvm::Function *callee);
void emitLaneYield(llvm::IRBuilder<> &b, llvm::CallInst &call, llvm::ArrayRef<llvm::Value *> args,
                   llvm::Value *mask);

} // namespace fibercl::compiler

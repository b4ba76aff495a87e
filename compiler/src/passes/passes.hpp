// FiberCL's LLVM passes (new pass manager, one per file). pipeline.cpp runs them in
// order and says why that order.
//
// Naming: for a kernel K the passes create
//   K.fibercl.body(K's params..., ptr ctx, i32 x, i32 y, i32 z) -- one work-item
//   K.fibercl.item(ptr args, ptr ctx, i32 x, i32 y, i32 z)       -- fcl_item_fn (barriers)
//   __fibercl_wg_K(ptr args, ptr ctx)                             -- fcl_work_group_fn
#pragma once

#include <llvm/IR/PassManager.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "fibercl/compiler/compiler.hpp"

namespace llvm {
class DILocation;
class DISubprogram;
class Function;
class Loop;
class Instruction;
class Value;
} // namespace llvm

namespace fibercl::compiler {

std::string bodyName(llvm::StringRef kernel);
std::string itemName(llvm::StringRef kernel);
std::string workGroupName(llvm::StringRef kernel);

// Clang's SPIR-like address spaces (-ffake-address-space-map).
inline constexpr unsigned kPrivateAddressSpace = 0;
inline constexpr unsigned kGlobalAddressSpace = 1;
inline constexpr unsigned kConstantAddressSpace = 2;
inline constexpr unsigned kLocalAddressSpace = 3;
inline constexpr unsigned kGenericAddressSpace = 4;

// Named metadata of an executable's IR: bytes of its global-address-space variables.
inline constexpr const char *kGlobalVariableBytesMetadata = "fibercl.global_variable_bytes";

// Loop metadata naming a loop over a work-group's work-items in x (work_item_loop.cpp),
// for MaskedWorkItemVectorizerPass.
inline constexpr const char *kWorkItemLoopMetadata = "fibercl.work_item_loop";
// The loop over the rows (y) of work-item loops: CheckedLoopVersionsPass versions the
// nest at once.
inline constexpr const char *kWorkItemRowsMetadata = "fibercl.work_item_rows";
// Metadata on a store of FIBERCL_CHECK=uninit's shadow (AccessChecksPass): the copy of
// a work-item loop without checks marks the span it covers at once
// (CheckedLoopVersionsPass).
inline constexpr const char *kShadowStoreMetadata = "fibercl.shadow_store";
// Metadata on the loads and stores of barrier regions' frames (AddressSpaceAliasPass).
inline constexpr const char *kFrameSlotMetadata = "fibercl.frame-slot";

// Tags an access to barrier regions' frames: `part` is "items" (the per-work-item
// arrays), "uniform.in" or "uniform.out" -- never the same memory within a round.
llvm::Instruction *markFrameSlot(llvm::Instruction *i, const char *part);

// A call of the runtime's barrier (FIBERCL_HOST_BARRIER, or FIBERCL_HOST_SUB_GROUP_BARRIER
// in a kernel with sub-group barriers; the site is argument 1); false for null.
// In a kernel with sub-group barriers (of `width` work-items): a sub-group yield on the
// back-edges of loops that may wait for another sub-group (sub_group_yields.cpp).
void addSubGroupYields(llvm::Function &body, llvm::Value *ctx, uint32_t width);
bool isHostBarrier(const llvm::Instruction *i);
// barrier() is fence; host barrier; fence (synchronization.cl): one of those fences.
bool isBarrierFence(const llvm::Instruction &fence);

// The builtins library's marker for the work-group collectives' scratch (LocalMemoryPass).
inline constexpr const char *kScratchMarker = "__fibercl_collective_scratch";

// Function attributes the passes leave on a kernel body for the ones that follow and
// for the kernel table.
inline constexpr const char *kKernelAttr = "fibercl-kernel";               // kernel name
inline constexpr const char *kBarriersAttr = "fibercl-barriers";           // has barriers
inline constexpr const char *kPrintfAttr = "fibercl-printf";               // calls printf
inline constexpr const char *kLocalSizeAttr = "fibercl-static-local-size"; // bytes
inline constexpr const char *kYieldsAttr = "fibercl-yields";               // has yield points
inline constexpr const char *kMayBlockAttr = "fibercl-may-block";      // has a loop that may spin
inline constexpr const char *kCooperativeAttr = "fibercl-cooperative"; // cooperative kernel
inline constexpr const char *kRegionsAttr = "fibercl-regions";         // barriers as N regions
// FIBERCL_CHECK=races: the arguments AccessChecksPass found race-free candidates, as
// "<read-only mask>,<own-offset mask>" (KernelInfo::raceReadOnlyArgs, raceOwnOffsetArgs).
inline constexpr const char *kRaceFreeArgsAttr = "fibercl-race-free-args";
inline constexpr const char *kSubGroupSizeAttr = "fibercl-sub-group-size"; // S (work-items)
inline constexpr const char *kSubGroupYieldsAttr =
    "fibercl-sub-group-yields"; // (sub_group_yields.cpp)
inline constexpr const char *kSubGroupsAttr =
    "fibercl-sub-groups"; // wg function: sub-group barriers
// A kernel's vector copy (sub_group_vectors.cpp): its body and work-group function
// run each sub-group as one vector of S lanes (the value).
inline constexpr const char *kSubGroupVectorsAttr = "fibercl-sub-group-vectors";
inline constexpr const char *kByValAttr = "fibercl-byval"; // body param: kernel's was byval
// Its work-items pass values to each other through plain memory with no barrier in
// between, as FiberCL compiles it (atomics on __local memory made plain): its work-item
// loops are not parallel. Copied to __fibercl_wg_K. (Yield points need no such mark:
// they are calls, and a work-item loop with a call that touches memory is not taken
// as parallel.)
inline constexpr const char *kSerialItemsAttr = "fibercl-serial-items";

// Gives a generated function `f` an artificial debug subprogram modelled on `like`
// (same unit and file), so code inlined into it keeps valid source locations. Returns
// the location to put on the calls it makes, or nullptr when there is no debug info.
llvm::DILocation *giveSubprogram(llvm::Function &f, llvm::DISubprogram *like);

// Barrier and yield sites found by the passes, per kernel name, for the kernel table.
// Site ids are unique within a module.
struct SiteTable {
  std::map<std::string, std::vector<SiteInfo>> byKernel;
  // Progress assumptions by function name (readProgressAnnotations).
  std::map<std::string, std::string> progressOf;
  uint32_t nextId = 1;
  // Records a site at `at`'s source location in `body` and returns its id.
  uint32_t add(llvm::Function &body, const llvm::Instruction *at, SiteInfo::Kind kind,
               bool waiting = false);
  // The same for a checked access of `object` (SiteInfo::object, objectBytes).
  uint32_t addCheck(llvm::Function &body, const llvm::Instruction *at, SiteInfo::Kind kind,
                    std::string object, uint64_t objectBytes);
};

// Functions annotated __attribute__((annotate("fibercl.progress:<text>"))) (the
// primitives library's waiting functions): their names and texts, read before inlining;
// the module's annotation list is dropped.
void readProgressAnnotations(llvm::Module &m, SiteTable &sites);

// The file a location is in, as reports name it: "<source>" or an included header's
// name (the frontend's virtual directory stripped).
std::string sourceFileOf(const llvm::DILocation &loc);

// Returns the body of kernel `name`, or nullptr.
llvm::Function *findBody(llvm::Module &m, llvm::StringRef name);

// An integer division or remainder whose divisor is not a constant known to be
// neither 0 nor (signed) -1: on x86 it may trap (SafeIntegerDivisionPass).
bool mayTrapOnDivisor(const llvm::Instruction &i);

// Atomics and fences of a narrower scope than the device's (work-item, sub-group,
// work-group): the builtins library calls kNarrowScopeMarker just before them, since
// the x86 target gives every atomic the system scope. NarrowScopesPass moves that
// onto the instruction as kNarrowScopeMetadata and drops the marker (checked or not);
// FIBERCL_CHECK=races tells the runtime that such an atomic cannot order work-groups.
inline constexpr const char *kNarrowScopeMarker = "__fibercl_narrow_scope";
inline constexpr const char *kNarrowScopeMetadata = "fibercl.narrow_scope";
struct NarrowScopesPass : llvm::PassInfoMixin<NarrowScopesPass> {
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// A loop without an exit whose calls are all pure (after O3: typically a wait on a
// plain load that LLVM hoisted out of the loop) is replaced by a call of
// FIBERCL_HOST_ENDLESS_LOOP("<source>:line"), which reports it and abandons the group
// (endless_loops.cpp).
struct EndlessLoopsPass : llvm::PassInfoMixin<EndlessLoopsPass> {
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// `tile[i / W][i % W]` on rows of W elements is element i of the rows laid end to end
// (flattened_row_indices.cpp): consecutive for consecutive i, which the vectorisers see.
struct FlattenedRowIndicesPass : llvm::PassInfoMixin<FlattenedRowIndicesPass> {
  llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// A gather whose lanes read every element of a contiguous run, in any order, becomes
// a vector load of the run and a shuffle (contiguous_gathers.cpp). Such gathers appear
// once a work-group's size is a constant (local_size_specialisation.hpp).
struct ContiguousGathersPass : llvm::PassInfoMixin<ContiguousGathersPass> {
  llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// In the work-group functions of kernels with sub-group barriers (kSubGroupsAttr), a
// gather whose lanes all read one address at run time becomes a load and a broadcast
// (uniform_gathers.cpp): a sub-group's work-items read the same slots.
struct UniformGathersPass : llvm::PassInfoMixin<UniformGathersPass> {
  llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

// x86's div and idiv trap on a zero divisor and on MIN / -1, where OpenCL C only
// leaves the result undefined (a GPU computes something and goes on). The divisor of
// every integer division and remainder that may be one of those becomes 1 there:
// x / 0 == x, x % 0 == 0, MIN / -1 == MIN, MIN % -1 == 0. Runs before any optimisation,
// which could exploit the undefined behaviour first.
struct SafeIntegerDivisionPass : llvm::PassInfoMixin<SafeIntegerDivisionPass> {
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// Creates K.fibercl.body for every kernel K: a function taking K's parameters plus the
// work-item coordinates, that calls K (inlined later).
struct KernelBodyPass : llvm::PassInfoMixin<KernelBodyPass> {
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// Makes every function but the kernel bodies internal and always-inline, so each body
// becomes one function (OpenCL C has no recursion and no function pointers), and
// drops optnone/noinline and the target attributes the builtins were compiled with.
struct InlinePreparationPass : llvm::PassInfoMixin<InlinePreparationPass> {
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// Clones the body of each kernel whose sub-group collectives all have a vector form
// into K.fibercl.body.sgvec (kSubGroupVectorsAttr), where they stay calls for the
// masked vectoriser to turn into lane operations; the original body keeps the slots
// (sub_group_vectors.cpp). Runs after inlining, before the markers are replaced.
struct SubGroupVectorCopiesPass : llvm::PassInfoMixin<SubGroupVectorCopiesPass> {
  // false: no copies, every kernel takes the slots (FIBERCL_CHECK=races counts the
  // sub-group barriers' rounds, which a copy has not).
  bool copies = true;
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};
std::string subGroupVectorBodyName(llvm::StringRef kernel);
// After O3: removes the vector copies whose work-item loop was not widened with the
// sub-group's lanes (a call of a vector form is left).
void dropFailedSubGroupVectorCopies(llvm::Module &m, bool report);

// FIBERCL_CHECK (access_checks.cpp). bounds: every load, store, atomic and memory
// intrinsic of a body whose pointer comes from one object -- a pointer argument, a
// __local, __constant or program-scope variable, a private variable -- is checked
// against it before it runs; a failed check calls FIBERCL_HOST_CHECK_FAILED and skips
// the access. uninit: a read of a __local object checks the shadow of its bytes
// (FIBERCL_HOST_CHECK_UNINIT), a write sets it. Runs after inlining, before
// LocalMemoryPass. races: each __local and __global access first calls
// FIBERCL_HOST_CHECK_RACE (runtime/exec/races.cpp). weak: the __global accesses
// (pointer arguments but pipes and images, generic pointers that may not be private)
// get kWeakMetadata, for WeakMemoryPass.
struct AccessChecksPass : llvm::PassInfoMixin<AccessChecksPass> {
  SiteTable *sites;
  bool bounds, uninit, races, weak;
  // Per kernel, its pipe and image arguments (the builtins' memory: not raced).
  std::map<std::string, std::set<unsigned>> builtinsArguments;
  AccessChecksPass(SiteTable &table, bool bounds, bool uninit, bool races, bool weak,
                   std::map<std::string, std::set<unsigned>> builtinsArguments)
      : sites(&table), bounds(bounds), uninit(uninit), races(races), weak(weak),
        builtinsArguments(std::move(builtinsArguments)) {}
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// FIBERCL_CHECK=weak (weak_memory.cpp), after YieldPointsPass (whose spin-loop analysis
// and progress counting see the plain accesses): a kWeakMetadata plain or relaxed load
// becomes FIBERCL_HOST_WEAK_LOAD and such a store FIBERCL_HOST_WEAK_STORE; stronger
// atomics, release fences, memory intrinsics and barriers first call
// FIBERCL_HOST_WEAK_SYNC.
inline constexpr const char *kWeakMetadata = "fibercl.weak";
struct WeakMemoryPass : llvm::PassInfoMixin<WeakMemoryPass> {
  SiteTable *sites;
  explicit WeakMemoryPass(SiteTable &table) : sites(&table) {}
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// Replaces the builtins library's markers (__fibercl_local_id, __fibercl_ctx,
// __fibercl_barrier; see kernel_abi.h) inside each body by the body's parameters and
// by calls to the runtime's barrier, numbering barrier call sites.
struct WorkItemMarkersPass : llvm::PassInfoMixin<WorkItemMarkersPass> {
  SiteTable *sites;
  explicit WorkItemMarkersPass(SiteTable &table) : sites(&table) {}
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// Cooperative kernels (fibercl/cooperative.h): replaces the builtins library's
// __fibercl_coop_point(op) by calls of the runtime (FIBERCL_HOST_COOP), returns from
// the body where the runtime says a group leaves, and makes request_fork and resizing
// barriers places where a forked group can start: the body begins by asking the
// runtime where to resume, copies the transmitted variables in, fills every other
// private variable with 0xA5 bytes, and jumps there. Marks the body kCooperativeAttr.
struct CooperativePass : llvm::PassInfoMixin<CooperativePass> {
  SiteTable *sites;
  explicit CooperativePass(SiteTable &table) : sites(&table) {}
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// In a program that uses cooperative kernels, get_num_groups and get_global_size are
// re-read at every call (the number of active groups changes): their calls go to the
// builtins library's cooperative versions. Runs before the library is linked.
void renameCooperativeQueries(llvm::Module &m);

// Inserts yield points (kernel_abi.h) into kernel bodies that can see other
// work-groups: after atomic and volatile accesses to global memory, after fences and
// barriers, and on the back-edges of loops that may spin (spin_loops.hpp); counts
// writes that change shared memory as progress. Marks the body `kYieldsAttr`, and
// `kMayBlockAttr` if it has a loop that may spin: only those kernels need the
// scheduler in parallel mode. A body without any (barriers and __local atomics only)
// keeps no yield point and stays on the plain, vectorisable path.
struct YieldPointsPass : llvm::PassInfoMixin<YieldPointsPass> {
  SiteTable *sites;
  explicit YieldPointsPass(SiteTable &table) : sites(&table) {}
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// Makes atomics on __local and private memory plain operations: a work-group's
// work-items run one at a time on one host thread (group_atomics.cpp says why).
struct GroupAtomicsPass : llvm::PassInfoMixin<GroupAtomicsPass> {
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// Turns kernel-scope __local variables into offsets in the work-group's local block
// (ctx->local_mem), per kernel body, recording the block's static size.
struct LocalMemoryPass : llvm::PassInfoMixin<LocalMemoryPass> {
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// Marks accesses to __global/__constant and to __local memory as never aliasing each
// other (scoped no-alias metadata), so loops that move data between them vectorise.
// roundScopes: only the two copies of barrier regions' uniform values (before inlining).
struct AddressSpaceAliasPass : llvm::PassInfoMixin<AddressSpaceAliasPass> {
  bool roundScopes = false;
  explicit AddressSpaceAliasPass(bool roundScopes = false) : roundScopes(roundScopes) {}
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// Creates __fibercl_wg_K for every kernel: a visible loop over the work-items for
// barrier-free kernels (so the vectoriser works across work-items), or a call to the
// runtime's fiber-based item runner for kernels with barriers. Removes the original
// kernels.
struct WorkGroupFunctionPass : llvm::PassInfoMixin<WorkGroupFunctionPass> {
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

// Makes the small vectors (2-4 lanes: float2, float4, ...) of a function with work-item
// loops scalars, so that the loop vectorisers widen them across work-items
// (small_vectors.cpp). Runs just before ParallelWorkItemLoopsPass.
struct SmallVectorScalarizerPass : llvm::PassInfoMixin<SmallVectorScalarizerPass> {
  llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &fam);
};

// Splits a work-item loop at a bound its work-items' index is compared with (`if (lid
// < s)`), so that the condition is a constant in each part (work_item_range_split.cpp).
// Runs just before ParallelWorkItemLoopsPass.
struct WorkItemRangeSplitPass : llvm::PassInfoMixin<WorkItemRangeSplitPass> {
  llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &fam);
};

// A copy of a loop gets a loop ID of its own (the same distinct node on two loops would
// make them one loop to the metadata's readers; work_item_range_split.cpp).
void giveOwnLoopID(llvm::Loop &loop);

// Runs a work-item loop whose bounds and uninit checks can all be decided before it as
// a copy without them, when they pass, its plain __local race records recorded as lines
// before it (checked_loop_versions.cpp). After the range split.
struct CheckedLoopVersionsPass : llvm::PassInfoMixin<CheckedLoopVersionsPass> {
  llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &fam);
};

// Declares work-item loops parallel to LLVM's loop vectoriser (llvm.loop.parallel_accesses,
// parallel_work_item_loops.cpp): work-items touch each other's memory only across a
// barrier, so no dependence between them needs checking. Runs just before it.
struct ParallelWorkItemLoopsPass : llvm::PassInfoMixin<ParallelWorkItemLoopsPass> {
  llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &fam);
};

// SIMD across work-items for work-item loops with loops inside (masked_vectorizer.cpp):
// runs in LLVM's O3 pipeline just before its loop vectoriser, which takes the rest.
struct MaskedWorkItemVectorizerPass : llvm::PassInfoMixin<MaskedWorkItemVectorizerPass> {
  llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &fam);
};

} // namespace fibercl::compiler

// The one place that lists FiberCL's pipeline from linked IR to optimised IR, and why
// it is in this order.
//
//  1. Kernel metadata is read first, before anything renames or inlines the kernels.
//  2. The builtins library is linked (only what the program uses) before the FiberCL
//     passes, because work-item functions and barrier() are implemented there in
//     terms of the markers the passes replace.
//  3. SafeIntegerDivisionPass keeps integer division by zero from trapping, before
//     anything optimises (and could exploit the undefined behaviour). KernelBodyPass
//     wraps each kernel in a body that takes the work-item coordinates;
//     InlinePreparation + AlwaysInliner then make each body a single function, so
//     every marker ends up in a body (where the coordinates are parameters) and
//     kernels called by kernels are handled like any other callee.
//  4. WorkItemMarkersPass replaces the markers; SROA makes private variables SSA
//     values and LoopSimplify gives loops preheaders, so that YieldPointsPass can
//     follow exit conditions and ScalarEvolution can bound trip counts; it then sees
//     every atomic, fence, barrier and loop of a body in one function (and the
//     barrier calls the markers became). GroupAtomicsPass then makes atomics on
//     __local and private memory plain (YieldPointsPass has told them from global
//     ones, and left them without yield points). LocalMemoryPass replaces __local
//     variables by offsets (after inlining, their uses are all in bodies).
//  5. WorkGroupFunctionPass builds the entry points (a work-item loop, barrier regions
//     or the fiber runner); a second AlwaysInliner inlines the bodies into them, which
//     is what exposes the work-item loops to the vectoriser.
//  6. Calls lose the `convergent` attribute (but the host barrier); after the last
//     inlining AddressSpaceAliasPass tells LLVM that __global, __local and the barrier
//     regions' frames never overlap; everything but the entry points is internalised,
//     host CPU attributes are set,
//     and LLVM's O3 pipeline runs with the host TargetMachine (the loop vectoriser
//     needs its cost model). Just before its loop vectoriser, small vectors (float2,
//     float4) become scalars (SmallVectorScalarizerPass) so that work-items, not
//     their 2-4 lanes, are what gets widened; work-item loops are split where a
//     condition on the work-item's index changes (WorkItemRangeSplitPass: `if (lid <
//     s)` runs only the active work-items, without masks) and declared parallel;
//     those with loops inside are vectorised with masks (MaskedWorkItemVectorizerPass).
//     Every function's frame is probed page by page, so that a work-item overflowing
//     its stack hits the guard page below it.
//  7. EndlessLoopsPass, on the optimised code: a loop with no exit left (typically a
//     wait on a plain load, which O3 reads once, before the loop) reports and fails the
//     command when entered, instead of hanging it.
//  8. Later, at a launch: a kernel with barrier regions may get a copy of its
//     work-group function for the launch's work-group size, made from this optimised
//     IR (local_size_specialisation.hpp; reoptimise below runs O3 over it again).
#include "pipeline.hpp"
#include "vector_width.hpp"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DiagnosticHandler.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <llvm/Transforms/IPO/AlwaysInliner.h>
#include <llvm/Transforms/IPO/GlobalDCE.h>
#include <llvm/Transforms/IPO/Internalize.h>
#include <llvm/Transforms/Scalar/DeadStoreElimination.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <map>
#include <set>

#include <dlfcn.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "build_guard.hpp"
#include "build_timer.hpp"
#include "builtins_linker.hpp"
#include "checks.hpp"
#include "fibercl/compiler/debug.hpp"
#include "fibercl/kernel_abi.h"
#include "host_target.hpp"
#include "kernel_metadata.hpp"
#include "pass_verifier.hpp"
#include "passes/passes.hpp"
#include "passes/sub_group_lanes.hpp"
#include "vector_math.hpp"

namespace fibercl::compiler {
namespace {

// CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: the program-scope and static variables
// in the global address space, counted before optimisation can fold or drop them, and
// kept in the executable's IR as named metadata (globalVariableBytes reads it back).
void recordGlobalVariableBytes(llvm::Module &m) {
  uint64_t bytes = 0;
  for (const llvm::GlobalVariable &gv : m.globals())
    if (!gv.isDeclaration() && gv.getAddressSpace() == kGlobalAddressSpace)
      bytes += m.getDataLayout().getTypeAllocSize(gv.getValueType());
  llvm::LLVMContext &c = m.getContext();
  m.getOrInsertNamedMetadata(kGlobalVariableBytesMetadata)
      ->addOperand(llvm::MDNode::get(c, llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(
                                            llvm::Type::getInt64Ty(c), bytes))));
}

// libm functions LLVM does not model (erfc, tgamma, lgamma_r, ...) that the builtins
// library calls; the JIT resolves them from libm (jit.cpp).
bool isMathLibraryFunction(llvm::StringRef name) {
  static void *libm = dlopen("libm.so.6", RTLD_LAZY);
  return libm && dlsym(libm, name.str().c_str()) != nullptr;
}

// A declaration left after linking must be provided by the runtime, by LLVM, or by
// the C library's math functions; anything else is an undefined function.
bool checkUndefined(const llvm::Module &m, std::string &log) {
  llvm::TargetLibraryInfoImpl tlii(llvm::Triple(m.getTargetTriple()));
  bool ok = true;
  for (const llvm::Function &f : m) {
    if (!f.isDeclaration() || f.isIntrinsic() || f.use_empty())
      continue;
    llvm::StringRef name = f.getName();
    llvm::LibFunc libFunc;
    if (name.starts_with("__fibercl_") || name == "printf" /* renamed later */ ||
        (!name.starts_with("_Z") &&
         (tlii.getLibFunc(name, libFunc) || isMathLibraryFunction(name))))
      continue;
    log += "error: undefined function '" + llvm::demangle(name.str()) +
           "' (no definition in the program or the OpenCL C library)\n";
    ok = false;
  }
  return ok;
}

// OpenCL C marks every call convergent (it may be a barrier for a SIMT machine). Here a
// work-item is a thread of its own, so only the host barrier keeps the attribute; on
// anything else it would stop the loop vectoriser (no runtime alias checks around
// convergent calls) for nothing.
void dropConvergence(llvm::Module &m) {
  for (llvm::Function &f : m) {
    // Sub-group lane operations (sub_group_lanes.hpp) act on the lanes that reach
    // them: they must not be moved to where others do.
    if (f.getName() == FIBERCL_HOST_BARRIER || f.getName() == FIBERCL_HOST_SUB_GROUP_BARRIER ||
        isSubGroupLaneOp(&f))
      continue;
    f.removeFnAttr(llvm::Attribute::Convergent);
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &i : bb)
        if (auto *call = llvm::dyn_cast<llvm::CallBase>(&i)) {
          llvm::Function *callee = call->getCalledFunction();
          if (!callee ||
              (callee->getName() != FIBERCL_HOST_BARRIER &&
               callee->getName() != FIBERCL_HOST_SUB_GROUP_BARRIER && !isSubGroupLaneOp(callee)))
            call->removeFnAttr(llvm::Attribute::Convergent);
        }
  }
}

// Private arrays, structs and vectors of 16 bytes and more get the alignment of the
// widest access that may cover them (up to 64 bytes): C only promises their element's
// alignment, but kernels written for GPUs use vloada_half16, vector casts and the like
// on them, whose aligned loads fault on x86 when the array is less aligned.
void alignPrivateAggregates(llvm::Module &m) {
  const llvm::DataLayout &dl = m.getDataLayout();
  for (llvm::Function &f : m)
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &i : bb)
        if (auto *a = llvm::dyn_cast<llvm::AllocaInst>(&i)) {
          std::optional<llvm::TypeSize> size = a->getAllocationSize(dl);
          if (!size || size->isScalable() || size->getFixedValue() < 16)
            continue;
          uint64_t want = std::min<uint64_t>(64, llvm::PowerOf2Ceil(size->getFixedValue()));
          if (a->getAlign().value() < want)
            a->setAlignment(llvm::Align(want));
        }
}

// Image descriptors (fibercl/image_abi.h) do not change while kernels run: loads from
// them are marked invariant, so LLVM may hoist them out of work-item loops that store
// pixels (which it must otherwise assume could overwrite the descriptor). Followed from
// the builtins' __fcl_image_desc calls through address arithmetic and into the library
// functions they are passed to (only image helpers take descriptors).
void markImageDescriptorLoadsInvariant(llvm::Module &m) {
  llvm::Function *handle = m.getFunction("__fcl_image_desc");
  if (!handle)
    return;
  llvm::MDNode *empty = llvm::MDNode::get(m.getContext(), {});
  std::vector<llvm::Value *> work(handle->user_begin(), handle->user_end());
  llvm::SmallPtrSet<llvm::Value *, 32> seen(work.begin(), work.end());
  while (!work.empty()) {
    llvm::Value *v = work.back();
    work.pop_back();
    for (llvm::Use &use : v->uses()) {
      llvm::User *u = use.getUser();
      if (auto *load = llvm::dyn_cast<llvm::LoadInst>(u)) {
        load->setMetadata(llvm::LLVMContext::MD_invariant_load, empty);
        continue;
      }
      llvm::Value *next = nullptr;
      if (llvm::isa<llvm::GetElementPtrInst, llvm::PHINode, llvm::SelectInst>(u))
        next = u;
      else if (auto *call = llvm::dyn_cast<llvm::CallBase>(u)) {
        llvm::Function *callee = call->getCalledFunction();
        if (callee && callee != handle && !callee->isDeclaration() && call->isArgOperand(&use))
          next = callee->getArg(call->getArgOperandNo(&use));
      }
      if (next && seen.insert(next).second)
        work.push_back(next);
    }
  }
}

// What YieldPointsPass's analysis needs of the unoptimised bodies (pipeline step 4).
llvm::FunctionPassManager cleanupForAnalysis() {
  llvm::FunctionPassManager fpm;
  fpm.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
  fpm.addPass(llvm::EarlyCSEPass());
  fpm.addPass(llvm::SimplifyCFGPass());
  fpm.addPass(llvm::LoopSimplifyPass());
  return fpm;
}

// FIBERCL_DEBUG=vectorize: why the loop vectoriser did or did not vectorise each loop
// (LLVM's optimisation remarks of loop-vectorize, printed to stderr).
struct VectorizeRemarks : llvm::DiagnosticHandler {
  bool isAnyRemarkEnabled() const override { return true; }
  bool isAnalysisRemarkEnabled(llvm::StringRef pass) const override {
    return pass == "loop-vectorize";
  }
  bool isMissedOptRemarkEnabled(llvm::StringRef pass) const override {
    return pass == "loop-vectorize";
  }
  bool isPassedOptRemarkEnabled(llvm::StringRef pass) const override {
    return pass == "loop-vectorize";
  }
  bool handleDiagnostics(const llvm::DiagnosticInfo &info) override {
    auto *remark = llvm::dyn_cast<llvm::DiagnosticInfoOptimizationBase>(&info);
    if (!remark || remark->getPassName() != "loop-vectorize")
      return false;
    llvm::errs() << "FiberCL: " << remark->getFunction().getName() << ": ";
    if (remark->isLocationAvailable())
      llvm::errs() << remark->getLocationStr() << ": ";
    llvm::errs() << remark->getMsg() << "\n";
    return true;
  }
};

// O3Again: O3 over code it has optimised before (local_size_specialisation.cpp), without
// FiberCL's vectoriser passes (its work-item loops are vectorised already) and without
// guarded math variants (their definitions were made at the first optimisation).
enum class Then { Nothing, O0, O3, O3Again };

// Runs the passes `add` adds (then O3 or O0). False, with the reason in `log`, when
// FIBERCL_DEBUG=verify finds a FiberCL pass that left invalid IR.
bool runPasses(llvm::Module &m, llvm::TargetMachine *tm, Then then, std::string &log,
               llvm::function_ref<void(llvm::ModulePassManager &)> add) {
  bool optimise = then == Then::O3 || then == Then::O3Again;
  bool first = then == Then::O3;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions pto;
  pto.LoopVectorization = optimise;
  pto.SLPVectorization = optimise;
  llvm::PassInstrumentationCallbacks pic;
  PassVerifier verifier(m);
  verifier.attach(pic);
  llvm::PassBuilder pb(tm, pto, std::nullopt, &pic);
  // Registered before the defaults so that the vectoriser sees the vector math variants.
  llvm::TargetLibraryInfoImpl tlii(llvm::Triple(m.getTargetTriple()));
  if (optimise)
    addVectorMathFunctions(tlii, *tm, /*withGuarded=*/first);
  fam.registerPass([&] { return llvm::TargetLibraryAnalysis(tlii); });
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  if (first)
    pb.registerVectorizerStartEPCallback(
        [](llvm::FunctionPassManager &fpm, llvm::OptimizationLevel) {
          fpm.addPass(SmallVectorScalarizerPass());
          fpm.addPass(FlattenedRowIndicesPass());
          fpm.addPass(WorkItemRangeSplitPass());
          fpm.addPass(CheckedLoopVersionsPass());
          fpm.addPass(ParallelWorkItemLoopsPass());
          fpm.addPass(MaskedWorkItemVectorizerPass());
        });
  // The late loop passes peel the specialised dispatch loop (local_size_specialisation.cpp):
  // the stores a peeled round makes to its frames, now on the stack, that nothing reads
  // after it (the last round's sites, kept by a check call) are removed once more.
  if (then == Then::O3Again)
    pb.registerOptimizerLastEPCallback([](llvm::ModulePassManager &mpm, llvm::OptimizationLevel) {
      mpm.addPass(llvm::createModuleToFunctionPassAdaptor(llvm::DSEPass()));
    });
  if (optimise && debugChannel("vectorize"))
    m.getContext().setDiagnosticHandler(std::make_unique<VectorizeRemarks>());
  llvm::ModulePassManager mpm;
  add(mpm);
  if (optimise)
    mpm.addPass(pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3));
  else if (then == Then::O0)
    mpm.addPass(pb.buildO0DefaultPipeline(llvm::OptimizationLevel::O0));
  mpm.run(m, mam);
  if (verifier.broken()) {
    log += "internal error: FiberCL compiled this program into invalid IR (found by "
           "FIBERCL_DEBUG=verify); please report it with the program's source. " +
           verifier.report();
    return false;
  }
  return true;
}

} // namespace

bool finalizeExecutable(llvm::Module &m, const BuildOptions &options,
                        std::vector<KernelInfo> &kernels, std::string &log) {
  std::unique_ptr<llvm::TargetMachine> tm = createHostTargetMachine();
  if (!tm) {
    log += "internal error: this host CPU is not supported by LLVM\n";
    return false;
  }
  buildPhaseDone("target");
  m.setDataLayout(tm->createDataLayout());
  m.setTargetTriple(tm->getTargetTriple().str());

  kernels = readKernelMetadata(m); // 1
  for (const KernelInfo &k : kernels)
    if (k.requiredSubGroupSize && !isSupportedSubGroupSize(k.requiredSubGroupSize)) {
      log += "error: kernel '" + k.name + "': intel_reqd_sub_group_size(" +
             std::to_string(k.requiredSubGroupSize) +
             "): FiberCL's sub-groups have 4, 8, 16, 32 or 64 work-items "
             "(CL_DEVICE_SUB_GROUP_SIZES_INTEL)\n";
      return false;
    }
  recordGlobalVariableBytes(m);
  renameCooperativeQueries(m);
  if (!linkBuiltins(m, log) || !checkUndefined(m, log)) // 2
    return false;
  markImageDescriptorLoadsInvariant(m);
  buildPhaseDone("builtins");

  crashForTesting(); // FIBERCL_TEST_CRASH: the crash isolation's tests
  SiteTable sites;
  readProgressAnnotations(m, sites);
  const Checks checks = checksFromEnvironment();
  std::map<std::string, std::set<unsigned>> builtinsArguments; // pipes, images
  for (const KernelInfo &k : kernels)
    for (unsigned i = 0; i < k.args.size(); ++i)
      if (k.args[i].kind == ArgKind::Pipe || k.args[i].kind == ArgKind::Image)
        builtinsArguments[k.name].insert(i);
  if (!runPasses(m, tm.get(), Then::Nothing, log, [&](llvm::ModulePassManager &mpm) {
        mpm.addPass(SafeIntegerDivisionPass()); // 3
        mpm.addPass(KernelBodyPass());
        mpm.addPass(InlinePreparationPass());
        // Functions no kernel calls (most of a library such as hashcat's inc_*.cl) are
        // dropped before everything is inlined into everything that calls it.
        mpm.addPass(llvm::GlobalDCEPass());
        mpm.addPass(llvm::AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/true));
      }))
    return false;
  alignPrivateAggregates(m);
  buildPhaseDone("inline");
  if (!runPasses(m, tm.get(), Then::Nothing, log, [&](llvm::ModulePassManager &mpm) {
        mpm.addPass(SubGroupVectorCopiesPass{{}, /*copies=*/!checks.races}); // 4
        mpm.addPass(WorkItemMarkersPass(sites));
        mpm.addPass(CooperativePass(sites));
        mpm.addPass(llvm::createModuleToFunctionPassAdaptor(cleanupForAnalysis()));
        mpm.addPass(NarrowScopesPass()); // after cleanup: a constant scope's branch is gone
        if (checks.any())                // pointers are SSA values now, traceable to their objects
          mpm.addPass(AccessChecksPass(sites, checks.bounds, checks.uninit, checks.races,
                                       checks.weak, builtinsArguments));
        mpm.addPass(YieldPointsPass(sites));
        if (checks.weak)
          mpm.addPass(WeakMemoryPass(sites));
        mpm.addPass(GroupAtomicsPass());
        mpm.addPass(LocalMemoryPass());
        mpm.addPass(WorkGroupFunctionPass()); // 5
        mpm.addPass(AddressSpaceAliasPass(/*roundScopes=*/true));
      }))
    return false;
  buildPhaseDone("fibercl-passes");

  for (KernelInfo &k : kernels) {
    llvm::Function *body = findBody(m, k.name);
    if (!body) {
      log += "internal error: no body for kernel '" + k.name + "'\n";
      return false;
    }
    k.usesBarriers = body->hasFnAttribute(kBarriersAttr);
    k.barrierRegions = body->hasFnAttribute(kRegionsAttr);
    k.usesPrintf = body->hasFnAttribute(kPrintfAttr);
    k.yields = body->hasFnAttribute(kYieldsAttr);
    k.mayBlock = body->hasFnAttribute(kMayBlockAttr);
    k.cooperative = body->hasFnAttribute(kCooperativeAttr);
    k.boundsChecked = checks.bounds;
    k.uninitChecked = checks.uninit;
    k.racesChecked = checks.races;
    k.weakMemory = checks.weak;
    k.sites = sites.byKernel[k.name];
    if (body->hasFnAttribute(kRaceFreeArgsAttr)) {
      auto [readOnly, own] = body->getFnAttribute(kRaceFreeArgsAttr).getValueAsString().split(',');
      readOnly.getAsInteger(10, k.raceReadOnlyArgs);
      own.getAsInteger(10, k.raceOwnOffsetArgs);
    }
    body->getFnAttribute(kSubGroupSizeAttr).getValueAsString().getAsInteger(10, k.subGroupSize);
    body->getFnAttribute(kLocalSizeAttr).getValueAsString().getAsInteger(10, k.staticLocalSize);
  }

  narrowStreamingKernels(m, kernels, *tm);
  dropConvergence(m); // 6
  for (llvm::Function &f : m) {
    if (f.isDeclaration())
      continue;
    f.addFnAttr("target-cpu", tm->getTargetCPU());
    f.addFnAttr("target-features", tm->getTargetFeatureString());
    // No reciprocal (square root) estimates, even under -cl-fast-relaxed-math: x86's
    // rcpps + one Newton step is 3 ulp, the relaxed bound for division is 2.5.
    f.addFnAttr("reciprocal-estimates", "none");
    // A frame larger than a page (a big private array) touches its pages in order from
    // the top: an overflow hits the guard page below the stack and is reported, instead
    // of writing into whatever is mapped further down (another work-item's fiber stack,
    // another thread's stack, the heap). Smaller frames pay nothing.
    f.addFnAttr("probe-stack", "inline-asm");
  }
  if (!runPasses(m, tm.get(), options.optDisable ? Then::O0 : Then::O3, log,
                 [](llvm::ModulePassManager &mpm) {
                   mpm.addPass(llvm::AlwaysInlinerPass(true));
                   // After inlining: the inliner gives each inlined copy of scoped metadata a
                   // domain of its own, and accesses in different domains are not known to be
                   // disjoint.
                   mpm.addPass(AddressSpaceAliasPass());
                   mpm.addPass(llvm::InternalizePass([](const llvm::GlobalValue &gv) {
                     return gv.getName().starts_with("__fibercl_wg_");
                   }));
                   mpm.addPass(llvm::GlobalDCEPass());
                 }))
    return false;
  // 7. Loops O3 left without an exit (a wait on a hoisted plain load) report instead
  //    of hanging.
  if (!runPasses(m, tm.get(), Then::Nothing, log, [](llvm::ModulePassManager &mpm) {
        mpm.addPass(EndlessLoopsPass());
        mpm.addPass(llvm::createModuleToFunctionPassAdaptor(UniformGathersPass()));
      }))
    return false;
  dropFailedSubGroupVectorCopies(m, debugChannel("vectorize"));
  for (KernelInfo &k : kernels)
    k.subGroupVectors = m.getFunction(workGroupName(k.name + ".sgvec")) != nullptr;
  defineGuardedMathFunctions(m, *tm);
  buildPhaseDone("optimise");

  std::string verifyErrors;
  llvm::raw_string_ostream vs(verifyErrors);
  if (llvm::verifyModule(m, &vs)) {
    log += "internal error: FiberCL produced invalid IR:\n" + vs.str();
    return false;
  }
  if (debugChannel("ir")) {
    llvm::errs() << "; FiberCL final IR (FIBERCL_DEBUG=ir)\n";
    m.print(llvm::errs(), nullptr);
  }
  return true;
}

bool reoptimise(llvm::Module &m, std::string &log) {
  std::unique_ptr<llvm::TargetMachine> tm = createHostTargetMachine();
  if (!tm) {
    log += "internal error: this host CPU is not supported by LLVM\n";
    return false;
  }
  return runPasses(m, tm.get(), Then::O3Again, log, [](llvm::ModulePassManager &) {}) &&
         runPasses(m, tm.get(), Then::Nothing, log, [](llvm::ModulePassManager &mpm) {
           mpm.addPass(llvm::createModuleToFunctionPassAdaptor(ContiguousGathersPass()));
           mpm.addPass(EndlessLoopsPass());
           mpm.addPass(llvm::createModuleToFunctionPassAdaptor(UniformGathersPass()));
         });
}

} // namespace fibercl::compiler

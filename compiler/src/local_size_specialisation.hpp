// Work-group functions specialised for the work-group size a launch uses.
//
// A kernel is compiled once, for any work-group size: its work-item loops read the
// size from the group's fcl_group_ctx, and each barrier region pays for that a fixed
// cost (the z and y loops, the vector loop's trip count test, its remainder). With
// small groups (16 work-items: one 16-lane vector) that cost is most of a region.
// PoCL compiles every kernel for the size it is launched with; FiberCL keeps its
// generic function and, for kernels with barrier regions launched with a small uniform
// size, makes a copy on demand (Executable::specialisedEntry).
//
// The copy comes from the executable's optimised IR, not from the source: the loads of
// local_size and enqueued_local_size from the context become constants and LLVM's
// O3 runs again over the one function, which folds the loops the constants decide.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace fibercl::compiler {

// The work-group function of `kernel`, from the executable `bitcode`, specialised for
// `localSize`, named `specialisedName` and the module's only external definition;
// optimised and ready for the JIT. Null, with the reason in `why`, when it cannot be
// (the function reads the size in a way it cannot replace, or the program has
// program-scope variables a copy would duplicate).
std::unique_ptr<llvm::Module>
specialiseWorkGroupFunction(llvm::LLVMContext &context, const std::string &bitcode,
                            const std::string &kernel, const uint64_t localSize[3],
                            std::string &specialisedName, std::string &why);

} // namespace fibercl::compiler

// The executable pipeline: linked user IR -> builtins -> FiberCL passes -> O3.
#pragma once

#include <string>
#include <vector>

#include "build_options.hpp"
#include "fibercl/compiler/compiler.hpp"

namespace llvm {
class Module;
} // namespace llvm

namespace fibercl::compiler {

// Turns the linked program `module` into the final IR of an executable: one
// __fibercl_wg_K per kernel, optimised for this host. Fills `kernels`. Returns false
// and appends the reason to `log` if the program cannot be made executable (e.g. it
// calls a function nobody defines).
bool finalizeExecutable(llvm::Module &module, const BuildOptions &options,
                        std::vector<KernelInfo> &kernels, std::string &log);

// O3 again over IR finalizeExecutable made and a specialisation changed (constants in
// place of loads), then the endless-loop check. False, with the reason in `log`, if
// FIBERCL_DEBUG=verify finds invalid IR.
bool reoptimise(llvm::Module &module, std::string &log);

} // namespace fibercl::compiler

// Reads the kernels of a Clang-generated module: their arguments (from Clang's
// kernel_arg_* metadata) and attributes, as the runtime needs them for
// clSetKernelArg and the clGetKernel*Info queries.
#pragma once

#include <vector>

#include "fibercl/compiler/compiler.hpp"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace fibercl::compiler {

bool isKernel(const llvm::Function &f);

// The kernels defined in `module`, in definition order.
std::vector<KernelInfo> readKernelMetadata(const llvm::Module &module);

} // namespace fibercl::compiler

// Reads the kernels of a Clang-generated module: their arguments (from Clang's
// kernel_arg_* metadata) and attributes, as the runtime needs them for
// clSetKernelArg and the clGetKernel*Info queries.
#pragma once

#include <cstdint>
#include <vector>

#include "fibercl/compiler/compiler.hpp"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace fibercl::compiler {

bool isKernel(const llvm::Function &f);

// The sub-group sizes a kernel may have (powers of two, at most
// FIBERCL_MAX_SUB_GROUP_SIZE): 4, 8, 16, 32, 64.
bool isSupportedSubGroupSize(uint64_t size);

// The sub-group size of kernels without intel_reqd_sub_group_size: FIBERCL_SUBGROUP_SIZE
// when it names a supported size, else the host's vector width for 32-bit lanes.
uint32_t defaultSubGroupSize();

// A kernel's intel_reqd_sub_group_size (0 if it has none).
uint32_t requiredSubGroupSize(const llvm::Function &kernel);

// The kernels defined in `module`, in definition order.
std::vector<KernelInfo> readKernelMetadata(const llvm::Module &module);

} // namespace fibercl::compiler

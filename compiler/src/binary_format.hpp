// FiberCL's program binary container: what CL_PROGRAM_BINARIES returns and
// clCreateProgramWithBinary accepts.
//
//   "FIBERCL\0" | u32 format version | u32 BinaryKind | u32 LLVM major version
//   | kernel table (executables) | u64 bitcode size | LLVM bitcode
//
// Objects and libraries hold Clang's unoptimised IR; executables hold the final,
// optimised IR of the work-group functions, so loading one only runs codegen.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fibercl/compiler/compiler.hpp"

namespace fibercl::compiler {

struct DecodedBinary {
  BinaryKind kind = BinaryKind::None;
  std::vector<KernelInfo> kernels;
  std::string bitcode;
};

Binary encodeBinary(BinaryKind kind, const std::vector<KernelInfo> &kernels,
                    const std::string &bitcode);

// Returns false (and leaves `out` unspecified) if `bytes` is not a valid container.
bool decodeBinary(const uint8_t *bytes, size_t size, DecodedBinary &out);

} // namespace fibercl::compiler

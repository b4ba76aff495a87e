// FiberCL's program binary container: what CL_PROGRAM_BINARIES returns and
// clCreateProgramWithBinary accepts.
//
//   "FIBERCL\0" | u32 format version | u32 BinaryKind | u32 LLVM major version
//   | kernel table (executables) | LLVM bitcode | target | native object
//
// Objects and libraries hold Clang's unoptimised IR; executables hold the final,
// optimised IR of the work-group functions and, for the CPU named by `target`, its
// machine code, so loading one on the same kind of CPU needs no compilation at all.
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
  std::string target; // host CPU + features the object was compiled for
  std::string object; // ELF relocatable object, may be empty
};

Binary encodeBinary(BinaryKind kind, const std::vector<KernelInfo> &kernels,
                    const std::string &bitcode, const std::string &target = {},
                    const std::string &object = {});

// Returns false (and leaves `out` unspecified) if `bytes` is not a valid container.
bool decodeBinary(const uint8_t *bytes, size_t size, DecodedBinary &out);

} // namespace fibercl::compiler

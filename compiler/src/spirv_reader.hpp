// SPIR-V programs (clCreateProgramWithIL): read into LLVM IR by the Khronos
// SPIRV-LLVM-Translator. No translator exists for LLVM 19 as a Debian package or
// library; Debian 12's llvm-spirv-15 is run as a program and its LLVM 15 bitcode read
// by LLVM 19 (bitcode stays readable by later versions).
#pragma once

#include <memory>
#include <string>

#include "fibercl/compiler/compiler.hpp"

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace fibercl::compiler {

// True if the bytes start with the SPIR-V magic number (either byte order).
bool looksLikeSpirv(const void *bytes, size_t size);

// The module of a SPIR-V binary, in the form the OpenCL C frontend gives (spir_kernel
// kernels, C calling convention for everything else, builtins by their Itanium names);
// nullptr with the translator's complaint in `log` on failure.
// `specConstants` gives specialization constants their values.
std::unique_ptr<llvm::Module> readSpirv(llvm::LLVMContext &context, const std::string &il,
                                        const SpecConstants &specConstants, std::string &log);

// The translator's path ($FIBERCL_LLVM_SPIRV, else llvm-spirv-15 on PATH), or "".
std::string spirvTranslator();

} // namespace fibercl::compiler

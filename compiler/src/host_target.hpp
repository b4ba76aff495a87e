// The target machine for the host CPU (features detected at run time).
#pragma once

#include <memory>

namespace llvm {
class TargetMachine;
namespace orc {
class JITTargetMachineBuilder;
} // namespace orc
} // namespace llvm

namespace fibercl::compiler {

// Initialises LLVM's native target (once per process).
void initializeNativeTarget();

// The host's target machine; nullptr if the host is unsupported.
std::unique_ptr<llvm::TargetMachine> createHostTargetMachine();

// How kernels are compiled for the host, for the target machine above and the JIT's:
// aggressive optimisation; small code model, position-independent (constants and
// branches PC-relative; JITLink reaches the host functions through stubs). The JIT's
// default large code model loaded every constant through a 64-bit absolute address.
void configureHostCodegen(llvm::orc::JITTargetMachineBuilder &builder);

} // namespace fibercl::compiler

#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace fibercl::compiler {

// Names the host CPU and its features: machine code is reusable where this matches.
std::string hostTargetKey();

// Compiles `module` (already optimised) to an ELF relocatable object for the host.
// Returns an empty string on failure.
std::string emitHostObject(llvm::Module &module);

} // namespace fibercl::compiler

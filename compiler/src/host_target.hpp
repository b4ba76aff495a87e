// The target machine for the host CPU (features detected at run time).
#pragma once

#include <memory>

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace fibercl::compiler {

// Initialises LLVM's native target (once per process).
void initializeNativeTarget();

// The host's target machine; nullptr if the host is unsupported.
std::unique_ptr<llvm::TargetMachine> createHostTargetMachine();

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

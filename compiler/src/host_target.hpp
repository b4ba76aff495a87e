// The target machine for the host CPU (features detected at run time).
#pragma once

#include <memory>

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace fibercl::compiler {

// Initialises LLVM's native target once; returns nullptr if the host is unsupported.
std::unique_ptr<llvm::TargetMachine> createHostTargetMachine();

} // namespace fibercl::compiler

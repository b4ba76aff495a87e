// OpenCL C source -> LLVM module, with Clang running in this process.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "build_options.hpp"
#include "fibercl/compiler/compiler.hpp"

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace fibercl::compiler {

// Where the program's source and its clCompileProgram headers appear to Clang.
inline constexpr const char *kVirtualSourceDir = "/fibercl-input";

// Compiles `source` to an LLVM module in `context`. Clang's diagnostics (errors and
// warnings, with file:line:column) are appended to `log`. Returns nullptr on failure.
std::unique_ptr<llvm::Module> compileSource(llvm::LLVMContext &context, const std::string &source,
                                            const BuildOptions &options,
                                            const std::vector<Header> &headers, std::string &log);

} // namespace fibercl::compiler

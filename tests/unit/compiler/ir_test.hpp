// Helpers for the compiler's pass tests: parse a module from textual LLVM IR, run one
// FiberCL pass on it with the analyses the pipeline gives it (pipeline.cpp), and look
// at the result.
#pragma once

#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace fibercl::compiler::test {

// x86-64's data layout and triple (the passes lay out __local memory with it).
inline constexpr const char *kTarget =
    "target datalayout = \"e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-"
    "n8:16:32:64-S128\"\n"
    "target triple = \"x86_64-unknown-linux-gnu\"\n";

// Parses kTarget + `ir`; fails the current test (and returns nullptr) on a syntax error.
std::unique_ptr<llvm::Module> parseIR(llvm::LLVMContext &context, const std::string &ir);

// "" if `m` is valid IR, else the verifier's complaints.
std::string verify(const llvm::Module &m);

// The module's text, for failure messages.
std::string print(const llvm::Module &m);

// The host's target machine (one per process), for passes that ask the target's cost
// model (MaskedWorkItemVectorizerPass: how many lanes a vector register holds).
llvm::TargetMachine &hostTarget();

// Runs passes with the module, function and loop analyses registered. Without a target
// machine (most FiberCL passes need none) the target's analyses are LLVM's defaults.
class PassRunner {
public:
  explicit PassRunner(llvm::TargetMachine *target = nullptr);
  template <typename Pass> void runOnModule(llvm::Module &m, Pass pass) {
    llvm::ModulePassManager mpm;
    mpm.addPass(std::move(pass));
    mpm.run(m, mam_);
  }
  template <typename Pass> void runOnFunctions(llvm::Module &m, Pass pass) {
    llvm::ModulePassManager mpm;
    mpm.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(pass)));
    mpm.run(m, mam_);
  }

private:
  llvm::LoopAnalysisManager lam_;
  llvm::FunctionAnalysisManager fam_;
  llvm::CGSCCAnalysisManager cgam_;
  llvm::ModuleAnalysisManager mam_;
  llvm::PassBuilder pb_;
};

// Instructions of `f` with this opcode.
unsigned countOpcode(const llvm::Function &f, unsigned opcode);

// Calls in `f` of the function named `callee` (intrinsics by their full name).
std::vector<llvm::CallBase *> callsTo(llvm::Function &f, llvm::StringRef callee);

} // namespace fibercl::compiler::test

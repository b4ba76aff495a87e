// Helpers for the compiler's pass tests (ir_test.hpp).
#include "ir_test.hpp"

#include <gtest/gtest.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include "host_target.hpp"

namespace fibercl::compiler::test {

std::unique_ptr<llvm::Module> parseIR(llvm::LLVMContext &context, const std::string &ir) {
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> m =
      llvm::parseAssemblyString(std::string(kTarget) + ir, error, context);
  if (!m) {
    std::string text;
    llvm::raw_string_ostream os(text);
    error.print("test IR", os);
    ADD_FAILURE() << os.str();
  }
  return m;
}

std::string verify(const llvm::Module &m) {
  std::string errors;
  llvm::raw_string_ostream os(errors);
  llvm::verifyModule(m, &os);
  return os.str();
}

std::string print(const llvm::Module &m) {
  std::string text;
  llvm::raw_string_ostream os(text);
  m.print(os, nullptr);
  return os.str();
}

llvm::TargetMachine &hostTarget() {
  static std::unique_ptr<llvm::TargetMachine> target = createHostTargetMachine();
  return *target;
}

PassRunner::PassRunner(llvm::TargetMachine *target) : pb_(target) {
  pb_.registerModuleAnalyses(mam_);
  pb_.registerCGSCCAnalyses(cgam_);
  pb_.registerFunctionAnalyses(fam_);
  pb_.registerLoopAnalyses(lam_);
  pb_.crossRegisterProxies(lam_, fam_, cgam_, mam_);
}

unsigned countOpcode(const llvm::Function &f, unsigned opcode) {
  unsigned n = 0;
  for (const llvm::BasicBlock &bb : f)
    for (const llvm::Instruction &i : bb)
      n += i.getOpcode() == opcode;
  return n;
}

std::vector<llvm::CallBase *> callsTo(llvm::Function &f, llvm::StringRef callee) {
  std::vector<llvm::CallBase *> found;
  for (llvm::BasicBlock &bb : f)
    for (llvm::Instruction &i : bb)
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(&i))
        if (call->getCalledFunction() && call->getCalledFunction()->getName() == callee)
          found.push_back(call);
  return found;
}

} // namespace fibercl::compiler::test

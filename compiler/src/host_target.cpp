// Host target machine (host_target.hpp).
#include "host_target.hpp"

#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>

#include <mutex>

namespace fibercl::compiler {

std::unique_ptr<llvm::TargetMachine> createHostTargetMachine() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
  });
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb) {
    llvm::consumeError(jtmb.takeError());
    return nullptr;
  }
  jtmb->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto tm = jtmb->createTargetMachine();
  if (!tm) {
    llvm::consumeError(tm.takeError());
    return nullptr;
  }
  return std::move(*tm);
}

} // namespace fibercl::compiler

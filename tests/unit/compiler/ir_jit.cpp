// IRJit (ir_jit.hpp): a copy of the module, through its text, in a context of its own.
#include "ir_jit.hpp"

#include <gtest/gtest.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include "host_target.hpp"

namespace fibercl::compiler::test {

IRJit::IRJit(const llvm::Module &m) {
  initializeNativeTarget();
  std::string text;
  llvm::raw_string_ostream os(text);
  m.print(os, nullptr);
  auto context = std::make_unique<llvm::LLVMContext>();
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> copy = llvm::parseAssemblyString(os.str(), error, *context);
  if (!copy) {
    ADD_FAILURE() << "cannot reparse the module: " << error.getMessage().str();
    return;
  }
  auto jit = llvm::orc::LLJITBuilder().create();
  if (!jit) {
    ADD_FAILURE() << llvm::toString(jit.takeError());
    return;
  }
  jit_ = std::move(*jit);
  if (llvm::Error e =
          jit_->addIRModule(llvm::orc::ThreadSafeModule(std::move(copy), std::move(context)))) {
    ADD_FAILURE() << llvm::toString(std::move(e));
    jit_.reset();
  }
}

void *IRJit::address(const std::string &name) {
  if (!jit_)
    return nullptr;
  auto symbol = jit_->lookup(name);
  if (!symbol) {
    ADD_FAILURE() << llvm::toString(symbol.takeError());
    return nullptr;
  }
  return symbol->toPtr<void *>();
}

} // namespace fibercl::compiler::test

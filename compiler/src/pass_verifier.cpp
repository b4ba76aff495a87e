// PassVerifier (pass_verifier.hpp).
#include "pass_verifier.hpp"

#include <llvm/ADT/Any.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassInstrumentation.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include "fibercl/compiler/debug.hpp"

namespace fibercl::compiler {

void PassVerifier::attach(llvm::PassInstrumentationCallbacks &pic) {
  if (!debugChannel("verify"))
    return;
  pic.registerShouldRunOptionalPassCallback(
      [this](llvm::StringRef, llvm::Any) { return !broken(); });
  pic.registerAfterPassCallback(
      [this](llvm::StringRef pass, llvm::Any, const llvm::PreservedAnalyses &) {
        if (!broken() && pass.contains("fibercl"))
          check("after", pass.str());
      });
}

void PassVerifier::check(const char *when, const std::string &pass) {
  std::string errors;
  llvm::raw_string_ostream os(errors);
  if (!llvm::verifyModule(module_, &os))
    return;
  report_ = std::string("the IR is invalid ") + when + " " + pass + ":\n" + os.str();
}

} // namespace fibercl::compiler

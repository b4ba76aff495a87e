// FIBERCL_DEBUG=verify: LLVM's verifier after every FiberCL pass, so that IR a FiberCL
// pass leaves invalid fails the build with a log naming that pass, instead of crashing
// a later LLVM pass inside the application (issue 28). The test suite's builds run
// with it; it costs a whole-module verification per FiberCL pass.
#pragma once

#include <string>

namespace llvm {
class Module;
class PassInstrumentationCallbacks;
} // namespace llvm

namespace fibercl::compiler {

class PassVerifier {
public:
  explicit PassVerifier(llvm::Module &m) : module_(m) {}
  // Verifies after each FiberCL pass run under `pic` once FIBERCL_DEBUG has "verify";
  // after the first broken module, every later optional pass is skipped.
  void attach(llvm::PassInstrumentationCallbacks &pic);
  bool broken() const { return !report_.empty(); }
  // "the IR is invalid after <pass>: <the verifier's complaints>".
  const std::string &report() const { return report_; }

private:
  void check(const char *when, const std::string &pass);
  llvm::Module &module_;
  std::string report_;
};

} // namespace fibercl::compiler

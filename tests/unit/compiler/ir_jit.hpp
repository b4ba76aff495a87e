// Runs test IR: compiles a copy of a module for the host with ORC LLJIT, so a pass's
// output can be checked by what it computes as well as by its shape.
#pragma once

#include <llvm/ExecutionEngine/Orc/LLJIT.h>

#include <memory>
#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace fibercl::compiler::test {

class IRJit {
public:
  // Compiles a copy of `m` (the test keeps the original); fails the current test if it
  // cannot.
  explicit IRJit(const llvm::Module &m);
  // The address of function `name`, cast to `Fn` (a function pointer type); nullptr
  // (and a test failure) if there is none.
  template <typename Fn> Fn function(const std::string &name) {
    return reinterpret_cast<Fn>(address(name));
  }

private:
  void *address(const std::string &name);
  std::unique_ptr<llvm::orc::LLJIT> jit_;
};

} // namespace fibercl::compiler::test

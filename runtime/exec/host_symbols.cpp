// The host functions JIT-compiled kernels call, by symbol name: every function of
// fibercl/host_abi.def.
#include "runtime/exec/executor.hpp"
#include "runtime/exec/runner.hpp"

#include "runtime/exec/host_abi.hpp"

extern "C" [[noreturn]] void __fibercl_host_endless_loop(const char *where) noexcept {
  fibercl::exec::endlessLoop(where);
}

namespace fibercl::exec {

std::map<std::string, void *> hostSymbols() {
  return {
#define FCL_HOST_FN(NAME, ret, symbol, params)                                                     \
  {FIBERCL_HOST_##NAME, reinterpret_cast<void *>(&symbol)},
#include "fibercl/host_abi.def"
  };
}

} // namespace fibercl::exec

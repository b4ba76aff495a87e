// HostFunction (host_functions.hpp): the LLVM types of the host ABI's C prototypes.
#include "host_functions.hpp"

#include <llvm/IR/DerivedTypes.h>
#include <llvm/Support/ErrorHandling.h>

#include <array>
#include <type_traits>

#include "fibercl/pipe_abi.h"

namespace fibercl::compiler {
namespace {

template <typename> inline constexpr bool kNoLlvmType = false;

// The LLVM type of a C type of the list. Kernels run in the host's address space, so
// every pointer is a `ptr`; a type the list gains without a rule here does not compile.
template <typename T> llvm::Type *llvmType(llvm::LLVMContext &c) {
  if constexpr (std::is_void_v<T>)
    return llvm::Type::getVoidTy(c);
  else if constexpr (std::is_pointer_v<T>)
    return llvm::PointerType::get(c, 0);
  else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
    return llvm::IntegerType::get(c, 8 * sizeof(T));
  else
    static_assert(kNoLlvmType<T>, "a host ABI type without an LLVM type");
}

template <typename> struct LlvmFunctionType;
template <typename Ret, typename... Params> struct LlvmFunctionType<Ret(Params...)> {
  static llvm::FunctionType *get(llvm::LLVMContext &c) {
    std::array<llvm::Type *, sizeof...(Params)> params = {llvmType<Params>(c)...};
    return llvm::FunctionType::get(llvmType<Ret>(c), params, /*isVarArg=*/false);
  }
};

const char *hostFunctionName(HostFunction f) {
  switch (f) {
#define FCL_HOST_FN(NAME, ret, symbol, params)                                                     \
  case HostFunction::NAME:                                                                         \
    return FIBERCL_HOST_##NAME;
#define FCL_HOST_LIBRARY_FN(NAME, ret, symbol, params)
#define FCL_HOST_RENAMED_FN(NAME, ret, symbol, params)
#include "fibercl/host_abi.def"
  }
  llvm_unreachable("not a host function");
}

} // namespace

llvm::FunctionType *hostFunctionType(llvm::LLVMContext &c, HostFunction f) {
  switch (f) {
#define FCL_HOST_FN(NAME, ret, symbol, params)                                                     \
  case HostFunction::NAME:                                                                         \
    return LlvmFunctionType<ret params>::get(c);
#define FCL_HOST_LIBRARY_FN(NAME, ret, symbol, params)
#define FCL_HOST_RENAMED_FN(NAME, ret, symbol, params)
#include "fibercl/host_abi.def"
  }
  llvm_unreachable("not a host function");
}

llvm::FunctionCallee declareHostFunction(llvm::Module &m, HostFunction f) {
  return m.getOrInsertFunction(hostFunctionName(f), hostFunctionType(m.getContext(), f));
}

} // namespace fibercl::compiler

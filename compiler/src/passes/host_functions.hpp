// The runtime's functions the passes call (fibercl/host_abi.def's FCL_HOST_FN and
// FCL_HOST_NORETURN_FN), declared in a module with the LLVM types of the list's C
// prototypes.
#pragma once

#include <llvm/IR/Module.h>

namespace fibercl::compiler {

// One per function; FIBERCL_HOST_<name> is its symbol.
enum class HostFunction {
#define FCL_HOST_FN(NAME, ret, symbol, params) NAME,
#define FCL_HOST_LIBRARY_FN(NAME, ret, symbol, params)
#define FCL_HOST_RENAMED_FN(NAME, ret, symbol, params)
#include "fibercl/host_abi.def"
};

// The function's LLVM type: its C types mapped to LLVM's (host_functions.cpp).
llvm::FunctionType *hostFunctionType(llvm::LLVMContext &c, HostFunction f);

// m's declaration of `f`, inserted if absent (Module::getOrInsertFunction).
llvm::FunctionCallee declareHostFunction(llvm::Module &m, HostFunction f);

} // namespace fibercl::compiler

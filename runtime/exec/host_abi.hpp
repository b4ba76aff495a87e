// The C declarations of the host functions JIT-compiled kernels call, generated from
// fibercl/host_abi.def. Included where each is defined, so that a definition that
// differs from the list (a parameter, the return type, noexcept) does not compile.
#pragma once

#include "fibercl/pipe_abi.h"

// They run on work-items' fibers, where nothing may unwind: noexcept.
#define FCL_HOST_FN(NAME, ret, symbol, params) extern "C" ret symbol params noexcept;
#define FCL_HOST_NORETURN_FN(NAME, ret, symbol, params)                                            \
  extern "C" [[noreturn]] ret symbol params noexcept;
#include "fibercl/host_abi.def"

// Formats one conversion with the C library's snprintf, called through libffi's
// variadic call interface so that the value travels as its real C type (int, unsigned,
// long long, unsigned long long, double or a pointer), not through a switch of typed
// snprintf calls.
#include "runtime/exec/printf_format.hpp"

#include <cstddef>
#include <cstdio>

#include <ffi.h>

namespace fibercl::exec {
namespace {

constexpr int kTypes = int(CValue::Type::Pointer) + 1;

// The ffi_type each CValue::Type is passed as in the variadic part of the call. The
// variadic types are the promoted ones, as libffi requires (no float, no char).
ffi_type *ffiType(CValue::Type type) {
  static_assert(sizeof(int) == 4 && sizeof(long long) == 8, "LP64/ILP32 C types expected");
  switch (type) {
  case CValue::Type::Int:
    return &ffi_type_sint;
  case CValue::Type::UInt:
    return &ffi_type_uint;
  case CValue::Type::LongLong:
    return &ffi_type_sint64;
  case CValue::Type::ULongLong:
    return &ffi_type_uint64;
  case CValue::Type::Double:
    return &ffi_type_double;
  case CValue::Type::Pointer:
    return &ffi_type_pointer;
  }
  return nullptr;
}

ffi_type *sizeType() {
  static_assert(sizeof(size_t) == 8 || sizeof(size_t) == 4, "unexpected size_t");
  return sizeof(size_t) == 8 ? &ffi_type_uint64 : &ffi_type_uint32;
}

// The call interfaces of int snprintf(char *, size_t, const char *, ...) with one
// variadic argument of each CValue::Type, prepared once and then only read (ffi_call
// does not modify a prepared ffi_cif, so worker threads share them).
class SnprintfCalls {
public:
  SnprintfCalls() {
    for (int t = 0; t < kTypes; ++t) {
      args_[t][0] = &ffi_type_pointer; // char *buf
      args_[t][1] = sizeType();        // size_t size
      args_[t][2] = &ffi_type_pointer; // const char *format
      args_[t][3] = ffiType(CValue::Type(t));
      ready_[t] = ffi_prep_cif_var(&cif_[t], FFI_DEFAULT_ABI, /*nfixedargs=*/3,
                                   /*ntotalargs=*/4, &ffi_type_sint, args_[t]) == FFI_OK;
    }
  }

  // snprintf(buf, size, spec, value); a negative result is an error.
  int call(char *buf, size_t size, const char *spec, const CValue &value) {
    int t = int(value.type);
    if (!ready_[t])
      return -1;
    void *argValues[4] = {&buf, &size, &spec, const_cast<CValue::Storage *>(&value.as)};
    ffi_arg result = 0; // return values narrower than a register are widened to ffi_arg
    ffi_call(&cif_[t], FFI_FN(&std::snprintf), &result, argValues);
    return int(ffi_sarg(result));
  }

private:
  ffi_cif cif_[kTypes];
  ffi_type *args_[kTypes][4];
  bool ready_[kTypes];
};

SnprintfCalls &snprintfCalls() {
  static SnprintfCalls calls;
  return calls;
}

} // namespace

bool appendCConversion(std::string &out, const std::string &spec, const CValue &value) {
  SnprintfCalls &calls = snprintfCalls();
  char buf[256];
  int n = calls.call(buf, sizeof buf, spec.c_str(), value);
  if (n < 0)
    return false;
  if (size_t(n) < sizeof buf) {
    out.append(buf, size_t(n));
    return true;
  }
  // Too long for the stack buffer: format again straight into `out`.
  size_t at = out.size();
  out.resize(at + size_t(n) + 1);
  if (calls.call(&out[at], size_t(n) + 1, spec.c_str(), value) != n) {
    out.resize(at);
    return false;
  }
  out.resize(at + size_t(n));
  return true;
}

} // namespace fibercl::exec

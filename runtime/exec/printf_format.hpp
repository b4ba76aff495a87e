// One printf conversion handed to the C library: FiberCL does not format numbers
// itself; each conversion (each vector element) becomes one call of the C library's
// variadic snprintf, made through libffi with the value's real C type.
#pragma once

#include <string>

namespace fibercl::exec {

// A value as C's variadic printf receives it (after the default argument promotions).
struct CValue {
  enum class Type { Int, UInt, LongLong, ULongLong, Double, Pointer };
  Type type = Type::Int;
  union Storage {
    int i;
    unsigned u;
    long long ll;
    unsigned long long ull;
    double d;
    const void *p;
  } as{0};

  static CValue ofInt(int v) { return make(Type::Int, &Storage::i, v); }
  static CValue ofUInt(unsigned v) { return make(Type::UInt, &Storage::u, v); }
  static CValue ofLongLong(long long v) { return make(Type::LongLong, &Storage::ll, v); }
  static CValue ofULongLong(unsigned long long v) {
    return make(Type::ULongLong, &Storage::ull, v);
  }
  static CValue ofDouble(double v) { return make(Type::Double, &Storage::d, v); }
  static CValue ofPointer(const void *v) { return make(Type::Pointer, &Storage::p, v); }

private:
  template <typename T> static CValue make(Type type, T Storage::*member, T v) {
    CValue c;
    c.type = type;
    c.as.*member = v;
    return c;
  }
};

// Appends what snprintf(buf, size, spec, value) writes, calling the C library's
// snprintf through libffi (ffi_prep_cif_var + ffi_call) with `value` passed as its C
// type. `spec` is one host conversion specification such as "%+08.3lld", whose
// length modifier and conversion must expect that type. Returns false if snprintf
// fails.
bool appendCConversion(std::string &out, const std::string &spec, const CValue &value);

} // namespace fibercl::exec

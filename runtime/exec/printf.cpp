// OpenCL C printf (OpenCL C 3.0, 6.15.14) for JIT-compiled kernels. For each
// conversion specification in the format, in turn: parse and check it
// (printf_spec.cpp), read its argument from the kernel's variadic call (here), and
// format each value, each element of a vector separated by ',', with the C library's
// snprintf called through libffi (printf_format.cpp). A format the specification
// leaves undefined or does not support makes printf print nothing and return -1.
#include "runtime/exec/printf.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "runtime/exec/host_abi.hpp"
#include "runtime/exec/printf_format.hpp"
#include "runtime/exec/printf_spec.hpp"

namespace fibercl::exec {
namespace {

// va_list is an array type on x86-64; wrap it so it can be passed by reference.
struct VaArgs {
  va_list ap;
};

// A scalar argument, as the kernel passes it after the default argument promotions
// (char and short as int, float as double: the device supports double).
CValue readScalar(VaArgs &a, CValue::Type type) {
  switch (type) {
  case CValue::Type::Int:
    return CValue::ofInt(va_arg(a.ap, int));
  case CValue::Type::UInt:
    return CValue::ofUInt(va_arg(a.ap, unsigned));
  case CValue::Type::LongLong:
    return CValue::ofLongLong(va_arg(a.ap, long long));
  case CValue::Type::ULongLong:
    return CValue::ofULongLong(va_arg(a.ap, unsigned long long));
  case CValue::Type::Double:
    return CValue::ofDouble(va_arg(a.ap, double));
  case CValue::Type::Pointer:
    return CValue::ofPointer(va_arg(a.ap, const void *));
  }
  return CValue();
}

// A vector argument of N elements of T. Vectors are not promoted; the kernel passes
// them as the host C ABI passes a GNU vector of the same size (a 3-element vector has
// the size of a 4-element one).
template <typename T, int N> void fetchVector(VaArgs &a, T *dst) {
  typedef T V __attribute__((vector_size(sizeof(T) * (N == 3 ? 4 : N))));
  V v = va_arg(a.ap, V);
  for (int i = 0; i < N; ++i)
    dst[i] = v[i];
}

template <typename T> void fetchVector(VaArgs &a, int n, T *dst) {
  switch (n) {
  case 2:
    fetchVector<T, 2>(a, dst);
    break;
  case 3:
    fetchVector<T, 3>(a, dst);
    break;
  case 4:
    fetchVector<T, 4>(a, dst);
    break;
  case 8:
    fetchVector<T, 8>(a, dst);
    break;
  default:
    fetchVector<T, 16>(a, dst);
    break;
  }
}

// An integer element converted to `type` as C would convert it.
CValue intValue(int64_t v, CValue::Type type) {
  switch (type) {
  case CValue::Type::Int:
    return CValue::ofInt(int(v));
  case CValue::Type::UInt:
    return CValue::ofUInt(unsigned(v));
  case CValue::Type::LongLong:
    return CValue::ofLongLong(v);
  default:
    return CValue::ofULongLong(uint64_t(v));
  }
}

double halfToDouble(uint16_t bits) {
  static_assert(sizeof(_Float16) == sizeof bits, "_Float16 is IEEE binary16");
  _Float16 h;
  std::memcpy(&h, &bits, sizeof h);
  return double(h);
}

template <typename T, typename Convert>
void readElements(VaArgs &a, int n, CValue *out, Convert convert) {
  T e[16];
  fetchVector(a, n, e);
  for (int i = 0; i < n; ++i)
    out[i] = convert(e[i]);
}

// The elements of a vector argument, each as the C value of `type`. The length
// modifier names the element type: hh char, h short or half, hl int or float, l long
// or double.
void readVector(VaArgs &a, const PrintfSpec &s, CValue::Type type, CValue *out) {
  auto integer = [type](auto e) { return intValue(int64_t(e), type); };
  auto real = [](auto e) { return CValue::ofDouble(double(e)); };
  bool isFloat = s.isFloatConversion();
  switch (s.len) {
  case PrintfLength::HH:
    readElements<int8_t>(a, s.vec, out, integer);
    break;
  case PrintfLength::H:
    if (isFloat) // half elements travel as their bits
      readElements<uint16_t>(a, s.vec, out,
                             [](uint16_t h) { return CValue::ofDouble(halfToDouble(h)); });
    else
      readElements<int16_t>(a, s.vec, out, integer);
    break;
  case PrintfLength::L:
    if (isFloat)
      readElements<double>(a, s.vec, out, real);
    else
      readElements<int64_t>(a, s.vec, out, integer);
    break;
  default: // hl
    if (isFloat)
      readElements<float>(a, s.vec, out, real);
    else
      readElements<int32_t>(a, s.vec, out, integer);
    break;
  }
}

// Reads the argument of `s` and appends its conversion: one value, or the elements
// of a vector separated by ','.
bool convert(std::string &out, const PrintfSpec &s, VaArgs &a) {
  CValue::Type type = printfCType(s);
  CValue values[16];
  int n = s.vec ? s.vec : 1;
  if (s.vec)
    readVector(a, s, type, values);
  else
    values[0] = readScalar(a, type);
  std::string spec = printfHostSpec(s);
  for (int i = 0; i < n; ++i) {
    if (i)
      out += ',';
    if (!appendCConversion(out, spec, values[i]))
      return false;
  }
  return true;
}

bool format(std::string &out, const char *p, VaArgs &a) {
  while (*p) {
    const char *pct = std::strchr(p, '%');
    if (!pct) {
      out.append(p);
      break;
    }
    out.append(p, size_t(pct - p));
    p = pct + 1;
    if (*p == '%') {
      out += '%';
      ++p;
      continue;
    }
    PrintfSpec s;
    if (!parsePrintfSpec(p, s) || !convert(out, s, a))
      return false;
  }
  return true;
}

} // namespace

bool formatOpenCL(std::string &out, const char *fmt, va_list ap) {
  if (!fmt)
    return false;
  VaArgs a;
  va_copy(a.ap, ap);
  bool ok = format(out, fmt, a);
  va_end(a.ap);
  return ok;
}

} // namespace fibercl::exec

// The printf kernels call: writes the formatted text to stdout with one fwrite and
// fflush, so lines from work-groups running in parallel do not interleave.
// Returns 0 on success, -1 on error.
extern "C" int __fibercl_host_printf(const char *fmt, ...) noexcept {
  std::string out;
  va_list ap;
  va_start(ap, fmt);
  bool ok;
  try {
    ok = fibercl::exec::formatOpenCL(out, fmt, ap);
  } catch (...) {
    ok = false;
  }
  va_end(ap);
  if (!ok)
    return -1;
  // One write per call, so lines from work-groups running in parallel do not
  // interleave.
  if (!out.empty() && std::fwrite(out.data(), 1, out.size(), stdout) != out.size())
    return -1;
  std::fflush(stdout);
  return 0;
}

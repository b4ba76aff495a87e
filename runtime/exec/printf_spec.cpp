// The OpenCL C printf format grammar: parsing and checking one conversion
// specification, and its translation for the C library (see printf_spec.hpp).
#include "runtime/exec/printf_spec.hpp"

#include <cstring>

namespace fibercl::exec {

bool PrintfSpec::isIntConversion() const { return conv && std::strchr("diouxX", conv); }
bool PrintfSpec::isFloatConversion() const { return conv && std::strchr("fFeEgGaA", conv); }

namespace {

using Len = PrintfLength;

// Field widths and precisions above this are rejected (they would only allocate).
constexpr int kMaxNumber = 1000000;

bool parseDecimal(const char *&p, int &value) {
  if (*p < '0' || *p > '9')
    return false;
  long v = 0;
  while (*p >= '0' && *p <= '9') {
    v = v * 10 + (*p++ - '0');
    if (v > kMaxNumber)
      return false;
  }
  value = int(v);
  return true;
}

// hh h hl l. A second 'l' ("ll", reserved) is then read as an invalid conversion.
Len parseLength(const char *&p) {
  static const struct {
    const char *text;
    Len len;
  } kModifiers[] = {{"hh", Len::HH}, {"hl", Len::HL}, {"h", Len::H}, {"l", Len::L}};
  for (const auto &m : kModifiers) {
    size_t n = std::strlen(m.text);
    if (std::strncmp(p, m.text, n) == 0) {
      p += n;
      return m.len;
    }
  }
  return Len::None;
}

// Whether the vector specifier and length modifier go with the conversion.
bool validCombination(const PrintfSpec &s) {
  if (s.vec) {
    if (s.len == Len::None) // "the length modifier is required with a vector specifier"
      return false;
    if (s.isIntConversion())
      return true;                                    // charn, shortn, intn, longn
    return s.isFloatConversion() && s.len != Len::HH; // halfn, floatn, doublen
  }
  if (s.isIntConversion())
    return s.len != Len::HL; // hl only with a vector
  if (s.isFloatConversion())
    return s.len == Len::None || s.len == Len::L; // as in C99, l has no effect on a double
  return s.len == Len::None && (s.conv == 'c' || s.conv == 's' || s.conv == 'p');
}

} // namespace

bool parsePrintfSpec(const char *&p, PrintfSpec &s) {
  for (; *p && std::strchr("-+ #0", *p); ++p)
    if (s.flags.find(*p) == std::string::npos)
      s.flags += *p;
  if (*p >= '0' && *p <= '9' && !parseDecimal(p, s.width))
    return false;
  if (*p == '.') {
    ++p;
    s.precision = 0; // "if only the period is specified, the precision is taken as zero"
    if (*p >= '0' && *p <= '9' && !parseDecimal(p, s.precision))
      return false;
  }
  if (*p == 'v') {
    ++p;
    if (!parseDecimal(p, s.vec))
      return false;
    if (s.vec != 2 && s.vec != 3 && s.vec != 4 && s.vec != 8 && s.vec != 16)
      return false;
  }
  s.len = parseLength(p);
  s.conv = *p;
  if (!s.conv)
    return false;
  ++p;
  return validCombination(s);
}

CValue::Type printfCType(const PrintfSpec &s) {
  if (s.isIntConversion()) {
    bool isSigned = s.conv == 'd' || s.conv == 'i';
    if (s.len == Len::L)
      return isSigned ? CValue::Type::LongLong : CValue::Type::ULongLong;
    return isSigned ? CValue::Type::Int : CValue::Type::UInt;
  }
  if (s.isFloatConversion())
    return CValue::Type::Double;
  return s.conv == 'c' ? CValue::Type::Int : CValue::Type::Pointer;
}

std::string printfHostSpec(const PrintfSpec &s) {
  std::string spec = "%" + s.flags;
  if (s.width >= 0)
    spec += std::to_string(s.width);
  if (s.precision >= 0)
    spec += "." + std::to_string(s.precision);
  if (s.isIntConversion()) {
    switch (s.len) {
    case Len::HH:
      spec += "hh";
      break;
    case Len::H:
      spec += "h";
      break;
    case Len::L:
      spec += "ll";
      break;
    default:
      break; // none, hl: int
    }
  }
  return spec + s.conv;
}

} // namespace fibercl::exec

// The OpenCL C printf format grammar (OpenCL C 3.0, 6.15.14.2):
//   %[flags -+ #0][width][.precision][vN][length hh h hl l]conversion
// parsed and checked one conversion specification at a time, and what the C
// library's printf needs to format one value of it.
#pragma once

#include <string>

#include "runtime/exec/printf_format.hpp"

namespace fibercl::exec {

enum class PrintfLength { None, HH, H, HL, L };

// One conversion specification.
struct PrintfSpec {
  std::string flags;
  int width = -1;     // -1: none
  int precision = -1; // -1: none
  int vec = 0;        // vector size; 0 for a scalar
  PrintfLength len = PrintfLength::None;
  char conv = 0;

  bool isIntConversion() const;   // d i o u x X
  bool isFloatConversion() const; // f F e E g G a A
};

// Parses the conversion specification that follows a '%' (not "%%"), leaving `p`
// after it. Returns false if it is not a valid OpenCL C conversion specification:
// '*' widths, the reserved ll j L z t modifiers and n conversion, hl without a
// vector, a vector without a length modifier, a vector of c s p, a length modifier
// the conversion does not take, any other conversion character (including "%5%").
bool parsePrintfSpec(const char *&p, PrintfSpec &s);

// The C type the C library's printf takes for one value (one vector element) of `s`.
CValue::Type printfCType(const PrintfSpec &s);

// The host conversion specification for one value: flags, width and precision as
// written, a length modifier matching printfCType() (hh and h narrow the int as
// OpenCL C requires), and the conversion.
std::string printfHostSpec(const PrintfSpec &s);

} // namespace fibercl::exec

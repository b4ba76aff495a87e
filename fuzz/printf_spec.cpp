// libFuzzer target: the OpenCL C printf conversion parser (runtime/exec/printf_spec.cpp)
// on arbitrary format text. A specification it accepts must end inside the text and
// give a host conversion whose C type is one printf takes.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "runtime/exec/printf_spec.hpp"

using namespace fibercl::exec;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string text(reinterpret_cast<const char *>(data), size); // NUL-terminated
  const char *p = text.c_str();
  PrintfSpec spec;
  if (!parsePrintfSpec(p, spec))
    return 0;
  if (p < text.c_str() || p > text.c_str() + text.size())
    std::abort(); // ran past the end
  std::string host = printfHostSpec(spec);
  if (host.empty() || host[0] != '%')
    std::abort();
  return 0;
}

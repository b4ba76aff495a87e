// OpenCL C printf for JIT-compiled kernels.
#pragma once

#include <cstdarg>
#include <string>

namespace fibercl::exec {

// Formats an OpenCL C printf format with its arguments (as a kernel passes them:
// scalar floats promoted to double, vectors as vector values) into `out`.
// Returns false if the format is invalid: not OpenCL C 3.0's grammar, or a
// conversion specification whose behaviour the specification leaves undefined.
bool formatOpenCL(std::string &out, const char *format, va_list ap);

} // namespace fibercl::exec

// The printf kernels call: writes the formatted text to stdout with one fwrite and
// fflush, so lines from work-groups running in parallel do not interleave.
// Returns 0 on success, -1 on error.
extern "C" int __fibercl_printf(const char *format, ...);

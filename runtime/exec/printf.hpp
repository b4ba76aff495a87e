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

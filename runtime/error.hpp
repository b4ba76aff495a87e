// The one error type of the runtime: an OpenCL error code and what it is about.
// Thrown by validation and by the object model; turned into a return value or
// errcode_ret at the API boundary (api/entry.hpp).
#pragma once

#include <CL/cl.h>

#include <string>

namespace fibercl::runtime {

class Error {
public:
  Error(cl_int code, std::string what = {}) : code_(code), what_(std::move(what)) {}
  cl_int code() const { return code_; }
  const std::string &what() const { return what_; }

private:
  cl_int code_;
  std::string what_;
};

// Throws Error(code, what) when `failed` is true: `check(x == 0, CL_INVALID_VALUE, "x")`.
inline void check(bool failed, cl_int code, const char *what) {
  if (failed)
    throw Error(code, what);
}

// The name of an error code, for diagnostics ("CL_INVALID_VALUE").
const char *errorName(cl_int code);

} // namespace fibercl::runtime

// OpenCL error codes for people: their names, and a check that throws on failure.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>

#include <stdexcept>
#include <string>

namespace fibercl::cl_host {

// "CL_INVALID_VALUE" for -30, etc.; "CL_<unknown -1234>" for a code it does not know.
const char *errorName(cl_int err);

// A failed OpenCL call (or a set-up step that could not be done): what() says which and
// why; code() is the call's error code, CL_SUCCESS when there was none.
class Error : public std::runtime_error {
public:
  explicit Error(const std::string &what, cl_int code = CL_SUCCESS)
      : std::runtime_error(what), code_(code) {}
  cl_int code() const { return code_; }

private:
  cl_int code_;
};

// Throws Error("<what> failed: <error name>", err) unless err is CL_SUCCESS.
void check(cl_int err, const std::string &what);

} // namespace fibercl::cl_host

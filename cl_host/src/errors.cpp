// The one table of OpenCL error names on the host side (see errors.hpp).
#include "fibercl/cl_host/errors.hpp"

#include <CL/cl_ext.h>

#include <cstdio>

namespace fibercl::cl_host {

const char *errorName(cl_int err) {
  switch (err) {
#define FCL_ERROR(code)                                                                            \
  case code:                                                                                       \
    return #code;
#include "fibercl/error_codes.def"
    // What the ICD loader returns when it finds no platform at all.
  case CL_PLATFORM_NOT_FOUND_KHR:
    return "CL_PLATFORM_NOT_FOUND_KHR";
  default: {
    static thread_local char unknown[40];
    std::snprintf(unknown, sizeof unknown, "CL_<unknown %d>", err);
    return unknown;
  }
  }
}

void check(cl_int err, const std::string &what) {
  if (err != CL_SUCCESS)
    throw Error(what + " failed: " + errorName(err), err);
}

} // namespace fibercl::cl_host

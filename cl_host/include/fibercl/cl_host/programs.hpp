// Programs from OpenCL C source, built with their build log at hand.
#pragma once

#include "fibercl/cl_host/errors.hpp"

#include <string>
#include <vector>

namespace fibercl::cl_host {

// One program of `sources`, each string one source of clCreateProgramWithSource, passed
// with its length (so every byte counts, NULs included). Throws Error.
cl_program createProgram(cl_context context, const std::vector<std::string> &sources);

// The build log of `program` on `device`, without its NUL; "<no build log>" when the
// query fails.
std::string buildLog(cl_program program, cl_device_id device);

struct BuildResult {
  cl_program program = nullptr; // the caller's to release, also when the build failed
  cl_int err = CL_SUCCESS;      // what clBuildProgram returned
  std::string log;
};

// Creates a program of `sources` and builds it for `device` with `options`; a failed
// build is a result, not an exception. Throws Error only when the program cannot be created.
BuildResult tryBuild(cl_context context, cl_device_id device,
                     const std::vector<std::string> &sources, const std::string &options = "");

} // namespace fibercl::cl_host

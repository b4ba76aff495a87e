// Program creation and building (see programs.hpp).
#include "fibercl/cl_host/programs.hpp"

namespace fibercl::cl_host {

cl_program createProgram(cl_context context, const std::vector<std::string> &sources) {
  std::vector<const char *> texts;
  std::vector<size_t> lengths;
  for (const std::string &source : sources) {
    texts.push_back(source.c_str());
    lengths.push_back(source.size());
  }
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context, static_cast<cl_uint>(texts.size()),
                                                 texts.data(), lengths.data(), &err);
  check(err, "clCreateProgramWithSource");
  return program;
}

std::string buildLog(cl_program program, cl_device_id device) {
  size_t size = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) != CL_SUCCESS)
    return "<no build log>";
  std::string log(size, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  while (!log.empty() && log.back() == '\0')
    log.pop_back();
  return log;
}

BuildResult tryBuild(cl_context context, cl_device_id device,
                     const std::vector<std::string> &sources, const std::string &options) {
  BuildResult result;
  result.program = createProgram(context, sources);
  result.err = clBuildProgram(result.program, 1, &device, options.c_str(), nullptr, nullptr);
  result.log = buildLog(result.program, device);
  return result;
}

} // namespace fibercl::cl_host

// `fibercl build [--compile] FILE.cl [OPTIONS...]`: builds an OpenCL C file on FiberCL's
// device through the ICD loader, as an application would, and prints the build log. Exit
// status 0 iff clBuildProgram (with --compile: clCompileProgram) succeeded. Used by
// scripts/rebuild_sources.sh.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

void pointLoaderAtFiberCL();

int buildSource(int argc, char **argv) {
  const bool compileOnly = argc > 2 && std::string(argv[2]) == "--compile";
  if (compileOnly) { // the rest as without it
    --argc;
    ++argv;
  }
  if (argc < 3) {
    std::fprintf(stderr, "usage: fibercl build [--compile] FILE.cl [OPTIONS...]\n");
    return 2;
  }
  std::ifstream in(argv[2], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "fibercl build: cannot read %s\n", argv[2]);
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  const std::string source = text.str();
  std::string options;
  for (int i = 3; i < argc; ++i)
    options += std::string(i > 3 ? " " : "") + argv[i];
  pointLoaderAtFiberCL();

  cl_uint count = 0;
  clGetPlatformIDs(0, nullptr, &count);
  std::vector<cl_platform_id> platforms(count);
  clGetPlatformIDs(count, platforms.data(), nullptr);
  cl_platform_id fibercl = nullptr;
  for (cl_platform_id p : platforms) {
    char name[256] = {};
    clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
    if (std::string(name) == "FiberCL")
      fibercl = p;
  }
  cl_device_id device = nullptr;
  if (!fibercl || clGetDeviceIDs(fibercl, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) != CL_SUCCESS) {
    std::fprintf(stderr, "fibercl build: no FiberCL device (OCL_ICD_VENDORS?)\n");
    return 2;
  }
  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  const char *src = source.c_str();
  size_t length = source.size();
  cl_program program = clCreateProgramWithSource(context, 1, &src, &length, &err);
  cl_int built = compileOnly ? clCompileProgram(program, 1, &device, options.c_str(), 0, nullptr,
                                                nullptr, nullptr, nullptr)
                             : clBuildProgram(program, 1, &device, options.c_str(), nullptr, nullptr);
  size_t logSize = 0;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &logSize);
  std::string log(logSize, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, logSize, log.data(), nullptr);
  std::printf("%s: %s %s (%d)\n%s\n", argv[2], compileOnly ? "clCompileProgram" : "clBuildProgram",
              built == CL_SUCCESS ? "ok" : "failed", built, log.c_str());
  clReleaseProgram(program);
  clReleaseContext(context);
  return built == CL_SUCCESS ? 0 : 1;
}

// `fibercl build [--compile] FILE.cl [OPTIONS...]`: builds an OpenCL C file on FiberCL's
// device through the ICD loader, as an application would, and prints the build log. Exit
// status 0 iff clBuildProgram (with --compile: clCompileProgram) succeeded. Used by
// scripts/rebuild_sources.sh.
#include <fibercl/cl_host/errors.hpp>
#include <fibercl/cl_host/platforms.hpp>
#include <fibercl/cl_host/programs.hpp>
#include <fibercl/cl_host/session.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

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

  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_program program = nullptr;
  try {
    device = fibercl::cl_host::findDevice(fibercl::cl_host::kFiberCL);
    if (!device) {
      std::fprintf(stderr, "fibercl build: no FiberCL device (OCL_ICD_VENDORS?)\n");
      return 2;
    }
    context = fibercl::cl_host::createContext(device);
    program = fibercl::cl_host::createProgram(context, {source});
  } catch (const fibercl::cl_host::Error &e) {
    std::fprintf(stderr, "fibercl build: %s\n", e.what());
    if (context)
      clReleaseContext(context);
    return 2;
  }
  cl_int built = compileOnly
                     ? clCompileProgram(program, 1, &device, options.c_str(), 0, nullptr, nullptr,
                                        nullptr, nullptr)
                     : clBuildProgram(program, 1, &device, options.c_str(), nullptr, nullptr);
  const std::string log = fibercl::cl_host::buildLog(program, device);
  std::printf("%s: %s %s (%d)\n%s\n", argv[2], compileOnly ? "clCompileProgram" : "clBuildProgram",
              built == CL_SUCCESS ? "ok" : "failed", built, log.c_str());
  clReleaseProgram(program);
  clReleaseContext(context);
  return built == CL_SUCCESS ? 0 : 1;
}

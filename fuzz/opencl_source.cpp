// libFuzzer target: OpenCL C sources through the whole build. A bad source must come
// back as a failed build with a build log, never as a crash; a good one as kernels an
// application can create and query.
//
// Design. The input goes where an application's source goes: clCreateProgramWithSource,
// clBuildProgram, clGetProgramBuildInfo, clCreateKernelsInProgram, through the ICD
// loader (ocl-icd's libOpenCL) into libfibercl.so. So it is the real build path of
// clBuildProgram -- option parsing, in-process Clang, FiberCL's passes, builtins
// linking, O3, ORC JIT code generation when the executable is installed -- and the
// runtime's side of it (program object, build status and log, kernel table, argument
// info), with nothing mocked. Calling compiler::build() directly would skip the
// runtime's half (installExecutable, the kernel objects) where the properties below
// are observed. scripts/fuzz.sh builds that libfibercl.so separately with clang-19
// (build-fuzz-src/, -fsanitize=fuzzer-no-link,address,undefined), so FiberCL's own code
// (compiler, runtime, icd) is instrumented for coverage and checked by ASan/UBSan;
// Debian's libLLVM and libclang-cpp are not instrumented: a crash inside them is still
// caught (SEGV, abort), but they add no coverage.
//
// Input: the program source, all of it (NUL bytes included: the length is passed).
// If its first line is "// options: <text>", <text> is also given to clBuildProgram,
// so seeds can ask for -cl-std=CL2.0/CL3.0 and mutations reach option combinations.
//
// Properties checked beyond "no crash" (std::abort when one fails):
//  - clBuildProgram returns CL_SUCCESS, CL_BUILD_PROGRAM_FAILURE or
//    CL_INVALID_BUILD_OPTIONS, and CL_PROGRAM_BUILD_STATUS agrees with it;
//  - a failed build has a non-empty CL_PROGRAM_BUILD_LOG;
//  - a successful build has a binary, its kernel names and count agree, every kernel
//    can be created (clCreateKernelsInProgram and clCreateKernel by name), and has a
//    name, an argument count, argument info for each argument and a work-group size.
//  - the build takes at most FUZZ_CPU_SECONDS (default 30) seconds of CPU time.
// Kernels are not run: a random kernel may loop forever or fault by design.
//
// Slowness is measured in CPU time, not with libFuzzer's wall-clock -timeout alone: on
// a shared machine under `nice` a 1 s build can take a minute of wall time, which is not
// a finding; a build that burns 30 s of CPU is (scripts/fuzz.sh keeps a long -timeout
// only for builds that block).
#include <fibercl/cl_host/errors.hpp>
#include <fibercl/cl_host/platforms.hpp>
#include <fibercl/cl_host/session.hpp>
#include <sys/resource.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace {

cl_device_id gDevice;
cl_context gContext;
bool gVerbose;         // FUZZ_VERBOSE=1: print each build's outcome and log (to triage seeds)
double gCpuLimit = 30; // FUZZ_CPU_SECONDS

double cpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

[[noreturn]] void fail(const char *what, cl_int err = CL_SUCCESS) {
  std::fprintf(stderr, "opencl_source: property violated: %s (error %d)\n", what, err);
  std::abort();
}

std::string programBuildString(cl_program p, cl_program_build_info what) {
  size_t size = 0;
  if (cl_int err = clGetProgramBuildInfo(p, gDevice, what, 0, nullptr, &size))
    fail("clGetProgramBuildInfo size", err);
  std::string s(size, '\0');
  if (cl_int err = clGetProgramBuildInfo(p, gDevice, what, size, s.data(), nullptr))
    fail("clGetProgramBuildInfo", err);
  if (size == 0 || s.back() != '\0')
    fail("a build info string is not NUL-terminated");
  s.pop_back();
  return s;
}

std::string programString(cl_program p, cl_program_info what) {
  size_t size = 0;
  if (cl_int err = clGetProgramInfo(p, what, 0, nullptr, &size))
    fail("clGetProgramInfo size", err);
  std::string s(size, '\0');
  if (cl_int err = clGetProgramInfo(p, what, size, s.data(), nullptr))
    fail("clGetProgramInfo", err);
  if (size == 0 || s.back() != '\0')
    fail("a program info string is not NUL-terminated");
  s.pop_back();
  return s;
}

std::string kernelName(cl_kernel k) {
  size_t size = 0;
  if (cl_int err = clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, 0, nullptr, &size))
    fail("clGetKernelInfo(CL_KERNEL_FUNCTION_NAME) size", err);
  std::string s(size, '\0');
  if (cl_int err = clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, size, s.data(), nullptr))
    fail("clGetKernelInfo(CL_KERNEL_FUNCTION_NAME)", err);
  if (size <= 1)
    fail("a kernel has an empty name");
  s.pop_back();
  return s;
}

// Name, argument count, argument info and work-group size of a created kernel.
void checkKernel(cl_kernel k, const std::set<std::string> &names) {
  if (!names.count(kernelName(k)))
    fail("a created kernel is not in CL_PROGRAM_KERNEL_NAMES");
  cl_uint numArgs = 0;
  if (cl_int err = clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof numArgs, &numArgs, nullptr))
    fail("clGetKernelInfo(CL_KERNEL_NUM_ARGS)", err);
  for (cl_uint i = 0; i < numArgs; ++i) {
    cl_kernel_arg_address_qualifier address = 0;
    cl_int err = clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof address, &address,
                                    nullptr);
    if (err != CL_SUCCESS && err != CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
      fail("clGetKernelArgInfo(CL_KERNEL_ARG_ADDRESS_QUALIFIER)", err);
    size_t size = 0;
    err = clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, 0, nullptr, &size);
    if (err != CL_SUCCESS && err != CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
      fail("clGetKernelArgInfo(CL_KERNEL_ARG_TYPE_NAME)", err);
  }
  size_t groupSize = 0;
  if (cl_int err = clGetKernelWorkGroupInfo(k, gDevice, CL_KERNEL_WORK_GROUP_SIZE, sizeof groupSize,
                                            &groupSize, nullptr))
    fail("clGetKernelWorkGroupInfo(CL_KERNEL_WORK_GROUP_SIZE)", err);
  if (groupSize == 0)
    fail("CL_KERNEL_WORK_GROUP_SIZE is 0");
}

void checkBuilt(cl_program p) {
  size_t binarySize = 0;
  if (cl_int err =
          clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof binarySize, &binarySize, nullptr))
    fail("clGetProgramInfo(CL_PROGRAM_BINARY_SIZES)", err);
  if (binarySize == 0)
    fail("a built program has no binary");
  size_t numKernels = 0;
  if (cl_int err =
          clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof numKernels, &numKernels, nullptr))
    fail("clGetProgramInfo(CL_PROGRAM_NUM_KERNELS)", err);
  std::set<std::string> names;
  const std::string list = programString(p, CL_PROGRAM_KERNEL_NAMES);
  for (size_t pos = 0; numKernels > 0;) {
    size_t end = list.find(';', pos);
    names.insert(list.substr(pos, end == std::string::npos ? end : end - pos));
    if (end == std::string::npos)
      break;
    pos = end + 1;
  }
  if (names.size() != numKernels || names.count(""))
    fail("CL_PROGRAM_KERNEL_NAMES does not list CL_PROGRAM_NUM_KERNELS distinct names");

  cl_uint count = 0;
  if (cl_int err = clCreateKernelsInProgram(p, 0, nullptr, &count))
    fail("clCreateKernelsInProgram (count)", err);
  if (count != numKernels)
    fail("clCreateKernelsInProgram counts other kernels than CL_PROGRAM_NUM_KERNELS");
  if (count > 0) {
    std::vector<cl_kernel> kernels(count);
    if (cl_int err = clCreateKernelsInProgram(p, count, kernels.data(), nullptr))
      fail("clCreateKernelsInProgram", err);
    for (cl_kernel k : kernels) {
      checkKernel(k, names);
      clReleaseKernel(k);
    }
  }
  for (const std::string &name : names) {
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(p, name.c_str(), &err);
    if (!k || err != CL_SUCCESS)
      fail("clCreateKernel of a name in CL_PROGRAM_KERNEL_NAMES", err);
    checkKernel(k, names);
    clReleaseKernel(k);
  }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // Every input is compiled, not looked up in (or added to) the user's kernel cache.
  setenv("FIBERCL_CACHE", "0", 1);
  gVerbose = getenv("FUZZ_VERBOSE") && *getenv("FUZZ_VERBOSE") == '1';
  if (const char *limit = getenv("FUZZ_CPU_SECONDS"))
    gCpuLimit = std::atof(limit);
  try {
    gDevice = fibercl::cl_host::findDevice(fibercl::cl_host::kFiberCL, CL_DEVICE_TYPE_CPU);
    if (!gDevice) {
      std::fprintf(stderr, "opencl_source: no FiberCL CPU device (OCL_ICD_VENDORS=%s)\n",
                   getenv("OCL_ICD_VENDORS") ? getenv("OCL_ICD_VENDORS") : "unset");
      std::exit(1);
    }
    gContext = fibercl::cl_host::createContext(gDevice);
  } catch (const fibercl::cl_host::Error &e) {
    std::fprintf(stderr, "opencl_source: %s\n", e.what());
    std::exit(1);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *source = reinterpret_cast<const char *>(data);
  std::string options;
  static const char kOptions[] = "// options:";
  if (size >= sizeof kOptions - 1 && std::memcmp(data, kOptions, sizeof kOptions - 1) == 0) {
    const char *begin = source + sizeof kOptions - 1;
    const char *end = static_cast<const char *>(std::memchr(begin, '\n', size - (begin - source)));
    options.assign(begin, end ? end : source + size);
    options = options.c_str(); // up to a NUL, as the API would read it
  }
  if (size == 0)
    source = ""; // clCreateProgramWithSource takes a 0 length as "NUL-terminated"

  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(gContext, 1, &source, &size, &err);
  if (!p || err != CL_SUCCESS)
    fail("clCreateProgramWithSource", err);
  const double cpuBefore = cpuSeconds();
  const cl_int built = clBuildProgram(p, 1, &gDevice, options.c_str(), nullptr, nullptr);
  const double cpu = cpuSeconds() - cpuBefore;
  if (cpu > gCpuLimit) {
    std::fprintf(stderr, "opencl_source: the build took %.1f s of CPU time\n", cpu);
    fail("a build took longer than FUZZ_CPU_SECONDS of CPU time", built);
  }
  if (built != CL_SUCCESS && built != CL_BUILD_PROGRAM_FAILURE && built != CL_INVALID_BUILD_OPTIONS)
    fail("clBuildProgram returned an unexpected code", built);
  cl_build_status status = CL_BUILD_NONE;
  if (cl_int e = clGetProgramBuildInfo(p, gDevice, CL_PROGRAM_BUILD_STATUS, sizeof status, &status,
                                       nullptr))
    fail("clGetProgramBuildInfo(CL_PROGRAM_BUILD_STATUS)", e);
  if ((built == CL_SUCCESS) != (status == CL_BUILD_SUCCESS))
    fail("CL_PROGRAM_BUILD_STATUS disagrees with clBuildProgram", status);
  const std::string log = programBuildString(p, CL_PROGRAM_BUILD_LOG);
  if (gVerbose)
    std::fprintf(stderr,
                 "opencl_source: clBuildProgram %d in %.2f s CPU, options \"%s\", log:\n%s\n",
                 built, cpu, options.c_str(), log.c_str());
  if (built != CL_SUCCESS && log.find_first_not_of(" \t\r\n") == std::string::npos)
    fail("a failed build has an empty build log", built);
  if (built == CL_SUCCESS)
    checkBuilt(p);
  clReleaseProgram(p);
  return 0;
}

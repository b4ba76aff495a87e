#include "cl_harness.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace fibercl_apps {

std::string format(const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

[[noreturn]] void fail(const std::string &why) { throw Failure(why); }

const char *cl_error_name(cl_int e) {
  switch (e) {
  case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
  case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
  case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
  case CL_INVALID_KERNEL_NAME: return "CL_INVALID_KERNEL_NAME";
  case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
  case CL_INVALID_ARG_SIZE: return "CL_INVALID_ARG_SIZE";
  case CL_INVALID_ARG_INDEX: return "CL_INVALID_ARG_INDEX";
  case CL_INVALID_ARG_VALUE: return "CL_INVALID_ARG_VALUE";
  case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
  case CL_INVALID_WORK_DIMENSION: return "CL_INVALID_WORK_DIMENSION";
  case CL_INVALID_BUILD_OPTIONS: return "CL_INVALID_BUILD_OPTIONS";
  case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
  case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
  case CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST:
    return "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST";
  case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
  case -1001: return "CL_PLATFORM_NOT_FOUND_KHR (no ICD found)";
  default: return "CL error";
  }
}

void check(cl_int e, const char *what) {
  if (e != CL_SUCCESS)
    fail(format("%s: %s (%d)", what, cl_error_name(e), e));
}

// ---- Cl ----------------------------------------------------------------------------------

void Cl::open() {
  cl_uint n = 0;
  check(clGetPlatformIDs(0, nullptr, &n), "clGetPlatformIDs");
  if (n == 0)
    fail("no OpenCL platform");
  std::vector<cl_platform_id> ps(n);
  check(clGetPlatformIDs(n, ps.data(), nullptr), "clGetPlatformIDs");
  platform = ps[0];
  char name[256] = {};
  clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name - 1, name, nullptr);
  platform_name = name;
  check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr), "clGetDeviceIDs");
  cl_int e;
  context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &e);
  check(e, "clCreateContext");
  queue = clCreateCommandQueueWithProperties(context, device, nullptr, &e);
  check(e, "clCreateCommandQueueWithProperties");
}

Cl::~Cl() {
  if (queue)
    clReleaseCommandQueue(queue);
  if (context)
    clReleaseContext(context);
}

cl_mem Cl::alloc(size_t bytes) {
  cl_int e;
  cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE, std::max<size_t>(bytes, 4), nullptr, &e);
  check(e, "clCreateBuffer");
  return m;
}

void Cl::write(cl_mem m, const void *data, size_t bytes) {
  check(clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, bytes, data, 0, nullptr, nullptr),
        "clEnqueueWriteBuffer");
}

void Cl::zero(cl_mem m, size_t bytes) {
  const cl_uint z = 0;
  check(clEnqueueFillBuffer(queue, m, &z, sizeof z, 0, bytes, 0, nullptr, nullptr),
        "clEnqueueFillBuffer");
  check(clFinish(queue), "clFinish");
}

void Cl::read(cl_mem m, size_t offset, void *data, size_t bytes) {
  check(clEnqueueReadBuffer(queue, m, CL_TRUE, offset, bytes, data, 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
}

// ---- Buffers -----------------------------------------------------------------------------

Buffers::~Buffers() {
  for (auto &kv : bufs_)
    clReleaseMemObject(kv.second.first);
}

cl_mem Buffers::sized(Cl &cl, const std::string &name, size_t bytes) {
  auto it = bufs_.find(name);
  if (it != bufs_.end() && it->second.second >= bytes)
    return it->second.first;
  if (it != bufs_.end())
    clReleaseMemObject(it->second.first);
  cl_mem m = cl.alloc(bytes);
  bufs_[name] = {m, bytes};
  return m;
}

cl_mem Buffers::zeroed(Cl &cl, const std::string &name, size_t bytes) {
  cl_mem m = sized(cl, name, bytes);
  cl.zero(m, bytes);
  return m;
}

// ---- Args --------------------------------------------------------------------------------

Args &Args::mem(cl_mem m) {
  check(clSetKernelArg(k, i++, sizeof m, &m), "clSetKernelArg");
  return *this;
}

Args &Args::i32(cl_int v) {
  check(clSetKernelArg(k, i++, sizeof v, &v), "clSetKernelArg");
  return *this;
}

Args &Args::u32(cl_uint v) {
  check(clSetKernelArg(k, i++, sizeof v, &v), "clSetKernelArg");
  return *this;
}

// ---- Kernels -----------------------------------------------------------------------------

static std::string inline_includes(const std::string &dir, const std::string &file,
                                   std::set<std::string> &seen) {
  if (!seen.insert(file).second)
    return "";
  std::ifstream in(dir + "/" + file);
  if (!in)
    fail("cannot read " + dir + "/" + file);
  std::string out, line;
  while (std::getline(in, line)) {
    const size_t h = line.find_first_not_of(" \t");
    if (h != std::string::npos && line.compare(h, 8, "#include") == 0) {
      const size_t q1 = line.find('"');
      const size_t q2 = q1 == std::string::npos ? q1 : line.find('"', q1 + 1);
      if (q2 != std::string::npos) {
        const std::string included = line.substr(q1 + 1, q2 - q1 - 1);
        out += "// ---- " + included + "\n";
        out += inline_includes(dir, included, seen);
        out += "// ---- end of " + included + "\n";
        continue;
      }
    }
    out += line + "\n";
  }
  return out;
}

std::string kernel_source(const std::string &dir, const std::string &file) {
  std::set<std::string> seen;
  return inline_includes(dir, file, seen);
}

Kernel::Kernel(Cl &cl, const std::string &source, const std::string &name) {
  const char *text = source.c_str();
  cl_int e;
  program_ = clCreateProgramWithSource(cl.context, 1, &text, nullptr, &e);
  check(e, "clCreateProgramWithSource");
  const char *env_opts = std::getenv("FIBERCL_APPS_BUILD_OPTIONS");
  const std::string opts = env_opts ? env_opts : "-cl-std=CL2.0";
  e = clBuildProgram(program_, 1, &cl.device, opts.c_str(), nullptr, nullptr);
  if (e != CL_SUCCESS) {
    size_t n = 0;
    clGetProgramBuildInfo(program_, cl.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
    std::string log(n, '\0');
    clGetProgramBuildInfo(program_, cl.device, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
    clReleaseProgram(program_);
    std::fprintf(stderr, "---- build log of %s.cl (%s)\n%s\n", name.c_str(), opts.c_str(),
                 log.c_str());
    // The first error line says enough on the result line.
    std::string first;
    std::istringstream ls(log);
    for (std::string l; std::getline(ls, l);)
      if (l.find("error") != std::string::npos) {
        first = l;
        break;
      }
    fail(format("build: %s%s%s", cl_error_name(e), first.empty() ? "" : ": ", first.c_str()));
  }
  kernel_ = clCreateKernel(program_, name.c_str(), &e);
  if (e != CL_SUCCESS) {
    clReleaseProgram(program_);
    check(e, ("clCreateKernel " + name).c_str());
  }
}

Kernel::~Kernel() {
  clReleaseKernel(kernel_);
  clReleaseProgram(program_);
}

} // namespace fibercl_apps

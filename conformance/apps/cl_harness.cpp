#include "cl_harness.hpp"

#include <fibercl/cl_host/platforms.hpp>
#include <fibercl/cl_host/programs.hpp>

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

void check(cl_int e, const char *what) {
  if (e != CL_SUCCESS)
    fail(format("%s: %s (%d)", what, errorName(e), e));
}

// ---- Cl ----------------------------------------------------------------------------------

void Cl::open() {
  try {
    const std::vector<cl_platform_id> platforms = fibercl::cl_host::platforms();
    if (platforms.empty())
      fail("no OpenCL platform");
    platform = platforms.front();
    platform_name = fibercl::cl_host::platformString(platform, CL_PLATFORM_NAME);
    const std::vector<cl_device_id> devices = fibercl::cl_host::devices(platform);
    if (devices.empty())
      fail("clGetDeviceIDs: platform \"" + platform_name + "\" has no device");
    session = fibercl::cl_host::Session(devices.front());
  } catch (const fibercl::cl_host::Error &e) {
    fail(e.what());
  }
}

cl_mem Cl::alloc(size_t bytes) {
  cl_int e;
  cl_mem m = clCreateBuffer(context(), CL_MEM_READ_WRITE, std::max<size_t>(bytes, 4), nullptr, &e);
  check(e, "clCreateBuffer");
  return m;
}

void Cl::write(cl_mem m, const void *data, size_t bytes) {
  check(clEnqueueWriteBuffer(queue(), m, CL_TRUE, 0, bytes, data, 0, nullptr, nullptr),
        "clEnqueueWriteBuffer");
}

void Cl::zero(cl_mem m, size_t bytes) {
  const cl_uint z = 0;
  check(clEnqueueFillBuffer(queue(), m, &z, sizeof z, 0, bytes, 0, nullptr, nullptr),
        "clEnqueueFillBuffer");
  check(clFinish(queue()), "clFinish");
}

void Cl::read(cl_mem m, size_t offset, void *data, size_t bytes) {
  check(clEnqueueReadBuffer(queue(), m, CL_TRUE, offset, bytes, data, 0, nullptr, nullptr),
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
  const char *env_opts = std::getenv("FIBERCL_APPS_BUILD_OPTIONS");
  const std::string opts = env_opts ? env_opts : "-cl-std=CL2.0";
  fibercl::cl_host::BuildResult built;
  try {
    built = fibercl::cl_host::tryBuild(cl.context(), cl.device(), {source}, opts);
  } catch (const fibercl::cl_host::Error &e) {
    fail(e.what());
  }
  program_ = built.program;
  if (built.err != CL_SUCCESS) {
    clReleaseProgram(program_);
    std::fprintf(stderr, "---- build log of %s.cl (%s)\n%s\n", name.c_str(), opts.c_str(),
                 built.log.c_str());
    // The first error line says enough on the result line.
    std::string first;
    std::istringstream ls(built.log);
    for (std::string l; std::getline(ls, l);)
      if (l.find("error") != std::string::npos) {
        first = l;
        break;
      }
    fail(format("build: %s%s%s", errorName(built.err), first.empty() ? "" : ": ", first.c_str()));
  }
  cl_int e;
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

// Implementation of the end-to-end test helpers (see cl_test.hpp).
#include "cl_test.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace fcltest {

const char* errName(cl_int err) {
  switch (err) {
    case CL_SUCCESS: return "CL_SUCCESS";
    case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
    case CL_DEVICE_NOT_AVAILABLE: return "CL_DEVICE_NOT_AVAILABLE";
    case CL_COMPILER_NOT_AVAILABLE: return "CL_COMPILER_NOT_AVAILABLE";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
    case CL_PROFILING_INFO_NOT_AVAILABLE: return "CL_PROFILING_INFO_NOT_AVAILABLE";
    case CL_MEM_COPY_OVERLAP: return "CL_MEM_COPY_OVERLAP";
    case CL_IMAGE_FORMAT_MISMATCH: return "CL_IMAGE_FORMAT_MISMATCH";
    case CL_IMAGE_FORMAT_NOT_SUPPORTED: return "CL_IMAGE_FORMAT_NOT_SUPPORTED";
    case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
    case CL_MAP_FAILURE: return "CL_MAP_FAILURE";
    case CL_MISALIGNED_SUB_BUFFER_OFFSET: return "CL_MISALIGNED_SUB_BUFFER_OFFSET";
    case CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST: return "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST";
    case CL_COMPILE_PROGRAM_FAILURE: return "CL_COMPILE_PROGRAM_FAILURE";
    case CL_LINKER_NOT_AVAILABLE: return "CL_LINKER_NOT_AVAILABLE";
    case CL_LINK_PROGRAM_FAILURE: return "CL_LINK_PROGRAM_FAILURE";
    case CL_DEVICE_PARTITION_FAILED: return "CL_DEVICE_PARTITION_FAILED";
    case CL_KERNEL_ARG_INFO_NOT_AVAILABLE: return "CL_KERNEL_ARG_INFO_NOT_AVAILABLE";
    case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
    case CL_INVALID_DEVICE_TYPE: return "CL_INVALID_DEVICE_TYPE";
    case CL_INVALID_PLATFORM: return "CL_INVALID_PLATFORM";
    case CL_INVALID_DEVICE: return "CL_INVALID_DEVICE";
    case CL_INVALID_CONTEXT: return "CL_INVALID_CONTEXT";
    case CL_INVALID_QUEUE_PROPERTIES: return "CL_INVALID_QUEUE_PROPERTIES";
    case CL_INVALID_COMMAND_QUEUE: return "CL_INVALID_COMMAND_QUEUE";
    case CL_INVALID_HOST_PTR: return "CL_INVALID_HOST_PTR";
    case CL_INVALID_MEM_OBJECT: return "CL_INVALID_MEM_OBJECT";
    case CL_INVALID_IMAGE_FORMAT_DESCRIPTOR: return "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR";
    case CL_INVALID_IMAGE_SIZE: return "CL_INVALID_IMAGE_SIZE";
    case CL_INVALID_SAMPLER: return "CL_INVALID_SAMPLER";
    case CL_INVALID_BINARY: return "CL_INVALID_BINARY";
    case CL_INVALID_BUILD_OPTIONS: return "CL_INVALID_BUILD_OPTIONS";
    case CL_INVALID_PROGRAM: return "CL_INVALID_PROGRAM";
    case CL_INVALID_PROGRAM_EXECUTABLE: return "CL_INVALID_PROGRAM_EXECUTABLE";
    case CL_INVALID_KERNEL_NAME: return "CL_INVALID_KERNEL_NAME";
    case CL_INVALID_KERNEL_DEFINITION: return "CL_INVALID_KERNEL_DEFINITION";
    case CL_INVALID_KERNEL: return "CL_INVALID_KERNEL";
    case CL_INVALID_ARG_INDEX: return "CL_INVALID_ARG_INDEX";
    case CL_INVALID_ARG_VALUE: return "CL_INVALID_ARG_VALUE";
    case CL_INVALID_ARG_SIZE: return "CL_INVALID_ARG_SIZE";
    case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
    case CL_INVALID_WORK_DIMENSION: return "CL_INVALID_WORK_DIMENSION";
    case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
    case CL_INVALID_WORK_ITEM_SIZE: return "CL_INVALID_WORK_ITEM_SIZE";
    case CL_INVALID_GLOBAL_OFFSET: return "CL_INVALID_GLOBAL_OFFSET";
    case CL_INVALID_EVENT_WAIT_LIST: return "CL_INVALID_EVENT_WAIT_LIST";
    case CL_INVALID_EVENT: return "CL_INVALID_EVENT";
    case CL_INVALID_OPERATION: return "CL_INVALID_OPERATION";
    case CL_INVALID_GL_OBJECT: return "CL_INVALID_GL_OBJECT";
    case CL_INVALID_BUFFER_SIZE: return "CL_INVALID_BUFFER_SIZE";
    case CL_INVALID_MIP_LEVEL: return "CL_INVALID_MIP_LEVEL";
    case CL_INVALID_GLOBAL_WORK_SIZE: return "CL_INVALID_GLOBAL_WORK_SIZE";
    case CL_INVALID_PROPERTY: return "CL_INVALID_PROPERTY";
    case CL_INVALID_IMAGE_DESCRIPTOR: return "CL_INVALID_IMAGE_DESCRIPTOR";
    case CL_INVALID_COMPILER_OPTIONS: return "CL_INVALID_COMPILER_OPTIONS";
    case CL_INVALID_LINKER_OPTIONS: return "CL_INVALID_LINKER_OPTIONS";
    case CL_INVALID_DEVICE_PARTITION_COUNT: return "CL_INVALID_DEVICE_PARTITION_COUNT";
    case CL_INVALID_PIPE_SIZE: return "CL_INVALID_PIPE_SIZE";
    case CL_INVALID_DEVICE_QUEUE: return "CL_INVALID_DEVICE_QUEUE";
    case CL_INVALID_SPEC_ID: return "CL_INVALID_SPEC_ID";
    case CL_MAX_SIZE_RESTRICTION_EXCEEDED: return "CL_MAX_SIZE_RESTRICTION_EXCEEDED";
    default: {
      static thread_local char buf[40];
      std::snprintf(buf, sizeof buf, "CL_<unknown %d>", err);
      return buf;
    }
  }
}

void check(cl_int err, const char* what) {
  if (err != CL_SUCCESS) throw Error(std::string(what) + " failed: " + errName(err));
}

::testing::AssertionResult clSucceeded(const char* expr, cl_int err) {
  if (err == CL_SUCCESS) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << expr << " returned " << errName(err) << " (" << err
                                       << "), expected CL_SUCCESS";
}

::testing::AssertionResult clCodeEq(const char* expected_expr, const char* actual_expr,
                                    cl_int expected, cl_int actual) {
  if (expected == actual) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << actual_expr << " returned " << errName(actual)
                                       << " (" << actual << "), expected "
                                       << errName(expected) << " (" << expected << ")";
}

std::string platformInfo(cl_platform_id p, cl_platform_info what) {
  size_t n = 0;
  check(clGetPlatformInfo(p, what, 0, nullptr, &n), "clGetPlatformInfo");
  std::string s(n, '\0');
  check(clGetPlatformInfo(p, what, n, s.data(), nullptr), "clGetPlatformInfo");
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

std::string deviceInfoString(cl_device_id d, cl_device_info what) {
  size_t n = 0;
  check(clGetDeviceInfo(d, what, 0, nullptr, &n), "clGetDeviceInfo");
  std::string s(n, '\0');
  check(clGetDeviceInfo(d, what, n, s.data(), nullptr), "clGetDeviceInfo");
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

std::string wantedPlatformName() {
  const char* e = std::getenv("FIBERCL_TEST_PLATFORM");
  return e && *e ? e : "FiberCL";
}

cl_platform_id findPlatform(const std::string& name, std::string* seen) {
  cl_uint n = 0;
  if (clGetPlatformIDs(0, nullptr, &n) != CL_SUCCESS || n == 0) {
    if (seen) *seen = "(no platforms)";
    return nullptr;
  }
  std::vector<cl_platform_id> ps(n);
  check(clGetPlatformIDs(n, ps.data(), nullptr), "clGetPlatformIDs");
  cl_platform_id found = nullptr;
  std::string names;
  for (cl_platform_id p : ps) {
    std::string pn = platformInfo(p, CL_PLATFORM_NAME);
    names += (names.empty() ? "\"" : ", \"") + pn + "\"";
    if (pn == name && !found) found = p;
  }
  if (seen) *seen = names;
  return found;
}

std::string captureStdout(const std::function<void()>& fn) {
  std::fflush(stdout);
  char path[] = "/tmp/fibercl_stdout_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) throw Error("mkstemp failed");
  unlink(path);
  int saved = dup(1);
  dup2(fd, 1);
  try {
    fn();
  } catch (...) {
    std::fflush(stdout);
    dup2(saved, 1);
    close(saved);
    close(fd);
    throw;
  }
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  std::string out;
  lseek(fd, 0, SEEK_SET);
  char buf[4096];
  ssize_t r;
  while ((r = ::read(fd, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(r));
  close(fd);
  return out;
}

void CLTest::SetUp() {
  // Every build the tests make runs LLVM's verifier after each FiberCL pass (issue 28):
  // invalid IR fails a test, naming the pass, instead of crashing a later LLVM pass in
  // a user's build. A FIBERCL_DEBUG the environment sets wins.
  setenv("FIBERCL_DEBUG", "verify", /*overwrite=*/0);
  std::string want = wantedPlatformName(), seen;
  platform_ = findPlatform(want, &seen);
  ASSERT_NE(platform_, nullptr)
      << "OpenCL platform \"" << want << "\" not found through the ICD loader (OCL_ICD_VENDORS="
      << (std::getenv("OCL_ICD_VENDORS") ? std::getenv("OCL_ICD_VENDORS") : "<unset>")
      << "); platforms seen: " << seen
      << ". Set FIBERCL_TEST_PLATFORM to run the tests against another platform.";
  platform_name_ = platformInfo(platform_, CL_PLATFORM_NAME);
  cl_uint nd = 0;
  ASSERT_CL(clGetDeviceIDs(platform_, CL_DEVICE_TYPE_ALL, 1, &device_, &nd));
  ASSERT_GE(nd, 1u);
  cl_int err = CL_SUCCESS;
  context_ = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &err);
  ASSERT_CL(err);
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  queue_ = clCreateCommandQueueWithProperties(context_, device_, props, &err);
  ASSERT_CL(err);
}

void CLTest::TearDown() {
  if (queue_) clFinish(queue_);
  for (auto it = cleanup_.rbegin(); it != cleanup_.rend(); ++it) (*it)();
  cleanup_.clear();
  if (queue_) clReleaseCommandQueue(queue_);
  if (context_) clReleaseContext(context_);
  queue_ = nullptr;
  context_ = nullptr;
}

static bool containsWord(const std::string& list, const std::string& word) {
  std::istringstream in(list);
  std::string w;
  while (in >> w)
    if (w == word) return true;
  return false;
}

bool CLTest::supportsCVersion(int major, int minor) const {
  size_t n = 0;
  if (clGetDeviceInfo(device_, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, nullptr, &n) != CL_SUCCESS)
    return false;
  std::vector<cl_name_version> v(n / sizeof(cl_name_version));
  if (clGetDeviceInfo(device_, CL_DEVICE_OPENCL_C_ALL_VERSIONS, n, v.data(), nullptr) !=
      CL_SUCCESS)
    return false;
  for (const auto& nv : v)
    if (CL_VERSION_MAJOR(nv.version) == static_cast<cl_uint>(major) &&
        CL_VERSION_MINOR(nv.version) == static_cast<cl_uint>(minor))
      return true;
  return false;
}

bool CLTest::hasCFeature(const std::string& feature) const {
  size_t n = 0;
  if (clGetDeviceInfo(device_, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &n) != CL_SUCCESS)
    return false;
  std::vector<cl_name_version> v(n / sizeof(cl_name_version));
  if (clGetDeviceInfo(device_, CL_DEVICE_OPENCL_C_FEATURES, n, v.data(), nullptr) != CL_SUCCESS)
    return false;
  for (const auto& nv : v)
    if (feature == nv.name) return true;
  return false;
}

bool CLTest::hasExtension(const std::string& ext) const {
  return containsWord(deviceInfoString(device_, CL_DEVICE_EXTENSIONS), ext);
}

cl_program CLTest::createProgram(const std::string& src) {
  const char* s = src.c_str();
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(context_, 1, &s, nullptr, &err);
  check(err, "clCreateProgramWithSource");
  atTearDown([p] { clReleaseProgram(p); });
  return p;
}

std::string CLTest::buildLog(cl_program p) const {
  size_t n = 0;
  if (clGetProgramBuildInfo(p, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n) != CL_SUCCESS)
    return "<no build log>";
  std::string s(n, '\0');
  clGetProgramBuildInfo(p, device_, CL_PROGRAM_BUILD_LOG, n, s.data(), nullptr);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

BuildResult CLTest::tryBuild(const std::string& src, const std::string& options) {
  BuildResult r;
  r.program = createProgram(src);
  r.err = clBuildProgram(r.program, 1, &device_, options.c_str(), nullptr, nullptr);
  r.log = buildLog(r.program);
  return r;
}

cl_program CLTest::build(const std::string& src, const std::string& options) {
  BuildResult r = tryBuild(src, options);
  if (r.err != CL_SUCCESS)
    throw Error(std::string("clBuildProgram(options=\"") + options + "\") failed: " +
                errName(r.err) + "\n--- build log ---\n" + r.log + "\n--- source ---\n" + src);
  return r.program;
}

cl_kernel CLTest::kernel(cl_program p, const char* name) {
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(p, name, &err);
  check(err, (std::string("clCreateKernel(") + name + ")").c_str());
  atTearDown([k] { clReleaseKernel(k); });
  return k;
}

cl_program CLTest::buildReporting(const std::string& src, const char* channels,
                                  std::string& said, const std::string& options) {
  setenv("FIBERCL_DEBUG", channels, 1);
  testing::internal::CaptureStderr();
  cl_program p = nullptr;
  try {
    p = build("// " + std::to_string(getpid()) + "-" + std::to_string(std::rand()) + "\n" + src,
              options);
  } catch (...) {
    testing::internal::GetCapturedStderr();
    unsetenv("FIBERCL_DEBUG");
    throw;
  }
  said = testing::internal::GetCapturedStderr();
  unsetenv("FIBERCL_DEBUG");
  return p;
}

cl_kernel CLTest::kernelFrom(const std::string& src, const char* name,
                             const std::string& options) {
  return kernel(build(src, options), name);
}

cl_mem CLTest::buffer(size_t bytes, cl_mem_flags flags, void* host) {
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(context_, flags, bytes, host, &err);
  check(err, "clCreateBuffer");
  atTearDown([m] { clReleaseMemObject(m); });
  return m;
}

CLTest::Completion CLTest::runReporting(cl_kernel k, const std::vector<size_t>& global,
                                        const std::vector<size_t>& local) {
  Completion c;
  cl_event e = nullptr;
  testing::internal::CaptureStderr();
  cl_int err = clEnqueueNDRangeKernel(queue_, k, static_cast<cl_uint>(global.size()), nullptr,
                                      global.data(), local.empty() ? nullptr : local.data(), 0,
                                      nullptr, &e);
  if (err == CL_SUCCESS) clFinish(queue_);
  c.stderrText = testing::internal::GetCapturedStderr();
  check(err, "clEnqueueNDRangeKernel");
  clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof c.status, &c.status, nullptr);
  clReleaseEvent(e);
  return c;
}

cl_int CLTest::tryRun(cl_kernel k, const std::vector<size_t>& global,
                      const std::vector<size_t>& local, const std::vector<size_t>& offset) {
  cl_int err = clEnqueueNDRangeKernel(queue_, k, static_cast<cl_uint>(global.size()),
                                      offset.empty() ? nullptr : offset.data(), global.data(),
                                      local.empty() ? nullptr : local.data(), 0, nullptr,
                                      nullptr);
  if (err != CL_SUCCESS) return err;
  return clFinish(queue_);
}

void CLTest::run(cl_kernel k, const std::vector<size_t>& global,
                 const std::vector<size_t>& local, const std::vector<size_t>& offset) {
  cl_int err = clEnqueueNDRangeKernel(queue_, k, static_cast<cl_uint>(global.size()),
                                      offset.empty() ? nullptr : offset.data(), global.data(),
                                      local.empty() ? nullptr : local.data(), 0, nullptr,
                                      nullptr);
  check(err, "clEnqueueNDRangeKernel");
  check(clFinish(queue_), "clFinish");
}

cl_event CLTest::keep(cl_event e) {
  if (e) atTearDown([e] { clReleaseEvent(e); });
  return e;
}

void CLTest::expectVecAddStillWorks() {
  const size_t n = 4096;
  std::vector<float> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = static_cast<float>(3 * i) + 0.25f;
  }
  cl_kernel k = kernelFrom(R"CLC(
    __kernel void vecadd(__global const float* a, __global const float* b, __global float* c) {
      size_t i = get_global_id(0); c[i] = a[i] + b[i];
    })CLC",
                           "vecadd");
  cl_mem da = bufferFrom(a), db = bufferFrom(b), dc = buffer(n * sizeof(float));
  setArgs(k, da, db, dc);
  run(k, {n}, {64});
  std::vector<float> c = read<float>(dc, n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << "vecadd after a fault, i=" << i;
}

}  // namespace fcltest

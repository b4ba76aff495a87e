// Implementation of the end-to-end test helpers (see cl_test.hpp).
#include "cl_test.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace fcltest {

::testing::AssertionResult clSucceeded(const char *expr, cl_int err) {
  if (err == CL_SUCCESS)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << expr << " returned " << errName(err) << " (" << err << "), expected CL_SUCCESS";
}

::testing::AssertionResult clCodeEq(const char *expected_expr, const char *actual_expr,
                                    cl_int expected, cl_int actual) {
  if (expected == actual)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << actual_expr << " returned " << errName(actual) << " (" << actual << "), expected "
         << errName(expected) << " (" << expected << ")";
}

std::string wantedPlatformName() {
  const char *e = std::getenv("FIBERCL_TEST_PLATFORM");
  return e && *e ? e : "FiberCL";
}

std::string captureStdout(const std::function<void()> &fn) {
  std::fflush(stdout);
  char path[] = "/tmp/fibercl_stdout_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0)
    throw Error("mkstemp failed");
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
  while ((r = ::read(fd, buf, sizeof buf)) > 0)
    out.append(buf, static_cast<size_t>(r));
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
  std::vector<cl_device_id> devices = fibercl::cl_host::devices(platform_);
  ASSERT_FALSE(devices.empty()) << "platform \"" << platform_name_ << "\" has no device";
  device_ = devices.front();
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  session_ = fibercl::cl_host::Session(device_, props);
  context_ = session_.context();
  queue_ = session_.queue();
}

void CLTest::TearDown() {
  if (queue_)
    clFinish(queue_);
  for (auto it = cleanup_.rbegin(); it != cleanup_.rend(); ++it)
    (*it)();
  cleanup_.clear();
  session_ = fibercl::cl_host::Session();
  queue_ = nullptr;
  context_ = nullptr;
}

static bool containsWord(const std::string &list, const std::string &word) {
  std::istringstream in(list);
  std::string w;
  while (in >> w)
    if (w == word)
      return true;
  return false;
}

bool CLTest::supportsCVersion(int major, int minor) const {
  size_t n = 0;
  if (clGetDeviceInfo(device_, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, nullptr, &n) != CL_SUCCESS)
    return false;
  std::vector<cl_name_version> v(n / sizeof(cl_name_version));
  if (clGetDeviceInfo(device_, CL_DEVICE_OPENCL_C_ALL_VERSIONS, n, v.data(), nullptr) != CL_SUCCESS)
    return false;
  for (const auto &nv : v)
    if (CL_VERSION_MAJOR(nv.version) == static_cast<cl_uint>(major) &&
        CL_VERSION_MINOR(nv.version) == static_cast<cl_uint>(minor))
      return true;
  return false;
}

bool CLTest::hasCFeature(const std::string &feature) const {
  size_t n = 0;
  if (clGetDeviceInfo(device_, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &n) != CL_SUCCESS)
    return false;
  std::vector<cl_name_version> v(n / sizeof(cl_name_version));
  if (clGetDeviceInfo(device_, CL_DEVICE_OPENCL_C_FEATURES, n, v.data(), nullptr) != CL_SUCCESS)
    return false;
  for (const auto &nv : v)
    if (feature == nv.name)
      return true;
  return false;
}

bool CLTest::hasExtension(const std::string &ext) const {
  return containsWord(deviceInfoString(device_, CL_DEVICE_EXTENSIONS), ext);
}

cl_program CLTest::createProgram(const std::string &src) {
  cl_program p = fibercl::cl_host::createProgram(context_, {src});
  atTearDown([p] { clReleaseProgram(p); });
  return p;
}

std::string CLTest::buildLog(cl_program p) const { return fibercl::cl_host::buildLog(p, device_); }

BuildResult CLTest::tryBuild(const std::string &src, const std::string &options) {
  BuildResult r = fibercl::cl_host::tryBuild(context_, device_, {src}, options);
  cl_program p = r.program;
  atTearDown([p] { clReleaseProgram(p); });
  return r;
}

cl_program CLTest::build(const std::string &src, const std::string &options) {
  BuildResult r = tryBuild(src, options);
  if (r.err != CL_SUCCESS)
    throw Error(std::string("clBuildProgram(options=\"") + options + "\") failed: " +
                errName(r.err) + "\n--- build log ---\n" + r.log + "\n--- source ---\n" + src);
  return r.program;
}

cl_kernel CLTest::kernel(cl_program p, const char *name) {
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(p, name, &err);
  check(err, (std::string("clCreateKernel(") + name + ")").c_str());
  atTearDown([k] { clReleaseKernel(k); });
  return k;
}

cl_program CLTest::buildReporting(const std::string &src, const char *channels, std::string &said,
                                  const std::string &options) {
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

cl_kernel CLTest::kernelFrom(const std::string &src, const char *name, const std::string &options) {
  return kernel(build(src, options), name);
}

cl_mem CLTest::buffer(size_t bytes, cl_mem_flags flags, void *host) {
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(context_, flags, bytes, host, &err);
  check(err, "clCreateBuffer");
  atTearDown([m] { clReleaseMemObject(m); });
  return m;
}

CLTest::Completion CLTest::runReporting(cl_kernel k, const std::vector<size_t> &global,
                                        const std::vector<size_t> &local) {
  Completion c;
  cl_event e = nullptr;
  testing::internal::CaptureStderr();
  cl_int err =
      clEnqueueNDRangeKernel(queue_, k, static_cast<cl_uint>(global.size()), nullptr, global.data(),
                             local.empty() ? nullptr : local.data(), 0, nullptr, &e);
  if (err == CL_SUCCESS)
    clFinish(queue_);
  c.stderrText = testing::internal::GetCapturedStderr();
  check(err, "clEnqueueNDRangeKernel");
  clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof c.status, &c.status, nullptr);
  clReleaseEvent(e);
  return c;
}

cl_int CLTest::tryRun(cl_kernel k, const std::vector<size_t> &global,
                      const std::vector<size_t> &local, const std::vector<size_t> &offset) {
  cl_int err = clEnqueueNDRangeKernel(queue_, k, static_cast<cl_uint>(global.size()),
                                      offset.empty() ? nullptr : offset.data(), global.data(),
                                      local.empty() ? nullptr : local.data(), 0, nullptr, nullptr);
  if (err != CL_SUCCESS)
    return err;
  return clFinish(queue_);
}

void CLTest::run(cl_kernel k, const std::vector<size_t> &global, const std::vector<size_t> &local,
                 const std::vector<size_t> &offset) {
  cl_int err = clEnqueueNDRangeKernel(queue_, k, static_cast<cl_uint>(global.size()),
                                      offset.empty() ? nullptr : offset.data(), global.data(),
                                      local.empty() ? nullptr : local.data(), 0, nullptr, nullptr);
  check(err, "clEnqueueNDRangeKernel");
  check(clFinish(queue_), "clFinish");
}

cl_event CLTest::keep(cl_event e) {
  if (e)
    atTearDown([e] { clReleaseEvent(e); });
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
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(c[i], a[i] + b[i]) << "vecadd after a fault, i=" << i;
}

} // namespace fcltest

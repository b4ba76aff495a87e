// Helpers shared by FiberCL's end-to-end tests. Everything goes through the
// OpenCL API of the ICD loader; nothing here knows FiberCL's internals. The host
// set-up itself (platform lookup, context and queue, builds, error names) is
// cl_host's, shared with the rest of the tree; this adds GoogleTest to it.
//
// The fixture looks for the platform named by $FIBERCL_TEST_PLATFORM (default
// "FiberCL") and fails loudly, listing the platforms it did see, when it is absent.
// Helpers that create objects throw fcltest::Error (which GoogleTest reports as a
// test failure, with the build log for build failures); objects created through the
// fixture are released in TearDown.
#pragma once

#include <CL/cl.h>
#include <CL/cl_fibercl.h>
#include <fibercl/cl_host/errors.hpp>
#include <fibercl/cl_host/platforms.hpp>
#include <fibercl/cl_host/programs.hpp>
#include <fibercl/cl_host/session.hpp>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace fcltest {

// Built with ASan or TSan (scripts/sanitize.sh). The process's resident size says
// nothing about leaks there (ASan's quarantine keeps freed memory; both keep shadow
// memory): tests bound it in normal builds only, and ASan's leak checker is the
// assertion in its build. The sanitizers also map memory of their own far and wide.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitizedBuild = true;
#else
inline constexpr bool kSanitizedBuild = false;
#endif
// Built with TSan. Besides the above, TSan delivers a signal only when the thread next
// runs instrumented code, which a kernel's own endless loop (JIT code) never does: the
// kernel time limit cannot stop a running group there.
#if defined(__SANITIZE_THREAD__)
inline constexpr bool kThreadSanitizerBuild = true;
#else
inline constexpr bool kThreadSanitizerBuild = false;
#endif

// "CL_INVALID_VALUE" for -30, etc.; "CL_<unknown -1234>" otherwise.
inline const char *errName(cl_int err) { return fibercl::cl_host::errorName(err); }

using Error = fibercl::cl_host::Error;

// Throws Error("<what> failed: <CL name>") unless err == CL_SUCCESS.
using fibercl::cl_host::check;

::testing::AssertionResult clSucceeded(const char *expr, cl_int err);
::testing::AssertionResult clCodeEq(const char *expected_expr, const char *actual_expr,
                                    cl_int expected, cl_int actual);

inline std::string platformInfo(cl_platform_id p, cl_platform_info what) {
  return fibercl::cl_host::platformString(p, what);
}
inline std::string deviceInfoString(cl_device_id d, cl_device_info what) {
  return fibercl::cl_host::deviceString(d, what);
}
using fibercl::cl_host::deviceInfo;

// $FIBERCL_TEST_PLATFORM or "FiberCL".
std::string wantedPlatformName();
// The platform with that exact name, or nullptr; `seen` gets the names found.
using fibercl::cl_host::findPlatform;

// Runs fn with the process's stdout (fd 1) redirected into a temporary file and
// returns what was written (C stdio is flushed before and after).
std::string captureStdout(const std::function<void()> &fn);

// Sets FIBERCL_* variables for one scope (the runtime reads them at each launch of a
// kernel that may yield) and restores what they were after it, so that a variable the
// whole run was given (FIBERCL_SEED in scripts/soak.sh's seeded rounds) holds again for
// the next test. ScopedEnv::kUnset as a value removes the variable for the scope.
class ScopedEnv {
public:
  static inline const std::string kUnset{"\0unset", 6};
  ScopedEnv(std::initializer_list<std::pair<const char *, std::string>> vars) {
    for (auto &[name, value] : vars) {
      const char *old = getenv(name);
      saved_.push_back({name, old != nullptr, old ? old : ""});
      if (value == kUnset)
        unsetenv(name);
      else
        setenv(name, value.c_str(), 1);
    }
  }
  ~ScopedEnv() {
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it)
      if (it->wasSet)
        setenv(it->name, it->value.c_str(), 1);
      else
        unsetenv(it->name);
  }

private:
  struct Saved {
    const char *name;
    bool wasSet;
    std::string value;
  };
  std::vector<Saved> saved_;
};

// A __local kernel argument of the given size in bytes, for CLTest::setArgs.
struct Local {
  size_t bytes;
};

// A build's program (owned by the fixture), clBuildProgram's code and the log.
using BuildResult = fibercl::cl_host::BuildResult;

class CLTest : public ::testing::Test {
protected:
  void SetUp() override;
  void TearDown() override;

  bool isFiberCL() const { return platform_name_ == "FiberCL"; }
  // After a kernel failed (a fault, a report): a vector addition still runs, right.
  void expectVecAddStillWorks();

  // Device capabilities.
  bool supportsCVersion(int major, int minor) const;  // CL_DEVICE_OPENCL_C_ALL_VERSIONS
  bool hasCFeature(const std::string &feature) const; // CL_DEVICE_OPENCL_C_FEATURES
  bool hasExtension(const std::string &ext) const;

  // Programs. build() throws with the log on failure.
  cl_program createProgram(const std::string &src);
  BuildResult tryBuild(const std::string &src, const std::string &options = "");
  cl_program build(const std::string &src, const std::string &options = "");
  std::string buildLog(cl_program p) const;
  cl_kernel kernel(cl_program p, const char *name);
  // Builds `src` and returns kernel `name` from it.
  cl_kernel kernelFrom(const std::string &src, const char *name, const std::string &options = "");
  // Builds `src` with FIBERCL_DEBUG=`channels`, behind a comment that makes it a source
  // no earlier run has cached (the compiler reports only when it builds); `said` gets
  // what the build printed on stderr.
  cl_program buildReporting(const std::string &src, const char *channels, std::string &said,
                            const std::string &options = "");

  // Buffers.
  cl_mem buffer(size_t bytes, cl_mem_flags flags = CL_MEM_READ_WRITE, void *host = nullptr);
  template <typename T>
  cl_mem bufferFrom(const std::vector<T> &v, cl_mem_flags flags = CL_MEM_READ_WRITE) {
    return buffer(v.size() * sizeof(T), flags | CL_MEM_COPY_HOST_PTR, const_cast<T *>(v.data()));
  }
  template <typename T> std::vector<T> read(cl_mem m, size_t n, size_t offset_elems = 0) {
    std::vector<T> out(n);
    check(clEnqueueReadBuffer(queue_, m, CL_TRUE, offset_elems * sizeof(T), n * sizeof(T),
                              out.data(), 0, nullptr, nullptr),
          "clEnqueueReadBuffer");
    return out;
  }
  template <typename T> void write(cl_mem m, const std::vector<T> &v, size_t offset_elems = 0) {
    check(clEnqueueWriteBuffer(queue_, m, CL_TRUE, offset_elems * sizeof(T), v.size() * sizeof(T),
                               v.data(), 0, nullptr, nullptr),
          "clEnqueueWriteBuffer");
  }

  // Kernel arguments: each value is passed by address with sizeof(value);
  // Local{n} sets an n-byte __local argument.
  template <typename... Args> void setArgs(cl_kernel k, const Args &...args) {
    cl_uint i = 0;
    (setArg(k, i++, args), ...);
  }
  template <typename T> void setArg(cl_kernel k, cl_uint i, const T &v) {
    check(clSetKernelArg(k, i, sizeof(T), &v), "clSetKernelArg");
  }
  void setArg(cl_kernel k, cl_uint i, const Local &l) {
    check(clSetKernelArg(k, i, l.bytes, nullptr), "clSetKernelArg(local)");
  }

  // Enqueue on queue_ and clFinish. Empty local/offset -> NULL.
  void run(cl_kernel k, const std::vector<size_t> &global, const std::vector<size_t> &local = {},
           const std::vector<size_t> &offset = {});
  cl_int tryRun(cl_kernel k, const std::vector<size_t> &global,
                const std::vector<size_t> &local = {}, const std::vector<size_t> &offset = {});
  // Enqueue on queue_, wait, and return the command's execution status (negative: it
  // failed, e.g. a reported deadlock or barrier divergence) and what was printed on
  // stderr meanwhile.
  struct Completion {
    cl_int status = CL_COMPLETE;
    std::string stderrText;
  };
  Completion runReporting(cl_kernel k, const std::vector<size_t> &global,
                          const std::vector<size_t> &local = {});

  // Registers an action for TearDown (in reverse order).
  void atTearDown(std::function<void()> fn) { cleanup_.push_back(std::move(fn)); }
  cl_event keep(cl_event e);

  cl_platform_id platform_ = nullptr;
  cl_device_id device_ = nullptr;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr; // in-order, profiling enabled
  std::string platform_name_;

private:
  fibercl::cl_host::Session session_; // owns context_ and queue_
  std::vector<std::function<void()>> cleanup_;
};

} // namespace fcltest

#define ASSERT_CL(expr) ASSERT_PRED_FORMAT1(::fcltest::clSucceeded, (expr))
#define EXPECT_CL(expr) EXPECT_PRED_FORMAT1(::fcltest::clSucceeded, (expr))
#define ASSERT_CL_ERR(expected, expr) ASSERT_PRED_FORMAT2(::fcltest::clCodeEq, expected, (expr))
#define EXPECT_CL_ERR(expected, expr) EXPECT_PRED_FORMAT2(::fcltest::clCodeEq, expected, (expr))

// Checks of FiberCL-specific behaviour: skipped, with a message, elsewhere.
#define SKIP_UNLESS_FIBERCL(why)                                                                   \
  do {                                                                                             \
    if (!isFiberCL())                                                                              \
      GTEST_SKIP() << "FiberCL-only check (" << why << "); platform is \"" << platform_name_       \
                   << "\"";                                                                        \
  } while (0)

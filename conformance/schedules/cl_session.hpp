// OpenCL plumbing for the schedule corpus: the FiberCL platform, one context and
// queue, programs built from kernel files, buffers, and one launch under a schedule
// (fresh kernel object, cl_fibercl_scheduling exec info, deadlock detection).
#pragma once

#include <fibercl/cl_host/errors.hpp>
#include <fibercl/cl_host/session.hpp>

#include <CL/cl_fibercl.h>

#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace corpus {

// A setup or API failure: not a verdict on the program under test.
using SetupError = fibercl::cl_host::Error;

// Throws SetupError("<what> failed: <error name>") unless err is CL_SUCCESS.
using fibercl::cl_host::check;

// How one launch is scheduled. Unset fields leave the kernel object's (fresh:
// none) and hence the environment's setting in force.
struct Schedule {
  bool setOccupancy = false;
  cl_uint occupancy = 0; // 0 = unbounded
  bool seeded = false;
  cl_ulong seed = 0;
  bool setPolicy = false;
  bool unfair = false;
  bool quiet = false; // do not echo FiberCL's stderr (deadlock reports)
};

struct LaunchResult {
  enum class Kind { Complete, Deadlock, Failed };
  Kind kind = Kind::Complete;
  cl_int status = CL_COMPLETE; // the event's execution status
  std::string report;          // what FiberCL printed on stderr meanwhile
};

// Owning handle for an OpenCL object.
template <class T, cl_int (*Release)(T)> class Handle {
public:
  Handle() = default;
  explicit Handle(T h) : h_(h) {}
  Handle(Handle &&o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  Handle &operator=(Handle &&o) noexcept {
    std::swap(h_, o.h_);
    return *this;
  }
  Handle(const Handle &) = delete;
  Handle &operator=(const Handle &) = delete;
  ~Handle() {
    if (h_)
      Release(h_);
  }
  T get() const { return h_; }

private:
  T h_ = nullptr;
};
using Buffer = Handle<cl_mem, clReleaseMemObject>;
using Kernel = Handle<cl_kernel, clReleaseKernel>;

class Session {
public:
  explicit Session(std::string kernelDir);
  ~Session();
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;

  // Builds (once per process) the concatenation of kernel files with options.
  // The files are passed as separate strings of one program, not #included, so
  // FiberCL's build cache sees every byte of them.
  cl_program program(const std::vector<std::string> &files, const std::string &options);
  Kernel kernel(cl_program program, const char *name);

  template <class T> Buffer buffer(const std::vector<T> &init) {
    return makeBuffer(init.size() * sizeof(T), init.data());
  }
  template <class T> std::vector<T> read(const Buffer &b, size_t n) {
    std::vector<T> out(n);
    readBuffer(b, n * sizeof(T), out.data());
    return out;
  }

  // Enqueues a 1-D NDRange of `groups` work-groups of `local` work-items under
  // `schedule`, waits for it and classifies the outcome.
  LaunchResult launch(const Kernel &k, size_t groups, size_t local, const Schedule &schedule);

  const std::string &kernelDir() const { return kernelDir_; }

private:
  Buffer makeBuffer(size_t bytes, const void *init);
  void readBuffer(const Buffer &b, size_t bytes, void *out);

  std::string kernelDir_;
  fibercl::cl_host::Session cl_; // FiberCL's device, a context and an in-order queue
  std::map<std::string, cl_program> programs_;
};

// Sets kernel arguments in order: Buffers as cl_mem, everything else by value.
inline void setArg(const Kernel &k, cl_uint i, const Buffer &b) {
  cl_mem m = b.get();
  check(clSetKernelArg(k.get(), i, sizeof m, &m), "clSetKernelArg");
}
template <class T> void setArg(const Kernel &k, cl_uint i, const T &v) {
  check(clSetKernelArg(k.get(), i, sizeof v, &v), "clSetKernelArg");
}
template <class... A> void setArgs(const Kernel &k, const A &...args) {
  cl_uint i = 0;
  (setArg(k, i++, args), ...);
}

// Where the .cl files are: the --kernels option, else $SCHEDULE_CORPUS_KERNELS,
// else the compiled-in path, else kernels/ next to this source or the executable.
std::string findKernelDir(const std::string &option);

} // namespace corpus

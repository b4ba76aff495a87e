// The OpenCL side of fibercl_apps: failures, the first device of the first platform
// with one queue, device buffers, kernel arguments, and kernels built from kernels/ with
// their `#include "file"` lines inlined. Error names, the platform lookup, the context
// and queue and the builds are cl_host's.
#pragma once

#include <fibercl/cl_host/errors.hpp>
#include <fibercl/cl_host/session.hpp>

#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace fibercl_apps {

// printf into a string.
std::string format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

// A failed step or a wrong result; the runner prints it as "<app> <form> FAIL <what>".
struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};
[[noreturn]] void fail(const std::string &why);

using fibercl::cl_host::errorName;
// Fails with "<what>: <error name> (<code>)" unless e is CL_SUCCESS.
void check(cl_int e, const char *what);

struct Cl {
  cl_platform_id platform = nullptr;
  std::string platform_name;
  // The queue and context are released with it (leak checkers run on these apps).
  fibercl::cl_host::Session session;

  Cl() = default;
  Cl(const Cl &) = delete;
  Cl &operator=(const Cl &) = delete;
  void open();
  cl_device_id device() const { return session.device(); }
  cl_context context() const { return session.context(); }
  cl_command_queue queue() const { return session.queue(); }
  cl_mem alloc(size_t bytes);
  void write(cl_mem m, const void *data, size_t bytes); // blocking
  template <class T> void write(cl_mem m, const std::vector<T> &v) {
    write(m, v.data(), v.size() * sizeof(T));
  }
  void zero(cl_mem m, size_t bytes);                            // waits for the queue
  void read(cl_mem m, size_t offset, void *data, size_t bytes); // blocking
  template <class T> std::vector<T> read(cl_mem m, size_t count) {
    std::vector<T> v(count);
    read(m, 0, v.data(), count * sizeof(T));
    return v;
  }
  template <class T> T read1(cl_mem m, size_t index = 0) {
    T v;
    read(m, index * sizeof(T), &v, sizeof(T));
    return v;
  }
};

// Named device buffers, kept from run to run and reallocated only when a run needs
// one larger. Released with the set.
class Buffers {
public:
  Buffers() = default;
  Buffers(const Buffers &) = delete;
  Buffers &operator=(const Buffers &) = delete;
  ~Buffers();

  cl_mem sized(Cl &cl, const std::string &name, size_t bytes); // contents undefined
  cl_mem zeroed(Cl &cl, const std::string &name, size_t bytes);
  template <class T> cl_mem upload(Cl &cl, const std::string &name, const std::vector<T> &v) {
    cl_mem m = sized(cl, name, v.size() * sizeof(T));
    cl.write(m, v);
    return m;
  }
  cl_mem operator[](const std::string &name) const { return bufs_.at(name).first; }

private:
  std::map<std::string, std::pair<cl_mem, size_t>> bufs_;
};

// Sets a kernel's arguments in order.
struct Args {
  cl_kernel k;
  cl_uint i;
  Args &mem(cl_mem m);
  Args &i32(cl_int v);
  Args &u32(cl_uint v);
};

// kernels/<file> as the OpenCL compiler gets it: `#include "x.cl"` lines are replaced
// by x.cl from the same directory (once each), `#include <...>` stays.
std::string kernel_source(const std::string &dir, const std::string &file);

// A kernel and its program, released together.
class Kernel {
public:
  // Builds `source` with FIBERCL_APPS_BUILD_OPTIONS (default -cl-std=CL2.0) and creates
  // the kernel `name`. A build failure prints the log to stderr.
  Kernel(Cl &cl, const std::string &source, const std::string &name);
  Kernel(const Kernel &) = delete;
  Kernel &operator=(const Kernel &) = delete;
  ~Kernel();
  cl_kernel get() const { return kernel_; }

private:
  cl_program program_ = nullptr;
  cl_kernel kernel_ = nullptr;
};

} // namespace fibercl_apps

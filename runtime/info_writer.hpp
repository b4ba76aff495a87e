// InfoWriter: writes a clGet*Info result (the size rules of every query, in one
// place). Used by the API layer and by devices answering clGetDeviceInfo.
#pragma once

#include <CL/cl.h>

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/error.hpp"

namespace fibercl::runtime {

// Writes a clGet*Info result. The size rules live here only:
// CL_INVALID_VALUE if param_value_size < the size of the result and param_value is
// not NULL; param_value_size_ret is written when not NULL.
class InfoWriter {
public:
  InfoWriter(size_t param_value_size, void *param_value, size_t *param_value_size_ret)
      : size_(param_value_size), value_(param_value), sizeRet_(param_value_size_ret) {}

  void bytes(const void *data, size_t n);
  template <class T> void scalar(const T &v) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes(&v, sizeof v);
  }
  void string(const std::string &s) { bytes(s.c_str(), s.size() + 1); }
  void string(const char *s) { string(std::string(s)); }
  template <class T> void array(const std::vector<T> &v) { bytes(v.data(), v.size() * sizeof(T)); }
  template <class T> void array(const T *data, size_t n) { bytes(data, n * sizeof(T)); }
  // For results written piecewise (CL_PROGRAM_BINARIES): applies the size rules to
  // an n-byte result and returns param_value (possibly NULL) without writing to it.
  void *space(size_t n);

private:
  size_t size_;
  void *value_;
  size_t *sizeRet_;
};

[[noreturn]] inline void badParam(const char *name = "param_name") {
  throw Error(CL_INVALID_VALUE, std::string(name) + " is not a supported query");
}

} // namespace fibercl::runtime

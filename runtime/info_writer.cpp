// InfoWriter (info_writer.hpp).
#include "runtime/info_writer.hpp"

#include <cstring>

namespace fibercl::runtime {

void InfoWriter::bytes(const void *data, size_t n) {
  // CL_INVALID_VALUE if size in bytes specified by param_value_size is < size of
  // return type and param_value is not NULL.
  if (value_) {
    check(size_ < n, CL_INVALID_VALUE, "param_value_size is too small");
    if (n)
      std::memcpy(value_, data, n);
  }
  if (sizeRet_)
    *sizeRet_ = n;
}

void *InfoWriter::space(size_t n) {
  if (value_)
    check(size_ < n, CL_INVALID_VALUE, "param_value_size is too small");
  if (sizeRet_)
    *sizeRet_ = n;
  return value_;
}

} // namespace fibercl::runtime

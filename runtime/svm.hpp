// Shared virtual memory: the allocations clSVMAlloc made in one context. The device is
// the host CPU, so every SVM kind is the host's own memory: coarse- and fine-grained
// buffers are plain allocations, fine-grained system SVM is any host pointer, and
// atomics are the host's. This table exists for clSVMFree, for the SVM checks the
// specification asks of clEnqueueSVM* and of buffers made on SVM pointers.
#pragma once

#include <CL/cl.h>

#include <cstddef>
#include <map>
#include <mutex>

namespace fibercl::runtime {

class SvmAllocations {
public:
  ~SvmAllocations(); // frees what the application did not

  // NULL when the allocation fails.
  void *allocate(size_t size, size_t alignment, cl_svm_mem_flags flags);
  // Frees an allocation of this table; false if `p` is not the start of one.
  bool free(void *p);
  // The allocation holding [p, p + size), if any: its start, or NULL.
  void *find(const void *p, size_t size = 1) const;
  // The allocation holding the byte at `p`, if any: its start and size (else {NULL, 0}).
  std::pair<const char *, size_t> extentOf(const void *p) const;

private:
  struct Allocation {
    size_t size;
    cl_svm_mem_flags flags;
  };
  mutable std::mutex mutex_;
  std::map<char *, Allocation> allocations_;
};

} // namespace fibercl::runtime

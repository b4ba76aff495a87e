// cl_mem: allocation, sub-buffers, destructor callbacks.
#include "runtime/memory.hpp"
#include "runtime/context.hpp"
#include "runtime/error.hpp"
#include "runtime/platform.hpp"

#include <cstdlib>
#include <cstring>

namespace fibercl::runtime {

Mem::Mem(Context &context, cl_mem_flags flags, size_t size, void *hostPtr,
         std::vector<cl_mem_properties> properties)
    : context_(context), flags_(flags), size_(size), properties_(std::move(properties)) {
  if (flags & CL_MEM_USE_HOST_PTR) {
    // Zero-copy: the application's memory is the buffer.
    data_ = static_cast<char *>(hostPtr);
    hostPtr_ = hostPtr;
    return;
  }
  const size_t align = context.device().limits().memBaseAddrAlignBits / 8;
  size_t rounded = (size + align - 1) / align * align;
  data_ = static_cast<char *>(std::aligned_alloc(align, rounded));
  if (!data_)
    throw Error(CL_MEM_OBJECT_ALLOCATION_FAILURE, "cannot allocate the buffer");
  owned_ = true;
  if (flags & CL_MEM_COPY_HOST_PTR)
    std::memcpy(data_, hostPtr, size);
}

Mem::Mem(Mem &parent, cl_mem_flags flags, size_t offset, size_t size)
    : context_(parent.context()), parent_(parent), flags_(flags), size_(size),
      offset_(offset), data_(parent.data() + offset) {
  if (parent.hostPtr())
    hostPtr_ = static_cast<char *>(parent.hostPtr()) + offset;
}

Mem::~Mem() {
  // Called in reverse order of registration, before the memory is freed.
  for (auto it = destructorCallbacks_.rbegin(); it != destructorCallbacks_.rend(); ++it)
    it->first(handle(), it->second);
  if (owned_)
    std::free(data_);
}

bool Mem::unmapped() {
  cl_uint n = mapCount_.load(std::memory_order_relaxed);
  while (n > 0)
    if (mapCount_.compare_exchange_weak(n, n - 1, std::memory_order_relaxed))
      return true;
  return false;
}

void Mem::addDestructorCallback(DestructorCallback fn, void *userData) {
  std::lock_guard<std::mutex> lock(mutex_);
  destructorCallbacks_.emplace_back(fn, userData);
}

} // namespace fibercl::runtime

// cl_mem: buffers and sub-buffers. Memory lives in the host address space: the
// device address of a buffer is its host address, maps return pointers into it.
#pragma once

#include "runtime/object.hpp"

#include <atomic>
#include <mutex>
#include <vector>

namespace fibercl::runtime {

class Context;

class Mem : public Object<Mem, cl_mem> {
public:
  static constexpr Tag kTag = Tag::Mem;
  static constexpr cl_int kInvalidError = CL_INVALID_MEM_OBJECT;
  using DestructorCallback = void(CL_CALLBACK *)(cl_mem, void *);

  // A buffer. `flags` are validated; CL_MEM_USE_HOST_PTR uses hostPtr's memory,
  // CL_MEM_COPY_HOST_PTR copies it. Throws Error(CL_MEM_OBJECT_ALLOCATION_FAILURE).
  Mem(Context &context, cl_mem_flags flags, size_t size, void *hostPtr,
      std::vector<cl_mem_properties> properties);
  // A sub-buffer of `parent` (which is not a sub-buffer itself).
  Mem(Mem &parent, cl_mem_flags flags, size_t offset, size_t size);
  ~Mem();

  Context &context() const { return *context_; }
  cl_mem_flags flags() const { return flags_; }
  size_t size() const { return size_; }
  // The bytes of this buffer (a sub-buffer's start inside its parent).
  char *data() const { return data_; }
  // CL_MEM_HOST_PTR: the application's pointer (USE_HOST_PTR), or NULL.
  void *hostPtr() const { return hostPtr_; }
  Mem *parent() const { return parent_.get(); }
  size_t offset() const { return offset_; }
  const std::vector<cl_mem_properties> &properties() const { return properties_; }

  // Map bookkeeping for CL_MEM_MAP_COUNT.
  void mapped() { mapCount_.fetch_add(1, std::memory_order_relaxed); }
  bool unmapped();
  cl_uint mapCount() const { return mapCount_.load(std::memory_order_relaxed); }

  void addDestructorCallback(DestructorCallback fn, void *userData);

private:
  Ref<Context> context_;
  Ref<Mem> parent_;
  cl_mem_flags flags_;
  size_t size_;
  size_t offset_ = 0;
  char *data_ = nullptr;
  void *hostPtr_ = nullptr;
  bool owned_ = false;
  std::vector<cl_mem_properties> properties_;
  std::atomic<cl_uint> mapCount_{0};
  std::mutex mutex_;
  std::vector<std::pair<DestructorCallback, void *>> destructorCallbacks_;
};

} // namespace fibercl::runtime

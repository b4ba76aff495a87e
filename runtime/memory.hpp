// cl_mem: buffers, sub-buffers, images and pipes. Memory lives in the host address
// space: the device address of a buffer is its host address, maps return pointers into
// it. An image is a pitched box of pixels plus the descriptor kernels read
// (fibercl/image_abi.h); a pipe is a ring of packets behind a header kernels update
// (fibercl/pipe_abi.h).
#pragma once

#include "runtime/object.hpp"

#include "fibercl/image_abi.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace fibercl::runtime {

class Context;

// What makes a cl_mem an image: its format and shape, and where its pixels are.
struct ImageLayout {
  cl_mem_object_type type = 0; // CL_MEM_OBJECT_IMAGE1D, ...
  cl_image_format format{};
  size_t pixelSize = 0;
  size_t width = 0, height = 1, depth = 1; // 1 in unused dimensions
  size_t arraySize = 0;                    // layers of an array, else 0
  // Pitches of the pixel storage, as the spec reports them (CL_IMAGE_ROW_PITCH,
  // CL_IMAGE_SLICE_PITCH: 0 for 1D and 2D images; the layer pitch of arrays).
  size_t rowPitch = 0, slicePitch = 0;

  bool isArray() const {
    return type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  }
  // The box of pixels in memory terms: (x, y, z) extents, where a 1D array's layers are
  // its y and a 2D array's its z (fibercl/image_abi.h).
  size_t extent(int dim) const;
  // Bytes between consecutive y (and z) in memory terms.
  size_t yPitch() const;
  size_t zPitch() const;
  // Bytes the pixels span.
  size_t bytes() const;
};

// What makes a cl_mem a pipe: its packets.
struct PipeShape {
  cl_uint packetSize = 0;
  cl_uint maxPackets = 0;
};

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
  // An image. With `buffer` (1D image buffers, 2D images from a buffer) the pixels are
  // the buffer's bytes; with CL_MEM_USE_HOST_PTR they are hostPtr's, laid out with the
  // layout's pitches; otherwise they are allocated tightly packed, and
  // CL_MEM_COPY_HOST_PTR copies hostPtr (pitched as `hostRowPitch`/`hostSlicePitch`).
  Mem(Context &context, cl_mem_flags flags, const ImageLayout &layout, void *hostPtr,
      size_t hostRowPitch, size_t hostSlicePitch, Mem *buffer,
      std::vector<cl_mem_properties> properties);
  // An empty pipe. Throws Error(CL_MEM_OBJECT_ALLOCATION_FAILURE).
  Mem(Context &context, cl_mem_flags flags, const PipeShape &shape,
      std::vector<cl_mem_properties> properties);
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
  // CL_MEM_TYPE.
  cl_mem_object_type type() const;
  // The image's layout, or NULL for a buffer.
  const ImageLayout *image() const { return image_.get(); }
  // The pipe's packets, or NULL for a buffer or an image.
  const PipeShape *pipe() const { return pipe_ ? &*pipe_ : nullptr; }
  // A buffer or sub-buffer: neither an image nor a pipe.
  bool isBuffer() const { return !image_ && !pipe_; }
  // What a kernel argument holds for this object: a buffer's data address, an image's
  // descriptor address, a pipe's header address.
  uint64_t kernelAddress() const;

  // Map bookkeeping for CL_MEM_MAP_COUNT.
  void mapped() { mapCount_.fetch_add(1, std::memory_order_relaxed); }
  bool unmapped();
  cl_uint mapCount() const { return mapCount_.load(std::memory_order_relaxed); }

  void addDestructorCallback(DestructorCallback fn, void *userData);

  // Kernel arguments name a memory object without keeping it alive: clReleaseMemObject
  // deletes it (and runs its destructor callbacks) even while it is set as an argument,
  // as the specification and the CTS want. An argument holds the object's address and
  // serial; lookUp gives a reference if that object still lives, else nothing.
  uint64_t serial() const { return registration_.serial; }
  static Ref<Mem> lookUp(const Mem *mem, uint64_t serial);

private:
  // Every Mem is in a registry (address -> serial) from construction to destruction.
  struct Registration {
    explicit Registration(const Mem *mem);
    ~Registration();
    const Mem *mem;
    uint64_t serial;
  };
  Registration registration_{this};
  Ref<Context> context_;
  Ref<Mem> parent_;
  cl_mem_flags flags_;
  size_t size_;
  size_t offset_ = 0;
  char *data_ = nullptr;
  void *hostPtr_ = nullptr;
  bool owned_ = false;
  std::vector<cl_mem_properties> properties_;
  std::unique_ptr<ImageLayout> image_;
  std::unique_ptr<fcl_image> descriptor_; // what image kernel arguments point to
  std::optional<PipeShape> pipe_;
  std::atomic<cl_uint> mapCount_{0};
  std::mutex mutex_;
  std::vector<std::pair<DestructorCallback, void *>> destructorCallbacks_;
};

} // namespace fibercl::runtime

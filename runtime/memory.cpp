// cl_mem: allocation, sub-buffers, images, pipes, destructor callbacks.
#include "runtime/memory.hpp"
#include "runtime/context.hpp"
#include "runtime/error.hpp"
#include "runtime/platform.hpp"

#include "fibercl/pipe_abi.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

static_assert(FCL_IMAGE_TYPE_2D_ARRAY == CL_MEM_OBJECT_IMAGE2D_ARRAY &&
              FCL_IMAGE_TYPE_1D_ARRAY == CL_MEM_OBJECT_IMAGE1D_ARRAY);

namespace fibercl::runtime {

namespace {
std::mutex gRegistryMutex;
std::unordered_map<const Mem *, uint64_t> gRegistry; // the live Mems, with their serials
uint64_t gNextSerial = 1;                            // under gRegistryMutex
} // namespace

Mem::Registration::Registration(const Mem *m) : mem(m) {
  std::lock_guard<std::mutex> lock(gRegistryMutex);
  serial = gNextSerial++;
  gRegistry[mem] = serial;
}

Mem::Registration::~Registration() {
  std::lock_guard<std::mutex> lock(gRegistryMutex);
  gRegistry.erase(mem);
}

Ref<Mem> Mem::lookUp(const Mem *mem, uint64_t serial) {
  std::lock_guard<std::mutex> lock(gRegistryMutex);
  auto it = gRegistry.find(mem);
  if (it == gRegistry.end() || it->second != serial)
    return {};
  // Registered, so not yet freed; a count of 0 means it is being deleted.
  auto *object = const_cast<Mem *>(mem);
  uint32_t n = object->refCount.load(std::memory_order_relaxed);
  while (n != 0 && !object->refCount.compare_exchange_weak(n, n + 1, std::memory_order_acq_rel))
    ;
  return n == 0 ? Ref<Mem>() : Ref<Mem>::adopt(object);
}

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
    : context_(parent.context()), parent_(parent), flags_(flags), size_(size), offset_(offset),
      data_(parent.data() + offset) {
  if (parent.hostPtr())
    hostPtr_ = static_cast<char *>(parent.hostPtr()) + offset;
}

size_t ImageLayout::extent(int dim) const {
  switch (dim) {
  case 0:
    return width;
  case 1:
    return type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? arraySize : height;
  default:
    return type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? arraySize : depth;
  }
}

size_t ImageLayout::yPitch() const {
  return type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? slicePitch : rowPitch;
}

size_t ImageLayout::zPitch() const {
  if (type == CL_MEM_OBJECT_IMAGE3D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY)
    return slicePitch;
  return yPitch() * extent(1);
}

size_t ImageLayout::bytes() const {
  return (extent(2) - 1) * zPitch() + (extent(1) - 1) * yPitch() + width * pixelSize;
}

Mem::Mem(Context &context, cl_mem_flags flags, const ImageLayout &layout, void *hostPtr,
         size_t hostRowPitch, size_t hostSlicePitch, Mem *buffer,
         std::vector<cl_mem_properties> properties)
    : context_(context), flags_(flags), size_(layout.bytes()), properties_(std::move(properties)),
      image_(std::make_unique<ImageLayout>(layout)) {
  if (buffer) {
    parent_ = Ref<Mem>(*buffer);
    data_ = buffer->data();
    hostPtr_ = buffer->hostPtr();
  } else if (flags & CL_MEM_USE_HOST_PTR) {
    data_ = static_cast<char *>(hostPtr);
    hostPtr_ = hostPtr;
  } else {
    const size_t align = context.device().limits().memBaseAddrAlignBits / 8;
    size_t rounded = (size_ + align - 1) / align * align;
    data_ = static_cast<char *>(std::aligned_alloc(align, rounded));
    if (!data_)
      throw Error(CL_MEM_OBJECT_ALLOCATION_FAILURE, "cannot allocate the image");
    owned_ = true;
    if (flags & CL_MEM_COPY_HOST_PTR) {
      // The host's layout: a 1D array's layers are hostSlicePitch apart.
      ImageLayout host = layout;
      host.rowPitch = hostRowPitch;
      host.slicePitch = hostSlicePitch;
      const char *from = static_cast<const char *>(hostPtr);
      for (size_t z = 0; z < layout.extent(2); ++z)
        for (size_t y = 0; y < layout.extent(1); ++y)
          std::memcpy(data_ + z * layout.zPitch() + y * layout.yPitch(),
                      from + z * host.zPitch() + y * host.yPitch(),
                      layout.width * layout.pixelSize);
    }
  }
  descriptor_ = std::make_unique<fcl_image>();
  fcl_image &d = *descriptor_;
  d.data = reinterpret_cast<uint64_t>(data_);
  d.row_pitch = layout.yPitch();
  d.slice_pitch = layout.zPitch();
  d.width = static_cast<fcl_u32>(layout.width);
  d.height = static_cast<fcl_u32>(layout.height);
  d.depth = static_cast<fcl_u32>(layout.depth);
  d.array_size = static_cast<fcl_u32>(layout.arraySize);
  d.channel_order = layout.format.image_channel_order;
  d.channel_data_type = layout.format.image_channel_data_type;
  d.pixel_size = static_cast<fcl_u32>(layout.pixelSize);
  d.image_type = layout.type;
}

Mem::Mem(Context &context, cl_mem_flags flags, const PipeShape &shape,
         std::vector<cl_mem_properties> properties)
    : context_(context), flags_(flags), size_(FCL_PIPE_PACKETS_OFFSET(shape.maxPackets) +
                                              uint64_t(shape.packetSize) * shape.maxPackets),
      properties_(std::move(properties)), pipe_(shape) {
  // Zeroed: counters at 0 (empty), lock free, no slot committed.
  data_ = static_cast<char *>(std::aligned_alloc(128, (size_ + 127) / 128 * 128));
  if (!data_)
    throw Error(CL_MEM_OBJECT_ALLOCATION_FAILURE, "cannot allocate the pipe");
  owned_ = true;
  std::memset(data_, 0, size_);
  auto *header = reinterpret_cast<fcl_pipe *>(data_);
  header->packet_size = shape.packetSize;
  header->max_packets = shape.maxPackets;
}

cl_mem_object_type Mem::type() const {
  if (pipe_)
    return CL_MEM_OBJECT_PIPE;
  return image_ ? image_->type : CL_MEM_OBJECT_BUFFER;
}

uint64_t Mem::kernelAddress() const {
  if (descriptor_)
    return reinterpret_cast<uint64_t>(descriptor_.get());
  return reinterpret_cast<uint64_t>(data_);
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

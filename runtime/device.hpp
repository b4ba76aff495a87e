// cl_device_id: a device behind FiberCL's platform, as an interface. The CPU device
// (cpu_device.hpp) runs commands on FiberCL's executor; a device forwarded to another
// vendor's ICD is a platform of its own (icd/forward/). The core reaches a device
// through its context or queue, never through a global, and asks it for its limits.
#pragma once

#include "runtime/object.hpp"

#include <cstdint>

namespace fibercl::exec {
class Executor;
}

namespace fibercl::runtime {

class InfoWriter;
class Platform;

// What the core's rules need of a device (clGetDeviceInfo answers the same values).
struct DeviceLimits {
  uint64_t maxWorkGroupSize;               // also each CL_DEVICE_MAX_WORK_ITEM_SIZES
  uint64_t localMemSize;                   // CL_DEVICE_LOCAL_MEM_SIZE
  uint32_t memBaseAddrAlignBits;           // CL_DEVICE_MEM_BASE_ADDR_ALIGN
  size_t preferredWorkGroupSizeMultiple;   // CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE
  size_t image2dMaxSize;                   // CL_DEVICE_IMAGE2D_MAX_WIDTH and _HEIGHT
  size_t image3dMaxSize;                   // CL_DEVICE_IMAGE3D_MAX_WIDTH, _HEIGHT, _DEPTH
  size_t imageMaxBufferSize;               // CL_DEVICE_IMAGE_MAX_BUFFER_SIZE (pixels)
  size_t imageMaxArraySize;                // CL_DEVICE_IMAGE_MAX_ARRAY_SIZE
  uint32_t pipeMaxPacketSize;              // CL_DEVICE_PIPE_MAX_PACKET_SIZE (0: no pipes)
};

class Device : public Object<Device, cl_device_id> {
public:
  static constexpr Tag kTag = Tag::Device;
  static constexpr cl_int kInvalidError = CL_INVALID_DEVICE;

  virtual ~Device() = default;

  Platform &platform();
  virtual cl_device_type type() const = 0;
  // Answers clGetDeviceInfo (throws Error(CL_INVALID_VALUE) for an unknown query).
  virtual void info(cl_device_info param, InfoWriter &out) = 0;
  virtual uint64_t maxAllocSize() const = 0;
  virtual const DeviceLimits &limits() const = 0;

  // The executor that runs this device's commands (started on first need), or, from
  // executorIfStarted, nullptr if it has not started.
  virtual exec::Executor &executor() = 0;
  virtual exec::Executor *executorIfStarted() = 0;
  // Wakes threads waiting for this device's commands after a state change no command
  // reports (a user event set from the host).
  virtual void wakeWaiters() = 0;
};

} // namespace fibercl::runtime

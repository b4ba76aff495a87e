// cl_device_id: a device behind one of FiberCL's platforms, as an interface -- what
// the core (objects, command building, launch) needs of a device: answer queries, load
// a program binary, launch an NDRange, run a host command, wait. The CPU device
// (cpu_device.hpp) is one implementation; how it runs work (runtime/exec/) is its own
// business. The core reaches a device through its context or queue, never a global.
#pragma once

#include "runtime/object.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "fibercl/kernel_abi.h"

namespace fibercl::compiler {
struct Binary;
class Executable;
} // namespace fibercl::compiler

namespace fibercl::runtime {

class InfoWriter;
class Kernel;
class Platform;

// What the core's rules need of a device (clGetDeviceInfo answers the same values).
struct DeviceLimits {
  uint64_t maxWorkGroupSize;             // also each CL_DEVICE_MAX_WORK_ITEM_SIZES
  uint64_t localMemSize;                 // CL_DEVICE_LOCAL_MEM_SIZE
  uint32_t memBaseAddrAlignBits;         // CL_DEVICE_MEM_BASE_ADDR_ALIGN
  size_t preferredWorkGroupSizeMultiple; // CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE
  size_t image2dMaxSize;                 // CL_DEVICE_IMAGE2D_MAX_WIDTH and _HEIGHT
  size_t image3dMaxSize;                 // CL_DEVICE_IMAGE3D_MAX_WIDTH, _HEIGHT, _DEPTH
  size_t imageMaxBufferSize;             // CL_DEVICE_IMAGE_MAX_BUFFER_SIZE (pixels)
  size_t imageMaxArraySize;              // CL_DEVICE_IMAGE_MAX_ARRAY_SIZE
  uint32_t pipeMaxPacketSize;            // CL_DEVICE_PIPE_MAX_PACKET_SIZE (0: no pipes)
};

// Where an NDRange runs, as the core checked it (kernel_launch.cpp): every local size
// is set, and none is 0.
struct LaunchGeometry {
  uint32_t workDim = 1;
  uint64_t offset[3] = {0, 0, 0};
  uint64_t global[3] = {1, 1, 1};
  uint64_t local[3] = {1, 1, 1}; // enqueued work-group size; edges may be smaller
};

// The end of a command's work on a device: called exactly once, from whichever thread
// finished it, with CL_COMPLETE (0) or a negative error code.
using Completion = std::function<void(int32_t status)>;

// A kernel launch as a device prepared it when it was enqueued (so what it read then
// -- the kernel's scheduling, the environment -- is fixed); run once, when its command
// starts.
class DeviceLaunch {
public:
  virtual ~DeviceLaunch() = default;
  // Starts every work-group and returns at once. `started` (may be empty) is called
  // once, when the launch really begins; `done` once, at the end.
  virtual void run(std::function<void()> started, Completion done) = 0;
};

class Device : public Object<Device, cl_device_id> {
public:
  static constexpr Tag kTag = Tag::Device;
  static constexpr cl_int kInvalidError = CL_INVALID_DEVICE;

  virtual ~Device() = default;

  // Queries.
  Platform &platform();
  virtual cl_device_type type() const = 0;
  // Answers clGetDeviceInfo (throws Error(CL_INVALID_VALUE) for an unknown query).
  virtual void info(cl_device_info param, InfoWriter &out) = 0;
  virtual uint64_t maxAllocSize() const = 0;
  virtual const DeviceLimits &limits() const = 0;
  // CL_DEVICE_MAX_COMPUTE_UNITS: how many work-groups run at once at full speed.
  virtual unsigned computeUnits() = 0;

  // Code: a program's executable binary (what the compiler built) loaded as code this
  // device runs, or nullptr with `error` set.
  virtual std::unique_ptr<compiler::Executable> loadBinary(const compiler::Binary &binary,
                                                           std::string &error) = 0;

  // Commands. A launch of `kernel` over `geometry` with `args` (kernel_abi.h's form;
  // they and what they point to stay alive until the launch is done) and
  // `localMemSize` bytes of __local memory per work-group; `checks`: the arguments'
  // bounds for a kernel built with FIBERCL_CHECK=bounds (kernel_abi.h), else null.
  virtual std::unique_ptr<DeviceLaunch> prepareLaunch(const Kernel &kernel, void **args,
                                                      uint64_t localMemSize,
                                                      const fcl_check_bounds *checks,
                                                      const LaunchGeometry &geometry) = 0;
  // Runs `work` (returning CL_COMPLETE or an error) on the device; returns at once.
  virtual void runHost(std::function<int32_t()> work, Completion done) = 0;
  // Returns when `finished()` is true (it becomes true through some command's `done`
  // or wakeWaiters), lending the calling thread to the device's work meanwhile.
  virtual void waitUntil(const std::function<bool()> &finished) = 0;
  // Wakes threads in waitUntil after a state change no command reports (a user event
  // set from the host).
  virtual void wakeWaiters() = 0;
};

} // namespace fibercl::runtime

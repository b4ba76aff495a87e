// cl_platform_id and cl_device_id: FiberCL's one platform and its one CPU device.
#pragma once

#include "runtime/object.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace fibercl::exec {
class Executor;
}

namespace fibercl::runtime {

class Device;

// The platform "FiberCL". A process-wide singleton; never destroyed.
class Platform : public Object<Platform, cl_platform_id> {
public:
  static constexpr Tag kTag = Tag::Platform;
  static constexpr cl_int kInvalidError = CL_INVALID_PLATFORM;

  static Platform &get();
  Device &device();

  static constexpr const char *kName = "FiberCL";
  static constexpr const char *kVendor = "FiberCL";
  static constexpr const char *kVersion = "OpenCL 3.0 FiberCL 0.1";
  static constexpr const char *kProfile = "FULL_PROFILE";
  static constexpr const char *kExtensions = "cl_khr_icd cl_fibercl_scheduling";
  static constexpr const char *kIcdSuffix = "FCL";
};

// The host CPU as an OpenCL device. A process-wide singleton (a root device:
// retain/release do nothing). Owns the executor, created on first need so that
// loading the library starts no threads.
class Device : public Object<Device, cl_device_id> {
public:
  static constexpr Tag kTag = Tag::Device;
  static constexpr cl_int kInvalidError = CL_INVALID_DEVICE;

  static Device &get();
  Platform &platform() { return Platform::get(); }

  exec::Executor &executor();
  // The executor if it exists already (for counters that need not start it).
  exec::Executor *executorIfStarted();

  // Wakes threads in Executor::helpUntil after a state change that no executor
  // `done` reports (a user event set from the host).
  void wakeWaiters();

  const std::string &name() const { return name_; }
  uint64_t globalMemSize() const { return globalMemSize_; }
  uint64_t maxAllocSize() const { return globalMemSize_ / 4; }
  uint32_t maxClockMHz() const { return maxClockMHz_; }

  static constexpr uint64_t kMaxWorkGroupSize = 4096;
  static constexpr uint64_t kLocalMemSize = 256 * 1024;
  static constexpr uint32_t kMemBaseAddrAlignBits = 1024;
  static constexpr uint64_t kPrintfBufferSize = 1 << 20;
  static constexpr uint64_t kMaxParameterSize = 4096;
  static constexpr size_t kPreferredWorkGroupSizeMultiple = 8;

private:
  Device();
  std::string name_;
  uint64_t globalMemSize_ = 0;
  uint32_t maxClockMHz_ = 0;
  std::once_flag executorOnce_;
  std::unique_ptr<exec::Executor> executor_;
  std::atomic<exec::Executor *> started_{nullptr};
};

} // namespace fibercl::runtime

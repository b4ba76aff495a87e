// cl_platform_id: the platform "FiberCL" and the devices behind it (device.hpp: the
// CPU device). Devices forwarded to other vendors' ICDs have platforms of their own
// (icd/forward/), since a context cannot mix two implementations' devices.
#pragma once

#include "runtime/cpu_device.hpp"
#include "runtime/object.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace fibercl::runtime {

class Device;

// The platform "FiberCL". A process-wide singleton; never destroyed.
class Platform : public Object<Platform, cl_platform_id> {
public:
  static constexpr Tag kTag = Tag::Platform;
  static constexpr cl_int kInvalidError = CL_INVALID_PLATFORM;

  static Platform &get();
  // Its devices, the CPU device first; never empty.
  const std::vector<Device *> &devices();
  Device &device() { return *devices().front(); } // the CPU device

  static constexpr const char *kName = "FiberCL";
  static constexpr const char *kVendor = "FiberCL";
  static constexpr const char *kVersion = "OpenCL 3.0 FiberCL 0.1";
  static constexpr const char *kProfile = "FULL_PROFILE";
  static constexpr const char *kExtensions = "cl_khr_icd cl_fibercl_scheduling";
  static constexpr const char *kIcdSuffix = "FCL";
};

} // namespace fibercl::runtime

// cl_platform_id: FiberCL's one platform, and the devices behind it (device.hpp: the
// CPU device today; devices forwarded to other vendors' ICDs will join it).
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
  // Devices another layer adds after the CPU device (the ICD layer's delegated
  // devices): `provider` is called once, when the device list is first needed, and
  // must be set before that.
  static void setMoreDevices(std::vector<Device *> (*provider)());
  Device &device() { return *devices().front(); } // the CPU device

  static constexpr const char *kName = "FiberCL";
  static constexpr const char *kVendor = "FiberCL";
  static constexpr const char *kVersion = "OpenCL 3.0 FiberCL 0.1";
  static constexpr const char *kProfile = "FULL_PROFILE";
  static constexpr const char *kExtensions = "cl_khr_icd cl_fibercl_scheduling";
  static constexpr const char *kIcdSuffix = "FCL";
};

} // namespace fibercl::runtime

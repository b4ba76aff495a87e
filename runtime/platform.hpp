// cl_platform_id: the platform "FiberCL" and the devices behind it (device.hpp's
// interface; today the CPU device). Devices forwarded to other vendors' ICDs have
// platforms of their own (delegate/), since a context cannot mix two implementations'
// devices.
#pragma once

#include "runtime/device.hpp"
#include "runtime/object.hpp"

#include <vector>

namespace fibercl::runtime {

class Device;

// The platform "FiberCL". A process-wide singleton; never destroyed.
class Platform : public Object<Platform, cl_platform_id> {
public:
  static constexpr Tag kTag = Tag::Platform;
  static constexpr cl_int kInvalidError = CL_INVALID_PLATFORM;

  static Platform &get();

  // Every platform FiberCL shows (clGetPlatformIDs, clIcdGetPlatformIDsKHR), built here
  // only: the delegated platforms first -- an application that takes the first platform
  // runs on the device the user asked to delegate to -- then this one.
  static std::vector<cl_platform_id> allHandles();
  // Where the delegated platforms come from: a layer above (delegate/) says so once, at
  // start-up, before any call.
  using HandleSource = std::vector<cl_platform_id> (*)();
  static void addDelegated(HandleSource source);
  // Its devices, the default device first; never empty.
  const std::vector<Device *> &devices();
  // Its devices of `type` (CL_DEVICE_TYPE_ALL, or a mask of types, DEFAULT meaning the
  // first device), in order; clGetDeviceIDs and clCreateContextFromType agree.
  std::vector<Device *> devicesOfType(cl_device_type type);

  static constexpr const char *kName = "FiberCL";
  static constexpr const char *kVendor = "FiberCL";
  static constexpr const char *kVersion = "OpenCL 3.0 FiberCL 0.1";
  static constexpr const char *kProfile = "FULL_PROFILE";
  static constexpr const char *kExtensions = "cl_khr_icd cl_fibercl_scheduling";
  static constexpr const char *kIcdSuffix = "FCL";
};

} // namespace fibercl::runtime

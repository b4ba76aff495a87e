// Entry points for platforms and devices (except clGetDeviceInfo: device_info.cpp),
// timers and the compiler unload hints.
#include "runtime/api/entry.hpp"
#include "runtime/platform.hpp"
#include "runtime/versions.hpp"

#include <CL/cl_ext.h>

using namespace fibercl::runtime;
using namespace fibercl::runtime::api;

extern "C" {

cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms,
                                    cl_uint *num_platforms) {
  return call(__func__, [&] {
    // CL_INVALID_VALUE if num_entries is equal to zero and platforms is not NULL or
    // if both num_platforms and platforms are NULL.
    check(num_entries == 0 && platforms, CL_INVALID_VALUE,
          "num_entries is 0 and platforms is not NULL");
    check(!num_platforms && !platforms, CL_INVALID_VALUE, "num_platforms and platforms are NULL");
    std::vector<cl_platform_id> all = Platform::allHandles();
    for (cl_uint i = 0; platforms && i < num_entries && i < all.size(); ++i)
      platforms[i] = all[i];
    if (num_platforms)
      *num_platforms = cl_uint(all.size());
  });
}

cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                                     size_t param_value_size, void *param_value,
                                     size_t *param_value_size_ret) {
  return call(__func__, [&] {
    // CL_INVALID_PLATFORM if platform is not a valid platform (NULL selects ours,
    // the behaviour being implementation-defined).
    if (platform)
      obj<Platform>(platform, "platform");
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
    case CL_PLATFORM_PROFILE:
      return out.string(Platform::kProfile);
    case CL_PLATFORM_VERSION:
      return out.string(Platform::kVersion);
    case CL_PLATFORM_NUMERIC_VERSION:
      return out.scalar<cl_version>(CL_MAKE_VERSION(3, 0, 0));
    case CL_PLATFORM_NAME:
      return out.string(Platform::kName);
    case CL_PLATFORM_VENDOR:
      return out.string(Platform::kVendor);
    case CL_PLATFORM_EXTENSIONS:
      return out.string(Platform::kExtensions);
    case CL_PLATFORM_EXTENSIONS_WITH_VERSION:
      return out.array(nameVersions(platformExtensions()));
    case CL_PLATFORM_HOST_TIMER_RESOLUTION:
      return out.scalar<cl_ulong>(1);
    case CL_PLATFORM_ICD_SUFFIX_KHR:
      return out.string(Platform::kIcdSuffix);
    default:
      badParam();
    }
  });
}

cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type,
                                  cl_uint num_entries, cl_device_id *devices,
                                  cl_uint *num_devices) {
  return call(__func__, [&] {
    // CL_INVALID_PLATFORM if platform is not a valid platform (NULL selects ours).
    Platform &p = platform ? obj<Platform>(platform, "platform") : Platform::get();
    // CL_INVALID_DEVICE_TYPE if device_type is not a valid value.
    constexpr cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU |
                                     CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR |
                                     CL_DEVICE_TYPE_CUSTOM;
    check(device_type != CL_DEVICE_TYPE_ALL && (device_type & ~known), CL_INVALID_DEVICE_TYPE,
          "device_type");
    check(device_type == 0, CL_INVALID_DEVICE_TYPE, "device_type is 0");
    // CL_INVALID_VALUE if num_entries is equal to zero and devices is not NULL or
    // if both num_devices and devices are NULL.
    check(num_entries == 0 && devices, CL_INVALID_VALUE,
          "num_entries is 0 and devices is not NULL");
    check(!num_devices && !devices, CL_INVALID_VALUE, "num_devices and devices are NULL");
    // The platform's devices of that type; the first device is the default one.
    std::vector<Device *> found = p.devicesOfType(device_type);
    // CL_DEVICE_NOT_FOUND if no OpenCL devices that matched device_type were found.
    if (found.empty()) {
      if (num_devices)
        *num_devices = 0;
      throw Error(CL_DEVICE_NOT_FOUND, "no FiberCL device of that type");
    }
    for (cl_uint i = 0; devices && i < num_entries && i < found.size(); ++i)
      devices[i] = found[i]->handle();
    if (num_devices)
      *num_devices = cl_uint(found.size());
  });
}

cl_int CL_API_CALL clCreateSubDevices(cl_device_id in_device,
                                      const cl_device_partition_property *properties,
                                      cl_uint num_devices, cl_device_id *out_devices,
                                      cl_uint *num_devices_ret) {
  return call(__func__, [&] {
    // CL_INVALID_DEVICE if in_device is not a valid device.
    obj<Device>(in_device, "in_device");
    // CL_INVALID_VALUE if values specified in properties are not valid or if values
    // specified in properties are valid but not supported by the device.
    throw Error(CL_INVALID_VALUE, "the device cannot be partitioned");
  });
}

cl_int CL_API_CALL clRetainDevice(cl_device_id device) {
  return call(__func__, [&] {
    // CL_INVALID_DEVICE if device is not a valid device. A root device: no-op.
    obj<Device>(device, "device");
  });
}

cl_int CL_API_CALL clReleaseDevice(cl_device_id device) {
  return call(__func__, [&] { obj<Device>(device, "device"); });
}

cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id device, cl_ulong *device_timestamp,
                                           cl_ulong *host_timestamp) {
  return call(__func__, [&] {
    // CL_INVALID_DEVICE if device is not a valid device.
    obj<Device>(device, "device");
    // CL_INVALID_VALUE if host_timestamp or device_timestamp is NULL.
    check(!device_timestamp, CL_INVALID_VALUE, "device_timestamp is NULL");
    check(!host_timestamp, CL_INVALID_VALUE, "host_timestamp is NULL");
    *device_timestamp = *host_timestamp = nowNs();
  });
}

cl_int CL_API_CALL clGetHostTimer(cl_device_id device, cl_ulong *host_timestamp) {
  return call(__func__, [&] {
    obj<Device>(device, "device");
    check(!host_timestamp, CL_INVALID_VALUE, "host_timestamp is NULL");
    *host_timestamp = nowNs();
  });
}

cl_int CL_API_CALL clUnloadCompiler(void) { return CL_SUCCESS; }

cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
  return call(__func__, [&] {
    // CL_INVALID_PLATFORM if platform is not a valid platform.
    obj<Platform>(platform, "platform");
  });
}

} // extern "C"

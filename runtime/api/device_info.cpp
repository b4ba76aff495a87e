// clGetDeviceInfo: validation; the device answers (CpuDevice::info in
// runtime/cpu_device_info.cpp).
#include "runtime/api/entry.hpp"
#include "runtime/platform.hpp"

using namespace fibercl::runtime;
using namespace fibercl::runtime::api;

extern "C" cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param_name,
                                              size_t param_value_size, void *param_value,
                                              size_t *param_value_size_ret) {
  return call(__func__, [&] {
    // CL_INVALID_DEVICE if device is not a valid device.
    Device &dev = obj<Device>(device, "device");
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    dev.info(param_name, out);
  });
}

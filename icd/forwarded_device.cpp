// ForwardedDevice and delegatedDevices (forwarded_device.hpp).
#include "icd/forwarded_device.hpp"

#include <cstdio>
#include <cstdlib>

#include "icd/icd.hpp"
#include "runtime/error.hpp"
#include "runtime/info_writer.hpp"
#include "runtime/platform.hpp"

namespace fibercl::icd {

ForwardedDevice::ForwardedDevice(const VendorPlatform &vendor, cl_device_id device)
    : dispatch_(vendor.dispatch), device_(device) {
  dispatch_->clGetDeviceInfo(device_, CL_DEVICE_TYPE, sizeof type_, &type_, nullptr);
  cl_ulong alloc = 0;
  dispatch_->clGetDeviceInfo(device_, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof alloc, &alloc, nullptr);
  maxAlloc_ = alloc;
}

void ForwardedDevice::info(cl_device_info param, runtime::InfoWriter &out) {
  // Queries that return handles answer with FiberCL's.
  switch (param) {
  case CL_DEVICE_PLATFORM:
    return out.scalar<cl_platform_id>(runtime::Platform::get().handle());
  case CL_DEVICE_PARENT_DEVICE:
    return out.scalar<cl_device_id>(nullptr);
  case CL_DEVICE_AVAILABLE:
    return out.scalar<cl_bool>(CL_FALSE); // not usable through FiberCL yet
  default:
    break;
  }
  size_t size = 0;
  cl_int err = dispatch_->clGetDeviceInfo(device_, param, 0, nullptr, &size);
  if (err != CL_SUCCESS)
    throw runtime::Error(err, "the delegated device's clGetDeviceInfo failed");
  std::vector<unsigned char> bytes(size);
  err = dispatch_->clGetDeviceInfo(device_, param, size, bytes.data(), nullptr);
  if (err != CL_SUCCESS)
    throw runtime::Error(err, "the delegated device's clGetDeviceInfo failed");
  out.bytes(bytes.data(), bytes.size());
}

exec::Executor &ForwardedDevice::executor() {
  throw runtime::Error(CL_DEVICE_NOT_AVAILABLE, "a delegated device has no FiberCL executor");
}

std::vector<runtime::Device *> delegatedDevices() {
  const char *env = std::getenv("FIBERCL_DELEGATE");
  std::string selection = env ? env : "none";
  std::vector<runtime::Device *> devices;
  if (!delegationRequested(selection))
    return devices;
  // This library is FiberCL: skip it by address (fcl_clIcdGetPlatformIDsKHR is in it).
  VendorScan scan = scanVendors(reinterpret_cast<const void *>(&fcl_clIcdGetPlatformIDsKHR));
  for (const VendorPlatform &v : scan.platforms) {
    if (!delegateSelects(selection, v) || !v.dispatch->clGetDeviceIDs)
      continue;
    cl_uint n = 0;
    if (v.dispatch->clGetDeviceIDs(v.platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &n) != CL_SUCCESS)
      continue;
    std::vector<cl_device_id> ids(n);
    if (v.dispatch->clGetDeviceIDs(v.platform, CL_DEVICE_TYPE_ALL, n, ids.data(), nullptr) !=
        CL_SUCCESS)
      continue;
    for (cl_device_id d : ids)
      devices.push_back(new ForwardedDevice(v, d)); // lives as long as the platform
  }
  if (devices.empty())
    std::fprintf(stderr, "FiberCL: FIBERCL_DELEGATE=%s selects no device (see `fibercl "
                         "platforms`)\n", selection.c_str());
  return devices;
}

} // namespace fibercl::icd

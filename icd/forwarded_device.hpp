// A device of another vendor's ICD shown under FiberCL's platform (delegation,
// DESIGN.md). Today it can be listed and queried: clGetDeviceInfo is forwarded to the
// vendor, with the handles it returns translated (its platform is FiberCL's); contexts
// on it are refused with CL_DEVICE_NOT_AVAILABLE until the rest of the API is
// forwarded.
#pragma once

#include <vector>

#include "icd/vendors.hpp"
#include "runtime/device.hpp"

namespace fibercl::icd {

class ForwardedDevice final : public runtime::Device {
public:
  ForwardedDevice(const VendorPlatform &vendor, cl_device_id device);

  cl_device_type type() const override { return type_; }
  void info(cl_device_info param, runtime::InfoWriter &out) override;
  uint64_t maxAllocSize() const override { return maxAlloc_; }
  bool usable() const override { return false; }
  exec::Executor &executor() override;
  exec::Executor *executorIfStarted() override { return nullptr; }
  void wakeWaiters() override {}

  cl_device_id vendorHandle() const { return device_; }

private:
  const cl_icd_dispatch *dispatch_;
  cl_device_id device_;
  cl_device_type type_ = CL_DEVICE_TYPE_DEFAULT;
  uint64_t maxAlloc_ = 0;
};

// The devices of the platforms FIBERCL_DELEGATE selects (none by default); for
// runtime::Platform::setMoreDevices.
std::vector<runtime::Device *> delegatedDevices();

} // namespace fibercl::icd

// Finding OpenCL platforms and devices through the ICD loader, by platform name, and
// reading their string and value queries.
#pragma once

#include "fibercl/cl_host/errors.hpp"

#include <string>
#include <vector>

namespace fibercl::cl_host {

// The name FiberCL's platform reports; the default wherever a platform is looked up.
inline constexpr const char *kFiberCL = "FiberCL";

// The platforms the loader offers, in its order; none when it finds none (the loader then
// fails clGetPlatformIDs with CL_PLATFORM_NOT_FOUND_KHR).
std::vector<cl_platform_id> platforms();

// A string query (CL_PLATFORM_NAME, CL_DEVICE_EXTENSIONS ...) without its NUL. Throws Error.
std::string platformString(cl_platform_id platform, cl_platform_info what);
std::string deviceString(cl_device_id device, cl_device_info what);
// A fixed-size device query (cl_uint, size_t, cl_bool ...). Throws Error.
template <class T> T deviceInfo(cl_device_id device, cl_device_info what) {
  T value{};
  check(clGetDeviceInfo(device, what, sizeof value, &value, nullptr), "clGetDeviceInfo");
  return value;
}

// The first platform named exactly `name`, or nullptr. `seen` gets the names of all
// platforms, quoted and comma-separated ("(no platforms)" when there are none), for a
// message that says what was there instead.
cl_platform_id findPlatform(const std::string &name = kFiberCL, std::string *seen = nullptr);

// The platform's devices of `type`; none when it has none of that type.
std::vector<cl_device_id> devices(cl_platform_id platform,
                                  cl_device_type type = CL_DEVICE_TYPE_ALL);

// The first device of `type` on the first platform named `platformName` that has one, or
// nullptr; `seen` as for findPlatform.
cl_device_id findDevice(const std::string &platformName = kFiberCL,
                        cl_device_type type = CL_DEVICE_TYPE_ALL, std::string *seen = nullptr);

} // namespace fibercl::cl_host

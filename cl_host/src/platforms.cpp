// Platform and device lookup through the ICD loader (see platforms.hpp).
#include "fibercl/cl_host/platforms.hpp"

namespace fibercl::cl_host {

std::vector<cl_platform_id> platforms() {
  cl_uint count = 0;
  if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0)
    return {};
  std::vector<cl_platform_id> found(count);
  check(clGetPlatformIDs(count, found.data(), nullptr), "clGetPlatformIDs");
  return found;
}

namespace {

// Runs a size query, then the query itself, through `get(size, value, size_ret)`.
template <class Get> std::string queryString(Get get, const char *call) {
  size_t size = 0;
  check(get(0, nullptr, &size), call);
  std::string text(size, '\0');
  check(get(size, text.data(), nullptr), call);
  while (!text.empty() && text.back() == '\0')
    text.pop_back();
  return text;
}

} // namespace

std::string platformString(cl_platform_id platform, cl_platform_info what) {
  return queryString(
      [&](size_t size, void *value, size_t *size_ret) {
        return clGetPlatformInfo(platform, what, size, value, size_ret);
      },
      "clGetPlatformInfo");
}

std::string deviceString(cl_device_id device, cl_device_info what) {
  return queryString(
      [&](size_t size, void *value, size_t *size_ret) {
        return clGetDeviceInfo(device, what, size, value, size_ret);
      },
      "clGetDeviceInfo");
}

namespace {

struct NamedPlatform {
  cl_platform_id platform;
  std::string name;
};

// Every platform with its name; `seen` gets the names quoted and comma-separated.
std::vector<NamedPlatform> namedPlatforms(std::string *seen) {
  std::vector<NamedPlatform> named;
  std::string names;
  for (cl_platform_id platform : platforms()) {
    named.push_back({platform, platformString(platform, CL_PLATFORM_NAME)});
    names += (names.empty() ? "\"" : ", \"") + named.back().name + "\"";
  }
  if (seen)
    *seen = names.empty() ? "(no platforms)" : names;
  return named;
}

} // namespace

cl_platform_id findPlatform(const std::string &name, std::string *seen) {
  for (const NamedPlatform &p : namedPlatforms(seen))
    if (p.name == name)
      return p.platform;
  return nullptr;
}

std::vector<cl_device_id> devices(cl_platform_id platform, cl_device_type type) {
  cl_uint count = 0;
  if (clGetDeviceIDs(platform, type, 0, nullptr, &count) != CL_SUCCESS || count == 0)
    return {};
  std::vector<cl_device_id> found(count);
  check(clGetDeviceIDs(platform, type, count, found.data(), nullptr), "clGetDeviceIDs");
  return found;
}

cl_device_id findDevice(const std::string &platformName, cl_device_type type, std::string *seen) {
  for (const NamedPlatform &p : namedPlatforms(seen)) {
    if (p.name != platformName)
      continue;
    std::vector<cl_device_id> ofType = devices(p.platform, type);
    if (!ofType.empty())
      return ofType.front();
  }
  return nullptr;
}

} // namespace fibercl::cl_host

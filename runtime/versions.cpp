// The extension, feature and OpenCL C version lists.
#include "runtime/versions.hpp"

#include <CL/cl_fibercl.h>

#include <cstring>
#include <string_view>

namespace fibercl::runtime {

namespace {
constexpr cl_version v(unsigned major, unsigned minor, unsigned patch = 0) {
  return CL_MAKE_VERSION(major, minor, patch);
}
} // namespace

const NameVersions &platformExtensions() {
  static_assert(std::string_view(CL_FIBERCL_SCHEDULING_EXTENSION_NAME) == "cl_fibercl_scheduling",
                "device_features.def names the scheduling extension");
  static const NameVersions list = {{"cl_khr_icd", v(1, 0)},
                                    {CL_FIBERCL_SCHEDULING_EXTENSION_NAME, v(0, 1)}};
  return list;
}

// Both from the one list kernels are compiled with (fibercl/device_features.def).
const NameVersions &deviceExtensions() {
  static const NameVersions list = {
#define FCL_DEVICE_EXTENSION(name, major, minor) {#name, v(major, minor)},
#define FCL_OPENCL_C_FEATURE(name)
#include "fibercl/device_features.def"
#undef FCL_DEVICE_EXTENSION
#undef FCL_OPENCL_C_FEATURE
  };
  return list;
}

const NameVersions &openclCFeatures() {
  static const NameVersions list = {
#define FCL_DEVICE_EXTENSION(name, major, minor)
#define FCL_OPENCL_C_FEATURE(name) {#name, v(3, 0)},
#include "fibercl/device_features.def"
#undef FCL_DEVICE_EXTENSION
#undef FCL_OPENCL_C_FEATURE
  };
  return list;
}

const NameVersions &openclCVersions() {
  static const NameVersions list = {
      {"OpenCL C", v(1, 0)}, {"OpenCL C", v(1, 1)}, {"OpenCL C", v(1, 2)}, {"OpenCL C", v(3, 0)}};
  return list;
}

std::string joinNames(const NameVersions &list) {
  std::string s;
  for (const auto &[name, version] : list) {
    if (!s.empty())
      s += ' ';
    s += name;
  }
  return s;
}

std::vector<cl_name_version> nameVersions(const NameVersions &list) {
  std::vector<cl_name_version> out(list.size());
  for (size_t i = 0; i < list.size(); ++i) {
    out[i].version = list[i].second;
    std::strncpy(out[i].name, list[i].first, CL_NAME_VERSION_MAX_NAME_SIZE - 1);
    out[i].name[CL_NAME_VERSION_MAX_NAME_SIZE - 1] = '\0';
  }
  return out;
}

} // namespace fibercl::runtime

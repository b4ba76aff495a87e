// The extension, feature and OpenCL C version lists.
#include "runtime/versions.hpp"

#include <CL/cl_fibercl.h>

#include <cstring>

namespace fibercl::runtime {

namespace {
constexpr cl_version v(unsigned major, unsigned minor, unsigned patch = 0) {
  return CL_MAKE_VERSION(major, minor, patch);
}
} // namespace

const NameVersions &platformExtensions() {
  static const NameVersions list = {{"cl_khr_icd", v(1, 0)},
                                    {CL_FIBERCL_SCHEDULING_EXTENSION_NAME, v(0, 1)}};
  return list;
}

// Must agree with FIBERCL_CL_EXT in the top-level CMakeLists.txt, which is what
// kernels are compiled with.
const NameVersions &deviceExtensions() {
  static const NameVersions list = {
      {"cl_khr_fp64", v(1, 0)},
      {"cl_khr_fp16", v(1, 0)},
      {"cl_khr_int64_base_atomics", v(1, 0)},
      {"cl_khr_int64_extended_atomics", v(1, 0)},
      {"cl_khr_global_int32_base_atomics", v(1, 0)},
      {"cl_khr_global_int32_extended_atomics", v(1, 0)},
      {"cl_khr_local_int32_base_atomics", v(1, 0)},
      {"cl_khr_local_int32_extended_atomics", v(1, 0)},
      {"cl_khr_byte_addressable_store", v(1, 0)},
      {"cl_khr_3d_image_writes", v(1, 0)},
      {"cl_khr_depth_images", v(1, 0)},
      {"cl_khr_image2d_from_buffer", v(1, 0)},
      {"cl_khr_subgroups", v(1, 0)},
      {CL_FIBERCL_SCHEDULING_EXTENSION_NAME, v(0, 1)},
  };
  return list;
}

const NameVersions &openclCFeatures() {
  static const NameVersions list = {
      {"__opencl_c_atomic_order_acq_rel", v(3, 0)},
      {"__opencl_c_atomic_order_seq_cst", v(3, 0)},
      {"__opencl_c_atomic_scope_device", v(3, 0)},
      {"__opencl_c_atomic_scope_all_devices", v(3, 0)},
      {"__opencl_c_generic_address_space", v(3, 0)},
      {"__opencl_c_program_scope_global_variables", v(3, 0)},
      {"__opencl_c_int64", v(3, 0)},
      {"__opencl_c_fp64", v(3, 0)},
      {"__opencl_c_work_group_collective_functions", v(3, 0)},
      {"__opencl_c_images", v(3, 0)},
      {"__opencl_c_read_write_images", v(3, 0)},
      {"__opencl_c_3d_image_writes", v(3, 0)},
      {"__opencl_c_subgroups", v(3, 0)},
  };
  return list;
}

const NameVersions &openclCVersions() {
  static const NameVersions list = {{"OpenCL C", v(1, 0)},
                                    {"OpenCL C", v(1, 1)},
                                    {"OpenCL C", v(1, 2)},
                                    {"OpenCL C", v(3, 0)}};
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

// Delegated platforms and devices: which vendor platforms FIBERCL_DELEGATE selects,
// what FiberCL calls them, and the platform/device queries (handles in answers are
// FiberCL's; extensions whose functions FiberCL does not forward are hidden).
#include "delegate/platforms.hpp"

#include <cstdio>
#include <cstdlib>

#include "delegate/forward.hpp"

namespace fibercl::delegate {
namespace {

// Extensions that add no host function, or only ones forwarded like core calls: the
// application may see them. Anything else (GL sharing, command buffers, external
// memory, vendor extensions, ...) would promise a function FiberCL does not wrap.
bool extensionIsForwarded(const std::string &name) {
  static const char *const kPrefixes[] = {"cl_khr_fp16",
                                          "cl_khr_fp64",
                                          "cl_khr_int64_",
                                          "cl_khr_global_int32_",
                                          "cl_khr_local_int32_",
                                          "cl_khr_byte_addressable_store",
                                          "cl_khr_3d_image_writes",
                                          "cl_khr_icd",
                                          "cl_khr_spir",
                                          "cl_khr_subgroup_",
                                          "cl_khr_extended_versioning",
                                          "cl_khr_device_uuid",
                                          "cl_khr_pci_bus_info",
                                          "cl_khr_integer_dot_product",
                                          "cl_khr_depth_images",
                                          "cl_khr_image2d_from_buffer",
                                          "cl_khr_priority_hints",
                                          "cl_khr_throttle_hints",
                                          "cl_khr_select_fprounding_mode",
                                          "cl_khr_mipmap_image",
                                          "cl_khr_srgb_image_writes",
                                          "cl_khr_work_group_uniform_arithmetic",
                                          "cl_khr_expect_assume",
                                          "cl_khr_extended_bit_ops",
                                          "cl_khr_kernel_clock",
                                          "cl_khr_initialize_memory",
                                          "cl_khr_spirv_",
                                          "cl_ext_float_atomics",
                                          "cl_ext_cxx_for_opencl",
                                          "cl_khr_extended_async_copies",
                                          "cl_khr_device_enqueue_local_arg_types"};
  for (const char *p : kPrefixes)
    if (name.compare(0, std::strlen(p), p) == 0)
      return true;
  return false;
}

std::string filterExtensionString(const char *s) {
  std::string out, word;
  auto flush = [&] {
    if (!word.empty() && extensionIsForwarded(word))
      out += (out.empty() ? "" : " ") + word;
    word.clear();
  };
  for (; *s; ++s) {
    if (*s == ' ')
      flush();
    else
      word += *s;
  }
  flush();
  return out;
}

std::vector<cl_name_version> filterNameVersions(const std::vector<unsigned char> &bytes) {
  std::vector<cl_name_version> out;
  const auto *nv = reinterpret_cast<const cl_name_version *>(bytes.data());
  for (size_t i = 0; i < bytes.size() / sizeof(cl_name_version); ++i)
    if (extensionIsForwarded(nv[i].name))
      out.push_back(nv[i]);
  return out;
}

Platform *makePlatform(const VendorPlatform &v) {
  auto *p = new Platform();
  p->dispatch = &forwardingDispatch();
  p->tag.store(Tag::DelegatedPlatform);
  p->refCount.store(1);
  p->holds.store(1);
  p->real = v.platform;
  p->platform = p;
  p->name = v.name;
  p->vendorName = v.vendor;
  p->library = v.library;
  p->shownName = v.shownName;
  cl_uint n = 0;
  if (v.dispatch->clGetDeviceIDs(v.platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &n) == CL_SUCCESS &&
      n) {
    std::vector<cl_device_id> ids(n);
    v.dispatch->clGetDeviceIDs(v.platform, CL_DEVICE_TYPE_ALL, n, ids.data(), nullptr);
    for (cl_device_id id : ids) {
      Device *d = wrap<Device>(Tag::DelegatedDevice, id, p);
      d->root = true;
      p->devices.push_back(d);
    }
  }
  return p;
}

} // namespace

const std::vector<Platform *> &delegatedPlatforms() {
  static const std::vector<Platform *> platforms = [] {
    std::vector<Platform *> out;
    for (const VendorPlatform &v : vendorPlatforms())
      out.push_back(makePlatform(v));
    return out;
  }();
  return platforms;
}

Obj *deviceFor(Platform *p, cl_device_id real) {
  for (Obj *d : p->devices)
    if (d->real == real)
      return d;
  Obj *o = findWrapper(real); // a sub-device
  return o && o->tag.load() == Tag::DelegatedDevice ? o : nullptr;
}

// The same list, whichever platform's table the call came through (runtime/api/).
cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms,
                                    cl_uint *num_platforms) {
  return ::clGetPlatformIDs(num_entries, platforms, num_platforms);
}

cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param, size_t size,
                                     void *value, size_t *size_ret) {
  auto *p = as<Platform>(platform, Tag::DelegatedPlatform);
  if (!p)
    return CL_INVALID_PLATFORM;
  auto ask = [&](size_t n, void *v, size_t *r) {
    return p->vendor().clGetPlatformInfo(static_cast<cl_platform_id>(p->real), param, n, v, r);
  };
  auto str = [&](const std::string &s) {
    return answer(s.c_str(), s.size() + 1, size, value, size_ret);
  };
  switch (param) {
  case CL_PLATFORM_NAME:
    return str(p->shownName);
  case CL_PLATFORM_VENDOR:
    return str("FiberCL, forwarding to " + p->vendorName);
  case CL_PLATFORM_ICD_SUFFIX_KHR:
    return str("FCL");
  case CL_PLATFORM_EXTENSIONS: {
    std::vector<unsigned char> bytes;
    if (cl_int err = vendorBytes(ask, bytes))
      return err;
    bytes.push_back(0);
    return str(filterExtensionString(reinterpret_cast<const char *>(bytes.data())));
  }
  case CL_PLATFORM_EXTENSIONS_WITH_VERSION: {
    std::vector<unsigned char> bytes;
    if (cl_int err = vendorBytes(ask, bytes))
      return err;
    std::vector<cl_name_version> kept = filterNameVersions(bytes);
    return answer(kept.data(), kept.size() * sizeof(cl_name_version), size, value, size_ret);
  }
  default:
    return ask(size, value, size_ret);
  }
}

cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type type, cl_uint num_entries,
                                  cl_device_id *devices, cl_uint *num_devices) {
  auto *p = as<Platform>(platform, Tag::DelegatedPlatform);
  if (!p)
    return CL_INVALID_PLATFORM;
  if ((num_entries == 0 && devices) || (!devices && !num_devices))
    return CL_INVALID_VALUE;
  cl_uint n = 0;
  auto real = static_cast<cl_platform_id>(p->real);
  if (cl_int err = p->vendor().clGetDeviceIDs(real, type, 0, nullptr, &n))
    return err;
  std::vector<cl_device_id> ids(n);
  if (cl_int err = p->vendor().clGetDeviceIDs(real, type, n, ids.data(), nullptr))
    return err;
  if (devices)
    for (cl_uint i = 0; i < n && i < num_entries; ++i)
      devices[i] = reinterpret_cast<cl_device_id>(deviceFor(p, ids[i]));
  if (num_devices)
    *num_devices = n;
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param, size_t size,
                                   void *value, size_t *size_ret) {
  auto *d = as<Device>(device, Tag::DelegatedDevice);
  if (!d)
    return CL_INVALID_DEVICE;
  auto ask = [&](size_t n, void *v, size_t *r) {
    return d->vendor().clGetDeviceInfo(static_cast<cl_device_id>(d->real), param, n, v, r);
  };
  switch (param) {
  case CL_DEVICE_PLATFORM:
    return answerScalar(reinterpret_cast<cl_platform_id>(d->platform), size, value, size_ret);
  case CL_DEVICE_PARENT_DEVICE:
    return answerScalar(reinterpret_cast<cl_device_id>(d->parents[0]), size, value, size_ret);
  case CL_DEVICE_REFERENCE_COUNT:
    return answerScalar<cl_uint>(d->refCount.load(), size, value, size_ret);
  case CL_DEVICE_EXTENSIONS: {
    std::vector<unsigned char> bytes;
    if (cl_int err = vendorBytes(ask, bytes))
      return err;
    bytes.push_back(0);
    std::string s = filterExtensionString(reinterpret_cast<const char *>(bytes.data()));
    return answer(s.c_str(), s.size() + 1, size, value, size_ret);
  }
  case CL_DEVICE_EXTENSIONS_WITH_VERSION: {
    std::vector<unsigned char> bytes;
    if (cl_int err = vendorBytes(ask, bytes))
      return err;
    std::vector<cl_name_version> kept = filterNameVersions(bytes);
    return answer(kept.data(), kept.size() * sizeof(cl_name_version), size, value, size_ret);
  }
  default:
    return ask(size, value, size_ret);
  }
}

cl_int CL_API_CALL clCreateSubDevices(cl_device_id in_device,
                                      const cl_device_partition_property *properties,
                                      cl_uint num_devices, cl_device_id *out_devices,
                                      cl_uint *num_devices_ret) {
  auto *d = as<Device>(in_device, Tag::DelegatedDevice);
  if (!d)
    return CL_INVALID_DEVICE;
  if (!d->vendor().clCreateSubDevices)
    return CL_INVALID_OPERATION;
  cl_uint n = 0;
  auto real = static_cast<cl_device_id>(d->real);
  if (cl_int err = d->vendor().clCreateSubDevices(real, properties, 0, nullptr, &n))
    return err;
  if (num_devices_ret)
    *num_devices_ret = n;
  if (!out_devices)
    return CL_SUCCESS;
  if (num_devices < n)
    return CL_INVALID_VALUE;
  std::vector<cl_device_id> ids(n);
  if (cl_int err = d->vendor().clCreateSubDevices(real, properties, n, ids.data(), nullptr))
    return err;
  for (cl_uint i = 0; i < n; ++i)
    out_devices[i] =
        reinterpret_cast<cl_device_id>(wrap<Device>(Tag::DelegatedDevice, ids[i], d->platform, d));
  return CL_SUCCESS;
}

cl_int CL_API_CALL clRetainDevice(cl_device_id device) {
  auto *d = as<Device>(device, Tag::DelegatedDevice);
  if (!d)
    return CL_INVALID_DEVICE;
  if (!d->root)
    appRetain(d);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseDevice(cl_device_id device) {
  auto *d = as<Device>(device, Tag::DelegatedDevice);
  if (!d)
    return CL_INVALID_DEVICE;
  if (!d->root)
    appRelease(d);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clUnloadCompiler() { return CL_SUCCESS; }

cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
  auto *p = as<Platform>(platform, Tag::DelegatedPlatform);
  if (!p)
    return CL_INVALID_PLATFORM;
  auto fn = p->vendor().clUnloadPlatformCompiler;
  return fn ? fn(static_cast<cl_platform_id>(p->real)) : CL_SUCCESS;
}

cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id device, cl_ulong *device_timestamp,
                                           cl_ulong *host_timestamp) {
  auto *d = as<Device>(device, Tag::DelegatedDevice);
  if (!d)
    return CL_INVALID_DEVICE;
  auto fn = d->vendor().clGetDeviceAndHostTimer;
  return fn ? fn(static_cast<cl_device_id>(d->real), device_timestamp, host_timestamp)
            : CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clGetHostTimer(cl_device_id device, cl_ulong *host_timestamp) {
  auto *d = as<Device>(device, Tag::DelegatedDevice);
  if (!d)
    return CL_INVALID_DEVICE;
  auto fn = d->vendor().clGetHostTimer;
  return fn ? fn(static_cast<cl_device_id>(d->real), host_timestamp) : CL_INVALID_OPERATION;
}

} // namespace fibercl::delegate

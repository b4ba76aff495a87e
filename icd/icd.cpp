// The symbols an ICD loader looks up in libfibercl.so: clIcdGetPlatformIDsKHR and
// the extension function lookups (names generated from entry_points.def).
#include "icd/icd.hpp"
#include "runtime/platform.hpp"

#include <CL/cl_ext.h>

#include <cstring>

using namespace fibercl;

namespace fibercl::icd {

extern "C" {

cl_int CL_API_CALL fcl_clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms,
                                              cl_uint *num_platforms) {
  // FiberCL's own platform, and one per vendor platform FIBERCL_DELEGATE selects: the
  // list clGetPlatformIDs gives (runtime/api/platform_api.cpp).
  return ::clGetPlatformIDs(num_entries, platforms, num_platforms);
}

// cl_khr_subgroups' name of the OpenCL 2.1 core function, through the kernel's own
// dispatch table (FiberCL's, or a delegated vendor's forwarding one).
cl_int CL_API_CALL fcl_clGetKernelSubGroupInfoKHR(cl_kernel kernel, cl_device_id device,
                                                  cl_kernel_sub_group_info param_name,
                                                  size_t input_value_size, const void *input_value,
                                                  size_t param_value_size, void *param_value,
                                                  size_t *param_value_size_ret) {
  if (!kernel)
    return CL_INVALID_KERNEL;
  auto *dispatch = *reinterpret_cast<const cl_icd_dispatch *const *>(kernel);
  return dispatch->clGetKernelSubGroupInfo(kernel, device, param_name, input_value_size,
                                           input_value, param_value_size, param_value,
                                           param_value_size_ret);
}

// The loader calls this one on each of FiberCL's platforms, CPU or delegated: it goes
// through the platform's own dispatch table.
static cl_int CL_API_CALL loader_clGetPlatformInfo(cl_platform_id platform, cl_platform_info param,
                                                   size_t size, void *value, size_t *size_ret) {
  if (!platform)
    return CL_INVALID_PLATFORM;
  auto *dispatch = *reinterpret_cast<const cl_icd_dispatch *const *>(platform);
  return dispatch->clGetPlatformInfo(platform, param, size, value, size_ret);
}

void *CL_API_CALL fcl_clGetExtensionFunctionAddress(const char *func_name) {
  if (!func_name)
    return nullptr;
  // Only extension functions: core functions are found through the loader, and
  // the specification says the lookup returns NULL for them.
#define FCL_API(name)
#define FCL_ICD(name)
#define FCL_NONE(name)
#define FCL_EXTENSION(name)                                                                        \
  if (std::strcmp(func_name, #name) == 0)                                                          \
    return reinterpret_cast<void *>(&fcl_##name);
#define FCL_LOADER(name)                                                                           \
  if (std::strcmp(func_name, #name) == 0)                                                          \
    return reinterpret_cast<void *>(&loader_##name);
#include "runtime/api/entry_points.def"
#undef FCL_API
#undef FCL_ICD
#undef FCL_NONE
#undef FCL_EXTENSION
#undef FCL_LOADER
  return nullptr;
}

void *CL_API_CALL fcl_clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                               const char *func_name) {
  // Returns NULL if platform is not FiberCL's CPU platform: a delegated platform
  // offers no extension function (its extension list is filtered to match).
  if (!runtime::Platform::fromHandle(platform))
    return nullptr;
  return fcl_clGetExtensionFunctionAddress(func_name);
}

} // extern "C"

} // namespace fibercl::icd

// The exported names (icd/fibercl.map), forwarding to the internal ones.
extern "C" {

__attribute__((visibility("default"))) cl_int CL_API_CALL
clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms) {
  return icd::fcl_clIcdGetPlatformIDsKHR(num_entries, platforms, num_platforms);
}

__attribute__((visibility("default"))) void *CL_API_CALL
clGetExtensionFunctionAddress(const char *func_name) {
  return icd::fcl_clGetExtensionFunctionAddress(func_name);
}

__attribute__((visibility("default"))) void *CL_API_CALL
clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char *func_name) {
  return icd::fcl_clGetExtensionFunctionAddressForPlatform(platform, func_name);
}

} // extern "C"

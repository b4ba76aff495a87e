// The symbols an ICD loader looks up in libfibercl.so: clIcdGetPlatformIDsKHR and
// the extension function lookups (names generated from entry_points.def).
#include "icd/icd.hpp"
#include "icd/forwarded_device.hpp"
#include "runtime/platform.hpp"

#include <CL/cl_ext.h>

#include <cstring>

using namespace fibercl;

namespace fibercl::icd {

extern "C" {

cl_int CL_API_CALL fcl_clIcdGetPlatformIDsKHR(cl_uint num_entries,
                                              cl_platform_id *platforms,
                                              cl_uint *num_platforms) {
  // CL_INVALID_VALUE if num_entries is equal to zero and platforms is not NULL or if
  // both num_platforms and platforms are NULL.
  if ((num_entries == 0 && platforms) || (!num_platforms && !platforms))
    return CL_INVALID_VALUE;
  // The loader asks this first: the delegated devices join the platform's list.
  static const bool delegation = [] {
    runtime::Platform::setMoreDevices(&delegatedDevices);
    return true;
  }();
  (void)delegation;
  if (platforms)
    platforms[0] = runtime::Platform::get().handle();
  if (num_platforms)
    *num_platforms = 1;
  return CL_SUCCESS;
}

void *CL_API_CALL fcl_clGetExtensionFunctionAddress(const char *func_name) {
  if (!func_name)
    return nullptr;
  // Only extension functions: core functions are found through the loader, and
  // the specification says the lookup returns NULL for them.
#define FCL_API(name)
#define FCL_ICD(name)
#define FCL_NONE(name)
#define FCL_EXTENSION(name)                                                          \
  if (std::strcmp(func_name, #name) == 0)                                            \
    return reinterpret_cast<void *>(&fcl_##name);
#define FCL_LOADER(name)                                                             \
  if (std::strcmp(func_name, #name) == 0)                                            \
    return reinterpret_cast<void *>(&::name);
#include "icd/entry_points.def"
#undef FCL_API
#undef FCL_ICD
#undef FCL_NONE
#undef FCL_EXTENSION
#undef FCL_LOADER
  return nullptr;
}

void *CL_API_CALL fcl_clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                               const char *func_name) {
  // Returns NULL if platform is not FiberCL's.
  if (!runtime::Platform::fromHandle(platform))
    return nullptr;
  return fcl_clGetExtensionFunctionAddress(func_name);
}

} // extern "C"

} // namespace fibercl::icd

// The exported names (icd/fibercl.map), forwarding to the internal ones.
extern "C" {

__attribute__((visibility("default"))) cl_int CL_API_CALL
clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms,
                       cl_uint *num_platforms) {
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

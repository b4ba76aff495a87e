// The ICD layer's own entry points (the three exported symbols) under internal
// names, so the dispatch table can never bind to another library's same-named ones.
#pragma once

#include <CL/cl.h>
#include <CL/cl_icd.h>

namespace fibercl::icd {

extern const cl_icd_dispatch kDispatch;

extern "C" {
cl_int CL_API_CALL fcl_clIcdGetPlatformIDsKHR(cl_uint num_entries,
                                              cl_platform_id *platforms,
                                              cl_uint *num_platforms);
void *CL_API_CALL fcl_clGetExtensionFunctionAddress(const char *func_name);
void *CL_API_CALL fcl_clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                               const char *func_name);
}

} // namespace fibercl::icd

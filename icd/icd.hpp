// The ICD layer's own entry points (the three exported symbols) under internal
// names, so the dispatch table can never bind to another library's same-named ones.
#pragma once

#include <CL/cl.h>
#include <CL/cl_icd.h>

namespace fibercl::icd {

// The dispatch tables (dispatch.cpp): the runtime's objects', delegated handles'.
extern const cl_icd_dispatch kDispatch;
extern const cl_icd_dispatch kForwardingDispatch;

extern "C" {
cl_int CL_API_CALL fcl_clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms,
                                              cl_uint *num_platforms);
void *CL_API_CALL fcl_clGetExtensionFunctionAddress(const char *func_name);
cl_int CL_API_CALL fcl_clGetKernelSubGroupInfoKHR(cl_kernel kernel, cl_device_id device,
                                                  cl_kernel_sub_group_info param_name,
                                                  size_t input_value_size, const void *input_value,
                                                  size_t param_value_size, void *param_value,
                                                  size_t *param_value_size_ret);
void *CL_API_CALL fcl_clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                               const char *func_name);
}

} // namespace fibercl::icd

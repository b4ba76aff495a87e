// Entry points of optional features the device does not report (pipes): present in
// the dispatch table, returning the errors the specification gives for a device
// without them.
#include "runtime/api/entry.hpp"
#include "runtime/context.hpp"
#include "runtime/memory.hpp"
#include "runtime/queue.hpp"

using namespace fibercl::runtime;
using namespace fibercl::runtime::api;

extern "C" {

cl_mem CL_API_CALL clCreatePipe(cl_context context, cl_mem_flags flags,
                                cl_uint pipe_packet_size, cl_uint pipe_max_packets,
                                const cl_pipe_properties *properties,
                                cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&]() -> cl_mem {
    obj<Context>(context, "context");
    // CL_INVALID_OPERATION if no devices in context support pipes.
    throw Error(CL_INVALID_OPERATION, "the device has no pipe support");
  });
}

cl_int CL_API_CALL clGetPipeInfo(cl_mem pipe, cl_pipe_info param_name,
                                 size_t param_value_size, void *param_value,
                                 size_t *param_value_size_ret) {
  return call(__func__, [&] {
    // CL_INVALID_MEM_OBJECT if pipe is a not a valid pipe object.
    throw Error(CL_INVALID_MEM_OBJECT, "pipe is not a pipe object");
  });
}

} // extern "C"

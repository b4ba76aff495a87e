// Entry points of optional features the device does not report (pipes, SVM): present
// in the dispatch table, returning the errors the specification gives for a device
// without them.
#include "runtime/api/entry.hpp"
#include "runtime/context.hpp"
#include "runtime/memory.hpp"
#include "runtime/queue.hpp"

using namespace fibercl::runtime;
using namespace fibercl::runtime::api;

namespace {

[[noreturn]] void noSvm() {
  // CL_INVALID_OPERATION if the device associated with command_queue does not
  // support SVM (CL_DEVICE_SVM_CAPABILITIES is 0).
  throw Error(CL_INVALID_OPERATION, "the device has no SVM support");
}

} // namespace

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

void *CL_API_CALL clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size,
                             cl_uint alignment) {
  // Returns NULL: no device in context supports SVM.
  return nullptr;
}

void CL_API_CALL clSVMFree(cl_context context, void *svm_pointer) {
  // Nothing can have been allocated by clSVMAlloc.
}

cl_int CL_API_CALL clEnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers,
                                    void *svm_pointers[],
                                    void(CL_CALLBACK *pfn_free_func)(cl_command_queue,
                                                                     cl_uint, void *[],
                                                                     void *),
                                    void *user_data, cl_uint num_events_in_wait_list,
                                    const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    obj<Queue>(command_queue, "command_queue");
    noSvm();
  });
}

cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy,
                                      void *dst_ptr, const void *src_ptr, size_t size,
                                      cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    obj<Queue>(command_queue, "command_queue");
    noSvm();
  });
}

cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue command_queue, void *svm_ptr,
                                       const void *pattern, size_t pattern_size,
                                       size_t size, cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    obj<Queue>(command_queue, "command_queue");
    noSvm();
  });
}

cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map,
                                   cl_map_flags flags, void *svm_ptr, size_t size,
                                   cl_uint num_events_in_wait_list,
                                   const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    obj<Queue>(command_queue, "command_queue");
    noSvm();
  });
}

cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue command_queue, void *svm_ptr,
                                     cl_uint num_events_in_wait_list,
                                     const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    obj<Queue>(command_queue, "command_queue");
    noSvm();
  });
}

cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue command_queue,
                                          cl_uint num_svm_pointers,
                                          const void **svm_pointers, const size_t *sizes,
                                          cl_mem_migration_flags flags,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list,
                                          cl_event *event) {
  return call(__func__, [&] {
    obj<Queue>(command_queue, "command_queue");
    noSvm();
  });
}

} // extern "C"

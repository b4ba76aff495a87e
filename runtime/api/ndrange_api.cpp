// clEnqueueNDRangeKernel and its relatives: the handles are checked here; the
// command is built in the core (runtime/kernel_launch.hpp).
#include "runtime/api/enqueue.hpp"
#include "runtime/context.hpp"
#include "runtime/kernel.hpp"
#include "runtime/kernel_launch.hpp"
#include "runtime/program.hpp"

using namespace fibercl::runtime;
using namespace fibercl::runtime::api;

namespace {

void enqueueKernel(cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                   const size_t *global_work_offset, const size_t *global_work_size,
                   const size_t *local_work_size, cl_uint num_events_in_wait_list,
                   const cl_event *event_wait_list, cl_event *event, cl_command_type type) {
  // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
  Queue &q = obj<Queue>(command_queue, "command_queue");
  // CL_INVALID_KERNEL if kernel is not a valid kernel object.
  Kernel &k = obj<Kernel>(kernel, "kernel");
  // CL_INVALID_CONTEXT if context associated with command_queue and kernel are not
  // the same.
  check(&k.program().context() != &q.context(), CL_INVALID_CONTEXT,
        "the kernel and the queue belong to different contexts");
  // CL_INVALID_KERNEL_ARGS if the kernel argument values have not been specified.
  check(!k.allArgsSet(), CL_INVALID_KERNEL_ARGS, "some kernel arguments are not set");
  // CL_INVALID_WORK_DIMENSION if work_dim is not a valid value (i.e. a value
  // between 1 and CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS).
  check(work_dim < 1 || work_dim > 3, CL_INVALID_WORK_DIMENSION, "work_dim must be 1..3");
  auto wait = waitList(num_events_in_wait_list, event_wait_list, &q.context());

  std::unique_ptr<Command> cmd =
      buildKernelLaunch(q, k, {work_dim, global_work_offset, global_work_size, local_work_size});
  submit(q, type, std::move(cmd), wait, event, false);
}

} // namespace

extern "C" {

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel,
                                          cl_uint work_dim, const size_t *global_work_offset,
                                          const size_t *global_work_size,
                                          const size_t *local_work_size,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    enqueueKernel(command_queue, kernel, work_dim, global_work_offset, global_work_size,
                  local_work_size, num_events_in_wait_list, event_wait_list, event,
                  CL_COMMAND_NDRANGE_KERNEL);
  });
}

cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                                 cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                 cl_event *event) {
  return call(__func__, [&] {
    // Equivalent to clEnqueueNDRangeKernel with work_dim = 1, global_work_offset =
    // NULL, global_work_size[0] = 1 and local_work_size[0] = 1.
    const size_t one = 1;
    enqueueKernel(command_queue, kernel, 1, nullptr, &one, &one, num_events_in_wait_list,
                  event_wait_list, event, CL_COMMAND_TASK);
  });
}

cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue command_queue,
                                         void(CL_CALLBACK *user_func)(void *), void *args,
                                         size_t cb_args, cl_uint num_mem_objects,
                                         const cl_mem *mem_list, const void **args_mem_loc,
                                         cl_uint num_events_in_wait_list,
                                         const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    obj<Queue>(command_queue, "command_queue");
    // CL_INVALID_OPERATION if the device associated with command_queue cannot
    // execute the native kernel (CL_EXEC_NATIVE_KERNEL is not reported).
    throw Error(CL_INVALID_OPERATION, "native kernels are not supported");
  });
}

} // extern "C"

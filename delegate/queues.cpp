// Command queues on delegated devices. clFinish waits through FiberCL's timed wait,
// so a command that never completes is reported instead of hanging the caller.
#include "delegate/forward.hpp"

namespace fibercl::delegate {
namespace {

cl_command_queue wrapQueue(cl_command_queue real, Obj *context, Obj *device) {
  auto *q = wrap<Queue>(Tag::DelegatedQueue, real, context->platform, context);
  q->device = device;
  cl_command_queue_properties props = 0;
  q->vendor().clGetCommandQueueInfo(real, CL_QUEUE_PROPERTIES, sizeof props, &props, nullptr);
  q->inOrder = !(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  hold(device);
  return reinterpret_cast<cl_command_queue>(q);
}

} // namespace

cl_command_queue CL_API_CALL
clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                   const cl_queue_properties *properties, cl_int *errcode_ret) {
  Obj *c = as(context, Tag::DelegatedContext);
  if (!c)
    return withError<cl_command_queue>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  Obj *d = as(device, Tag::DelegatedDevice);
  if (!d)
    return withError<cl_command_queue>(errcode_ret, CL_INVALID_DEVICE, nullptr);
  cl_int err = CL_SUCCESS;
  cl_command_queue q = nullptr;
  auto realContext = static_cast<cl_context>(c->real);
  auto realDevice = static_cast<cl_device_id>(d->real);
  if (auto fn = c->vendor().clCreateCommandQueueWithProperties) {
    q = fn(realContext, realDevice, properties, &err);
  } else { // an OpenCL 1.x vendor: only CL_QUEUE_PROPERTIES can be passed on
    cl_command_queue_properties flags = 0;
    for (const cl_queue_properties *p = properties; p && *p; p += 2) {
      if (p[0] != CL_QUEUE_PROPERTIES)
        return withError<cl_command_queue>(errcode_ret, CL_INVALID_QUEUE_PROPERTIES, nullptr);
      flags = p[1];
    }
    q = c->vendor().clCreateCommandQueue(realContext, realDevice, flags, &err);
  }
  if (!q)
    return withError<cl_command_queue>(errcode_ret, err ? err : CL_OUT_OF_HOST_MEMORY, nullptr);
  return withError(errcode_ret, CL_SUCCESS, wrapQueue(q, c, d));
}

cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context context, cl_device_id device,
                                                  cl_command_queue_properties properties,
                                                  cl_int *errcode_ret) {
  const cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, properties, 0};
  return delegate::clCreateCommandQueueWithProperties(context, device, properties ? list : nullptr,
                                                      errcode_ret);
}

cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue queue) {
  Obj *q = as(queue, Tag::DelegatedQueue);
  if (!q)
    return CL_INVALID_COMMAND_QUEUE;
  appRetain(q);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue queue) {
  Obj *q = as(queue, Tag::DelegatedQueue);
  if (!q)
    return CL_INVALID_COMMAND_QUEUE;
  // Releasing a queue flushes it (the specification); the vendor does that too.
  appRelease(q);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue queue, cl_command_queue_info param,
                                         size_t size, void *value, size_t *size_ret) {
  auto *q = as<Queue>(queue, Tag::DelegatedQueue);
  if (!q)
    return CL_INVALID_COMMAND_QUEUE;
  switch (param) {
  case CL_QUEUE_CONTEXT:
    return answerScalar(reinterpret_cast<cl_context>(q->parents[0]), size, value, size_ret);
  case CL_QUEUE_DEVICE:
    return answerScalar(reinterpret_cast<cl_device_id>(q->device), size, value, size_ret);
  case CL_QUEUE_REFERENCE_COUNT:
    return answerScalar<cl_uint>(q->refCount.load(), size, value, size_ret);
  case CL_QUEUE_DEVICE_DEFAULT: {
    cl_command_queue real = nullptr;
    if (cl_int err = q->vendor().clGetCommandQueueInfo(static_cast<cl_command_queue>(q->real),
                                                       param, sizeof real, &real, nullptr))
      return err;
    // Only a queue the application made has a FiberCL handle.
    return answerScalar(reinterpret_cast<cl_command_queue>(findWrapper(real)), size, value,
                        size_ret);
  }
  default:
    return q->vendor().clGetCommandQueueInfo(static_cast<cl_command_queue>(q->real), param, size,
                                             value, size_ret);
  }
}

cl_int CL_API_CALL clSetCommandQueueProperty(cl_command_queue queue,
                                             cl_command_queue_properties properties, cl_bool enable,
                                             cl_command_queue_properties *old_properties) {
  Obj *q = as(queue, Tag::DelegatedQueue);
  if (!q)
    return CL_INVALID_COMMAND_QUEUE;
  auto fn = q->vendor().clSetCommandQueueProperty;
  return fn ? fn(static_cast<cl_command_queue>(q->real), properties, enable, old_properties)
            : CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device,
                                                  cl_command_queue command_queue) {
  Obj *c = as(context, Tag::DelegatedContext);
  if (!c)
    return CL_INVALID_CONTEXT;
  Obj *d = as(device, Tag::DelegatedDevice);
  if (!d)
    return CL_INVALID_DEVICE;
  Obj *q = as(command_queue, Tag::DelegatedQueue);
  if (!q)
    return CL_INVALID_COMMAND_QUEUE;
  auto fn = c->vendor().clSetDefaultDeviceCommandQueue;
  return fn ? fn(static_cast<cl_context>(c->real), static_cast<cl_device_id>(d->real),
                 static_cast<cl_command_queue>(q->real))
            : CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clFlush(cl_command_queue queue) {
  Obj *q = as(queue, Tag::DelegatedQueue);
  if (!q)
    return CL_INVALID_COMMAND_QUEUE;
  return q->vendor().clFlush(static_cast<cl_command_queue>(q->real));
}

cl_int CL_API_CALL clFinish(cl_command_queue queue) {
  auto *q = as<Queue>(queue, Tag::DelegatedQueue);
  if (!q)
    return CL_INVALID_COMMAND_QUEUE;
  // A marker completes when everything before it has (in-order or not), so waiting
  // on it with a time limit is clFinish with a time limit.
  auto real = static_cast<cl_command_queue>(q->real);
  cl_event marker = nullptr;
  cl_int err = q->vendor().clEnqueueMarkerWithWaitList
                   ? q->vendor().clEnqueueMarkerWithWaitList(real, 0, nullptr, &marker)
                   : q->vendor().clEnqueueMarker(real, &marker);
  if (err != CL_SUCCESS)
    return q->vendor().clFinish(real);
  bool done = waitOrReport(q, marker, "clFinish", true);
  q->vendor().clReleaseEvent(marker);
  if (!done)
    return CL_OUT_OF_RESOURCES;      // reported; the commands may still complete later
  return q->vendor().clFinish(real); // returns at once: surfaces the vendor's own errors
}

} // namespace fibercl::delegate

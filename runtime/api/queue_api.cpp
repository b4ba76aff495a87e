// Entry points for command queues, clFlush/clFinish and markers/barriers.
#include "runtime/api/enqueue.hpp"
#include "runtime/context.hpp"

using namespace fibercl::runtime;
using namespace fibercl::runtime::api;

namespace fibercl::runtime::api {

Ref<Event> submit(Queue &queue, cl_command_type type, std::unique_ptr<Command> command,
                  const std::vector<Ref<Event>> &waitList, cl_event *event, bool blocking,
                  Queue::Sync sync) {
  Ref<Event> ev = queue.enqueue(type, std::move(command), waitList, sync);
  if (event) {
    ev->retain();
    *event = ev->handle();
  }
  if (blocking) {
    waitFor(*ev);
    check(ev->status() < 0, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
          "the command or a command it waited for failed");
  }
  return ev;
}

} // namespace fibercl::runtime::api

namespace {

constexpr cl_command_queue_properties kKnownQueueProps =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_ON_DEVICE |
    CL_QUEUE_ON_DEVICE_DEFAULT;

void checkQueueProps(cl_command_queue_properties props) {
  // CL_INVALID_VALUE if values specified in properties are not valid.
  check(props & ~kKnownQueueProps, CL_INVALID_VALUE, "unknown queue property bits");
  check((props & CL_QUEUE_ON_DEVICE_DEFAULT) && !(props & CL_QUEUE_ON_DEVICE), CL_INVALID_VALUE,
        "CL_QUEUE_ON_DEVICE_DEFAULT without CL_QUEUE_ON_DEVICE");
  check((props & CL_QUEUE_ON_DEVICE) && !(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE),
        CL_INVALID_VALUE, "CL_QUEUE_ON_DEVICE requires out-of-order execution");
  // CL_INVALID_QUEUE_PROPERTIES if values specified in properties are valid but are
  // not supported by the device (no device-side enqueue).
  check(props & CL_QUEUE_ON_DEVICE, CL_INVALID_QUEUE_PROPERTIES,
        "on-device queues are not supported");
}

Ref<Queue> createQueue(cl_context context, cl_device_id device, cl_command_queue_properties props,
                       std::vector<cl_queue_properties> array) {
  // CL_INVALID_CONTEXT if context is not a valid context.
  Context &ctx = obj<Context>(context, "context");
  // CL_INVALID_DEVICE if device is not a valid device or is not associated with
  // context.
  Device &dev = obj<Device>(device, "device");
  check(!ctx.hasDevice(dev), CL_INVALID_DEVICE, "device is not in context");
  checkQueueProps(props);
  return make<Queue>(ctx, dev, props, std::move(array));
}

} // namespace

extern "C" {

cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context context, cl_device_id device,
                                                  cl_command_queue_properties properties,
                                                  cl_int *errcode_ret) {
  return create(__func__, errcode_ret,
                [&] { return give(createQueue(context, device, properties, {})); });
}

cl_command_queue CL_API_CALL
clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                   const cl_queue_properties *properties, cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&] {
    cl_command_queue_properties props = 0;
    std::vector<cl_queue_properties> array;
    bool sawSize = false;
    if (properties) {
      bool sawProps = false;
      for (const cl_queue_properties *p = properties; *p; p += 2) {
        switch (p[0]) {
        case CL_QUEUE_PROPERTIES:
          // CL_INVALID_VALUE if values specified in properties are not valid.
          check(sawProps, CL_INVALID_VALUE, "CL_QUEUE_PROPERTIES given twice");
          sawProps = true;
          props = cl_command_queue_properties(p[1]);
          break;
        case CL_QUEUE_SIZE:
          check(sawSize, CL_INVALID_VALUE, "CL_QUEUE_SIZE given twice");
          sawSize = true;
          break;
        default:
          throw Error(CL_INVALID_VALUE, "unknown queue property");
        }
        array.push_back(p[0]);
        array.push_back(p[1]);
      }
      array.push_back(0);
    }
    if (sawSize) {
      // Validate the context and device first, then refuse: CL_QUEUE_SIZE is for
      // on-device queues, which the device does not support.
      createQueue(context, device, props & ~(CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT), {});
      throw Error(CL_INVALID_QUEUE_PROPERTIES, "CL_QUEUE_SIZE: no on-device queues");
    }
    return give(createQueue(context, device, props, std::move(array)));
  });
}

cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue command_queue) {
  return call(__func__, [&] { obj<Queue>(command_queue, "command_queue").retain(); });
}

cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue command_queue) {
  return call(__func__, [&] {
    // Commands are submitted as soon as they are ready (the implicit flush); the
    // queue lives on, through its commands' events, until they are done.
    obj<Queue>(command_queue, "command_queue").release();
  });
}

cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue command_queue,
                                         cl_command_queue_info param_name, size_t param_value_size,
                                         void *param_value, size_t *param_value_size_ret) {
  return call(__func__, [&] {
    // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue.
    Queue &q = obj<Queue>(command_queue, "command_queue");
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
    case CL_QUEUE_CONTEXT:
      return out.scalar<cl_context>(q.context().handle());
    case CL_QUEUE_DEVICE:
      return out.scalar<cl_device_id>(q.device().handle());
    case CL_QUEUE_REFERENCE_COUNT:
      return out.scalar<cl_uint>(q.refs());
    case CL_QUEUE_PROPERTIES:
      return out.scalar<cl_command_queue_properties>(q.properties());
    case CL_QUEUE_PROPERTIES_ARRAY:
      return out.array(q.propertiesArray());
    case CL_QUEUE_SIZE:
      // ... or if command_queue is not a valid command-queue for param_name.
      throw Error(CL_INVALID_COMMAND_QUEUE, "CL_QUEUE_SIZE of a host queue");
    case CL_QUEUE_DEVICE_DEFAULT:
      return out.scalar<cl_command_queue>(nullptr);
    default:
      badParam();
    }
  });
}

cl_int CL_API_CALL clSetCommandQueueProperty(cl_command_queue command_queue,
                                             cl_command_queue_properties properties, cl_bool enable,
                                             cl_command_queue_properties *old_properties) {
  return call(__func__, [&] {
    obj<Queue>(command_queue, "command_queue");
    // Deprecated in OpenCL 1.1; properties are fixed at creation here.
    throw Error(CL_INVALID_OPERATION, "queue properties cannot be changed");
  });
}

cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device,
                                                  cl_command_queue command_queue) {
  return call(__func__, [&] {
    Context &ctx = obj<Context>(context, "context");
    Device &dev = obj<Device>(device, "device");
    check(!ctx.hasDevice(dev), CL_INVALID_DEVICE, "device is not in context");
    // CL_INVALID_OPERATION if device does not support a replaceable default
    // on-device queue.
    throw Error(CL_INVALID_OPERATION, "no on-device queues");
  });
}

cl_int CL_API_CALL clFlush(cl_command_queue command_queue) {
  return call(__func__, [&] {
    // Commands are handed to the device as soon as they are ready: nothing to do.
    obj<Queue>(command_queue, "command_queue");
  });
}

cl_int CL_API_CALL clFinish(cl_command_queue command_queue) {
  return call(__func__, [&] { obj<Queue>(command_queue, "command_queue").finish(); });
}

cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue command_queue,
                                               cl_uint num_events_in_wait_list,
                                               const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    auto wait = waitList(num_events_in_wait_list, event_wait_list, &q.context());
    submit(q, CL_COMMAND_MARKER, nullptr, wait, event, false, Queue::Sync::Marker);
  });
}

cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue command_queue,
                                                cl_uint num_events_in_wait_list,
                                                const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    auto wait = waitList(num_events_in_wait_list, event_wait_list, &q.context());
    submit(q, CL_COMMAND_BARRIER, nullptr, wait, event, false, Queue::Sync::Barrier);
  });
}

cl_int CL_API_CALL clEnqueueMarker(cl_command_queue command_queue, cl_event *event) {
  return call(__func__, [&] {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    // CL_INVALID_VALUE if event is NULL.
    check(!event, CL_INVALID_VALUE, "event is NULL");
    submit(q, CL_COMMAND_MARKER, nullptr, {}, event, false, Queue::Sync::Marker);
  });
}

cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue command_queue) {
  return call(__func__, [&] {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    submit(q, CL_COMMAND_BARRIER, nullptr, {}, nullptr, false, Queue::Sync::Barrier);
  });
}

cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue command_queue, cl_uint num_events,
                                          const cl_event *event_list) {
  return call(__func__, [&] {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    // CL_INVALID_VALUE if num_events is 0 or event_list is NULL.
    check(num_events == 0 || !event_list, CL_INVALID_VALUE, "no events given");
    std::vector<Ref<Event>> wait;
    for (cl_uint i = 0; i < num_events; ++i) {
      // CL_INVALID_EVENT if event objects specified in event_list are not valid.
      Event &ev = obj<Event>(event_list[i], "event_list[i]");
      // CL_INVALID_CONTEXT if the context associated with command_queue and events
      // in event_list are not the same.
      check(&ev.context() != &q.context(), CL_INVALID_CONTEXT,
            "an event belongs to another context");
      wait.emplace_back(ev);
    }
    // Later commands wait for these events: a barrier on them.
    submit(q, CL_COMMAND_BARRIER, nullptr, wait, nullptr, false, Queue::Sync::Barrier);
  });
}

} // extern "C"

// Events on delegated devices: waits go through FiberCL's timed wait (a command that
// never completes is reported), callbacks get FiberCL's handle.
#include "delegate/forward.hpp"

namespace fibercl::delegate {
namespace {

struct EventNotify {
  void(CL_CALLBACK *pfn)(cl_event, cl_int, void *);
  void *userData;
  Obj *event; // held until the call
  static void CL_CALLBACK call(cl_event, cl_int status, void *self) {
    auto *n = static_cast<EventNotify *>(self);
    n->pfn(reinterpret_cast<cl_event>(n->event), status, n->userData);
    unhold(n->event);
    delete n;
  }
};

} // namespace

cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event *event_list) {
  if (num_events == 0 || !event_list)
    return CL_INVALID_VALUE;
  WaitList events(num_events, event_list);
  if (events.error)
    return CL_INVALID_EVENT;
  bool timedOut = false;
  for (cl_uint i = 0; i < num_events; ++i) {
    auto *queue =
        static_cast<Queue *>(static_cast<Obj *>(static_cast<void *>(event_list[i]))->parents[1]);
    if (queue && !waitOrReport(queue, events.events[i], "clWaitForEvents", false))
      timedOut = true;
  }
  if (timedOut)
    return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  // Every command event is complete now; user events are waited on without a limit
  // (the application completes them).
  Obj *first = as(event_list[0], Tag::DelegatedEvent);
  return first->vendor().clWaitForEvents(events.count(), events.data());
}

cl_int CL_API_CALL clGetEventInfo(cl_event event, cl_event_info param, size_t size, void *value,
                                  size_t *size_ret) {
  Obj *e = as(event, Tag::DelegatedEvent);
  if (!e)
    return CL_INVALID_EVENT;
  switch (param) {
  case CL_EVENT_CONTEXT:
    return answerScalar(reinterpret_cast<cl_context>(e->parents[0]), size, value, size_ret);
  case CL_EVENT_COMMAND_QUEUE:
    return answerScalar(reinterpret_cast<cl_command_queue>(e->parents[1]), size, value, size_ret);
  case CL_EVENT_REFERENCE_COUNT:
    return answerScalar<cl_uint>(e->refCount.load(), size, value, size_ret);
  default:
    return e->vendor().clGetEventInfo(static_cast<cl_event>(e->real), param, size, value, size_ret);
  }
}

cl_int CL_API_CALL clGetEventProfilingInfo(cl_event event, cl_profiling_info param, size_t size,
                                           void *value, size_t *size_ret) {
  Obj *e = as(event, Tag::DelegatedEvent);
  if (!e)
    return CL_INVALID_EVENT;
  return e->vendor().clGetEventProfilingInfo(static_cast<cl_event>(e->real), param, size, value,
                                             size_ret);
}

cl_int CL_API_CALL clRetainEvent(cl_event event) {
  Obj *e = as(event, Tag::DelegatedEvent);
  if (!e)
    return CL_INVALID_EVENT;
  appRetain(e);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseEvent(cl_event event) {
  Obj *e = as(event, Tag::DelegatedEvent);
  if (!e)
    return CL_INVALID_EVENT;
  appRelease(e);
  return CL_SUCCESS;
}

cl_event CL_API_CALL clCreateUserEvent(cl_context context, cl_int *errcode_ret) {
  Obj *c = as(context, Tag::DelegatedContext);
  if (!c)
    return withError<cl_event>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  cl_int err = CL_SUCCESS;
  cl_event e = c->vendor().clCreateUserEvent(static_cast<cl_context>(c->real), &err);
  if (!e)
    return withError<cl_event>(errcode_ret, err ? err : CL_OUT_OF_HOST_MEMORY, nullptr);
  return withError(errcode_ret, CL_SUCCESS,
                   reinterpret_cast<cl_event>(wrap<Event>(Tag::DelegatedEvent, e, c->platform, c)));
}

cl_int CL_API_CALL clSetUserEventStatus(cl_event event, cl_int execution_status) {
  Obj *e = as(event, Tag::DelegatedEvent);
  if (!e)
    return CL_INVALID_EVENT;
  return e->vendor().clSetUserEventStatus(static_cast<cl_event>(e->real), execution_status);
}

cl_int CL_API_CALL clSetEventCallback(cl_event event, cl_int type,
                                      void(CL_CALLBACK *pfn_notify)(cl_event, cl_int, void *),
                                      void *user_data) {
  Obj *e = as(event, Tag::DelegatedEvent);
  if (!e)
    return CL_INVALID_EVENT;
  if (!pfn_notify)
    return CL_INVALID_VALUE;
  hold(e);
  auto *n = new EventNotify{pfn_notify, user_data, e};
  cl_int err =
      e->vendor().clSetEventCallback(static_cast<cl_event>(e->real), type, &EventNotify::call, n);
  if (err != CL_SUCCESS) {
    unhold(e);
    delete n;
  }
  return err;
}

} // namespace fibercl::delegate

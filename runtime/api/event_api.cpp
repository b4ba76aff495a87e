// Entry points for events: waiting, queries, profiling, user events, callbacks.
#include "runtime/api/entry.hpp"
#include "runtime/context.hpp"
#include "runtime/queue.hpp"

using namespace fibercl::runtime;
using namespace fibercl::runtime::api;

extern "C" {

cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event *event_list) {
  return call(__func__, [&] {
    // CL_INVALID_VALUE if num_events is zero or event_list is NULL.
    check(num_events == 0, CL_INVALID_VALUE, "num_events is 0");
    check(!event_list, CL_INVALID_VALUE, "event_list is NULL");
    std::vector<Event *> events(num_events);
    for (cl_uint i = 0; i < num_events; ++i) {
      // CL_INVALID_EVENT if event objects specified in event_list are not valid.
      events[i] = &obj<Event>(event_list[i], "event_list[i]");
      // CL_INVALID_CONTEXT if events specified in event_list do not belong to the
      // same context.
      check(&events[i]->context() != &events[0]->context(), CL_INVALID_CONTEXT,
            "events of different contexts");
    }
    bool failed = false;
    for (Event *ev : events) {
      waitFor(*ev);
      failed |= ev->status() < 0;
    }
    // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the execution status of any of
    // the events in event_list is a negative integer value.
    check(failed, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "an event failed");
  });
}

cl_int CL_API_CALL clGetEventInfo(cl_event event, cl_event_info param_name, size_t param_value_size,
                                  void *param_value, size_t *param_value_size_ret) {
  return call(__func__, [&] {
    // CL_INVALID_EVENT if event is a not a valid event object.
    Event &ev = obj<Event>(event, "event");
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
    case CL_EVENT_COMMAND_QUEUE:
      return out.scalar<cl_command_queue>(ev.queue() ? ev.queue()->handle() : nullptr);
    case CL_EVENT_CONTEXT:
      return out.scalar<cl_context>(ev.context().handle());
    case CL_EVENT_COMMAND_TYPE:
      return out.scalar<cl_command_type>(ev.type());
    case CL_EVENT_COMMAND_EXECUTION_STATUS:
      return out.scalar<cl_int>(ev.status());
    case CL_EVENT_REFERENCE_COUNT:
      return out.scalar<cl_uint>(ev.refs());
    default:
      badParam();
    }
  });
}

cl_int CL_API_CALL clRetainEvent(cl_event event) {
  return call(__func__, [&] { obj<Event>(event, "event").retain(); });
}

cl_int CL_API_CALL clReleaseEvent(cl_event event) {
  return call(__func__, [&] { obj<Event>(event, "event").release(); });
}

cl_int CL_API_CALL clGetEventProfilingInfo(cl_event event, cl_profiling_info param_name,
                                           size_t param_value_size, void *param_value,
                                           size_t *param_value_size_ret) {
  return call(__func__, [&] {
    // CL_INVALID_EVENT if event is a not a valid event object.
    Event &ev = obj<Event>(event, "event");
    // CL_PROFILING_INFO_NOT_AVAILABLE if the CL_QUEUE_PROFILING_ENABLE flag is not
    // set for the command-queue, if the execution status of the command identified
    // by event is not CL_COMPLETE or if event is a user event object.
    check(!ev.profiled(), CL_PROFILING_INFO_NOT_AVAILABLE,
          "the queue has no profiling, or a user event");
    unsigned index;
    switch (param_name) {
    case CL_PROFILING_COMMAND_QUEUED:
      index = 0;
      break;
    case CL_PROFILING_COMMAND_SUBMIT:
      index = 1;
      break;
    case CL_PROFILING_COMMAND_START:
      index = 2;
      break;
    case CL_PROFILING_COMMAND_END:
      index = 3;
      break;
    case CL_PROFILING_COMMAND_COMPLETE:
      index = 4;
      break;
    default:
      // CL_INVALID_VALUE if param_name is not valid.
      badParam();
    }
    check(ev.status() != CL_COMPLETE, CL_PROFILING_INFO_NOT_AVAILABLE,
          "the command is not complete");
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    out.scalar<cl_ulong>(ev.profilingTime(index));
  });
}

cl_event CL_API_CALL clCreateUserEvent(cl_context context, cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&] {
    // CL_INVALID_CONTEXT if context is not a valid context.
    Context &ctx = obj<Context>(context, "context");
    return give(make<Event>(ctx, nullptr, CL_COMMAND_USER));
  });
}

cl_int CL_API_CALL clSetUserEventStatus(cl_event event, cl_int execution_status) {
  return call(__func__, [&] {
    // CL_INVALID_EVENT if event is not a valid user event object.
    Event &ev = obj<Event>(event, "event");
    check(ev.queue() != nullptr, CL_INVALID_EVENT, "event is not a user event");
    // CL_INVALID_VALUE if the execution_status is not CL_COMPLETE or a negative
    // integer value.
    check(execution_status > CL_COMPLETE, CL_INVALID_VALUE,
          "execution_status must be CL_COMPLETE or negative");
    // CL_INVALID_OPERATION if the execution_status for event has already been
    // changed by a previous call to clSetUserEventStatus.
    check(!ev.setUserStatus(execution_status), CL_INVALID_OPERATION,
          "the user event's status was set already");
  });
}

cl_int CL_API_CALL clSetEventCallback(cl_event event, cl_int command_exec_callback_type,
                                      void(CL_CALLBACK *pfn_notify)(cl_event, cl_int, void *),
                                      void *user_data) {
  return call(__func__, [&] {
    // CL_INVALID_EVENT if event is not a valid event object.
    Event &ev = obj<Event>(event, "event");
    // CL_INVALID_VALUE if pfn_event_notify is NULL or if command_exec_callback_type
    // is not CL_SUBMITTED, CL_RUNNING, or CL_COMPLETE.
    check(!pfn_notify, CL_INVALID_VALUE, "pfn_notify is NULL");
    check(command_exec_callback_type != CL_SUBMITTED && command_exec_callback_type != CL_RUNNING &&
              command_exec_callback_type != CL_COMPLETE,
          CL_INVALID_VALUE, "command_exec_callback_type");
    ev.addCallback(command_exec_callback_type, pfn_notify, user_data);
  });
}

} // extern "C"

// The shared helpers of the entry points: error reporting, wait lists, info writer.
#include "runtime/api/entry.hpp"
#include "runtime/debug.hpp"
#include "runtime/event.hpp"

#include <cstring>

namespace fibercl::runtime::api {

void reportError(const char *function, cl_int code, const std::string &what) {
  if (!debugEnabled("api"))
    return;
  std::string msg = std::string(function) + " -> " + errorName(code);
  if (!what.empty())
    msg += ": " + what;
  debugLog("api", msg);
}

std::vector<Ref<Event>> waitList(cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                 const Context *context) {
  std::vector<Ref<Event>> list;
  // CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and
  // num_events_in_wait_list > 0, or event_wait_list is not NULL and
  // num_events_in_wait_list is 0.
  check(!event_wait_list && num_events_in_wait_list > 0, CL_INVALID_EVENT_WAIT_LIST,
        "event_wait_list is NULL but num_events_in_wait_list > 0");
  check(event_wait_list && num_events_in_wait_list == 0, CL_INVALID_EVENT_WAIT_LIST,
        "event_wait_list is not NULL but num_events_in_wait_list is 0");
  list.reserve(num_events_in_wait_list);
  for (cl_uint i = 0; i < num_events_in_wait_list; ++i) {
    Event *ev = Event::fromHandle(event_wait_list[i]);
    // ... or event objects in event_wait_list are not valid events.
    check(!ev, CL_INVALID_EVENT_WAIT_LIST, "event_wait_list holds an invalid event");
    // CL_INVALID_CONTEXT if the context associated with command_queue and events in
    // event_wait_list are not the same.
    check(context && &ev->context() != context, CL_INVALID_CONTEXT,
          "an event in event_wait_list belongs to another context");
    list.emplace_back(ev);
  }
  return list;
}

} // namespace fibercl::runtime::api

// What every API entry point uses: the adapter from internal errors to OpenCL return
// values, handle validation, event wait lists, and the clGet*Info writer.
#pragma once

#include "runtime/error.hpp"
#include "runtime/event.hpp"
#include "runtime/info_writer.hpp"
#include "runtime/object.hpp"

#include <new>
#include <string>
#include <type_traits>
#include <vector>

namespace fibercl::runtime::api {

// Logs an error returned by `function` when FIBERCL_DEBUG contains "api".
void reportError(const char *function, cl_int code, const std::string &what);

// Runs an entry point returning cl_int: CL_SUCCESS, or the code of the Error thrown;
// std::bad_alloc becomes CL_OUT_OF_HOST_MEMORY.
template <class F> cl_int call(const char *function, F &&body) noexcept {
  try {
    body();
    return CL_SUCCESS;
  } catch (const Error &e) {
    reportError(function, e.code(), e.what());
    return e.code();
  } catch (const std::bad_alloc &) {
    reportError(function, CL_OUT_OF_HOST_MEMORY, "out of host memory");
    return CL_OUT_OF_HOST_MEMORY;
  } catch (...) {
    reportError(function, CL_OUT_OF_RESOURCES, "unexpected internal exception");
    return CL_OUT_OF_RESOURCES;
  }
}

// Runs an entry point returning an object (or pointer): on error writes the code to
// errcode_ret (only if non-NULL) and returns a null value.
template <class F>
auto create(const char *function, cl_int *errcode_ret, F &&body) noexcept -> decltype(body()) {
  using R = decltype(body());
  cl_int code;
  try {
    R r = body();
    if (errcode_ret)
      *errcode_ret = CL_SUCCESS;
    return r;
  } catch (const Error &e) {
    code = e.code();
    reportError(function, code, e.what());
  } catch (const std::bad_alloc &) {
    code = CL_OUT_OF_HOST_MEMORY;
    reportError(function, code, "out of host memory");
  } catch (...) {
    code = CL_OUT_OF_RESOURCES;
    reportError(function, code, "unexpected internal exception");
  }
  if (errcode_ret)
    *errcode_ret = code;
  return R{};
}

// The live object behind a handle; throws the type's invalid-handle error naming
// the argument.
template <class T> T &obj(typename T::Handle h, const char *argName) {
  T *p = T::fromHandle(h);
  if (!p)
    throw Error(T::kInvalidError,
                std::string(argName) + (h ? " is not a valid handle" : " is NULL"));
  return *p;
}

// Hands a new reference to the application.
template <class T> typename T::Handle give(Ref<T> r) { return r.detach()->handle(); }

// Validates an event wait list:
// CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and num_events_in_wait_list
// > 0, or event_wait_list is not NULL and num_events_in_wait_list is 0, or if event
// objects in event_wait_list are not valid events.
// CL_INVALID_CONTEXT if the context of the queue and of the events differ
// (when `context` is non-NULL).
std::vector<Ref<Event>> waitList(cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                 const Context *context);

// clGet*Info results (runtime/info_writer.hpp).
using runtime::badParam;
using runtime::InfoWriter;

} // namespace fibercl::runtime::api

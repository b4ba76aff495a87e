// What the forwarding entry points (delegate/*.cpp) share: their declarations
// (delegate.hpp), wait-list and event-out translation, and clGet*Info answers.
#pragma once

#include <cstring>
#include <vector>

#include "delegate/delegate.hpp"
#include "delegate/objects.hpp"
#include "runtime/info_writer.hpp"

namespace fibercl::delegate {

// Writes *errcode_ret (if given) and returns `r`.
template <class R> R withError(cl_int *errcode_ret, cl_int err, R r) {
  if (errcode_ret)
    *errcode_ret = err;
  return r;
}

// A clGet*Info answer of `n` bytes, under the specification's size rules (the
// runtime's InfoWriter: they live there only).
inline cl_int answer(const void *data, size_t n, size_t size, void *value, size_t *size_ret) {
  try {
    runtime::InfoWriter(size, value, size_ret).bytes(data, n);
    return CL_SUCCESS;
  } catch (const runtime::Error &e) {
    return e.code();
  }
}
template <class T> cl_int answerScalar(T v, size_t size, void *value, size_t *size_ret) {
  return answer(&v, sizeof v, size, value, size_ret);
}

// Asks the vendor an info query whose answer is bytes; `ask(size, value, size_ret)`.
template <class Ask> cl_int vendorBytes(Ask ask, std::vector<unsigned char> &out) {
  size_t n = 0;
  if (cl_int err = ask(0, nullptr, &n))
    return err;
  out.resize(n);
  return n ? ask(n, out.data(), nullptr) : CL_SUCCESS;
}

// An event wait list in vendor handles. CL_INVALID_EVENT_WAIT_LIST for a NULL list
// with a count, a list without one, or an entry that is not a live event of a
// delegated platform.
struct WaitList {
  std::vector<cl_event> events;
  cl_int error = CL_SUCCESS;
  WaitList(cl_uint n, const cl_event *list) {
    if ((n > 0) != (list != nullptr)) {
      error = CL_INVALID_EVENT_WAIT_LIST;
      return;
    }
    events.reserve(n);
    for (cl_uint i = 0; i < n; ++i) {
      Obj *e = as(list[i], Tag::DelegatedEvent);
      if (!e) {
        error = CL_INVALID_EVENT_WAIT_LIST;
        return;
      }
      events.push_back(static_cast<cl_event>(e->real));
    }
  }
  cl_uint count() const { return static_cast<cl_uint>(events.size()); }
  const cl_event *data() const { return events.empty() ? nullptr : events.data(); }
};

// The event an enqueue returns: the vendor writes its handle into `slot()`, and
// `finish` wraps it for the application (or releases it when the application asked
// for none but FiberCL needed one to wait).
struct EventOut {
  cl_event *app;
  cl_event vendor = nullptr;
  bool needed; // FiberCL itself waits on it (a blocking call, a kernel launch)
  EventOut(cl_event *appEvent, bool fiberclNeedsIt = false)
      : app(appEvent), needed(fiberclNeedsIt) {}
  cl_event *slot() { return app || needed ? &vendor : nullptr; }
  // After a successful enqueue on `q`.
  void finish(Queue *q);
  ~EventOut();
};

// Vendor handles for the application's memory objects; nullptr if one is not a live
// delegated buffer/image/pipe.
inline cl_mem realMem(cl_mem m) {
  Obj *o = as(m, Tag::DelegatedMem);
  return o ? static_cast<cl_mem>(o->real) : nullptr;
}

// Waits for a vendor event at most FIBERCL_DEADLOCK_TIMEOUT seconds (timed_wait.cpp).
// On time-out it prints a report naming `what` and the kernel launches since `q` was
// last drained, and returns false. `drains`: the event completing means every
// command enqueued on `q` so far has (clFinish's marker; the command a blocking call
// just enqueued on an in-order queue).
bool waitOrReport(Queue *q, cl_event vendorEvent, const char *what, bool drains);
// Remembers a kernel launch on `q` for reports.
void rememberLaunch(Queue *q, const std::string &kernel, cl_uint dims, const size_t *global,
                    const size_t *local);

// A delegated platform's wrapped device for a vendor device handle, or nullptr.
Obj *deviceFor(Platform *p, cl_device_id real);

} // namespace fibercl::delegate

namespace fibercl::delegate {

// A callback the vendor calls with its handle, passed on to the application's with
// FiberCL's: `pfn(wrapper, user_data)`. The wrapper is held until the call.
template <class H> struct Trampoline {
  void(CL_CALLBACK *pfn)(H, void *);
  void *userData;
  Obj *wrapper;
  static Trampoline *make(void(CL_CALLBACK *pfn)(H, void *), void *userData, Obj *w) {
    hold(w);
    return new Trampoline{pfn, userData, w};
  }
  static void CL_CALLBACK call(H, void *self) {
    auto *t = static_cast<Trampoline *>(self);
    t->pfn(reinterpret_cast<H>(t->wrapper), t->userData);
    unhold(t->wrapper);
    delete t;
  }
};

} // namespace fibercl::delegate

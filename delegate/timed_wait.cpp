// Waiting on a delegated device with a time limit (FIBERCL_DEADLOCK_TIMEOUT): a GPU
// program whose work-groups wait for groups that are not resident hangs the device;
// FiberCL reports the launches still running and returns an error to the caller.
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>

#include "delegate/forward.hpp"
#include "delegate/platforms.hpp"
#include "runtime/timeouts.hpp"

namespace fibercl::delegate {
namespace {

// FIBERCL_DEADLOCK_TIMEOUT, parsed (and defaulted) as the CPU device reads it.
double timeoutSeconds() {
  static const double seconds = deadlockTimeoutFromEnvironment();
  return seconds;
}

cl_int statusOf(cl_event e) {
  cl_int status = CL_COMPLETE;
  const cl_icd_dispatch &d = **reinterpret_cast<cl_icd_dispatch *const *>(e);
  if (d.clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr))
    return CL_COMPLETE; // cannot tell: do not wait on it
  return status;
}

struct Waiter {
  std::mutex mutex;
  std::condition_variable cv;
  bool done = false;
};

void CL_CALLBACK onComplete(cl_event, cl_int, void *user) {
  auto *w = static_cast<std::shared_ptr<Waiter> *>(user);
  {
    std::lock_guard<std::mutex> lock((*w)->mutex);
    (*w)->done = true;
  }
  (*w)->cv.notify_all();
  delete w;
}

std::string deviceName(Queue *q) {
  char name[256] = {};
  q->device->vendor().clGetDeviceInfo(static_cast<cl_device_id>(q->device->real), CL_DEVICE_NAME,
                                      sizeof name - 1, name, nullptr);
  return name;
}

void report(Queue *q, const char *what) {
  std::string running;
  {
    std::lock_guard<std::mutex> lock(q->mutex);
    size_t first = q->launchCount > Queue::kMaxLaunches ? q->launchCount - Queue::kMaxLaunches : 0;
    if (first)
      running += "\n    (" + std::to_string(first) + " earlier)";
    for (size_t i = first; i < q->launchCount; ++i)
      running += "\n    " + q->launches[i % Queue::kMaxLaunches].describe();
  }
  std::fprintf(stderr,
               "FiberCL: delegated device '%s' (%s): %s waited %.1f s "
               "(FIBERCL_DEADLOCK_TIMEOUT) and the commands before it have not completed.\n"
               "  Kernel launches on this queue since it was last seen complete:%s\n"
               "  If the work-groups of a kernel wait for one another (spin-waits, global "
               "barriers, mutexes), they need every group they wait for to be resident at "
               "once; `fibercl occupancy` measures how many this device runs together.\n"
               "  FiberCL returns an error to the caller; the device may still be running "
               "the command.\n",
               deviceName(q).c_str(), q->platform->shownName.c_str(), what, timeoutSeconds(),
               running.empty() ? " (none recorded)" : running.c_str());
}

} // namespace

void drained(Queue *q) {
  std::lock_guard<std::mutex> lock(q->mutex);
  q->launchCount = 0;
}

bool waitOrReport(Queue *q, cl_event e, const char *what, bool drains) {
  if (statusOf(e) <= CL_COMPLETE) {
    if (drains)
      drained(q);
    return true;
  }
  const cl_icd_dispatch &d = **reinterpret_cast<cl_icd_dispatch *const *>(e);
  d.clFlush(static_cast<cl_command_queue>(q->real)); // the commands must be submitted
  auto waiter = std::make_shared<Waiter>();
  auto *arg = new std::shared_ptr<Waiter>(waiter);
  if (!d.clSetEventCallback || d.clSetEventCallback(e, CL_COMPLETE, &onComplete, arg)) {
    delete arg;
    d.clWaitForEvents(1, &e); // no callbacks: wait without a limit
  } else {
    std::unique_lock<std::mutex> lock(waiter->mutex);
    auto limit = std::chrono::duration<double>(timeoutSeconds());
    if (!waiter->cv.wait_for(lock, limit, [&] { return waiter->done; })) {
      lock.unlock();
      report(q, what);
      return false;
    }
  }
  if (drains)
    drained(q);
  return true;
}

void rememberLaunch(Queue *q, const std::string &kernel, cl_uint dims, const size_t *global,
                    const size_t *local) {
  std::lock_guard<std::mutex> lock(q->mutex);
  Launch &l = q->launches[q->launchCount++ % Queue::kMaxLaunches];
  std::snprintf(l.kernel, sizeof l.kernel, "%s", kernel.c_str());
  l.dims = dims;
  l.hasLocal = local != nullptr;
  for (cl_uint i = 0; i < dims; ++i) {
    l.global[i] = global ? global[i] : 0;
    l.local[i] = local ? local[i] : 0;
  }
}

std::string Launch::describe() const {
  auto sizes = [&](const size_t *v) {
    std::string s;
    for (cl_uint i = 0; i < dims; ++i)
      s += (i ? "x" : "") + std::to_string(v[i]);
    return s;
  };
  return std::string("kernel '") + kernel + "', global " + sizes(global) + ", local " +
         (hasLocal ? sizes(local) : "NULL");
}

void EventOut::finish(Queue *q) {
  if (app && vendor) {
    *app = reinterpret_cast<cl_event>(
        wrap<Event>(Tag::DelegatedEvent, vendor, q->platform, q->parents[0], q));
    vendor = nullptr; // the wrapper owns it now
  }
}

EventOut::~EventOut() {
  if (vendor) // FiberCL's own, or the enqueue failed after all
    (**reinterpret_cast<cl_icd_dispatch *const *>(vendor)).clReleaseEvent(vendor);
}

} // namespace fibercl::delegate

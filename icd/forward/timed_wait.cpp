// Waiting on a delegated device with a time limit (FIBERCL_DEADLOCK_TIMEOUT): a GPU
// program whose work-groups wait for groups that are not resident hangs the device;
// FiberCL reports the launches still running and returns an error to the caller.
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>

#include "icd/forward/forward.hpp"
#include "icd/forward/platforms.hpp"

namespace fibercl::fwd {
namespace {

double timeoutSeconds() {
  static const double seconds = [] {
    const char *v = std::getenv("FIBERCL_DEADLOCK_TIMEOUT");
    char *end = nullptr;
    double d = v ? std::strtod(v, &end) : 0;
    return v && end != v && !*end && d > 0 && d < 1e9 ? d : 10.0; // the CPU device's default
  }();
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
  q->device->vendor().clGetDeviceInfo(static_cast<cl_device_id>(q->device->real),
                                      CL_DEVICE_NAME, sizeof name - 1, name, nullptr);
  return name;
}

void report(Queue *q, const char *what) {
  std::string running;
  {
    std::lock_guard<std::mutex> lock(q->mutex);
    for (const Launch &l : q->launches)
      if (statusOf(l.event) > CL_COMPLETE)
        running += "\n    " + l.what;
  }
  std::fprintf(stderr,
               "FiberCL: delegated device '%s' (%s): %s waited %.1f s "
               "(FIBERCL_DEADLOCK_TIMEOUT) and the commands before it have not completed.\n"
               "  Kernel launches on this queue not complete:%s\n"
               "  If the work-groups of a kernel wait for one another (spin-waits, global "
               "barriers, mutexes), they need every group they wait for to be resident at "
               "once; `fibercl occupancy` measures how many this device runs together.\n"
               "  FiberCL returns an error to the caller; the device may still be running "
               "the command.\n",
               deviceName(q).c_str(), delegatedPlatformName(q->platform->name).c_str(), what,
               timeoutSeconds(), running.empty() ? " (none recorded)" : running.c_str());
}

} // namespace

bool waitOrReport(Queue *q, cl_event e, const char *what) {
  if (statusOf(e) <= CL_COMPLETE)
    return true;
  const cl_icd_dispatch &d = **reinterpret_cast<cl_icd_dispatch *const *>(e);
  d.clFlush(static_cast<cl_command_queue>(q->real)); // the commands must be submitted
  auto waiter = std::make_shared<Waiter>();
  auto *arg = new std::shared_ptr<Waiter>(waiter);
  if (!d.clSetEventCallback || d.clSetEventCallback(e, CL_COMPLETE, &onComplete, arg)) {
    delete arg;
    return d.clWaitForEvents(1, &e) == CL_SUCCESS || statusOf(e) <= CL_COMPLETE;
  }
  std::unique_lock<std::mutex> lock(waiter->mutex);
  auto limit = std::chrono::duration<double>(timeoutSeconds());
  if (waiter->cv.wait_for(lock, limit, [&] { return waiter->done; }))
    return true;
  lock.unlock();
  report(q, what);
  return false;
}

void rememberLaunch(Queue *q, cl_event e, std::string what) {
  const cl_icd_dispatch &d = **reinterpret_cast<cl_icd_dispatch *const *>(e);
  d.clRetainEvent(e);
  std::vector<cl_event> done;
  {
    std::lock_guard<std::mutex> lock(q->mutex);
    if (q->launches.size() >= 16) { // forget the finished ones
      auto keep = q->launches.begin();
      for (Launch &l : q->launches) {
        if (statusOf(l.event) <= CL_COMPLETE)
          done.push_back(l.event);
        else
          *keep++ = std::move(l);
      }
      q->launches.erase(keep, q->launches.end());
    }
    q->launches.push_back({e, std::move(what)});
  }
  for (cl_event old : done)
    d.clReleaseEvent(old);
}

void EventOut::finish(Queue *q) {
  if (app && vendor) {
    *app = reinterpret_cast<cl_event>(
        wrap<Event>(Kind::Event, vendor, q->platform, q->parents[0], q));
    vendor = nullptr; // the wrapper owns it now
  }
}

EventOut::~EventOut() {
  if (vendor) // FiberCL's own, or the enqueue failed after all
    (**reinterpret_cast<cl_icd_dispatch *const *>(vendor)).clReleaseEvent(vendor);
}

} // namespace fibercl::fwd

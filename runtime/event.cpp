// cl_event: dependency tracking, status transitions, callbacks and profiling.
#include "runtime/event.hpp"
#include "runtime/context.hpp"
#include "runtime/platform.hpp"
#include "runtime/queue.hpp"

#include <chrono>

namespace fibercl::runtime {

uint64_t nowNs() {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

void Command::start(Event &ev) {
  ev.setRunning();
  ev.complete(CL_COMPLETE);
}

Event::Event(Context &context, Queue *queue, cl_command_type type, std::unique_ptr<Command> command)
    : context_(context), queue_(queue), type_(type), status_(queue ? CL_QUEUED : CL_SUBMITTED),
      command_(std::move(command)) {
  profiled_ = queue && queue->profiling();
  if (profiled_)
    times_[0].store(nowNs(), std::memory_order_relaxed);
}

Event::~Event() = default;

void Event::dependOn(Event &dep) {
  // Count first so that a dependency finishing concurrently cannot bring the count
  // to zero (the +1 held until submit() also prevents that).
  pending_.fetch_add(1, std::memory_order_relaxed);
  bool added = false;
  {
    std::lock_guard<std::mutex> lock(dep.mutex_);
    cl_int s = dep.status();
    if (s > CL_COMPLETE) {
      if (!dep.firstDependent_)
        dep.firstDependent_ = Ref<Event>(this);
      else
        dep.moreDependents_.emplace_back(this);
      added = true;
    } else if (s < 0) {
      dependencyFailed_.store(true, std::memory_order_relaxed);
    }
  }
  if (!added)
    pending_.fetch_sub(1, std::memory_order_relaxed);
}

void Event::submit() {
  retain(); // released by complete()
  if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1)
    scheduleLaunch(this);
}

void Event::dependencyDone(bool failed) {
  if (failed)
    dependencyFailed_.store(true, std::memory_order_relaxed);
  if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1)
    scheduleLaunch(this);
}

// Commands that become ready while another one is completing on this thread are
// launched by the outermost call, so a long chain of instantly finishing commands
// (markers, maps) does not grow the stack.
void Event::scheduleLaunch(Event *ev) {
  thread_local bool draining = false;
  thread_local std::vector<Event *> ready;
  if (draining) {
    ready.push_back(ev);
    return;
  }
  draining = true;
  ev->launch();
  while (!ready.empty()) {
    Event *next = ready.back();
    ready.pop_back();
    next->launch();
  }
  draining = false;
}

void Event::launch() {
  // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST: a command whose dependency failed
  // does not run.
  if (dependencyFailed_.load(std::memory_order_relaxed)) {
    complete(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    return;
  }
  if (profiled_)
    recordOnce(1, nowNs());
  setStatus(CL_SUBMITTED);
  if (!command_) {
    setRunning();
    complete(CL_COMPLETE);
    return;
  }
  command_->start(*this);
}

void Event::setRunning() {
  if (profiled_)
    recordOnce(2, nowNs()); // not if the command completed already
  setStatus(CL_RUNNING);
}

void Event::setStatus(cl_int status) {
  // Statuses only move forward (queued 3 -> submitted 2 -> running 1 -> complete 0 or an
  // error): a thread that marks the command running and is preempted before the store
  // must not undo the completion another thread recorded meanwhile (that lost
  // completion hung clFinish once in ~90,000 launches of a one-item kernel).
  cl_int current = status_.load(std::memory_order_seq_cst);
  do {
    if (current <= status)
      return;
  } while (!status_.compare_exchange_weak(current, status, std::memory_order_seq_cst));
  if (hasCallbacks_.load(std::memory_order_seq_cst))
    runCallbacks(status);
}

void Event::complete(cl_int status) {
  if (profiled_) {
    uint64_t t = nowNs();
    recordOnce(1, t);
    recordOnce(2, t);
    times_[3].store(t, std::memory_order_release);
    times_[4].store(t, std::memory_order_release);
  }
  Ref<Event> first;
  std::vector<Ref<Event>> more;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    status_.store(status, std::memory_order_seq_cst);
    first = std::move(firstDependent_);
    more = std::move(moreDependents_);
  }
  // The command's references (memory objects, kernel) go now, not when the
  // application releases the event.
  command_.reset();
  if (hasCallbacks_.load(std::memory_order_seq_cst))
    runCallbacks(status);
  if (status < 0 && status != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST && queue_)
    context_->notify("FiberCL: a command failed during execution");

  bool failed = status < 0;
  if (first)
    first->dependencyDone(failed);
  for (auto &d : more)
    d->dependencyDone(failed);
  first.reset();
  more.clear();

  if (queue_) {
    queue_->commandDone(*this);
    release(); // the reference submit() took; may destroy this event
  } else {
    // A user event is set by the host, not through an executor `done`: wake the
    // threads waiting in helpUntil so they look again.
    for (Device *d : context_->devices())
      d->wakeWaiters();
  }
}

bool Event::setUserStatus(cl_int status) {
  if (userStatusSet_.exchange(true))
    return false;
  complete(status);
  return true;
}

void Event::addCallback(cl_int type, Callback fn, void *userData) {
  // Set the flag before reading the status: a concurrent transition either sees
  // the flag (and finds the callback under the lock) or we see its status.
  hasCallbacks_.store(true, std::memory_order_seq_cst);
  cl_int s;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    s = status_.load(std::memory_order_seq_cst);
    if (s > type) {
      callbacks_.push_back({type, fn, userData});
      return;
    }
  }
  fn(handle(), s < 0 ? s : type, userData);
}

void Event::runCallbacks(cl_int status) {
  std::vector<PendingCallback> due;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (size_t i = 0; i < callbacks_.size();) {
      if (status <= callbacks_[i].type) {
        due.push_back(callbacks_[i]);
        callbacks_.erase(callbacks_.begin() + i);
      } else {
        ++i;
      }
    }
  }
  // Never called with a lock held: a callback may call into the API.
  for (auto &cb : due)
    cb.fn(handle(), status < 0 ? status : cb.type, cb.userData);
}

void waitFor(Event &ev) {
  if (ev.done())
    return;
  // Help the device that runs it (a user event: the context's first device; its
  // waiters are woken when the host sets it).
  Device &d = ev.queue() ? ev.queue()->device() : ev.context().device();
  d.waitUntil([&ev] { return ev.done(); });
}

} // namespace fibercl::runtime

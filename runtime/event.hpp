// cl_event: one command's (or a user event's) execution status, the commands that
// wait for it, profiling times and status callbacks.
//
// States: CL_QUEUED (created, waiting for its dependencies) -> CL_SUBMITTED (the
// dependencies are complete; handed to the device) -> CL_RUNNING -> CL_COMPLETE, or
// a negative error code from any state. The last two are terminal ("done"). A user
// event starts at CL_SUBMITTED and is set once by clSetUserEventStatus.
//
// A queued command holds a reference to itself from submission until it is done, so
// the application may release its event at once.
#pragma once

#include "runtime/object.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace fibercl::runtime {

class Context;
class Queue;
class Event;

// What a command does once its dependencies are complete. `start` must lead to
// exactly one `ev.complete(status)` call, possibly before it returns.
class Command {
public:
  virtual ~Command() = default;
  // Default: a command with no work (marker, barrier, map of zero-copy memory):
  // completes at once. Implementations must not touch `this` after handing the
  // work over (ev.complete() destroys the command).
  virtual void start(Event &ev);
};

class Event : public Object<Event, cl_event> {
public:
  static constexpr Tag kTag = Tag::Event;
  static constexpr cl_int kInvalidError = CL_INVALID_EVENT;
  using Callback = void(CL_CALLBACK *)(cl_event, cl_int, void *);

  // A command event (queue != nullptr) or a user event (queue == nullptr).
  Event(Context &context, Queue *queue, cl_command_type type,
        std::unique_ptr<Command> command = nullptr);
  ~Event();

  Context &context() const { return *context_; }
  Queue *queue() const { return queue_.get(); }
  cl_command_type type() const { return type_; }
  cl_int status() const { return status_.load(std::memory_order_acquire); }
  // Complete or failed: nothing more will happen.
  bool done() const { return status() <= CL_COMPLETE; }
  bool profiled() const { return profiled_; }

  // Before submit(): this command waits for `dep` (no-op if dep is done already;
  // a failed dep makes this command fail).
  void dependOn(Event &dep);
  // Registration of dependencies is over: the command starts when they complete.
  void submit();

  // Called by the command's work (status = CL_COMPLETE or negative).
  void setRunning();
  void complete(cl_int status);

  // clSetUserEventStatus: false if the status was set already.
  bool setUserStatus(cl_int status);

  void addCallback(cl_int commandExecCallbackType, Callback fn, void *userData);

  // Profiling time (ns), index 0..4 = QUEUED, SUBMIT, START, END, COMPLETE.
  uint64_t profilingTime(unsigned index) const {
    return times_[index].load(std::memory_order_acquire);
  }

  // Intrusive list of a queue's unfinished commands (out-of-order queues only),
  // guarded by the queue's mutex.
  Event *queuePrev = nullptr;
  Event *queueNext = nullptr;

private:
  void dependencyDone(bool failed);
  void launch();
  static void scheduleLaunch(Event *ev);
  void setStatus(cl_int status);
  void runCallbacks(cl_int status);

  Ref<Context> context_;
  Ref<Queue> queue_;
  cl_command_type type_;
  bool profiled_ = false;
  std::atomic<bool> hasCallbacks_{false};
  std::atomic<bool> dependencyFailed_{false};
  std::atomic<bool> userStatusSet_{false};
  std::atomic<cl_int> status_;
  std::atomic<int32_t> pending_{1}; // unfinished dependencies + 1 until submit()
  std::unique_ptr<Command> command_;
  // Atomic: the runner that marks the command running may race with the one that
  // completes it (TSan); START and SUBMIT are set once, by whichever comes first.
  std::atomic<uint64_t> times_[5] = {0, 0, 0, 0, 0};
  void recordOnce(unsigned index, uint64_t t) {
    uint64_t unset = 0;
    times_[index].compare_exchange_strong(unset, t, std::memory_order_acq_rel);
  }

  std::mutex mutex_; // guards the dependents and callbacks
  Ref<Event> firstDependent_;
  std::vector<Ref<Event>> moreDependents_;
  struct PendingCallback {
    cl_int type;
    Callback fn;
    void *userData;
  };
  std::vector<PendingCallback> callbacks_;
};

// The time base of profiling information (ns, steady clock).
uint64_t nowNs();

// Blocks until `ev` is done, lending this thread to the device meanwhile.
void waitFor(Event &ev);

} // namespace fibercl::runtime

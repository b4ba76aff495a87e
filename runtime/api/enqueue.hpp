// What the clEnqueue* entry points share: host-side commands and the tail of every
// enqueue (event out-parameter, blocking).
#pragma once

#include "runtime/api/entry.hpp"
#include "runtime/exec/executor.hpp"
#include "runtime/platform.hpp"
#include "runtime/queue.hpp"

#include <memory>

namespace fibercl::runtime::api {

// A command whose work runs on the executor's threads: `work()` returns CL_COMPLETE
// or a negative error code.
template <class F> class HostCommand final : public Command {
public:
  explicit HostCommand(F work) : work_(std::move(work)) {}
  void start(Event &ev) override {
    Event *e = &ev;
    ev.queue()->device().executor().runHost(
        [this, e]() -> int32_t {
          e->setRunning();
          return work_();
        },
        [e](int32_t status) { e->complete(status); });
  }

private:
  F work_;
};

template <class F> std::unique_ptr<Command> hostCommand(F work) {
  return std::make_unique<HostCommand<F>>(std::move(work));
}

// Enqueues the command, returns its event through `event` (if not NULL) and, when
// `blocking`, waits for it:
// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the operation is blocking and the
// execution status of any of the events in event_wait_list is a negative integer.
Ref<Event> submit(Queue &queue, cl_command_type type, std::unique_ptr<Command> command,
                  const std::vector<Ref<Event>> &waitList, cl_event *event, bool blocking,
                  Queue::Sync sync = Queue::Sync::None);

} // namespace fibercl::runtime::api

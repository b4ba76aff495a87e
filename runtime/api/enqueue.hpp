// What the clEnqueue* entry points share: the tail of every enqueue (event
// out-parameter, blocking). The commands themselves are built in the core
// (runtime/kernel_launch.hpp, runtime/buffer_commands.hpp).
#pragma once

#include "runtime/api/entry.hpp"
#include "runtime/platform.hpp"
#include "runtime/queue.hpp"

#include <memory>

namespace fibercl::runtime::api {

// Enqueues the command, returns its event through `event` (if not NULL) and, when
// `blocking`, waits for it:
// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the operation is blocking and the
// execution status of any of the events in event_wait_list is a negative integer.
Ref<Event> submit(Queue &queue, cl_command_type type, std::unique_ptr<Command> command,
                  const std::vector<Ref<Event>> &waitList, cl_event *event, bool blocking,
                  Queue::Sync sync = Queue::Sync::None);

} // namespace fibercl::runtime::api

// cl_command_queue: orders commands. In an in-order queue each command waits for the
// previous one; in an out-of-order queue only for its wait list and the last barrier.
// Commands are handed to the executor as soon as their dependencies are complete, so
// clFlush has nothing to do.
#pragma once

#include "runtime/event.hpp"
#include "runtime/object.hpp"

#include <memory>
#include <mutex>
#include <vector>

namespace fibercl::runtime {

class Context;
class Device;

class Queue : public Object<Queue, cl_command_queue> {
public:
  static constexpr Tag kTag = Tag::Queue;
  static constexpr cl_int kInvalidError = CL_INVALID_COMMAND_QUEUE;

  // `propertiesArray`: as given to clCreateCommandQueueWithProperties (with the
  // terminating 0), empty otherwise.
  Queue(Context &context, Device &device, cl_command_queue_properties properties,
        std::vector<cl_queue_properties> propertiesArray);
  ~Queue();

  Context &context() const { return *context_; }
  Device &device() const { return *device_; }
  cl_command_queue_properties properties() const { return properties_; }
  const std::vector<cl_queue_properties> &propertiesArray() const { return propertiesArray_; }
  bool profiling() const { return properties_ & CL_QUEUE_PROFILING_ENABLE; }
  bool inOrder() const { return !(properties_ & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE); }

  enum class Sync {
    None,    // an ordinary command
    Marker,  // with an empty wait list: waits for every earlier command
    Barrier, // as Marker, and every later command waits for it
  };

  // Creates the command's event, makes it wait for `waitList` (and what the queue
  // order implies) and starts it when they are complete.
  Ref<Event> enqueue(cl_command_type type, std::unique_ptr<Command> command,
                     const std::vector<Ref<Event>> &waitList, Sync sync = Sync::None);

  // Blocks until every command enqueued so far is done.
  void finish();

  // Called by an event when its command is done.
  void commandDone(Event &ev);

private:
  Ref<Context> context_;
  Device *device_;
  cl_command_queue_properties properties_;
  std::vector<cl_queue_properties> propertiesArray_;

  std::mutex mutex_;
  Ref<Event> last_;             // in-order: the newest unfinished command
  Ref<Event> barrier_;          // out-of-order: the newest unfinished barrier
  Event *unfinished_ = nullptr; // out-of-order: every unfinished command (intrusive)
};

} // namespace fibercl::runtime

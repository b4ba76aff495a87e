// cl_command_queue: ordering of commands and clFinish.
#include "runtime/queue.hpp"
#include "runtime/context.hpp"
#include "runtime/platform.hpp"

namespace fibercl::runtime {

Queue::Queue(Context &context, Device &device, cl_command_queue_properties properties,
             std::vector<cl_queue_properties> propertiesArray)
    : context_(context), device_(&device), properties_(properties),
      propertiesArray_(std::move(propertiesArray)) {}

Queue::~Queue() = default;

Ref<Event> Queue::enqueue(cl_command_type type, std::unique_ptr<Command> command,
                          const std::vector<Ref<Event>> &waitList, Sync sync) {
  auto ev = make<Event>(*context_, this, type, std::move(command));
  for (const auto &dep : waitList)
    ev->dependOn(*dep);
  // The queue's own ordering: a command already finished is no dependency. (A failed
  // one stays the queue's `last_` until commandDone; a command enqueued after the
  // application saw the failure -- clFinish returned -- must run, not inherit it.)
  auto after = [&ev](Event &e) {
    if (!e.done())
      ev->dependOn(e);
  };
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (inOrder()) {
      if (last_)
        after(*last_);
      last_ = ev;
    } else {
      if (barrier_)
        after(*barrier_);
      if (sync != Sync::None && waitList.empty())
        for (Event *e = unfinished_; e; e = e->queueNext)
          after(*e);
      if (sync == Sync::Barrier)
        barrier_ = ev;
      ev->queueNext = unfinished_;
      if (unfinished_)
        unfinished_->queuePrev = ev.get();
      unfinished_ = ev.get();
    }
  }
  ev->submit();
  return ev;
}

void Queue::commandDone(Event &ev) {
  Ref<Event> dropLast, dropBarrier; // released after unlocking
  std::lock_guard<std::mutex> lock(mutex_);
  if (last_.get() == &ev)
    dropLast = std::move(last_);
  if (barrier_.get() == &ev)
    dropBarrier = std::move(barrier_);
  if (!inOrder()) {
    if (ev.queuePrev)
      ev.queuePrev->queueNext = ev.queueNext;
    else if (unfinished_ == &ev)
      unfinished_ = ev.queueNext;
    if (ev.queueNext)
      ev.queueNext->queuePrev = ev.queuePrev;
    ev.queuePrev = ev.queueNext = nullptr;
  }
}

void Queue::finish() {
  std::vector<Ref<Event>> pending;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (last_)
      pending.push_back(last_);
    for (Event *e = unfinished_; e; e = e->queueNext)
      pending.emplace_back(e);
  }
  for (auto &ev : pending)
    waitFor(*ev);
}

} // namespace fibercl::runtime

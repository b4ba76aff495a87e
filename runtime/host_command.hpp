// A command whose work runs on the device as a host function (buffer copies and
// fills): `work()` returns CL_COMPLETE or a negative error code.
#pragma once

#include <memory>
#include <utility>

#include "runtime/device.hpp"
#include "runtime/event.hpp"
#include "runtime/queue.hpp"

namespace fibercl::runtime {

template <class F> class HostCommand final : public Command {
public:
  explicit HostCommand(F work) : work_(std::move(work)) {}
  void start(Event &ev) override {
    Event *e = &ev;
    ev.queue()->device().runHost(
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

} // namespace fibercl::runtime

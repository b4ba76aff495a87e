// A device for the core's unit tests: a second implementation of the device interface
// (runtime/device.hpp) that runs nothing by itself. Host work waits in a list until a
// thread waits on the device (waitUntil runs it, as the CPU device lends waiting
// threads to its pool) or the test runs it, so a test decides when every command
// completes and sees the core's ordering and statuses without threads or timing.
#pragma once

#include "fibercl/compiler/compiler.hpp" // compiler::Executable, for loadBinary's result
#include "runtime/device.hpp"
#include "runtime/error.hpp"

#include <deque>
#include <functional>
#include <mutex>

namespace fibercl::coretest {

class ManualDevice : public runtime::Device {
public:
  cl_device_type type() const override { return CL_DEVICE_TYPE_CUSTOM; }
  void info(cl_device_info, runtime::InfoWriter &) override {
    throw runtime::Error(CL_INVALID_VALUE, "a test device answers no queries");
  }
  uint64_t maxAllocSize() const override { return 1 << 20; }
  const runtime::DeviceLimits &limits() const override { return limits_; }
  unsigned computeUnits() override { return 1; }
  // What loading a program's binary does: `loader` when the test set one, else it fails.
  std::unique_ptr<compiler::Executable> loadBinary(const compiler::Binary &binary,
                                                   std::string &error) override {
    ++loads;
    if (loader)
      return loader(binary, error);
    error = "a test device loads no code";
    return nullptr;
  }
  std::unique_ptr<runtime::DeviceLaunch> prepareLaunch(const runtime::Kernel &, void **, uint64_t,
                                                       const fcl_check_bounds *,
                                                       const runtime::LaunchGeometry &) override {
    return nullptr; // the core tests enqueue their own commands, not kernels
  }
  void runHost(std::function<int32_t()> work, runtime::Completion done) override {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_.push_back([work = std::move(work), done = std::move(done)] { done(work()); });
  }
  void waitUntil(const std::function<bool()> &finished) override {
    while (!finished())
      if (!runOne())
        throw runtime::Error(CL_INVALID_OPERATION, "waiting for work nobody will do");
  }
  void wakeWaiters() override { ++wakes; }

  // Runs the oldest pending host work; false if there is none.
  bool runOne() {
    std::function<void()> next;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (pending_.empty())
        return false;
      next = std::move(pending_.front());
      pending_.pop_front();
    }
    next();
    return true;
  }
  size_t pending() {
    std::lock_guard<std::mutex> lock(mutex_);
    return pending_.size();
  }

  int wakes = 0;
  int loads = 0;
  std::function<std::unique_ptr<compiler::Executable>(const compiler::Binary &, std::string &)>
      loader;

private:
  runtime::DeviceLimits limits_{};
  std::mutex mutex_;
  std::deque<std::function<void()>> pending_;
};

} // namespace fibercl::coretest

// The executor: a pool of worker threads (one per core, FIBERCL_THREADS) that runs
// work-groups of NDRange commands and host-side commands (copies, fills), and lets a
// host thread that waits for an event run work itself (so enqueue+finish of a small
// kernel needs no thread hand-off).
//
// This is the boundary between the OpenCL object model (queues, events, commands in
// runtime/) and execution (runtime/exec/): the object model decides *when* a command
// may run; the executor decides *where and how*.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "fibercl/kernel_abi.h"

namespace fibercl::exec {

// One NDRange launch. The pointed-to data (args, the bytes behind them) must stay
// alive until `done` has been called.
struct NDRange {
  fcl_work_group_fn entry = nullptr;
  std::string kernelName;        // for reports (faults, divergence)
  uint32_t workDim = 1;
  uint64_t globalOffset[3] = {0, 0, 0};
  uint64_t globalSize[3] = {1, 1, 1};
  uint64_t localSize[3] = {1, 1, 1}; // enqueued work-group size; edges may be smaller
  void **args = nullptr;
  uint64_t localMemSize = 0;     // bytes of __local per group (static + arguments)
  bool usesBarriers = false;     // informational; the entry handles barriers itself
};

// Completion: called exactly once, from whichever thread finished the work, with
// CL_COMPLETE (0) or a negative error code (e.g. CL_OUT_OF_RESOURCES after a kernel
// fault or barrier divergence, which is also reported on stderr naming the kernel).
using Done = std::function<void(int32_t status)>;

class Executor {
public:
  // `threads` = 0 means: FIBERCL_THREADS if set, else the number of cores.
  explicit Executor(unsigned threads = 0);
  ~Executor();
  Executor(const Executor &) = delete;
  Executor &operator=(const Executor &) = delete;

  unsigned workerCount() const;

  // Starts running every work-group of `range` on the pool; returns at once.
  void runNDRange(NDRange range, Done done);
  // Runs `work` (returning CL_COMPLETE or an error) on the pool; returns at once.
  void runHost(std::function<int32_t()> work, Done done);

  // Runs pending work on the calling thread until `finished()` is true; sleeps when
  // there is nothing to run. `finished` must become true through some `done`.
  void helpUntil(const std::function<bool()> &finished);

  // Debug counters (exposed through clGetDeviceInfo, CL_DEVICE_*_FIBERCL).
  uint64_t stacksCreated() const;   // work-item fiber stacks ever mmap'ed
  uint64_t fiberGroupsRun() const;  // work-groups that needed fibers

  struct Impl;

private:
  std::unique_ptr<Impl> impl_;
};

// Host functions for JIT-compiled code (FIBERCL_HOST_RUN_ITEMS, FIBERCL_HOST_BARRIER,
// printf), by symbol name, to pass to compiler::load.
std::map<std::string, void *> hostSymbols();

} // namespace fibercl::exec

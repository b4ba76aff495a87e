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
#include "runtime/scheduling_names.hpp"
#include "runtime/timeouts.hpp"

namespace fibercl::exec {

class GroupRaces; // group_races.hpp

// How the work-groups of one launch are scheduled (DESIGN.md, "Execution model").
// Defaults come from the environment (FIBERCL_OCCUPANCY, FIBERCL_SCHEDULE,
// FIBERCL_SEED, FIBERCL_ADMISSION, FIBERCL_DEADLOCK_TIMEOUT, FIBERCL_KERNEL_TIMEOUT,
// FIBERCL_TRACE, FIBERCL_REPORT); clSetKernelExecInfo may override them per launch.
struct Scheduling {
  using Policy = SchedulePolicy; // named in scheduling_names.hpp
  using Admission = AdmissionOrder;
  uint32_t occupancy = 0; // at most this many groups occupant; 0 = unbounded
  Policy policy = kSchedulePolicies[0].value;
  Admission admission = kAdmissionOrders[0].value;
  bool deterministic = false; // one worker, every decision from the seed
  uint64_t seed = 0;
  // The time limits (runtime/timeouts.hpp): no progress for this long in parallel mode
  // is a deadlock; the launch fails, and its running groups are stopped, this long
  // after its first group started (kernel_timeout.hpp; 0 = no limit).
  double deadlockTimeoutSeconds = kDefaultDeadlockTimeoutSeconds;
  double kernelTimeoutSeconds = kDefaultKernelTimeoutSeconds;
  std::string tracePath;  // Chrome trace-event JSON, "" = none
  std::string reportPath; // deadlock report as JSON, "" = none

  static Scheduling fromEnvironment(); // the defaults, read from FIBERCL_*
  // The names FIBERCL_SCHEDULE / FIBERCL_ADMISSION take and reports print.
  static const char *nameOf(Policy p) noexcept { return nameIn(kSchedulePolicies, p); }
  static const char *nameOf(Admission a) noexcept { return nameIn(kAdmissionOrders, a); }
};

// One NDRange launch. The pointed-to data (args, the bytes behind them) must stay
// alive until `done` has been called.
struct NDRange {
  fcl_work_group_fn entry = nullptr;
  std::string kernelName; // for reports (faults, divergence)
  uint32_t workDim = 1;
  uint64_t globalOffset[3] = {0, 0, 0};
  uint64_t globalSize[3] = {1, 1, 1};
  uint64_t localSize[3] = {1, 1, 1}; // enqueued work-group size; edges may be smaller
  void **args = nullptr;
  uint64_t localMemSize = 0; // bytes of __local per group (static + arguments)
  // FIBERCL_CHECK=bounds: the arguments' bounds (ctx->checks), or null; and whether a
  // failed check goes on (FIBERCL_CHECK_CONTINUE=1) instead of failing the launch.
  const fcl_check_bounds *checks = nullptr;
  bool checkContinue = false;
  // FIBERCL_CHECK=uninit: where the shadow of the group's __local bytes starts in its
  // block (ctx->local_shadow), cleared when a group starts; 0: none.
  uint64_t localShadow = 0;
  // FIBERCL_CHECK=races: the record of accesses between work-groups, or null.
  std::shared_ptr<GroupRaces> groupRaces;
  // FIBERCL_CHECK=weak: each group's __global stores go through its store buffer.
  bool weakMemory = false;
  // Its work-items take fibers at barriers (barriers not compiled as regions): each
  // suspended group then holds a stack per work-item. The entry handles barriers itself.
  bool itemFibers = false;
  // The groups run on their own fibers under `scheduling` (the kernel may wait for
  // another group, or the user asked for a seed or a bound); otherwise each group runs
  // to completion on one worker (yield points, if any, never expire).
  bool mayYield = false;
  // A cooperative kernel (fibercl/cooperative.h, 1-D, mayYield): its groups are killed
  // and forked while it runs (coop_launch.hpp).
  bool cooperative = false;
  Scheduling scheduling;
  // Called once, when the launch really begins (its first work-group is taken, or a
  // launch beside a cooperative kernel has got its work-group slots); may be empty.
  std::function<void()> started;
  // "file:line (kind)" of a barrier or yield site id, for reports; may be empty.
  std::function<std::string(uint32_t site)> describeSite;
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
  uint64_t stacksCreated() const;  // work-item fiber stacks ever mmap'ed
  uint64_t fiberGroupsRun() const; // work-groups that needed fibers
  uint64_t groupSwitches() const;  // yield points that suspended the group for another
  uint64_t groupsMoved() const;    // suspended groups that moved to another worker

  struct Impl;

private:
  std::unique_ptr<Impl> impl_;
};

// Host functions for JIT-compiled code (every function of fibercl/host_abi.def), by
// symbol name, to pass to compiler::load.
std::map<std::string, void *> hostSymbols();

} // namespace fibercl::exec

// The executor's debug counters (clGetDeviceInfo CL_DEVICE_*_FIBERCL), shared by all
// of its runners, and a worker's tallies of one yielding launch, added to them once
// when the worker leaves the launch (no shared cache line on the yield path).
#pragma once

#include <atomic>
#include <cstdint>

namespace fibercl::exec {

struct ExecCounters {
  std::atomic<uint64_t> stacksCreated{0}; // work-item and group fiber stacks ever mapped
  std::atomic<uint64_t> fiberGroups{0};   // work-groups whose work-items took fibers
  std::atomic<uint64_t> groupSwitches{0}; // decisions that suspended a group for another
  std::atomic<uint64_t> groupsMoved{0};   // suspended groups adopted by another worker
};

// One worker's share of a yielding launch.
struct LaunchTally {
  uint64_t decisions = 0; // taken at yield points (countdown ran out)
  uint64_t switches = 0;  // of which suspended the group
  uint64_t adopted = 0;   // groups this worker took over from another

  void addTo(ExecCounters &c) const noexcept {
    c.groupSwitches.fetch_add(switches, std::memory_order_relaxed);
    c.groupsMoved.fetch_add(adopted, std::memory_order_relaxed);
  }
};

} // namespace fibercl::exec

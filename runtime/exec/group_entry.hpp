// A work-group's entry, the same on both launch paths (run to completion,
// group_launch.cpp; yielding, yield_launch.cpp): its fcl_group_ctx built from the
// launch, and the call of the kernel's work-group function under the runner's
// recovery point.
#pragma once

#include <cstdint>

#include "fibercl/kernel_abi.h"
#include "runtime/exec/job.hpp"
#include "runtime/exec/sanitizer_fibers.hpp"

namespace fibercl::exec {

struct Runner;

// Builds the fcl_group_ctx of a launch's work-groups: the launch's fields once, then
// each group's id and size.
class LaunchContext {
public:
  explicit LaunchContext(const Job &job) noexcept : job_(job) {}
  // A context with the launch's fields set, and none of a group's: no id, no local
  // memory, no yield state (yield points, if any, are skipped), no cooperative view,
  // no runtime.
  fcl_group_ctx make() const noexcept {
    const NDRange &R = job_.range;
    fcl_group_ctx c{};
    for (unsigned d = 0; d < 3; ++d) {
      c.global_offset[d] = R.globalOffset[d];
      c.global_size[d] = R.globalSize[d];
      c.enqueued_local_size[d] = R.localSize[d];
      c.num_groups[d] = job_.numGroups[d];
    }
    c.work_dim = R.workDim;
    c.checks = reinterpret_cast<uintptr_t>(R.checks);
    c.local_shadow = R.localShadow;
    return c;
  }
  // Places `c` at group `id` (its last group in a dimension may be smaller). Inline:
  // a launch of many small groups calls it for each.
  void placeGroup(fcl_group_ctx &c, const uint64_t id[3]) const noexcept {
    const NDRange &R = job_.range;
    for (unsigned d = 0; d < 3; ++d) {
      c.group_id[d] = id[d];
      uint64_t left = R.globalSize[d] - id[d] * R.localSize[d];
      c.local_size[d] = left < R.localSize[d] ? left : R.localSize[d];
    }
  }
  // The (x, y, z) id of the group with linear id `linear`.
  void groupIdOf(uint64_t linear, uint64_t id[3]) const noexcept {
    const uint64_t ng0 = job_.numGroups[0], ng1 = job_.numGroups[1];
    id[0] = linear % ng0;
    id[1] = (linear / ng0) % ng1;
    id[2] = linear / ng0 / ng1;
  }

private:
  const Job &job_;
};

// Calls the launch's work-group function for `ctx` with the runner's recovery point
// set; false if the group was abandoned (a fault, barrier divergence or the kernel
// watchdog jumped back here). `fiber`: the stack the recovery point is on (for
// sanitizers). `keep`: where a suspendable group keeps its own copy of the recovery
// point, to restore when it is resumed after other groups set theirs; or null.
// Kept out of line: __builtin_setjmp makes the frame special, and __builtin_longjmp
// must come from another function.
[[gnu::noinline]] bool runGuarded(Runner &r, const Job &job, fcl_group_ctx *ctx, SanFiber *fiber,
                                  intptr_t (*keep)[5]) noexcept;

} // namespace fibercl::exec

// FIBERCL_CHECK=weak (weak_memory.cpp): each work-group's plain and relaxed stores to
// __global memory wait in its store buffer and reach memory late and out of order.
#pragma once

#include <cstdint>

#include "fibercl/kernel_abi.h"

namespace fibercl::exec {

struct GroupState;

// Group `gid` starts on `g`: an empty buffer, draws from `seed` and the id. `localBytes`:
// the group's __local block (stores there through generic pointers are not buffered).
void startWeakMemory(GroupState &g, uint64_t gid, uint64_t seed, uint64_t localBytes) noexcept;
// Everything buffered reaches memory (the group waits for another group).
void drainWeakMemory(GroupState &g) noexcept;
// The group of `ctx` has run its last work-item: in a yielding launch another group may
// run first (and see memory without the group's last stores), then everything drains.
void endWeakMemory(fcl_group_ctx *ctx) noexcept;

} // namespace fibercl::exec

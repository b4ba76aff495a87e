// __fibercl_host_coop: the runtime side of the cooperative kernels functions
// (FIBERCL_HOST_COOP in fibercl/host_abi.def). Every work-item of a group makes the same
// sequence of calls; the first work-item to make the group's j-th call decides for the
// group, and the others get the same answer at their j-th call. Waiting at a global barrier goes
// through the group's yield point, so the scheduler runs the other groups meanwhile and a barrier
// that cannot complete is reported as a deadlock. Runs on the group's fiber: noexcept.
#include <cstring>

#include "runtime/exec/coop_launch.hpp"
#include "runtime/exec/group_races.hpp"
#include "runtime/exec/host_abi.hpp"
#include "runtime/exec/yield_launch.hpp"

using namespace fibercl::exec;

namespace {

// Waits (yielding) until the barrier generation `gen` has been released.
void waitForRelease(fcl_group_ctx *ctx, YieldGroup &y, uint64_t gen, uint32_t site) noexcept {
  CoopLaunch &coop = *y.sh->coop;
  while (!coop.released(gen)) {
    ++y.ys.awaits; // not released yet: the same state as last time, a failed await
    __fibercl_host_yield(ctx, site | FIBERCL_SITE_WAITING);
  }
}

} // namespace

extern "C" fcl_u32 __fibercl_host_coop(fcl_group_ctx *ctx, fcl_u32 op, fcl_u32 site, fcl_u32 x,
                                       fcl_u32 y_, fcl_u32 z, uint8_t *frame,
                                       fcl_u64 frameSize) noexcept {
  GroupState &g = *reinterpret_cast<GroupState *>(ctx->runtime);
  YieldGroup *y = g.yieldGroup;
  if (!y || !y->sh->coop)
    return 0; // not a cooperative launch (cannot happen: such kernels always yield)
  CoopLaunch &coop = *y->sh->coop;
  const uint32_t gid = uint32_t(y->gid);
  if (op == FCL_COOP_ENTRY) {
    if (y->startSite && frameSize && y->startFrame.size() == frameSize)
      std::memcpy(frame, y->startFrame.data(), frameSize);
    return y->startSite;
  }
  if (op == FCL_COOP_QUERY)
    return coop.wanted();
  // The work-item's j-th call: decided already (by another work-item), or decided now.
  const uint64_t items = ctx->local_size[0] * ctx->local_size[1] * ctx->local_size[2];
  if (y->coopItemCalls.size() != items)
    y->coopItemCalls.assign(items, 0); // first call in this group
  const uint64_t item = x + ctx->local_size[0] * (y_ + ctx->local_size[1] * uint64_t(z));
  const uint64_t j = y->coopItemCalls[item]++;
  if (j < y->coopDecided)
    return j == y->coopLeaveAt ? FCL_COOP_LEAVE : 0;
  y->coopDecided = j + 1;
  uint32_t answer = 0;
  switch (op) {
  case FCL_COOP_KILL:
    answer = coop.offerKill(gid);
    break;
  case FCL_COOP_FORK:
    releaseGroupRaces(g); // FIBERCL_CHECK=races: the forked groups start after this
    coop.requestFork(gid, site, frame, frameSize);
    break;
  case FCL_COOP_BARRIER:
  case FCL_COOP_RESIZE: {
    const bool resizing = op == FCL_COOP_RESIZE;
    ++y->ys.progress; // arriving is progress: the group is not merely waiting
    releaseGroupRaces(g); // FIBERCL_CHECK=races: the barrier orders the groups
    uint64_t gen = coop.arrive(gid, resizing, site, frame, frameSize);
    waitForRelease(ctx, *y, gen, site);
    acquireGroupRaces(g);
    if (resizing && coop.leavesAfterResize(gen, gid))
      answer = FCL_COOP_LEAVE;
    break;
  }
  default:
    break;
  }
  if (answer == FCL_COOP_LEAVE)
    y->coopLeaveAt = j;
  return answer;
}

// __fibercl_host_coop: the runtime side of the cooperative kernels functions
// (FIBERCL_HOST_COOP in kernel_abi.h). Every work-item of a group makes each call; the
// first call of a batch (work-item 0's) decides for the group and the others get the
// same answer. Waiting at a global barrier goes through the group's yield point, so
// the scheduler runs the other groups meanwhile and a barrier that cannot complete is
// reported as a deadlock. Runs on the group's fiber: noexcept.
#include <cstring>

#include "runtime/exec/coop_launch.hpp"
#include "runtime/exec/yield_launch.hpp"

using namespace fibercl::exec;

extern "C" void __fibercl_host_yield(fcl_group_ctx *ctx, fcl_u32 site) noexcept;

namespace {

// Waits (yielding) until the barrier generation `gen` has been released.
void waitForRelease(fcl_group_ctx *ctx, YieldGroup &y, uint64_t gen, uint32_t site) noexcept {
  CoopLaunch &coop = *y.sh->coop;
  while (!coop.released(gen))
    __fibercl_host_yield(ctx, site | FIBERCL_SITE_WAITING);
}

} // namespace

extern "C" fcl_u32 __fibercl_host_coop(fcl_group_ctx *ctx, fcl_u32 op, fcl_u32 site,
                                       uint8_t *frame, fcl_u64 frameSize) noexcept {
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
  // Work-group functions: work-items call in batches of g.n.
  const bool first = y->coopCalls++ % (g.n ? g.n : 1) == 0;
  if (!first)
    return y->coopAnswer;
  uint32_t answer = 0;
  switch (op) {
  case FCL_COOP_KILL:
    answer = coop.offerKill(gid);
    break;
  case FCL_COOP_FORK:
    coop.requestFork(gid, site, frame, frameSize);
    break;
  case FCL_COOP_BARRIER:
  case FCL_COOP_RESIZE: {
    const bool resizing = op == FCL_COOP_RESIZE;
    ++y->ys.progress; // arriving is progress: the group is not merely waiting
    uint64_t gen = coop.arrive(gid, resizing, site, frame, frameSize);
    waitForRelease(ctx, *y, gen, site);
    if (resizing && coop.leavesAfterResize(gid))
      answer = FCL_COOP_LEAVE;
    break;
  }
  default:
    break;
  }
  y->coopAnswer = answer;
  return answer;
}

// Host functions of kernels whose barriers are compiled as regions (host_abi.def:
// FIBERCL_HOST_REGIONS_BEGIN, FIBERCL_HOST_ROUND_END, FIBERCL_HOST_SUB_GROUP_ROUND,
// FIBERCL_HOST_REGIONS_END). The
// work-group function runs the regions itself; the runtime provides the frames that
// hold values across barriers and reports barrier divergence the way the fibers do.
#include <cstdlib>

#include "runtime/exec/host_abi.hpp"
#include "runtime/exec/report.hpp"
#include "runtime/exec/runner.hpp"
#include "runtime/exec/sub_group_release.hpp"

using fibercl::exec::GroupState;

namespace {

[[noreturn, gnu::cold, gnu::noinline]] void outOfFrames(GroupState &g, uint64_t bytes) noexcept {
  fibercl::exec::Report msg;
  msg.kernel(g.runner->kernelName)
      << ": cannot allocate " << bytes << " bytes for the work-items' values across barriers in ";
  msg.group(g.ctx) << "\n";
  msg.emit();
  fibercl::exec::abortGroup(*g.runner);
}

} // namespace

extern "C" void *__fibercl_host_regions_begin(fcl_group_ctx *ctx, fcl_u32 n,
                                              fcl_u64 bytes) noexcept {
  GroupState &g = *reinterpret_cast<GroupState *>(ctx->runtime);
  g.ctx = ctx;
  g.lx = uint32_t(ctx->local_size[0]);
  g.ly = uint32_t(ctx->local_size[1]);
  g.lz = uint32_t(ctx->local_size[2]);
  g.n = n;
  g.regions = true;
  if (!g.prepareSubGroupMasks())
    outOfFrames(g, uint64_t(n) * 2);
  if (bytes > g.framesCap) {
    uint64_t cap = (bytes + 4095) & ~uint64_t(4095);
    void *p = nullptr;
    if (posix_memalign(&p, 64, cap) != 0)
      outOfFrames(g, bytes);
    g.frames.reset(static_cast<char *>(p));
    g.framesCap = cap;
  }
  return g.frames.get();
}

extern "C" fcl_u32 __fibercl_host_round_end(fcl_group_ctx *ctx, const fcl_u32 *sites, fcl_u32 n,
                                            fcl_u32 region) noexcept {
  fcl_u32 first = sites[0];
  uint32_t i = 1;
  while (i < n && sites[i] == first)
    ++i;
  if (i == n)
    return first;
  GroupState &g = *reinterpret_cast<GroupState *>(ctx->runtime);
  fibercl::exec::barrierDivergence(g, i, sites[i] ? int64_t(sites[i]) : -1,
                                   first ? int64_t(first) : -1, region == 0, sites);
}

extern "C" fcl_u32 __fibercl_host_sub_group_round(fcl_group_ctx *ctx, const fcl_u32 *sites,
                                                  fcl_u32 n, fcl_u32 width, fcl_u32 region,
                                                  fcl_u32 agreed) noexcept {
  GroupState &g = *reinterpret_cast<GroupState *>(ctx->runtime);
  if (agreed != ~fcl_u32(0)) { // the common case: every work-item at one place
    if (agreed & FIBERCL_SITE_SUB_GROUP)
      fibercl::exec::fillAllLanes(n, width, g.sgMasks);
    return agreed | FIBERCL_ROUND_EVERYONE;
  }
  fibercl::exec::SubGroupRelease r = fibercl::exec::chooseRelease(sites, n, width, g.sgMasks);
  if (!r.diverged)
    return r.site | (r.everyone ? FIBERCL_ROUND_EVERYONE : 0);
  fibercl::exec::barrierDivergence(g, r.item, r.itemSite ? int64_t(r.itemSite) : -1,
                                   r.firstSite ? int64_t(r.firstSite) : -1, region == 0, sites);
}

extern "C" void __fibercl_host_regions_end(fcl_group_ctx *ctx) noexcept {
  reinterpret_cast<GroupState *>(ctx->runtime)->regions = false;
}

// Launching work-groups: per-group context, local memory and the recovery point.
#include "runtime/exec/group_launch.hpp"

#include <csignal>
#include <cstdio>

#include "runtime/exec/job.hpp"
#include "runtime/exec/runner.hpp"

namespace fibercl::exec {

void prepareNDRange(Job &job, unsigned threads) {
  NDRange &r = job.range;
  if (r.workDim < 1 || r.workDim > 3)
    r.workDim = r.workDim < 1 ? 1 : 3;
  uint64_t total = 1;
  for (unsigned d = 0; d < 3; ++d) {
    if (d >= r.workDim) {
      r.globalOffset[d] = 0;
      r.globalSize[d] = 1;
      r.localSize[d] = 1;
    }
    if (r.localSize[d] == 0)
      r.localSize[d] = 1;
    job.numGroups[d] = (r.globalSize[d] + r.localSize[d] - 1) / r.localSize[d];
    total *= job.numGroups[d];
  }
  job.total = total;
  // Several chunks per runner for balance, but few enough that grabbing is cheap.
  uint64_t perThread = 8;
  uint64_t chunk = total / (uint64_t(threads) * perThread);
  job.chunk = chunk < 1 ? 1 : chunk;
}

namespace {

// Calls the work-group function; false if the group was abandoned (fault or
// divergence jumped back here). Kept out of line: __builtin_setjmp makes the frame
// special, and __builtin_longjmp must come from another function.
[[gnu::noinline]] bool callGuarded(Runner &r, fcl_work_group_fn entry, void **args,
                                   fcl_group_ctx *ctx) noexcept {
  if (__builtin_setjmp(reinterpret_cast<void **>(r.recover)) == 0) {
    r.recoverFiber = r.san.running;
    r.inKernel = 1;
    entry(args, ctx);
    r.inKernel = 0;
    return true;
  }
  sanLanded(r.san);
  return false;
}

} // namespace

uint64_t runGroups(Runner &r, Job &job, uint64_t begin, uint64_t end) noexcept {
  const NDRange &R = job.range;
  ActiveLaunch active(r, job.serial);
  fcl_group_ctx ctx;
  for (unsigned d = 0; d < 3; ++d) {
    ctx.global_offset[d] = R.globalOffset[d];
    ctx.global_size[d] = R.globalSize[d];
    ctx.enqueued_local_size[d] = R.localSize[d];
    ctx.num_groups[d] = job.numGroups[d];
  }
  ctx.work_dim = R.workDim;
  ctx.reserved = 0;
  ctx.coop = 0; // cooperative kernels always run as yielding launches
  // Groups run to completion: no yield state, so yield points, if the kernel has any,
  // are skipped.
  ctx.yield_state = 0;
  ctx.local_mem = 0;
  if (R.localMemSize) {
    void *block = r.localMemory(R.localMemSize);
    if (!block) {
      std::fprintf(stderr, "FiberCL: kernel '%s': cannot allocate %llu bytes of local memory\n",
                   R.kernelName.c_str(), (unsigned long long)R.localMemSize);
      return job.fail(kOutOfResources);
    }
    ctx.local_mem = reinterpret_cast<uintptr_t>(block);
  }
  ctx.runtime = reinterpret_cast<uintptr_t>(&r.group);
  r.kernelName = R.kernelName.c_str();
  r.describeSite = &R.describeSite;
  r.group.ctx = &ctx;

  const uint64_t ng0 = job.numGroups[0], ng1 = job.numGroups[1];
  uint64_t g[3];
  g[0] = begin % ng0;
  g[1] = (begin / ng0) % ng1;
  g[2] = begin / ng0 / ng1;
  for (uint64_t i = begin; i < end; ++i) {
    for (unsigned d = 0; d < 3; ++d) {
      ctx.group_id[d] = g[d];
      uint64_t start = g[d] * R.localSize[d];
      uint64_t left = R.globalSize[d] - start;
      ctx.local_size[d] = left < R.localSize[d] ? left : R.localSize[d];
    }
    if (!callGuarded(r, R.entry, R.args, &ctx)) {
      resetGroup(r.group); // left through the recovery point (fault, divergence)
      r.group.ctx = nullptr;
      return job.fail(kOutOfResources);
    }
    if (job.status.load(std::memory_order_relaxed) != kComplete)
      break; // another runner failed the job: skip the rest
    if (++g[0] == ng0) {
      g[0] = 0;
      if (++g[1] == ng1) {
        g[1] = 0;
        ++g[2];
      }
    }
  }
  r.group.ctx = nullptr;
  trimIdleStacks(r.stacks);
  return 0;
}

} // namespace fibercl::exec

// Launching work-groups to run to completion: a chunk of groups with one context and
// local-memory block.
#include "runtime/exec/group_launch.hpp"

#include <csignal>
#include <cstring>

#include "runtime/exec/group_entry.hpp"
#include "runtime/exec/group_races.hpp"
#include "runtime/exec/job.hpp"
#include "runtime/exec/local_shadow.hpp"
#include "runtime/exec/report.hpp"
#include "runtime/exec/runner.hpp"
#include "runtime/exec/weak_memory.hpp"

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

uint64_t runGroups(Runner &r, Job &job, uint64_t begin, uint64_t end) noexcept {
  const NDRange &R = job.range;
  ActiveLaunch active(r, job.serial);
  // Groups run to completion: no yield state, so yield points, if the kernel has any,
  // are skipped; no cooperative view (cooperative kernels always run as yielding
  // launches).
  const LaunchContext launch(job);
  fcl_group_ctx ctx = launch.make();
  if (R.localMemSize) {
    void *block = r.localMemory(R.localMemSize);
    if (!block) {
      Report msg;
      msg.kernel(R.kernelName) << ": cannot allocate " << R.localMemSize
                               << " bytes of local memory\n";
      msg.emit();
      return job.fail(kOutOfResources);
    }
    ctx.local_mem = reinterpret_cast<uintptr_t>(block);
  }
  LocalShadow shadow(reinterpret_cast<void *>(ctx.local_mem), R.localShadow);
  ctx.runtime = reinterpret_cast<uintptr_t>(&r.group);
  r.kernelName = R.kernelName.c_str();
  r.describeSite = &R.describeSite;
  r.checkContinue = R.checkContinue;
  r.group.ctx = &ctx;
  r.group.localBytes = R.localMemSize;

  const uint64_t ng0 = job.numGroups[0], ng1 = job.numGroups[1];
  uint64_t g[3];
  launch.groupIdOf(begin, g);
  for (uint64_t i = begin; i < end; ++i) {
    launch.placeGroup(ctx, g);
    ++r.group.barrierEpoch; // FIBERCL_CHECK=races: a new group has touched nothing yet
    startGroupRaces(r.group, R.groupRaces.get(), i);
    if (R.weakMemory)
      startWeakMemory(r.group, i, R.scheduling.seed, R.localMemSize);
    shadow.nextGroup(ctx); // FIBERCL_CHECK=uninit: nothing of this group's __local written yet
    const bool ran = runGuarded(r, job, &ctx, r.san.running, nullptr);
    endGroupRaces(r.group);
    if (!ran) {
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

// LaunchContext and runGuarded (group_entry.hpp).
#include "runtime/exec/group_entry.hpp"

#include <cstring>

#include "runtime/exec/job.hpp"
#include "runtime/exec/runner.hpp"

namespace fibercl::exec {

fcl_group_ctx LaunchContext::make() const noexcept {
  const NDRange &R = job_.range;
  fcl_group_ctx c{};
  for (unsigned d = 0; d < 3; ++d) {
    c.global_offset[d] = R.globalOffset[d];
    c.global_size[d] = R.globalSize[d];
    c.enqueued_local_size[d] = R.localSize[d];
    c.num_groups[d] = job_.numGroups[d];
  }
  c.work_dim = R.workDim;
  return c;
}

void LaunchContext::placeGroup(fcl_group_ctx &c, const uint64_t id[3]) const noexcept {
  const NDRange &R = job_.range;
  for (unsigned d = 0; d < 3; ++d) {
    c.group_id[d] = id[d];
    uint64_t left = R.globalSize[d] - id[d] * R.localSize[d];
    c.local_size[d] = left < R.localSize[d] ? left : R.localSize[d];
  }
}

void LaunchContext::groupIdOf(uint64_t linear, uint64_t id[3]) const noexcept {
  const uint64_t ng0 = job_.numGroups[0], ng1 = job_.numGroups[1];
  id[0] = linear % ng0;
  id[1] = (linear / ng0) % ng1;
  id[2] = linear / ng0 / ng1;
}

bool runGuarded(Runner &r, const Job &job, fcl_group_ctx *ctx, SanFiber *fiber,
                intptr_t (*keep)[5]) noexcept {
  if (__builtin_setjmp(reinterpret_cast<void **>(r.recover)) == 0) {
    if (keep)
      std::memcpy(*keep, r.recover, sizeof *keep);
    r.recoverFiber = fiber;
    r.inKernel = 1;
    job.range.entry(job.range.args, ctx);
    r.inKernel = 0;
    return true;
  }
  sanLanded(r.san);
  return false;
}

} // namespace fibercl::exec

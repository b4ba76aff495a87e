// LaunchContext and runGuarded (group_entry.hpp).
#include "runtime/exec/group_entry.hpp"

#include <cstring>

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

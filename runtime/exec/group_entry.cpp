// runGuarded (group_entry.hpp).
#include "runtime/exec/group_entry.hpp"

#include <cstring>

#include "runtime/exec/runner.hpp"
#include "runtime/exec/weak_memory.hpp"

namespace fibercl::exec {

bool runGuarded(Runner &r, const Job &job, fcl_group_ctx *ctx, SanFiber *fiber,
                intptr_t (*keep)[5]) noexcept {
  if (__builtin_setjmp(reinterpret_cast<void **>(r.recover)) == 0) {
    if (keep)
      std::memcpy(*keep, r.recover, sizeof *keep);
    r.recoverFiber = fiber;
    r.inKernel = 1;
    job.range.entry(job.range.args, ctx);
    // FIBERCL_CHECK=weak: the group's end drains its store buffer -- still guarded: a
    // buffered store through a bad pointer faults here, as the store would have.
    if (job.range.weakMemory)
      endWeakMemory(ctx);
    // A suspendable group may have moved to another worker meanwhile (group_migration.hpp):
    // the runner is the calling thread's now.
    (keep ? *currentRunner() : r).inKernel = 0;
    return true;
  }
  sanLanded((keep ? *currentRunner() : r).san);
  return false;
}

} // namespace fibercl::exec

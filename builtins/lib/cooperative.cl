/* Cooperative kernels (fibercl/cooperative.h; semantics there and in DESIGN.md).
 *
 * Each function is the marker __fibercl_coop_point(op), which the compiler turns into
 * a call of the runtime (FIBERCL_HOST_COOP) and, for offer_kill and the resizing
 * barrier, a return from the kernel when the runtime says the group leaves;
 * request_fork and the resizing barrier are also where forked groups start. The
 * runtime decides at the first work-item's call and gives every other work-item the
 * same answer at the same call (kernel_abi.h), so offer_kill and request_fork need no
 * work-group barrier: they cost a call, not a rendezvous. The global barriers are
 * rendezvous of the whole group (its memory accesses before them must be done).
 */
#include "fcl_internal.h"
#include "fibercl/kernel_abi.h"

uint __fibercl_coop_point(uint op);
const __private fcl_group_ctx *__fibercl_ctx(void) __attribute__((const));

#define FCL_COOP_FENCES (CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)

__attribute__((convergent)) void offer_kill(void) { __fibercl_coop_point(FCL_COOP_KILL); }

__attribute__((convergent)) void request_fork(void) { __fibercl_coop_point(FCL_COOP_FORK); }

__attribute__((convergent)) void global_barrier(void) {
  barrier(FCL_COOP_FENCES);
  __fibercl_coop_point(FCL_COOP_BARRIER);
  barrier(FCL_COOP_FENCES);
}

__attribute__((convergent)) void resizing_global_barrier(void) {
  barrier(FCL_COOP_FENCES);
  __fibercl_coop_point(FCL_COOP_RESIZE);
  barrier(FCL_COOP_FENCES);
}

uint cooperative_query(void) { return __fibercl_coop_point(FCL_COOP_QUERY); }

/* get_num_groups(0) and get_global_size(0) of a cooperative kernel: M changes while
 * the kernel runs, so these are re-read at every call (volatile: never hoisted). The
 * compiler renames the calls in cooperative programs to these. */
size_t __fibercl_coop_num_groups(uint dim) {
  const __private fcl_group_ctx *c = __fibercl_ctx();
  if (dim != 0 || c->coop == 0)
    return get_num_groups(dim);
  return (size_t)((volatile const __private fcl_coop_view *)c->coop)->active;
}

size_t __fibercl_coop_global_size(uint dim) {
  if (dim != 0 || __fibercl_ctx()->coop == 0)
    return get_global_size(dim);
  return __fibercl_coop_num_groups(0) * get_enqueued_local_size(0);
}

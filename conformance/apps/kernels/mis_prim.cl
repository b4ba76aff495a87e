// mis, prim form (seed 000): discovery, then the XF barrier among participants and
// work spread over participating-group ids.
#include <fibercl/primitives.h>
#include "mis_common.cl"

kernel void mis_prim(global void *ctx, global const int *row, global const int *col,
                     global const uint *prio, global int *in_set, global int *removed,
                     global int *cand, global atomic_int *more, int n, int max_iters) {
  fibercl_participant p = fibercl_discover(ctx);
  if (!p_participates(p))
    return;
  const int tid = (int)p_get_global_id(p, 0);
  const int stride = (int)p_get_global_size(p, 0);
  for (int it = 0;; ++it) {
    mis_select(tid, stride, it, row, col, prio, in_set, removed, cand, more, n);
    fibercl_xf_barrier(ctx, &p);
    mis_add(tid, stride, in_set, removed, cand, n);
    fibercl_xf_barrier(ctx, &p);
    mis_remove(tid, stride, row, col, in_set, removed, n);
    fibercl_xf_barrier(ctx, &p);
    if (!level_continue(more, it, max_iters))
      break;
  }
}

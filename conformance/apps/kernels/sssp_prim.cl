// sssp, prim form (seed 000): discovery, then the XF barrier among participants and
// work spread over participating-group ids.
#include <fibercl/primitives.h>
#include "sssp_common.cl"

kernel void sssp_prim(global void *ctx, global const int *rrow, global const int *rcol,
                      global const int *rw, global int *dist, global int *tmp,
                      global atomic_int *more, int n, int max_iters) {
  fibercl_participant p = fibercl_discover(ctx);
  if (!p_participates(p))
    return;
  const int tid = (int)p_get_global_id(p, 0);
  const int stride = (int)p_get_global_size(p, 0);
  for (int it = 0;; ++it) {
    sssp_relax(tid, stride, rrow, rcol, rw, dist, tmp, n);
    fibercl_xf_barrier(ctx, &p);
    sssp_compare(tid, stride, it, dist, tmp, more, n);
    fibercl_xf_barrier(ctx, &p);
    sssp_assign(tid, stride, dist, tmp, n);
    fibercl_xf_barrier(ctx, &p);
    if (!level_continue(more, it, max_iters))
      break;
  }
}

// color, prim form (seed 000): occupancy discovery first; groups that are not
// co-resident with the others leave at once, and the participants share the work
// through the participating-group ids and meet at the XF barrier.
#include <fibercl/primitives.h>
#include "color_common.cl"

kernel void color_prim(global void *ctx, global const int *row, global const int *col,
                       global const uint *prio, global int *colour,
                       global int *is_max, global atomic_int *more, int n,
                       int max_iters) {
  fibercl_participant p = fibercl_discover(ctx);
  if (!p_participates(p))
    return;
  const int tid = (int)p_get_global_id(p, 0);
  const int stride = (int)p_get_global_size(p, 0);
  for (int it = 0;; ++it) {
    color_select(tid, stride, it, row, col, prio, colour, is_max, more, n);
    fibercl_xf_barrier(ctx, &p);
    color_assign(tid, stride, it, colour, is_max, n);
    fibercl_xf_barrier(ctx, &p);
    if (!level_continue(more, it, max_iters))
      break;
  }
}

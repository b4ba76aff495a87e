// color, plain form: a persistent-thread kernel with a hand-written global barrier
// over all launched groups (plain_barrier.cl). Correct only if every group is
// co-resident. Algorithm: color_common.cl.
#include "plain_barrier.cl"
#include "color_common.cl"

kernel void color_plain(global atomic_uint *bar, global const int *row,
                        global const int *col, global const uint *prio,
                        global int *colour, global int *is_max,
                        global atomic_int *more, int n, int max_iters) {
  const int tid = (int)get_global_id(0);
  const int stride = (int)get_global_size(0);
  for (int it = 0;; ++it) {
    color_select(tid, stride, it, row, col, prio, colour, is_max, more, n);
    plain_global_barrier(bar);
    color_assign(tid, stride, it, colour, is_max, n);
    plain_global_barrier(bar);
    if (!level_continue(more, it, max_iters))
      break;
  }
}

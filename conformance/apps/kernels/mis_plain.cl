// mis, plain form: persistent threads, hand-written barrier over all launched
// groups (plain_barrier.cl). Algorithm: mis_common.cl.
#include "plain_barrier.cl"
#include "mis_common.cl"

kernel void mis_plain(global atomic_uint *bar, global const int *row,
                      global const int *col, global const uint *prio,
                      global int *in_set, global int *removed, global int *cand,
                      global atomic_int *more, int n, int max_iters) {
  const int tid = (int)get_global_id(0);
  const int stride = (int)get_global_size(0);
  for (int it = 0;; ++it) {
    mis_select(tid, stride, it, row, col, prio, in_set, removed, cand, more, n);
    plain_global_barrier(bar);
    mis_add(tid, stride, in_set, removed, cand, n);
    plain_global_barrier(bar);
    mis_remove(tid, stride, row, col, in_set, removed, n);
    plain_global_barrier(bar);
    if (!level_continue(more, it, max_iters))
      break;
  }
}

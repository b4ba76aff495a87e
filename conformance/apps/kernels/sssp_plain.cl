// sssp, plain form: persistent threads, hand-written barrier over all launched
// groups (plain_barrier.cl). Algorithm: sssp_common.cl.
#include "plain_barrier.cl"
#include "sssp_common.cl"

kernel void sssp_plain(global atomic_uint *bar, global const int *rrow,
                       global const int *rcol, global const int *rw, global int *dist,
                       global int *tmp, global atomic_int *more, int n, int max_iters) {
  const int tid = (int)get_global_id(0);
  const int stride = (int)get_global_size(0);
  for (int it = 0;; ++it) {
    sssp_relax(tid, stride, rrow, rcol, rw, dist, tmp, n);
    plain_global_barrier(bar);
    sssp_compare(tid, stride, it, dist, tmp, more, n);
    plain_global_barrier(bar);
    sssp_assign(tid, stride, dist, tmp, n);
    plain_global_barrier(bar);
    if (!level_continue(more, it, max_iters))
      break;
  }
}

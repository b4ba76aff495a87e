// sssp, coop form (seed 001): the three barriers become resizing barriers; the
// iteration number is transmitted and ids are re-read after every resizing barrier.
#include <fibercl/cooperative.h>
#include "sssp_common.cl"

kernel void sssp_coop(global const int *rrow, global const int *rcol,
                      global const int *rw, global int *dist, global int *tmp,
                      global atomic_int *more, int n, int max_iters) {
  transmit int it = 0;
  for (;;) {
    sssp_relax((int)get_global_id(0), (int)get_global_size(0), rrow, rcol, rw, dist,
               tmp, n);
    resizing_global_barrier();
    sssp_compare((int)get_global_id(0), (int)get_global_size(0), it, dist, tmp, more, n);
    resizing_global_barrier();
    sssp_assign((int)get_global_id(0), (int)get_global_size(0), dist, tmp, n);
    resizing_global_barrier();
    if (!level_continue(more, it, max_iters))
      break;
    ++it;
  }
}

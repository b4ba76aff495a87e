// mis, coop form (seed 001): the three barriers become resizing barriers; the
// iteration number is transmitted to forked groups and ids are re-read after every
// resizing barrier.
#include <fibercl/cooperative.h>
#include "mis_common.cl"

kernel void mis_coop(global const int *row, global const int *col,
                     global const uint *prio, global int *in_set, global int *removed,
                     global int *cand, global atomic_int *more, int n, int max_iters) {
  transmit int it = 0;
  for (;;) {
    mis_select((int)get_global_id(0), (int)get_global_size(0), it, row, col, prio,
               in_set, removed, cand, more, n);
    resizing_global_barrier();
    mis_add((int)get_global_id(0), (int)get_global_size(0), in_set, removed, cand, n);
    resizing_global_barrier();
    mis_remove((int)get_global_id(0), (int)get_global_size(0), row, col, in_set,
               removed, n);
    resizing_global_barrier();
    if (!level_continue(more, it, max_iters))
      break;
    ++it;
  }
}

// color, coop form (seed 001 §3.2, Fig. 4): both global barriers become resizing
// barriers. A group forked at one starts right after it with only `transmit`
// variables set, so the iteration number is transmitted, and the thread id and
// stride are re-read after every resizing barrier (M may have changed).
#include <fibercl/cooperative.h>
#include "color_common.cl"

kernel void color_coop(global const int *row, global const int *col,
                       global const uint *prio, global int *colour,
                       global int *is_max, global atomic_int *more, int n,
                       int max_iters) {
  transmit int it = 0;
  for (;;) {
    color_select((int)get_global_id(0), (int)get_global_size(0), it, row, col, prio,
                 colour, is_max, more, n);
    resizing_global_barrier();
    color_assign((int)get_global_id(0), (int)get_global_size(0), it, colour, is_max, n);
    resizing_global_barrier();
    if (!level_continue(more, it, max_iters))
      break;
    ++it;
  }
}

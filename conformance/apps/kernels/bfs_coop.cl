// bfs, coop form: seed 001 Fig. 4. The barriers are resizing barriers; level and the
// two list pointers are transmitted to groups forked there; tid and stride are
// recomputed at the top of every level (they are stable until the next resizing
// barrier, and nothing between the two barriers uses them except the reset, done by
// global id 0 whose group is never killed).
#include <fibercl/cooperative.h>
#include "bfs_common.cl"

kernel void bfs_coop(global const int *row, global const int *col,
                     global atomic_int *levels, global bfs_worklist *n0,
                     global bfs_worklist *n1) {
  transmit int level = 0;
  transmit global bfs_worklist *in_nodes = n0;
  transmit global bfs_worklist *out_nodes = n1;
  while (bfs_size(in_nodes) > 0) {
    const int tid = (int)get_global_id(0);
    const int stride = (int)get_global_size(0);
    bfs_expand(tid, stride, level, row, col, levels, in_nodes, out_nodes);
    global bfs_worklist *t = in_nodes;
    in_nodes = out_nodes;
    out_nodes = t;
    resizing_global_barrier();
    if (get_global_id(0) == 0)
      bfs_reset(out_nodes);
    level++;
    resizing_global_barrier();
  }
}

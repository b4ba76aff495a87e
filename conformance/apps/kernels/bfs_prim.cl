// bfs, prim form (seed 000): Fig. 3 after discovery, with the XF barrier among the
// participants and participating-group ids.
#include <fibercl/primitives.h>
#include "bfs_common.cl"

kernel void bfs_prim(global void *ctx, global const int *row, global const int *col,
                     global atomic_int *levels, global bfs_worklist *n0,
                     global bfs_worklist *n1) {
  fibercl_participant p = fibercl_discover(ctx);
  if (!p_participates(p))
    return;
  int level = 0;
  global bfs_worklist *in_nodes = n0;
  global bfs_worklist *out_nodes = n1;
  const int tid = (int)p_get_global_id(p, 0);
  const int stride = (int)p_get_global_size(p, 0);
  while (bfs_size(in_nodes) > 0) {
    bfs_expand(tid, stride, level, row, col, levels, in_nodes, out_nodes);
    global bfs_worklist *t = in_nodes;
    in_nodes = out_nodes;
    out_nodes = t;
    fibercl_xf_barrier(ctx, &p);
    if (tid == 0)
      bfs_reset(out_nodes);
    level++;
    fibercl_xf_barrier(ctx, &p);
  }
}

// bfs, plain form: seed 001 Fig. 3 with the hand-written barrier over all launched
// groups (plain_barrier.cl). Algorithm: bfs_common.cl.
#include "plain_barrier.cl"
#include "bfs_common.cl"

kernel void bfs_plain(global atomic_uint *bar, global const int *row,
                      global const int *col, global atomic_int *levels,
                      global bfs_worklist *n0, global bfs_worklist *n1) {
  int level = 0;
  global bfs_worklist *in_nodes = n0;
  global bfs_worklist *out_nodes = n1;
  const int tid = (int)get_global_id(0);
  const int stride = (int)get_global_size(0);
  while (bfs_size(in_nodes) > 0) {
    bfs_expand(tid, stride, level, row, col, levels, in_nodes, out_nodes);
    global bfs_worklist *t = in_nodes;
    in_nodes = out_nodes;
    out_nodes = t;
    plain_global_barrier(bar);
    if (tid == 0)
      bfs_reset(out_nodes);
    level++;
    plain_global_barrier(bar);
  }
}

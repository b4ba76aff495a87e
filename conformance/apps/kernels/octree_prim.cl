// octree, prim form (seed 000 + FiberCL's primitives): discovery decides which
// groups take part (those found co-resident), each participant owns the queue of
// its participating id, and the queues are guarded by the library's spin mutex.
#include <fibercl/primitives.h>
typedef fibercl_spin_mutex ws_mutex;
void ws_lock(global ws_mutex *m) { fibercl_spin_lock(m); }
void ws_unlock(global ws_mutex *m) { fibercl_spin_unlock(m); }
#include "ws_common.cl"
#include "octree_common.cl"

kernel void octree_prim(global void *ctx, global ws_mutex *locks,
                        global ws_queue *queues, global int *slots, uint cap,
                        global atomic_int *pending, global atomic_int *error,
                        global const float4 *pts, global int *idx, global int *tmp,
                        global octree_node *nodes, global atomic_int *node_count,
                        int node_cap, global int *leaves, global atomic_int *leaf_count,
                        int max_leaf) {
  local int answer;
  local atomic_int cnt[8], end[8];
  fibercl_participant p = fibercl_discover(ctx);
  if (!p_participates(p))
    return; // the participants do all the work (the root is in queue 0)
  ws_pool w = {queues, slots, locks, cap, pending, error};
  octree_data d = {pts, idx, tmp, nodes, node_count, node_cap, leaves, leaf_count, max_leaf};
  const int q = (int)p_get_group_id(p);
  const int nq = (int)p_get_num_groups(p);
  for (int t; (t = ws_get_task(w, q, nq, &answer)) != WS_DONE;)
    if (t >= 0) // else WS_NONE: nothing to take now, but tasks are still pending
      octree_task(w, q, t, d, cnt, end);
}

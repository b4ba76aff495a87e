// octree, plain form: seed 001 Fig. 2 as a GPU programmer writes it today. One queue
// per launched group (queue id = group id), a hand-written CAS mutex per queue. It
// relies on fair scheduling of the groups involved: a group spinning for a mutex
// needs the holder to run. Algorithm: octree_common.cl, queues: ws_common.cl.
#include "cas_mutex.cl"
#include "ws_common.cl"
#include "octree_common.cl"

kernel void octree_plain(global ws_mutex *locks, global ws_queue *queues,
                         global int *slots, uint cap, global atomic_int *pending,
                         global atomic_int *error, global const float4 *pts,
                         global int *idx, global int *tmp, global octree_node *nodes,
                         global atomic_int *node_count, int node_cap, global int *leaves,
                         global atomic_int *leaf_count, int max_leaf) {
  local int answer;
  local atomic_int cnt[8], end[8];
  ws_pool w = {queues, slots, locks, cap, pending, error};
  octree_data d = {pts, idx, tmp, nodes, node_count, node_cap, leaves, leaf_count, max_leaf};
  const int q = (int)get_group_id(0);
  const int nq = (int)get_num_groups(0);
  for (int t; (t = ws_get_task(w, q, nq, &answer)) != WS_DONE;)
    if (t >= 0) // else WS_NONE: nothing to take now, but tasks are still pending
      octree_task(w, q, t, d, cnt, end);
}

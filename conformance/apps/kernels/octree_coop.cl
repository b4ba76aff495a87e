// octree, coop form (seed 001 §3.2 "Adapting Work Stealing"): request_fork and
// offer_kill at the top of the task loop, where the group holds no task and no lock.
// The queue id is computed after them (a forked group reads its own queue), and
// thieves look at all `num_queues` queues (the launch's N): a killed group may
// leave tasks in its queue for the others to steal. Nothing is transmitted.
#include <fibercl/cooperative.h>
#include "cas_mutex.cl"
#include "ws_common.cl"
#include "octree_common.cl"

kernel void octree_coop(global ws_mutex *locks, global ws_queue *queues,
                        global int *slots, uint cap, global atomic_int *pending,
                        global atomic_int *error, global const float4 *pts,
                        global int *idx, global int *tmp, global octree_node *nodes,
                        global atomic_int *node_count, int node_cap, global int *leaves,
                        global atomic_int *leaf_count, int max_leaf, int num_queues) {
  local int answer;
  local atomic_int cnt[8], end[8];
  for (;;) {
    request_fork();
    offer_kill();
    // A forked group starts here: build everything private from the arguments.
    ws_pool w = {queues, slots, locks, cap, pending, error};
    octree_data d = {pts, idx, tmp, nodes, node_count, node_cap, leaves, leaf_count, max_leaf};
    const int q = (int)get_group_id(0);
    const int t = ws_get_task(w, q, num_queues, &answer);
    if (t == WS_DONE)
      break;
    if (t >= 0)
      octree_task(w, q, t, d, cnt, end);
  }
}

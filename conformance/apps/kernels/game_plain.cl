// game, plain form: Fig. 2 of seed 001 with a hand-written CAS mutex per queue, one
// queue per launched group. Algorithm: game_common.cl, queues: ws_common.cl.
#include "cas_mutex.cl"
#include "ws_common.cl"
#include "game_common.cl"

kernel void game_plain(global ws_mutex *locks, global ws_queue *queues,
                       global int *slots, uint cap, global atomic_int *pending,
                       global atomic_int *error, global game_node *nodes,
                       global atomic_int *node_count, int node_cap, int split) {
  local int answer;
  local atomic_int best;
  ws_pool w = {queues, slots, locks, cap, pending, error};
  game_data d = {nodes, node_count, node_cap, split};
  const int q = (int)get_group_id(0);
  const int nq = (int)get_num_groups(0);
  for (int t; (t = ws_get_task(w, q, nq, &answer)) != WS_DONE;)
    if (t >= 0) // else WS_NONE: nothing to take now, but tasks are still pending
      game_task(w, q, t, d, &best);
}

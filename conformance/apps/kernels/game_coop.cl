// game, coop form (seed 001 §3.2): request_fork and offer_kill at the top of the task
// loop; the queue id after them; thieves look at all `num_queues` queues because a
// killed group's queue may still hold tasks. Nothing is transmitted.
#include <fibercl/cooperative.h>
#include "cas_mutex.cl"
#include "ws_common.cl"
#include "game_common.cl"

kernel void game_coop(global ws_mutex *locks, global ws_queue *queues,
                      global int *slots, uint cap, global atomic_int *pending,
                      global atomic_int *error, global game_node *nodes,
                      global atomic_int *node_count, int node_cap, int split,
                      int num_queues) {
  local int answer;
  local atomic_int best;
  for (;;) {
    request_fork();
    offer_kill();
    // A forked group starts here: build everything private from the arguments.
    ws_pool w = {queues, slots, locks, cap, pending, error};
    game_data d = {nodes, node_count, node_cap, split};
    const int q = (int)get_group_id(0);
    const int t = ws_get_task(w, q, num_queues, &answer);
    if (t == WS_DONE)
      break;
    if (t >= 0)
      game_task(w, q, t, d, &best);
  }
}

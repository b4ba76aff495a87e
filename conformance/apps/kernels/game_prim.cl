// game, prim form: discovery decides the participants; each owns the queue of its
// participating id; the queues are guarded by the library's ticket mutex (waiters
// served in arrival order).
#include <fibercl/primitives.h>
typedef fibercl_ticket_mutex ws_mutex;
void ws_lock(global ws_mutex *m) { fibercl_ticket_lock(m); }
void ws_unlock(global ws_mutex *m) { fibercl_ticket_unlock(m); }
#include "ws_common.cl"
#include "game_common.cl"

kernel void game_prim(global void *ctx, global ws_mutex *locks, global ws_queue *queues,
                      global int *slots, uint cap, global atomic_int *pending,
                      global atomic_int *error, global game_node *nodes,
                      global atomic_int *node_count, int node_cap, int split) {
  local int answer;
  local atomic_int best;
  fibercl_participant p = fibercl_discover(ctx);
  if (!p_participates(p))
    return;
  ws_pool w = {queues, slots, locks, cap, pending, error};
  game_data d = {nodes, node_count, node_cap, split};
  const int q = (int)p_get_group_id(p);
  const int nq = (int)p_get_num_groups(p);
  for (int t; (t = ws_get_task(w, q, nq, &answer)) != WS_DONE;)
    if (t >= 0) // else WS_NONE: nothing to take now, but tasks are still pending
      game_task(w, q, t, d, &best);
}

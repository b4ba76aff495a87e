// Game-tree evaluation by work stealing with fork/join through counters (our
// stand-in for the "game" application of seed 001 §5.1). The game is noughts and
// crosses (3x3, X moves first); a position's value is +1 (X wins), -1 (O wins) or 0
// (draw) with best play: the maximum over X's moves, the minimum over O's.
//
// A task is a node of the game tree. A node above `split` depth forks: it creates a
// node per legal move, pushes them as tasks and sets its `pending` count to the
// number of children. A node at `split` depth is evaluated by its group: each
// work-item searches the subtree of some of its moves (an iterative depth-first
// minimax) and the group reduces their values. Finished positions are values at
// once. Join: a finished node folds its value into its parent (atomic max or min)
// and decrements the parent's pending count; the child that brings it to zero
// finishes the parent the same way, up to the root. Nobody waits for a join.
//
// Needs ws_common.cl. The host checks every node's value against its own minimax.

#define GAME_OPEN 2 // not a finished position

typedef struct {
  int parent; // -1 at the root
  uint xb, ob; // cells of X and of O, bit 0..8
  int depth;
  atomic_int pending; // children not finished yet
  atomic_int value;   // folded children's values; the node's value once finished
} game_node;

typedef struct {
  global game_node *nodes;
  global atomic_int *node_count;
  int node_cap;
  int split;
} game_data;

constant uint game_lines[8] = {0x007, 0x038, 0x1c0, 0x049, 0x092, 0x124, 0x111, 0x054};

bool game_has_line(uint b) {
  for (int l = 0; l < 8; ++l)
    if ((b & game_lines[l]) == game_lines[l])
      return true;
  return false;
}

bool game_x_to_move(uint xb, uint ob) { return popcount(xb) == popcount(ob); }

// +1 / -1 / 0 for a finished position, GAME_OPEN otherwise.
int game_final(uint xb, uint ob) {
  if (game_has_line(xb))
    return 1;
  if (game_has_line(ob))
    return -1;
  return (xb | ob) == 0x1ff ? 0 : GAME_OPEN;
}

// The value of a position by depth-first minimax, with an explicit stack (OpenCL C
// has no recursion). Frame s: position, next cell to try, best value so far.
int game_minimax(uint xb, uint ob) {
  const int fin = game_final(xb, ob);
  if (fin != GAME_OPEN)
    return fin;
  uint sx[10], so[10];
  int next[10], best[10];
  int sp = 0;
  sx[0] = xb;
  so[0] = ob;
  next[0] = 0;
  best[0] = game_x_to_move(xb, ob) ? -2 : 2;
  for (;;) {
    const bool xm = game_x_to_move(sx[sp], so[sp]);
    const uint occ = sx[sp] | so[sp];
    int c = next[sp];
    while (c < 9 && ((occ >> c) & 1u))
      ++c;
    int v;
    if (c == 9) { // every move tried: the frame's value is known
      v = best[sp];
      if (sp == 0)
        return v;
      --sp;
    } else {
      next[sp] = c + 1;
      const uint nx = xm ? sx[sp] | (1u << c) : sx[sp];
      const uint no = xm ? so[sp] : so[sp] | (1u << c);
      v = game_final(nx, no);
      if (v == GAME_OPEN) { // search the move's position
        ++sp;
        sx[sp] = nx;
        so[sp] = no;
        next[sp] = 0;
        best[sp] = xm ? 2 : -2; // the other side moves there
        continue;
      }
    }
    best[sp] = game_x_to_move(sx[sp], so[sp]) ? max(best[sp], v) : min(best[sp], v);
  }
}

// Join (one work-item): node t has value v.
void game_finish(game_data d, int t, int v) {
  for (;;) {
    global game_node *n = &d.nodes[t];
    atomic_store_explicit(&n->value, v, memory_order_relaxed, memory_scope_device);
    const int p = n->parent;
    if (p < 0)
      return;
    global game_node *pn = &d.nodes[p];
    if (game_x_to_move(pn->xb, pn->ob))
      atomic_fetch_max_explicit(&pn->value, v, memory_order_relaxed, memory_scope_device);
    else
      atomic_fetch_min_explicit(&pn->value, v, memory_order_relaxed, memory_scope_device);
    // acq_rel: the last child sees every sibling's fold.
    if (atomic_fetch_sub_explicit(&pn->pending, 1, memory_order_acq_rel,
                                  memory_scope_device) != 1)
      return;
    v = atomic_load_explicit(&pn->value, memory_order_relaxed, memory_scope_device);
    t = p;
  }
}

// Fork (one work-item): a node per move of node t, pushed onto queue q.
void game_fork(ws_pool w, int q, game_data d, int t) {
  global game_node *n = &d.nodes[t];
  const uint xb = n->xb, ob = n->ob;
  const bool xm = game_x_to_move(xb, ob);
  const uint empty = ~(xb | ob) & 0x1ffu;
  const int kids = popcount(empty);
  atomic_store_explicit(&n->pending, kids, memory_order_relaxed, memory_scope_device);
  ws_add_pending(w, kids); // before the pushes: see ws_common.cl
  ws_lock(&w.locks[q]);
  for (int c = 0; c < 9; ++c) {
    if (!((empty >> c) & 1u))
      continue;
    const int id = ws_new_node(w, d.node_count, d.node_cap);
    if (id < 0)
      continue; // lost, and so is the root's value: the host reports the error
    global game_node *child = &d.nodes[id];
    child->parent = t;
    child->xb = xm ? xb | (1u << c) : xb;
    child->ob = xm ? ob : ob | (1u << c);
    child->depth = n->depth + 1;
    atomic_store_explicit(&child->pending, 0, memory_order_relaxed, memory_scope_device);
    // The fold's identity: X to move in the child (O moved) maximises.
    atomic_store_explicit(&child->value, xm ? 2 : -2, memory_order_relaxed,
                          memory_scope_device);
    ws_push_locked(w, q, id);
  }
  ws_unlock(&w.locks[q]); // publishes the children
}

// Process task t (a work-group function). best: one local counter.
void game_task(ws_pool w, int q, int t, game_data d, local atomic_int *best) {
  const int lid = (int)get_local_id(0), lsz = (int)get_local_size(0);
  global game_node *n = &d.nodes[t];
  const uint xb = n->xb, ob = n->ob;
  const int depth = n->depth;
  const int fin = game_final(xb, ob);
  if (fin != GAME_OPEN || depth < d.split) {
    if (lid == 0) {
      if (fin != GAME_OPEN)
        game_finish(d, t, fin);
      else
        game_fork(w, q, d, t);
      ws_task_done(w);
    }
    return;
  }
  // Evaluate here: work-item i searches the moves i, i + lsz, ... (in cell order).
  const bool xm = game_x_to_move(xb, ob);
  if (lid == 0)
    atomic_store_explicit(best, xm ? -2 : 2, memory_order_relaxed, memory_scope_work_group);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  const uint empty = ~(xb | ob) & 0x1ffu;
  int k = 0;
  for (int c = 0; c < 9; ++c) {
    if (!((empty >> c) & 1u))
      continue;
    if (k++ % lsz != lid)
      continue;
    const int v = game_minimax(xm ? xb | (1u << c) : xb, xm ? ob : ob | (1u << c));
    if (xm)
      atomic_fetch_max_explicit(best, v, memory_order_relaxed, memory_scope_work_group);
    else
      atomic_fetch_min_explicit(best, v, memory_order_relaxed, memory_scope_work_group);
  }
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    game_finish(d, t, atomic_load_explicit(best, memory_order_relaxed, memory_scope_work_group));
    ws_task_done(w);
  }
}

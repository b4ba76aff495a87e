// Breadth-first search, Lonestar style (seed 001 Fig. 3): a level-synchronous
// traversal over two worklists, the current frontier (in) and the next (out). A
// frontier node claims each unvisited neighbour with a compare-and-swap on its
// level (so each node is pushed once) and appends it to the out list. After the
// level the lists swap roles, and the new out list is emptied between two global
// barriers. The items of a list are written before the barrier and read after it.
//
// levels[] is -1 except 0 at the source; n0 holds the source, n1 is empty.
typedef struct {
  atomic_int size;
  int items[]; // room for every node
} bfs_worklist;

int bfs_size(global bfs_worklist *wl) {
  return atomic_load_explicit(&wl->size, memory_order_relaxed, memory_scope_device);
}

void bfs_reset(global bfs_worklist *wl) {
  atomic_store_explicit(&wl->size, 0, memory_order_relaxed, memory_scope_device);
}

// process_node of Fig. 3 over this work-item's share of the frontier.
void bfs_expand(int tid, int stride, int level, global const int *row,
                global const int *col, global atomic_int *levels,
                global bfs_worklist *in_nodes, global bfs_worklist *out_nodes) {
  const int size = bfs_size(in_nodes);
  for (int i = tid; i < size; i += stride) {
    const int v = in_nodes->items[i];
    for (int e = row[v]; e < row[v + 1]; ++e) {
      const int u = col[e];
      if (atomic_load_explicit(&levels[u], memory_order_relaxed, memory_scope_device) != -1)
        continue;
      int unvisited = -1;
      if (atomic_compare_exchange_strong_explicit(&levels[u], &unvisited, level + 1,
                                                  memory_order_relaxed, memory_order_relaxed,
                                                  memory_scope_device)) {
        const int slot = atomic_fetch_add_explicit(&out_nodes->size, 1, memory_order_relaxed,
                                                   memory_scope_device);
        out_nodes->items[slot] = u;
      }
    }
  }
}

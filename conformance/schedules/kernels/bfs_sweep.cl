// Program bfs_sweep: a persistent, level-synchronous breadth-first search in the
// bottom-up ("pull") direction of direction-optimising BFS (Beamer et al.), by G
// groups that are all occupant at once (G = the occupancy bound, 8 unbounded).
// OpenCL C 2.0.
//
// Every level, every work-item sweeps all of its vertices (v = global id, strided
// by the global size): an unvisited vertex (dist -1) looks at its neighbours and
// takes level+1 if one of them is at the current level; it then sets
// changed[level]. Most vertices are only read: those already visited are skipped
// after one atomic load of dist[v], the unvisited ones read their neighbours'
// dist[]. Only the owner writes dist[v]; a neighbour reading it in the same level
// sees either -1 or level+1, never `level`, so the race is benign (relaxed atomics
// keep it defined). One inter-group barrier per level (a monotonic arrival counter:
// level L is complete when it reaches G * (L + 1)); after it every work-item reads
// changed[level], all alike, and the search ends at the first level that changed
// nothing.
//
// dist: -1 but the source (0). changed: one zeroed atomic int per possible level.
// arrived: one zeroed atomic int. levels_run[g]: levels group g swept.

void level_barrier(__global atomic_int *arrived, int target) {
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    atomic_fetch_add_explicit(arrived, 1, memory_order_acq_rel,
                              memory_scope_device);
    while (atomic_load_explicit(arrived, memory_order_acquire,
                                memory_scope_device) < target)
      ;
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
}

__kernel void bfs_sweep(__global const int *row, __global const int *col,
                        __global atomic_int *dist, __global atomic_int *changed,
                        __global atomic_int *arrived, int num_vertices,
                        __global int *levels_run) {
  const int gid = (int)get_global_id(0);
  const int gsize = (int)get_global_size(0);
  const int groups = (int)get_num_groups(0);
  int level = 0;
  for (;;) {
    for (int v = gid; v < num_vertices; v += gsize) {
      if (atomic_load_explicit(&dist[v], memory_order_relaxed,
                               memory_scope_device) != -1)
        continue;
      for (int e = row[v]; e < row[v + 1]; ++e)
        if (atomic_load_explicit(&dist[col[e]], memory_order_relaxed,
                                 memory_scope_device) == level) {
          atomic_store_explicit(&dist[v], level + 1, memory_order_relaxed,
                                memory_scope_device);
          atomic_store_explicit(&changed[level], 1, memory_order_relaxed,
                                memory_scope_device);
          break;
        }
    }
    level_barrier(arrived, groups * (level + 1));
    if (!atomic_load_explicit(&changed[level], memory_order_relaxed,
                              memory_scope_device))
      break;
    ++level;
  }
  if (get_local_id(0) == 0)
    levels_run[get_group_id(0)] = level + 1;
}

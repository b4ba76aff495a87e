// Program bfs: a persistent-thread, level-synchronous breadth-first search (the
// kind of application seed 000 §5.2 ports to its discovery + barrier pair). The
// participating groups found by discovery (Figure 3) sweep the vertices with the
// Table 2 environment (Figure 4(b) loop), one XF barrier per level. level[] is
// -1 except the source (0). A vertex of the current level labels its unlabelled
// neighbours with level+1 (every writer writes the same value; relaxed atomics keep
// that race-free) and sets changed[level]. After the barrier every work-item reads
// changed[level] to decide, all alike, whether another level follows.
// Needs common.cl, mutex.cl, discovery.cl, xf_barrier.cl.

__kernel void bfs(__global atomic_int *mutex, __global int *disc, __global int *M,
                  __global atomic_int *flags, __global const int *row,
                  __global const int *col, __global atomic_int *level,
                  __global atomic_int *changed, int num_vertices,
                  __global int *levels_run) {
  __local int env[3];
  discover(mutex, disc, M, env);
  if (!env[0])
    return;
  const int p = p_get_group_id(env);
  const int n = p_get_num_groups(env);

  int cur = 0;
  for (;;) {
    for (int v = p_get_global_id(env); v < num_vertices;
         v += p_get_global_size(env)) {
      if (atomic_load_explicit(&level[v], memory_order_relaxed,
                               memory_scope_device) != cur)
        continue;
      for (int e = row[v]; e < row[v + 1]; ++e) {
        const int u = col[e];
        if (atomic_load_explicit(&level[u], memory_order_relaxed,
                                 memory_scope_device) == -1) {
          atomic_store_explicit(&level[u], cur + 1, memory_order_relaxed,
                                memory_scope_device);
          atomic_store_explicit(&changed[cur], 1, memory_order_relaxed,
                                memory_scope_device);
        }
      }
    }
    xf_barrier(flags, p, n);
    if (!atomic_load_explicit(&changed[cur], memory_order_relaxed,
                              memory_scope_device))
      break;
    ++cur;
  }
  if (get_local_id(0) == 0)
    levels_run[p] = cur + 1;
}

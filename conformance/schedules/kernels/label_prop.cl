// Program label_prop: connected-component labelling of a grid by Jacobi-style label
// propagation, by G persistent groups that are all occupant at once (G = the
// occupancy bound, 8 unbounded). OpenCL C 2.0.
//
// A side x side grid of cells, some of them walls (label -1). Every open cell
// starts with its own index as label. In each sweep every work-item recomputes its
// cells (c = global id, strided by the global size) from the previous sweep's
// labels: new = min(own, the open 4-neighbours'); labels are double-buffered
// (sweep s reads lab[s & 1], writes lab[(s + 1) & 1]). A cell that changed raises
// the convergence flag of the sweep then and there (an atomic store inside the
// sweep, as "*changed = 1" is usually written); most cells, most sweeps, only
// read. Sweeps are separated by a sense-reversing counter barrier; after it every
// work-item reads the flag, all alike, and the groups stop at the first sweep
// whose flag stayed clear. The fixed point gives every cell the smallest index of
// its component.
//
// The flag is one logical word in three slots: sweep s raises flag[s % 3]; group
// 0 clears flag[(s + 1) % 3] during sweep s, which nobody reads any more (it was
// read after sweep s - 2's barrier, which everyone has passed) and nobody raises
// before sweep s's barrier.
//
// bar: {count, sense}, zeroed. flag: three zeroed atomic ints. lab0 holds the
// initial labels; lab1 is a copy of it (walls stay -1 in both).
// sweeps_run[g]: the sweeps group g ran.

void sense_barrier(__global atomic_int *bar, int *local_sense, int n) {
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    const int s = !*local_sense;
    *local_sense = s;
    if (atomic_fetch_add_explicit(&bar[0], 1, memory_order_acq_rel,
                                  memory_scope_device) == n - 1) {
      // Last to arrive: reset the count for the next barrier, then release all.
      atomic_store_explicit(&bar[0], 0, memory_order_relaxed,
                            memory_scope_device);
      atomic_store_explicit(&bar[1], s, memory_order_release,
                            memory_scope_device);
    } else {
      while (atomic_load_explicit(&bar[1], memory_order_acquire,
                                  memory_scope_device) != s)
        ;
    }
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
}

__kernel void label_prop(__global atomic_int *bar, __global atomic_int *flag,
                         __global int *lab0, __global int *lab1, int side,
                         __global int *sweeps_run) {
  const int gid = (int)get_global_id(0);
  const int gsize = (int)get_global_size(0);
  const int groups = (int)get_num_groups(0);
  const int cells = side * side;
  int sense = 0; // work-item 0's copy is the one that matters
  int sweep = 0;
  for (;;) {
    __global const int *src = (sweep & 1) ? lab1 : lab0;
    __global int *dst = (sweep & 1) ? lab0 : lab1;
    if (get_group_id(0) == 0 && get_local_id(0) == 0)
      atomic_store_explicit(&flag[(sweep + 1) % 3], 0, memory_order_relaxed,
                            memory_scope_device);
    for (int c = gid; c < cells; c += gsize) {
      const int own = src[c];
      if (own < 0)
        continue; // a wall
      const int x = c % side, y = c / side;
      int m = own;
      if (x > 0 && src[c - 1] >= 0)
        m = min(m, src[c - 1]);
      if (x + 1 < side && src[c + 1] >= 0)
        m = min(m, src[c + 1]);
      if (y > 0 && src[c - side] >= 0)
        m = min(m, src[c - side]);
      if (y + 1 < side && src[c + side] >= 0)
        m = min(m, src[c + side]);
      dst[c] = m;
      if (m != own)
        atomic_store_explicit(&flag[sweep % 3], 1, memory_order_relaxed,
                              memory_scope_device);
    }
    sense_barrier(bar, &sense, groups);
    const int again = atomic_load_explicit(&flag[sweep % 3], memory_order_relaxed,
                                           memory_scope_device);
    ++sweep;
    if (!again)
      break;
  }
  if (get_local_id(0) == 0)
    sweeps_run[get_group_id(0)] = sweep;
}

// Program label_inplace: the same fixed point computed in place, as label propagation
// is often written for GPUs: every label is read with an atomic load and lowered by
// its owner (the work-item c belongs to) only when a neighbour's is smaller, the
// convergence flag raised then; late sweeps read thousands of cells and write none.
// The sweeps a schedule needs vary (at most the Jacobi count, D + 1): every group
// must still run the same number.
__kernel void label_inplace(__global atomic_int *bar, __global atomic_int *flag,
                            __global atomic_int *lab, int side,
                            __global int *sweeps_run) {
  const int gid = (int)get_global_id(0);
  const int gsize = (int)get_global_size(0);
  const int groups = (int)get_num_groups(0);
  const int cells = side * side;
  int sense = 0;
  int sweep = 0;
  for (;;) {
    if (get_group_id(0) == 0 && get_local_id(0) == 0)
      atomic_store_explicit(&flag[(sweep + 1) % 3], 0, memory_order_relaxed,
                            memory_scope_device);
    for (int c = gid; c < cells; c += gsize) {
      const int own = atomic_load_explicit(&lab[c], memory_order_relaxed,
                                           memory_scope_device);
      if (own < 0)
        continue; // a wall
      const int x = c % side, y = c / side;
      const int next[4] = {x > 0 ? c - 1 : -1, x + 1 < side ? c + 1 : -1,
                           y > 0 ? c - side : -1, y + 1 < side ? c + side : -1};
      int m = own;
      for (int k = 0; k < 4; ++k)
        if (next[k] >= 0) {
          const int v = atomic_load_explicit(&lab[next[k]], memory_order_relaxed,
                                             memory_scope_device);
          if (v >= 0)
            m = min(m, v);
        }
      if (m < own) {
        atomic_store_explicit(&lab[c], m, memory_order_relaxed, memory_scope_device);
        atomic_store_explicit(&flag[sweep % 3], 1, memory_order_relaxed,
                              memory_scope_device);
      }
    }
    sense_barrier(bar, &sense, groups);
    const int again = atomic_load_explicit(&flag[sweep % 3], memory_order_relaxed,
                                           memory_scope_device);
    ++sweep;
    if (!again)
      break;
  }
  if (get_local_id(0) == 0)
    sweeps_run[get_group_id(0)] = sweep;
}

// The buggy programs of the corpus (bug_over_bound reuses counter_barrier.cl).
// Each must be reported as a deadlock, or its wrong result detected.
// OpenCL C 2.0. Needs common.cl.

// bug_never_admitted: every group but the last waits for a flag only the last group
// sets. At an occupancy bound N < G with admission in group-id order, groups
// 0..N-1 take every slot and spin; group G-1 is never admitted.
__kernel void never_admitted(__global atomic_int *flag) {
  const int g = (int)get_group_id(0);
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    if (g == (int)get_num_groups(0) - 1)
      atomic_store_explicit(flag, 1, memory_order_release, memory_scope_device);
    else
      while (!atomic_load_explicit(flag, memory_order_acquire,
                                   memory_scope_device))
        ;
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
}

// bug_unfair_starvation: group 0 spins until group 1 sets a flag; group 1 first
// does some atomic work (yield points). Under the unfair policy with one worker,
// the spinning group keeps the worker and group 1 starves -- on a GPU this hangs.
__kernel void unfair_starvation(__global atomic_int *flag,
                                __global atomic_int *work, int steps) {
  const int g = (int)get_group_id(0);
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    if (g == 0) {
      while (!atomic_load_explicit(flag, memory_order_acquire,
                                   memory_scope_device))
        ;
    } else if (g == 1) {
      for (int i = 0; i < steps; ++i)
        atomic_fetch_add_explicit(work, 1, memory_order_relaxed,
                                  memory_scope_device);
      atomic_store_explicit(flag, 1, memory_order_release, memory_scope_device);
    }
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
}

// bug_lost_update: a counter incremented with an atomic load and a separate atomic
// store -- each access is atomic, the increment is not. Some interleaving loses an
// update; the host sees a total below G * K.
__kernel void lost_update(__global atomic_int *counter, int increments) {
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    for (int k = 0; k < increments; ++k) {
      const int v = atomic_load_explicit(counter, memory_order_relaxed,
                                         memory_scope_device);
      atomic_store_explicit(counter, v + 1, memory_order_relaxed,
                            memory_scope_device);
    }
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
}

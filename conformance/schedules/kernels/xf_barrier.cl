// The XF inter-work-group barrier (Xiao and Feng) with device-scoped
// acquire/release atomics, as seed 000 §4.2 (Figure 2 + atomics) and seed 003 §5
// describe it: every follower sets its flag and waits for the master to clear it;
// the master group (id 0) has its work-items watch the followers' flags (each
// work-item a strided share), meets at a work-group barrier, then clears them.
// Ids are participating ids (p_get_group_id / p_get_num_groups). flags[] holds one
// zeroed atomic int per participant. Called by the whole work-group.

void xf_barrier(__global atomic_int *flags, int id, int num_groups) {
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (id == 0) {
    // Arrival: wait for every follower.
    for (int i = (int)get_local_id(0) + 1; i < num_groups;
         i += (int)get_local_size(0))
      while (atomic_load_explicit(&flags[i], memory_order_acquire,
                                  memory_scope_device) == 0)
        ;
    barrier(CLK_GLOBAL_MEM_FENCE);
    // Departure: release them.
    for (int i = (int)get_local_id(0) + 1; i < num_groups;
         i += (int)get_local_size(0))
      atomic_store_explicit(&flags[i], 0, memory_order_release,
                            memory_scope_device);
  } else if (get_local_id(0) == 0) {
    atomic_store_explicit(&flags[id], 1, memory_order_release,
                          memory_scope_device);
    while (atomic_load_explicit(&flags[id], memory_order_acquire,
                                memory_scope_device) == 1)
      ;
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
}

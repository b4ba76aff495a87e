// The inter-work-group barrier a GPU programmer writes by hand today (the "plain"
// forms): one arrival counter and one generation word, OpenCL 2.0 atomics at device
// scope. It waits for get_num_groups(0) groups, so it is correct only if every
// launched group is co-resident and fairly scheduled (the occupancy-bound model,
// seed 001 §1). With more groups than can be occupant at once it never opens: on
// FiberCL with FIBERCL_OCCUPANCY=N < groups that is reported as a deadlock.
//
// bar[0] = groups arrived in the current generation, bar[1] = generation; both
// zeroed by the host before the launch. A work-group function.
void plain_global_barrier(global atomic_uint *bar) {
  // Every work-item of this group has finished the phase (and its global writes).
  work_group_barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    const uint groups = (uint)get_num_groups(0);
    // Read the generation before arriving: it cannot advance until we arrive.
    const uint gen = atomic_load_explicit(&bar[1], memory_order_relaxed, memory_scope_device);
    // acq_rel: publish this group's phase; the last arriver acquires everyone's.
    if (atomic_fetch_add_explicit(&bar[0], 1u, memory_order_acq_rel, memory_scope_device) ==
        groups - 1) {
      // Last to arrive: re-arm the counter, then open the barrier (release).
      atomic_store_explicit(&bar[0], 0u, memory_order_relaxed, memory_scope_device);
      atomic_store_explicit(&bar[1], gen + 1, memory_order_release, memory_scope_device);
    } else {
      while (atomic_load_explicit(&bar[1], memory_order_acquire, memory_scope_device) == gen)
        ;
    }
  }
  // The rest of the group waits for its representative.
  work_group_barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}

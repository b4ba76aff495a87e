// Program handshake: a bounded handshake between the two groups of each pair
// (2k, 2k+1). Each group's work-item 0 raises its flag, then polls the partner's at
// most poll_limit times and records whether it saw it. Nothing blocks: the program
// completes under any schedule, even at occupancy 1 (where the partners cannot
// meet). Whether they meet measures how the schedule interleaves co-resident
// groups: on a GPU two co-resident groups meet practically always.
// flag[] zeroed by the host; saw[g] = 1 if group g saw its partner's flag.

__kernel void handshake(__global atomic_int *flag, __global int *saw,
                        int poll_limit) {
  const int g = (int)get_group_id(0);
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    atomic_store_explicit(&flag[g], 1, memory_order_release, memory_scope_device);
    int seen = 0;
    for (int t = 0; t < poll_limit && !seen; ++t)
      seen = atomic_load_explicit(&flag[g ^ 1], memory_order_acquire,
                                  memory_scope_device);
    saw[g] = seen;
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
}

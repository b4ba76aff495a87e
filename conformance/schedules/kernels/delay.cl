// Programs delay_rendezvous and lone_last: groups that spend most of their time in
// busy delay loops (no other group can shorten them), then meet other groups.
// Needs common.cl.
//
// delay_rendezvous: every group of an N-group set (all launched groups occupant
// at once) runs R rounds; in each it delays for lengths[g * R + r] iterations,
// publishes stamp[g] = r + 1, arrives on a monotonic counter and waits until all G
// have arrived for this round; then every work-item checks the stamps of the
// groups it covers are at least r + 1 (stamps only grow: a fast group may already
// have stamped the next round, so they are atomics).
__kernel void delay_rendezvous(__global atomic_int *arrived,
                               __global atomic_int *stamp,
                               __global const int *lengths,
                               __global int *errors, int rounds) {
  const int g = (int)get_group_id(0);
  const int n = (int)get_num_groups(0);
  const int lid = (int)get_local_id(0);
  int bad = 0;
  for (int r = 0; r < rounds; ++r) {
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (lid == 0) {
      corpus_delay(lengths[g * rounds + r]);
      atomic_store_explicit(&stamp[g], r + 1, memory_order_relaxed,
                            memory_scope_device);
      atomic_fetch_add_explicit(arrived, 1, memory_order_release,
                                memory_scope_device);
      while (atomic_load_explicit(arrived, memory_order_acquire,
                                  memory_scope_device) < n * (r + 1))
        ;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (int h = lid; h < n; h += (int)get_local_size(0))
      if (atomic_load_explicit(&stamp[h], memory_order_relaxed,
                               memory_scope_device) < r + 1)
        bad++;
  }
  errors[g * (int)get_local_size(0) + lid] = bad;
}

// lone_last: groups 0..G-2 do a short delay, count themselves in `done` and finish.
// The last group waits until they all have, then -- alone on the device -- runs one
// long delay loop (long_delay iterations) and reports what it saw.
__kernel void lone_last(__global atomic_int *done, __global int *result,
                        int long_delay) {
  const int g = (int)get_group_id(0);
  const int n = (int)get_num_groups(0);
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    if (g != n - 1) {
      corpus_delay((int)(corpus_hash((uint)g) % 256u));
      atomic_fetch_add_explicit(done, 1, memory_order_release,
                                memory_scope_device);
    } else {
      while (atomic_load_explicit(done, memory_order_acquire,
                                  memory_scope_device) < n - 1)
        ;
      corpus_delay(long_delay);
      result[0] = atomic_load_explicit(done, memory_order_relaxed,
                                       memory_scope_device);
    }
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
}

// Program sem_ticket: the "sleeping" semaphore of seed 003 (§5 "Semaphore",
// Algorithm 5) -- fetch-and-add on a count; over capacity, take a ticket and poll
// the turn counter -- with OpenCL 2.0 atomics. G groups each hold it K times;
// work-item 0 waits/posts, the whole group is inside. While inside, the group
// counts itself in holders (atomically), records the maximum ever seen, holds the
// semaphore for hold[g * K + k] delay iterations (host-generated: mostly short, now
// and then long) and counts one entry in total. The host checks max holders <= C
// and total == G * K. Correct at any occupancy bound.
// Needs common.cl.
//
// sem[0] = count, sem[1] = next ticket, sem[2] = turn (all zeroed by the host);
// stats[0] = holders now, stats[1] = max holders, stats[2] = total entries.

void sleep_sem_wait(__global atomic_int *sem, int capacity) {
  const int old = atomic_fetch_add_explicit(&sem[0], 1, memory_order_acq_rel,
                                            memory_scope_device);
  if (old < capacity)
    return;
  const int ticket = atomic_fetch_add_explicit(&sem[1], 1, memory_order_relaxed,
                                               memory_scope_device);
  while (atomic_load_explicit(&sem[2], memory_order_acquire,
                              memory_scope_device) <= ticket)
    ;
}

void sleep_sem_post(__global atomic_int *sem, int capacity) {
  const int old = atomic_fetch_sub_explicit(&sem[0], 1, memory_order_acq_rel,
                                            memory_scope_device);
  if (old > capacity)
    atomic_fetch_add_explicit(&sem[2], 1, memory_order_release,
                              memory_scope_device);
}

__kernel void sem_ticket(__global atomic_int *sem, __global atomic_int *stats,
                         __global int *per_group, __global const int *hold,
                         int capacity, int entries) {
  const uint g = get_group_id(0);
  const int lid = (int)get_local_id(0);
  for (int k = 0; k < entries; ++k) {
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (lid == 0) {
      sleep_sem_wait(sem, capacity);
      const int now = atomic_fetch_add_explicit(&stats[0], 1, memory_order_relaxed,
                                                memory_scope_device) + 1;
      atomic_fetch_max_explicit(&stats[1], now, memory_order_relaxed,
                                memory_scope_device);
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (lid == 0) {
      corpus_delay(hold[g * entries + k]); // hold time
      per_group[g]++;                       // only this group writes it
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (lid == 0) {
      atomic_fetch_add_explicit(&stats[2], 1, memory_order_relaxed,
                                memory_scope_device);
      atomic_fetch_sub_explicit(&stats[0], 1, memory_order_relaxed,
                                memory_scope_device);
      sleep_sem_post(sem, capacity);
    }
  }
}

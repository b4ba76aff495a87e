// Programs mutex_spin, mutex_backoff, mutex_ticket: G groups each enter a critical
// section K times through one of the mutexes of mutex.cl (seed 003 §5 "Mutex";
// seed 000 §5.1). Block semantics: work-item 0 takes the lock, then the whole group
// works inside -- every work-item does a NON-atomic read-modify-write of its own
// lane of counter[], and between the reads and the writes work-item 0 holds the
// lock for a while (a delay whose length is a per-group, per-entry pseudo-random
// hash: mostly short, one entry in eight long) -- and work-item 0 releases it.
// Correct locks give counter[lane] == G * K in every lane. Correct at any occupancy
// bound (a holder is always occupant). Needs common.cl, mutex.cl.

int hold_time(uint g, int k) {
  const uint h = corpus_hash(g * 977u + (uint)k);
  return (h & 7) == 0 ? 2000 + (int)(h % 6000u) : (int)((h >> 3) % 64u);
}

__kernel void mutex_cs(__global atomic_int *lock, __global int *counter,
                       int entries) {
  const uint g = get_group_id(0);
  const int lid = (int)get_local_id(0);
  for (int k = 0; k < entries; ++k) {
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (lid == 0)
      mutex_lock(lock);
    barrier(CLK_GLOBAL_MEM_FENCE);

    const int v = counter[lid];
    if (lid == 0)
      corpus_delay(hold_time(g, k));
    barrier(CLK_LOCAL_MEM_FENCE);
    counter[lid] = v + 1;

    barrier(CLK_GLOBAL_MEM_FENCE);
    if (lid == 0)
      mutex_unlock(lock);
  }
}

// Program counter_barrier (and bug_over_bound): the centralized atomic-counter
// barrier with sense reversal (seed 003 §5, the "two-stage atomic" barrier the XF
// barrier is compared with) among all get_num_groups(0) groups, written in the
// OpenCL 1.2 style many GPU codes still use: volatile global words, atomic_inc /
// atomic_xchg, mem_fence. It needs every launched group occupant at once, so at an
// occupancy bound N it is correct for G <= N groups and deadlocks for G = N + 1.
// R rounds; in each, every work-item publishes a value and after the barrier checks
// its neighbour group's (double-buffered by round parity, as in discovery_xf).
// Needs common.cl. OpenCL C 1.2.
//
// bar[0] = arrival count, bar[1] = global sense, both zeroed by the host.

void counter_barrier(volatile __global int *bar, int *local_sense, int n) {
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    const int s = !*local_sense;
    *local_sense = s;
    mem_fence(CLK_GLOBAL_MEM_FENCE); // this group's writes before its arrival
    if (atomic_inc(&bar[0]) == n - 1) {
      // Last to arrive: reset the count for the next round, then flip the sense.
      atomic_xchg(&bar[0], 0);
      mem_fence(CLK_GLOBAL_MEM_FENCE);
      atomic_xchg(&bar[1], s);
    } else {
      while (bar[1] != s)
        ;
    }
    mem_fence(CLK_GLOBAL_MEM_FENCE); // the others' writes after the departure
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
}

__kernel void counter_barrier_rounds(volatile __global int *bar,
                                     __global int *data, __global int *errors,
                                     int rounds) {
  const int g = (int)get_group_id(0);
  const int n = (int)get_num_groups(0);
  const int lid = (int)get_local_id(0);
  const int ls = (int)get_local_size(0);
  const int stride = n * ls;
  int sense = 0; // only work-item 0's copy matters
  int bad = 0;
  for (int r = 0; r < rounds; ++r) {
    __global int *buf = data + (r & 1) * stride;
    buf[g * ls + lid] = corpus_round_value(r, g, lid);
    counter_barrier(bar, &sense, n);
    const int q = (g + 1) % n;
    if (buf[q * ls + lid] != corpus_round_value(r, q, lid))
      bad++;
  }
  errors[g * ls + lid] = bad;
}

// Program discovery_xf: occupancy discovery (seed 000 Figure 3, Table 2) followed
// by R rounds of the XF barrier (seed 000 §4, seed 003 §5) among the participating
// groups. Non-participating groups exit at once. In round r every work-item of
// participant p publishes corpus_round_value(r, p, lid); after the barrier it
// reads its neighbour p+1's value and counts mismatches. Double buffering (by round
// parity) means one barrier per round suffices.
// Needs common.cl, mutex.cl, discovery.cl, xf_barrier.cl.
//
// Outputs: participated[native group] = 1 for participants; M (discovery.cl);
// errors[p * local_size + lid] = mismatches seen (host pre-fills -1).

__kernel void discovery_xf(__global atomic_int *mutex, __global int *disc,
                           __global int *M, __global int *participated,
                           __global atomic_int *flags, __global int *data,
                           __global int *errors, int rounds) {
  __local int env[3];
  discover(mutex, disc, M, env);
  if (!env[0])
    return; // non-participating: leave at once
  const int p = p_get_group_id(env);
  const int n = p_get_num_groups(env);
  const int lid = (int)get_local_id(0);
  const int ls = (int)get_local_size(0);
  if (lid == 0)
    participated[get_group_id(0)] = 1;

  // data holds two buffers of get_num_groups(0) * ls ints (n <= get_num_groups).
  const int stride = (int)get_num_groups(0) * ls;
  int bad = 0;
  for (int r = 0; r < rounds; ++r) {
    __global int *buf = data + (r & 1) * stride;
    buf[p * ls + lid] = corpus_round_value(r, p, lid);
    xf_barrier(flags, p, n);
    const int q = (p + 1) % n;
    if (buf[q * ls + lid] != corpus_round_value(r, q, lid))
      bad++;
  }
  errors[p * ls + lid] = bad;
}

// Program status_poll: rounds of publish-and-poll over many status words, by G
// groups that are all occupant at once (G = the occupancy bound, 8 unbounded).
// OpenCL C 2.0.
//
// NC chunks, chunk c owned by group (c / local size) % G and computed by one of its
// work-items (c strided by the global size). In round r every group:
//   1. computes its chunks: data[r & 1][c] = value(r, c) + data[(r - 1) & 1][j(c)]
//      (j(c) = (7c + 1) mod NC, mostly another group's chunk; round 0 adds
//      nothing), then publishes status[c] = r + 1 with release;
//   2. polls: every work-item scans its strided share of ALL NC status words with
//      acquire loads and counts those still below r + 1; the group sums the counts
//      (work_group_reduce_add) and scans again until none is pending. Almost every
//      step of the scan only reads;
//   3. reads every chunk's data[r & 1] and stores the sum in sums[g * R + r].
// Double buffering is safe: a group overwrites data[r & 1] (read in rounds r - 2
// and r - 1) only after seeing every chunk at round r, published by groups that
// had finished round r - 1.
//
// status: NC zeroed atomic ints. data: 2 * NC ints. sums: G * R ints.

int status_value(int r, int c) {
  return (int)(corpus_hash((uint)(r * 1000003 + c)) & 0xffff);
}

__kernel void status_poll(__global atomic_int *status, __global int *data,
                          int num_chunks, int rounds, __global int *sums) {
  const int gid = (int)get_global_id(0);
  const int gsize = (int)get_global_size(0);
  const int lid = (int)get_local_id(0);
  const int ls = (int)get_local_size(0);
  const int g = (int)get_group_id(0);
  for (int r = 0; r < rounds; ++r) {
    __global int *cur = data + (r & 1) * num_chunks;
    __global const int *prev = data + ((r + 1) & 1) * num_chunks;
    // 1. Compute and publish this group's chunks.
    for (int c = gid; c < num_chunks; c += gsize) {
      int v = status_value(r, c);
      if (r > 0)
        v += prev[(7 * c + 1) % num_chunks];
      cur[c] = v;
      atomic_store_explicit(&status[c], r + 1, memory_order_release,
                            memory_scope_device);
    }
    // 2. Poll every chunk's status word until all have reached round r.
    for (;;) {
      int pending = 0;
      for (int c = lid; c < num_chunks; c += ls)
        if (atomic_load_explicit(&status[c], memory_order_acquire,
                                 memory_scope_device) < r + 1)
          ++pending;
      if (work_group_reduce_add(pending) == 0)
        break;
    }
    // What one work-item acquired, the whole group may now read.
    barrier(CLK_GLOBAL_MEM_FENCE);
    // 3. Read everybody's round-r data.
    int sum = 0;
    for (int c = lid; c < num_chunks; c += ls)
      sum += cur[c];
    sum = work_group_reduce_add(sum);
    if (lid == 0)
      sums[g * rounds + r] = sum;
  }
}

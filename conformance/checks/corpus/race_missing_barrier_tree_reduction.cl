__kernel void race_missing_barrier_tree_reduction(__global const int *in, __global int *out) {
  __local int t[64];
  int lid = get_local_id(0);
  t[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 32; s > 0; s >>= 1) {
    if (lid < s)
      t[lid] += t[lid + s]; // BUG: no barrier between the steps
  }
  if (lid == 0)
    out[get_group_id(0)] = t[0];
}

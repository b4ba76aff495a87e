__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void reduce(__global const int *in, __global int *out, __local int *scratch) {
  __local int partial[64];
  uint l = get_local_id(0);
  partial[l] = in[get_global_id(0)];
  scratch[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s)
      partial[l] += partial[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    out[get_group_id(0)] = partial[0];
}

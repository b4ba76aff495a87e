int helper(__local float *tile, int l) {
  barrier(CLK_LOCAL_MEM_FENCE); // a barrier in a called function
  return (int)tile[(l + 1) % get_local_size(0)];
}

__kernel void stencil(__global float *a, __local float *tile, int iters) {
  int l = get_local_id(0);
  int g = get_global_id(0);
  for (int it = 0; it < iters; ++it) {
    tile[l] = a[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    float left = l > 0 ? tile[l - 1] : 0.0f;
    float right = tile[(l + 1) % get_local_size(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    a[g] = (left + tile[l] + right) / 3.0f + helper(tile, l);
    switch (l & 3) {
    case 0: a[g] *= 2.0f; break;
    case 1: a[g] -= 1.0f;
    default: break;
    }
  }
  if (get_num_groups(0) > 1 && get_global_offset(0) == 0 && get_work_dim() == 1)
    a[0] = get_local_size(0);
}

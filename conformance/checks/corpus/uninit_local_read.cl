__kernel void uninit_local_read(__global const int *in, __global int *out) {
  __local int t[64];
  int lid = get_local_id(0);
  if ((lid & 1) == 0)
    t[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[lid ^ 1]; // BUG: odd elements were never written
}

__kernel void bounds_local_read_past(__global const float *in, __global float *out) {
  __local float t[64];
  int lid = get_local_id(0);
  t[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[lid + 1]; // BUG: lid 63 reads t[64]
}

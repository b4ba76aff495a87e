__kernel void bounds_local_arg_write_past(__global const int *in, __global int *out,
                                          __local int *t) {
  int lid = get_local_id(0);
  t[lid + 1] = in[get_global_id(0)]; // BUG: lid 63 writes t[64] of a 64-int __local argument
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[lid];
}

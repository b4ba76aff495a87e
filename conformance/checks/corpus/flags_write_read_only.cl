__kernel void flags_write_read_only(__global int *in, __global int *out) {
  int gid = get_global_id(0);
  out[gid] = in[gid];
  in[gid] = 0; // BUG: `in` was created CL_MEM_READ_ONLY
}

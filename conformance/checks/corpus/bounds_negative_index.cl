__kernel void bounds_negative_index(__global const int *in, __global int *out) {
  int gid = get_global_id(0);
  int x = in[gid - 1]; // BUG: work-item 0 reads in[-1]
  out[gid] = x;
}

__constant int table[8] = {1, 2, 3, 5, 8, 13, 21, 34};

__kernel void bounds_constant_table(__global const int *in, __global int *out) {
  int gid = get_global_id(0);
  out[gid] = in[gid] + table[gid % 9]; // BUG: index 8 is past the table
}

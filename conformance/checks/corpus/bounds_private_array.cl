__kernel void bounds_private_array(__global const int *in, __global int *out) {
  int gid = get_global_id(0);
  int a[4];
  for (int j = 0; j < 4; j++)
    a[j] = in[gid] + j;
  int i = gid % 5;
  out[gid] = a[i]; // BUG: i reaches 4
}

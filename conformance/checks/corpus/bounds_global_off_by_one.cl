__kernel void bounds_global_off_by_one(__global const int *in, __global int *out) {
  size_t gid = get_global_id(0);
  out[gid + 1] = in[gid]; // BUG: the last work-item writes one past the end
}

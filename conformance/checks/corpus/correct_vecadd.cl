__kernel void correct_vecadd(__global const float *a, __global float *c, __global const float *b) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}

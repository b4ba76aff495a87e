#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void halves(__global half *h, __global const float *f, __global half4 *h4) {
  size_t i = get_global_id(0);
  half x = h[i];
  half y = (half)f[i] * x + (half)1.0h;
  h[i] = y;
  vstore_half(f[i] * 2.0f, i, (__global half *)f);
  float4 w = vload_half4(i, h);
  h4[i] = convert_half4(w) * (half4)(x);
}

__kernel void swizzle(__global float4 *v, __global const int8 *w, __global uchar16 *bytes) {
  size_t i = get_global_id(0);
  float4 x = v[i];
  x.xy = x.wz * (float2)(2.0f, 0.5f);
  int8 y = w[i];
  int4 lo = y.lo, hi = y.s7654;
  x += convert_float4(lo + hi);
  float3 t = vload3(i, (__global const float *)v);
  vstore3(t * 3.0f, i, (__global float *)v);
  uint4 bits = as_uint4(x);
  bytes[i] = as_uchar16(bits ^ (uint4)(0xff));
  v[i] = select(x, (float4)(0.0f), isless(x, (float4)(1.0f)));
  v[i] = mad(x, x, fma(x, x, clamp(x, -1.0f, 1.0f)));
  v[i].s3 = dot(x, x) + length(x.xyz) + distance(x, v[i]);
}

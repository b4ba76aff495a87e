__constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                               CLK_FILTER_NEAREST;

__kernel void blur(__read_only image2d_t src, __write_only image2d_t dst, sampler_t linear) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float4 sum = (float4)(0.0f);
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      sum += read_imagef(src, nearest, p + (int2)(dx, dy));
  float2 c = (convert_float2(p) + 0.5f) / (float2)(get_image_width(src), get_image_height(src));
  sum += read_imagef(src, linear, c);
  write_imagef(dst, p, sum / 10.0f);
}

__kernel void copy3d(__read_only image3d_t src, __global uint4 *out) {
  int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  out[(p.z * get_global_size(1) + p.y) * get_global_size(0) + p.x] = read_imageui(src, nearest, p);
}

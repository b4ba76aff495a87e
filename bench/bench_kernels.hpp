// The kernels both fibercl_bench (side by side with PoCL) and fibercl_checked_overhead
// (FiberCL's checked mode against its unchecked runs) time: the streams, the tree
// reduction in __local memory and the 2-D tile stencil.
#pragma once

namespace fibercl::bench {

inline constexpr const char *kStreamSrc = R"CLC(
__kernel void vecadd(__global const float* a, __global const float* b, __global float* c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
__kernel void saxpy(float alpha, __global const float* x, __global float* y) {
  size_t i = get_global_id(0);
  y[i] = alpha * x[i] + y[i];
}
__kernel void empty(__global int* counter) { counter[0] += 1; }
)CLC";

inline constexpr const char *kReduceSrc = R"CLC(
__kernel void reduce(__global const uint* in, __global uint* partial, __local uint* tmp) {
  uint lid = get_local_id(0);
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) tmp[lid] += tmp[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial[get_group_id(0)] = tmp[0];
}
)CLC";

inline constexpr const char *kStencilSrc = R"CLC(
#define TS 16
#define TW (TS + 2)
__kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void stencil(uint w, uint h, __global const float* in, __global float* out) {
  __local float tile[TW][TW];
  int lx = get_local_id(0), ly = get_local_id(1);
  int x0 = get_group_id(0) * TS - 1, y0 = get_group_id(1) * TS - 1;  // tile origin
  for (int i = ly * TS + lx; i < TW * TW; i += TS * TS) {  // 324 cells, 256 work-items
    int x = x0 + i % TW, y = y0 + i / TW;
    tile[i / TW][i % TW] = (x >= 0 && x < (int)w && y >= 0 && y < (int)h) ? in[y * w + x] : 0.0f;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int tx = lx + 1, ty = ly + 1;
  out[get_global_id(1) * w + get_global_id(0)] =
      0.5f * tile[ty][tx] +
      0.125f * (tile[ty - 1][tx] + tile[ty + 1][tx] + tile[ty][tx - 1] + tile[ty][tx + 1]);
}
)CLC";

} // namespace fibercl::bench

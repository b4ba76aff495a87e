// A 5-point stencil over a grid (2-D NDRange, 16x16 groups): each group loads its 18x18
// tile (its block and a one-cell halo; cells outside the grid read as 0) into __local
// memory with a loop of one or two cells per work-item, then reads five neighbours.
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void correct_tile_stencil(__global const int *in, __global int *out) {
  __local int tile[18][18];
  int w = get_global_size(0), h = get_global_size(1);
  int lx = get_local_id(0), ly = get_local_id(1);
  int x0 = get_group_id(0) * 16 - 1, y0 = get_group_id(1) * 16 - 1;
  for (int i = ly * 16 + lx; i < 18 * 18; i += 256) {
    int x = x0 + i % 18, y = y0 + i / 18;
    tile[i / 18][i % 18] = (x >= 0 && x < w && y >= 0 && y < h) ? in[y * w + x] : 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int tx = lx + 1, ty = ly + 1;
  out[get_global_id(1) * w + get_global_id(0)] =
      tile[ty][tx] + tile[ty - 1][tx] + tile[ty + 1][tx] + tile[ty][tx - 1] + tile[ty][tx + 1];
}

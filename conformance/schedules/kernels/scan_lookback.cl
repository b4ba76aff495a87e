// Program scan_lookback: a single-pass inclusive prefix sum with decoupled look-back
// (the scheme of CUB's DeviceScan, Merrill and Garland, "Single-pass Parallel Prefix
// Scan with Decoupled Look-back"), written in OpenCL C 2.0.
//
// Each work-group takes a tile of TILE = local size x ITEMS consecutive elements.
// Tiles are handed out in the order groups start, by a global atomic ticket (dynamic
// tile ids), so a tile's predecessors always belong to groups that started earlier:
// the scan is correct at any occupancy bound >= 1. Per tile:
//   1. the group loads its tile and scans it in local memory (each work-item its
//      ITEMS elements serially, then a Hillis-Steele scan over the work-items);
//   2. work-item 0 publishes the tile's aggregate (status A), then looks back:
//      it walks the predecessors' status words from tile-1 down, adding aggregates
//      (A) until it meets an inclusive prefix (P), and spins on a predecessor whose
//      status is still invalid (X); tile 0 publishes P at once;
//   3. it publishes the tile's inclusive prefix (status P), and the group writes
//      its outputs with the exclusive prefix added.
// A status word is written with release after its value (aggregate[] or
// inclusive[]), and read with acquire before it.
//
// ticket: one zeroed atomic int. status: one zeroed atomic int per tile.
// aggregate, inclusive: one int per tile. n: elements (a multiple of TILE).

#define STATUS_X 0 // nothing published yet
#define STATUS_A 1 // aggregate[tile] is valid
#define STATUS_P 2 // inclusive[tile] is valid

#ifndef ITEMS
#define ITEMS 4
#endif

__kernel void scan_lookback(__global const int *in, __global int *out,
                            __global atomic_int *ticket,
                            __global atomic_int *status, __global int *aggregate,
                            __global int *inclusive, int n) {
  __local int tile_id;
  __local int sums[256];
  __local int exclusive_prefix;
  const int lid = (int)get_local_id(0);
  const int ls = (int)get_local_size(0);

  if (lid == 0)
    tile_id = atomic_fetch_add_explicit(ticket, 1, memory_order_relaxed,
                                        memory_scope_device);
  barrier(CLK_LOCAL_MEM_FENCE);
  const int tile = tile_id;
  const int base = tile * ls * ITEMS + lid * ITEMS;

  // 1. Tile-local scan.
  int v[ITEMS];
  int run = 0;
  for (int i = 0; i < ITEMS; ++i) {
    run += base + i < n ? in[base + i] : 0;
    v[i] = run;
  }
  sums[lid] = run;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int d = 1; d < ls; d <<= 1) {
    const int add = lid >= d ? sums[lid - d] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    sums[lid] += add;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const int before_me = lid > 0 ? sums[lid - 1] : 0; // within the tile

  // 2. + 3. Publish the aggregate, look back, publish the inclusive prefix.
  if (lid == 0) {
    const int agg = sums[ls - 1];
    int prefix = 0;
    if (tile == 0) {
      inclusive[0] = agg;
      atomic_store_explicit(&status[0], STATUS_P, memory_order_release,
                            memory_scope_device);
    } else {
      aggregate[tile] = agg;
      atomic_store_explicit(&status[tile], STATUS_A, memory_order_release,
                            memory_scope_device);
      int pred = tile - 1;
      for (;;) {
        const int s = atomic_load_explicit(&status[pred], memory_order_acquire,
                                           memory_scope_device);
        if (s == STATUS_X)
          continue; // the predecessor has not published yet: spin on it
        if (s == STATUS_P) {
          prefix += inclusive[pred];
          break;
        }
        prefix += aggregate[pred];
        --pred;
      }
      inclusive[tile] = prefix + agg;
      atomic_store_explicit(&status[tile], STATUS_P, memory_order_release,
                            memory_scope_device);
    }
    exclusive_prefix = prefix;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const int offset = exclusive_prefix + before_me;
  for (int i = 0; i < ITEMS; ++i)
    if (base + i < n)
      out[base + i] = offset + v[i];
}

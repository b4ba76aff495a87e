// Octree partitioning by work stealing (the "octree" application of seed 001 §5.1,
// after Cederman and Tsigas). A task is an octree node: a cube and the range
// [start, start + count) of the point-index array idx[] holding the points inside
// it. A work-group processes a task: a node with at most `max_leaf` points (or at
// the depth limit) is a leaf; a bigger node is split: its points are partitioned
// into the eight octants in place (through tmp[], same range), and every non-empty
// octant becomes a child node pushed as a new task. The range of a task belongs to
// it alone, so groups never touch the same points.
//
// Needs ws_common.cl. Coordinates are dyadic (k / 2^24 in [0, 1)), cube sides are
// powers of two, so every computation here is exact and matches the host's octree.

#define OCTREE_MAX_DEPTH 24 // a cube of side 2^-24 holds one distinct point at most

typedef struct {
  int start, count, depth, pad;
  float x, y, z, size; // the cube's lowest corner and side
} octree_node;

typedef struct {
  global const float4 *pts;
  global int *idx;
  global int *tmp;
  global octree_node *nodes;
  global atomic_int *node_count;
  int node_cap;
  global int *leaves; // ids of the leaf nodes
  global atomic_int *leaf_count;
  int max_leaf;
} octree_data;

int octree_octant(float4 p, float cx, float cy, float cz) {
  return (p.x >= cx ? 1 : 0) | (p.y >= cy ? 2 : 0) | (p.z >= cz ? 4 : 0);
}

// Work-item 0: create the non-empty octants as nodes and push them onto the group's
// own queue q. cnt[o] points went to octant o, whose range ends at end[o].
void octree_push_children(ws_pool w, int q, octree_data d, int depth, float x,
                          float y, float z, float hside, local atomic_int *cnt,
                          local atomic_int *end) {
  int kids = 0;
  for (int o = 0; o < 8; ++o)
    if (atomic_load_explicit(&cnt[o], memory_order_relaxed, memory_scope_work_group) > 0)
      ++kids;
  ws_add_pending(w, kids); // before the pushes: see ws_common.cl
  ws_lock(&w.locks[q]);
  for (int o = 0; o < 8; ++o) {
    const int c = atomic_load_explicit(&cnt[o], memory_order_relaxed, memory_scope_work_group);
    if (c == 0)
      continue;
    const int id = ws_new_node(w, d.node_count, d.node_cap);
    if (id < 0)
      continue; // lost: the node table is full
    global octree_node *child = &d.nodes[id];
    child->start =
        atomic_load_explicit(&end[o], memory_order_relaxed, memory_scope_work_group) - c;
    child->count = c;
    child->depth = depth + 1;
    child->pad = 0;
    child->x = (o & 1) ? x + hside : x;
    child->y = (o & 2) ? y + hside : y;
    child->z = (o & 4) ? z + hside : z;
    child->size = hside;
    ws_push_locked(w, q, id);
  }
  ws_unlock(&w.locks[q]); // publishes the children's nodes and points
}

// Process task t (a work-group function). cnt and end are 8 local counters each.
void octree_task(ws_pool w, int q, int t, octree_data d, local atomic_int *cnt,
                 local atomic_int *end) {
  const int lid = (int)get_local_id(0), lsz = (int)get_local_size(0);
  global const octree_node *nd = &d.nodes[t];
  const int start = nd->start, count = nd->count, depth = nd->depth;
  const float x = nd->x, y = nd->y, z = nd->z, hside = nd->size * 0.5f;
  const float cx = x + hside, cy = y + hside, cz = z + hside;

  if (count <= d.max_leaf || depth >= OCTREE_MAX_DEPTH) {
    if (lid == 0) {
      const int l = atomic_fetch_add_explicit(d.leaf_count, 1, memory_order_relaxed,
                                              memory_scope_device);
      if (l < d.node_cap)
        d.leaves[l] = t;
      ws_task_done(w);
    }
    return;
  }

  // Count the points of each octant.
  for (int o = lid; o < 8; o += lsz)
    atomic_store_explicit(&cnt[o], 0, memory_order_relaxed, memory_scope_work_group);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = start + lid; i < start + count; i += lsz)
    atomic_fetch_add_explicit(&cnt[octree_octant(d.pts[d.idx[i]], cx, cy, cz)], 1,
                              memory_order_relaxed, memory_scope_work_group);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  // Where each octant's points go: an exclusive prefix sum.
  if (lid == 0) {
    int at = start;
    for (int o = 0; o < 8; ++o) {
      atomic_store_explicit(&end[o], at, memory_order_relaxed, memory_scope_work_group);
      at += atomic_load_explicit(&cnt[o], memory_order_relaxed, memory_scope_work_group);
    }
  }
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  // Scatter into tmp[] (end[o] ends up at the end of octant o's range), copy back.
  for (int i = start + lid; i < start + count; i += lsz) {
    const int p = d.idx[i];
    const int o = octree_octant(d.pts[p], cx, cy, cz);
    d.tmp[atomic_fetch_add_explicit(&end[o], 1, memory_order_relaxed,
                                     memory_scope_work_group)] = p;
  }
  work_group_barrier(CLK_GLOBAL_MEM_FENCE);
  for (int i = start + lid; i < start + count; i += lsz)
    d.idx[i] = d.tmp[i];
  work_group_barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    octree_push_children(w, q, d, depth, x, y, z, hside, cnt, end);
    ws_task_done(w);
  }
}

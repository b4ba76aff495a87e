// octree (README.md): partitioning 3-D points into an octree by work stealing,
// checked leaf by leaf against the host's octree of the same points.
#include "rng.hpp"
#include "ws_app.hpp"

#include <algorithm>
#include <set>
#include <tuple>

namespace fibercl_apps {
namespace {

struct OctreeNode { // octree_node of octree_common.cl
  cl_int start, count, depth, pad;
  cl_float x, y, z, size;
};
static_assert(sizeof(OctreeNode) == 32, "octree_node layout");

class OctreeApp : public WsApp {
  static constexpr int kPoints = 20000, kMaxLeaf = 16, kMaxDepth = 24;
  std::vector<cl_float4> pts;
  // Host octree: every leaf as (depth, x, y, z, count), sorted; node count.
  std::vector<std::tuple<int, float, float, float, int>> ref_leaves;
  int ref_nodes = 0, ref_depth = 0;

  void build(std::vector<int> ids, int depth, float x, float y, float z, float size) {
    ++ref_nodes;
    ref_depth = std::max(ref_depth, depth);
    if (int(ids.size()) <= kMaxLeaf || depth >= kMaxDepth) {
      ref_leaves.emplace_back(depth, x, y, z, int(ids.size()));
      return;
    }
    const float half = size * 0.5f;
    std::vector<int> part[8];
    for (int p : ids)
      part[octant(pts[p], x + half, y + half, z + half)].push_back(p);
    ids.clear();
    ids.shrink_to_fit();
    for (int o = 0; o < 8; ++o)
      if (!part[o].empty())
        build(std::move(part[o]), depth + 1, (o & 1) ? x + half : x, (o & 2) ? y + half : y,
              (o & 4) ? z + half : z, half);
  }
  static int octant(const cl_float4 &p, float cx, float cy, float cz) {
    return (p.s[0] >= cx ? 1 : 0) | (p.s[1] >= cy ? 2 : 0) | (p.s[2] >= cz ? 4 : 0);
  }

public:
  const char *name() const override { return "octree"; }
  void prepare() override {
    // Half the points uniform in the unit cube, half in 12 tight clusters (deep,
    // unbalanced subtrees). Coordinates are k / 2^24, distinct points only.
    Rng rng(0x0c7);
    std::set<std::tuple<uint32_t, uint32_t, uint32_t>> seen;
    struct C {
      double x, y, z, r;
    };
    std::vector<C> clusters;
    for (int c = 0; c < 12; ++c)
      clusters.push_back({rng.unit(), rng.unit(), rng.unit(), 0.002 + 0.03 * rng.unit()});
    while (int(pts.size()) < kPoints) {
      double c[3];
      if (rng.below(2) == 0) {
        for (double &v : c)
          v = rng.unit();
      } else {
        const C &k = clusters[rng.below(uint32_t(clusters.size()))];
        const double ctr[3] = {k.x, k.y, k.z};
        for (int i = 0; i < 3; ++i) // a sum of uniforms: roughly normal around the centre
          c[i] = ctr[i] + k.r * (rng.unit() + rng.unit() + rng.unit() - 1.5);
      }
      uint32_t q[3];
      bool inside = true;
      for (int i = 0; i < 3; ++i) {
        inside = inside && c[i] >= 0 && c[i] < 1;
        q[i] = uint32_t(std::max(0.0, std::min(c[i], 0.999999)) * 16777216.0);
      }
      if (!inside || !seen.insert({q[0], q[1], q[2]}).second)
        continue;
      cl_float4 p;
      for (int i = 0; i < 3; ++i)
        p.s[i] = float(q[i]) / 16777216.0f;
      p.s[3] = 0;
      pts.push_back(p);
    }
    std::vector<int> all(kPoints);
    for (int i = 0; i < kPoints; ++i)
      all[i] = i;
    build(std::move(all), 0, 0, 0, 0, 1);
    std::sort(ref_leaves.begin(), ref_leaves.end());
    node_cap = 2 * ref_nodes + 64; // room to see a wrong node count, not just overflow
  }
  std::string describe() const override {
    return format("%d points (half clustered), leaves of <= %d points: %d nodes, %d leaves, "
                  "depth %d",
                  kPoints, kMaxLeaf, ref_nodes, int(ref_leaves.size()), ref_depth);
  }
  void reset_tasks(Cl &cl) override {
    bufs.upload(cl, "pts", pts);
    std::vector<int> idx(kPoints);
    for (int i = 0; i < kPoints; ++i)
      idx[i] = i;
    bufs.upload(cl, "idx", idx);
    bufs.zeroed(cl, "tmp", kPoints * 4);
    std::vector<OctreeNode> nodes(node_cap, OctreeNode{0, 0, 0, 0, 0, 0, 0, 0});
    nodes[0] = OctreeNode{0, kPoints, 0, 0, 0, 0, 0, 1.0f};
    bufs.upload(cl, "nodes", nodes);
    bufs.upload(cl, "node_count", std::vector<int>{1});
    bufs.zeroed(cl, "leaves", node_cap * 4);
    bufs.zeroed(cl, "leaf_count", 4);
  }
  void set_task_args(Args &a) override {
    a.mem(bufs["pts"])
        .mem(bufs["idx"])
        .mem(bufs["tmp"])
        .mem(bufs["nodes"])
        .mem(bufs["node_count"])
        .i32(node_cap)
        .mem(bufs["leaves"])
        .mem(bufs["leaf_count"])
        .i32(kMaxLeaf);
  }
  std::string verify_tasks(Cl &cl) override {
    const int count = cl.read1<int>(bufs["node_count"]);
    const int nleaves = cl.read1<int>(bufs["leaf_count"]);
    if (count != ref_nodes)
      return format("%d nodes, the host's octree has %d", count, ref_nodes);
    if (nleaves != int(ref_leaves.size()))
      return format("%d leaves, the host's octree has %d", nleaves, int(ref_leaves.size()));
    auto nodes = cl.read<OctreeNode>(bufs["nodes"], count);
    auto leaves = cl.read<int>(bufs["leaves"], nleaves);
    auto idx = cl.read<int>(bufs["idx"], kPoints);
    // idx is a permutation; every position lies in exactly one leaf's range.
    std::vector<int> seen(kPoints, 0), owner(kPoints, -1);
    for (int i = 0; i < kPoints; ++i) {
      if (idx[i] < 0 || idx[i] >= kPoints || seen[idx[i]]++)
        return format("idx[%d] = %d: not a permutation of the points", i, idx[i]);
    }
    std::vector<std::tuple<int, float, float, float, int>> got;
    for (int l : leaves) {
      if (l < 0 || l >= count)
        return format("leaf id %d out of range", l);
      const OctreeNode &nd = nodes[l];
      if (nd.count > kMaxLeaf && nd.depth < kMaxDepth)
        return format("leaf %d holds %d points (> %d)", l, nd.count, kMaxLeaf);
      if (nd.start < 0 || nd.count < 0 || nd.start + nd.count > kPoints)
        return format("leaf %d range [%d, +%d) out of bounds", l, nd.start, nd.count);
      for (int i = nd.start; i < nd.start + nd.count; ++i) {
        if (owner[i] >= 0)
          return format("point %d is in leaves %d and %d", idx[i], owner[i], l);
        owner[i] = l;
        const cl_float4 &p = pts[idx[i]];
        const float lo[3] = {nd.x, nd.y, nd.z};
        for (int c = 0; c < 3; ++c)
          if (!(p.s[c] >= lo[c] && p.s[c] < lo[c] + nd.size))
            return format("point %d lies outside its leaf %d", idx[i], l);
      }
      got.emplace_back(nd.depth, nd.x, nd.y, nd.z, nd.count);
    }
    for (int i = 0; i < kPoints; ++i)
      if (owner[i] < 0)
        return format("point %d is in no leaf", idx[i]);
    std::sort(got.begin(), got.end());
    if (got != ref_leaves)
      return "the leaves differ from the host's octree";
    return "";
  }
};

} // namespace

std::unique_ptr<App> make_octree_app() { return std::make_unique<OctreeApp>(); }

} // namespace fibercl_apps

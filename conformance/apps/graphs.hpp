// The graph inputs of the level-loop apps (color, mis, sssp, bfs), generated from
// fixed seeds, in compressed sparse rows.
#pragma once

#include <cstdint>
#include <vector>

namespace fibercl_apps {

struct Edge {
  int u, v, w;
};

// The out-edges of v are col[row[v] .. row[v + 1]), with weights w[...].
struct Graph {
  int n = 0;
  std::vector<int> row, col, w;
  int edges() const { return int(col.size()); }
  int degree(int v) const { return row[v + 1] - row[v]; }
};

// Drops self loops and parallel edges (keeping the lightest), sorts by (u, v).
Graph to_csr(int n, std::vector<Edge> es);
// The same graph with every edge turned round (in-edges as rows).
Graph reverse(const Graph &g);
// R-MAT: 2^scale nodes, edge_factor * 2^scale edges, skewed degrees, weights 1..100.
Graph rmat(int scale, int edge_factor, bool undirected, uint64_t seed);
// A side x side grid of roads plus `side` long roads: a large diameter.
Graph grid_roads(int side, uint64_t seed);
// n random 32-bit node priorities.
std::vector<uint32_t> random_priorities(int n, uint64_t seed);

} // namespace fibercl_apps

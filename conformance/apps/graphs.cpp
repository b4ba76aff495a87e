#include "graphs.hpp"

#include "rng.hpp"

#include <algorithm>
#include <tuple>

namespace fibercl_apps {

Graph to_csr(int n, std::vector<Edge> es) {
  std::sort(es.begin(), es.end(), [](const Edge &a, const Edge &b) {
    return std::tie(a.u, a.v, a.w) < std::tie(b.u, b.v, b.w);
  });
  Graph g;
  g.n = n;
  g.row.assign(n + 1, 0);
  for (size_t i = 0; i < es.size(); ++i) {
    const Edge &e = es[i];
    if (e.u == e.v || (i > 0 && es[i - 1].u == e.u && es[i - 1].v == e.v))
      continue;
    g.col.push_back(e.v);
    g.w.push_back(e.w);
    g.row[e.u + 1]++;
  }
  for (int v = 0; v < n; ++v)
    g.row[v + 1] += g.row[v];
  return g;
}

Graph reverse(const Graph &g) {
  std::vector<Edge> es;
  for (int u = 0; u < g.n; ++u)
    for (int e = g.row[u]; e < g.row[u + 1]; ++e)
      es.push_back({g.col[e], u, g.w[e]});
  return to_csr(g.n, es);
}

// R-MAT (Chakrabarti et al.): each edge picks a quadrant of the adjacency matrix per
// bit with probabilities (0.57, 0.19, 0.19, 0.05); node ids are shuffled so that
// degree does not follow the id. Small diameter.
Graph rmat(int scale, int edge_factor, bool undirected, uint64_t seed) {
  Rng rng(seed);
  const int n = 1 << scale;
  std::vector<int> perm(n);
  for (int i = 0; i < n; ++i)
    perm[i] = i;
  for (int i = n - 1; i > 0; --i)
    std::swap(perm[i], perm[rng.below(uint32_t(i + 1))]);
  std::vector<Edge> es;
  for (long k = 0; k < long(n) * edge_factor; ++k) {
    int u = 0, v = 0;
    for (int b = 0; b < scale; ++b) {
      const double r = rng.unit();
      const int du = r >= 0.76 ? 1 : 0;                            // c + d: lower half
      const int dv = (r >= 0.57 && r < 0.76) || r >= 0.95 ? 1 : 0; // b or d: right half
      u = u << 1 | du;
      v = v << 1 | dv;
    }
    const int w = 1 + int(rng.below(100));
    es.push_back({perm[u], perm[v], w});
    if (undirected)
      es.push_back({perm[v], perm[u], w});
  }
  return to_csr(n, es);
}

// Each street has a random weight per direction (1..100), the long roads 200..999.
// Many Bellman-Ford rounds, so many barriers.
Graph grid_roads(int side, uint64_t seed) {
  Rng rng(seed);
  const int n = side * side;
  std::vector<Edge> es;
  for (int r = 0; r < side; ++r)
    for (int c = 0; c < side; ++c) {
      const int v = r * side + c;
      if (c + 1 < side) {
        es.push_back({v, v + 1, 1 + int(rng.below(100))});
        es.push_back({v + 1, v, 1 + int(rng.below(100))});
      }
      if (r + 1 < side) {
        es.push_back({v, v + side, 1 + int(rng.below(100))});
        es.push_back({v + side, v, 1 + int(rng.below(100))});
      }
    }
  for (int k = 0; k < side; ++k) {
    const int u = int(rng.below(n)), v = int(rng.below(n));
    es.push_back({u, v, 200 + int(rng.below(800))});
  }
  return to_csr(n, es);
}

std::vector<uint32_t> random_priorities(int n, uint64_t seed) {
  Rng rng(seed);
  std::vector<uint32_t> p(n);
  for (auto &x : p)
    x = rng.u32();
  return p;
}

} // namespace fibercl_apps

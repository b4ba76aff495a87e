// CSR graphs and the host BFS (host_graph.hpp).
#include "host_graph.hpp"

#include <queue>

namespace corpus {

Graph csrFrom(const std::vector<std::vector<int>> &adjacency) {
  Graph g{{0}, {}, (int)adjacency.size()};
  for (const auto &a : adjacency) {
    g.col.insert(g.col.end(), a.begin(), a.end());
    g.row.push_back((int)g.col.size());
  }
  return g;
}

std::vector<int> bfsLevels(const Graph &g, int source) {
  std::vector<int> level(g.vertices, -1);
  std::queue<int> q;
  level[source] = 0;
  q.push(source);
  while (!q.empty()) {
    const int v = q.front();
    q.pop();
    for (int e = g.row[v]; e < g.row[v + 1]; ++e)
      if (level[g.col[e]] < 0) {
        level[g.col[e]] = level[v] + 1;
        q.push(g.col[e]);
      }
  }
  return level;
}

} // namespace corpus

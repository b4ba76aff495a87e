// Undirected graphs of the BFS programs (bfs, bfs_sweep) in CSR form, both directions
// stored, and the host's BFS they are checked against.
#pragma once

#include <vector>

namespace corpus {

struct Graph {
  std::vector<int> row, col; // row[v]..row[v + 1]: v's neighbours in col
  int vertices = 0;
};

// The CSR form of adjacency lists.
Graph csrFrom(const std::vector<std::vector<int>> &adjacency);

// Each vertex's BFS level from `source` (-1: unreachable).
std::vector<int> bfsLevels(const Graph &g, int source);

} // namespace corpus

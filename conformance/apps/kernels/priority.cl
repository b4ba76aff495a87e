// The order of the nodes that color and mis decide by: u is above v if its random
// priority is larger, or equal and its id larger. A total order: the highest of the
// undecided nodes is above all its neighbours and the lowest below them, so every
// iteration decides a node.
bool prio_above(global const uint *prio, int u, int v) {
  return prio[u] > prio[v] || (prio[u] == prio[v] && u > v);
}

// Graph colouring, Pannotia's "color": Jones-Plassmann with random priorities. In
// iteration `it` every still-uncoloured node whose priority beats those of all its
// uncoloured neighbours (ties: the larger id wins) takes colour it + 1. Two nodes
// coloured in one iteration are never adjacent, so the colouring is proper; the
// globally largest uncoloured node always wins, so every iteration colours at least
// one node. The phases are separated by global barriers, which makes the plain
// (non-atomic) accesses race-free: phase 1 only reads colour[], phase 2 only writes
// its own nodes' entries.
//
// colour[v] = 0 (uncoloured) initially. more[it] is raised when iteration `it` found
// an uncoloured node (level_common.cl).
#include "level_common.cl"
#include "priority.cl"

// Phase 1: mark the local maxima among the uncoloured nodes.
void color_select(int tid, int stride, int it, global const int *row,
                  global const int *col, global const uint *prio,
                  global const int *colour, global int *is_max,
                  global atomic_int *more, int n) {
  for (int v = tid; v < n; v += stride) {
    if (colour[v] != 0)
      continue;
    level_more_work(more, it);
    int wins = 1;
    for (int e = row[v]; e < row[v + 1]; ++e) {
      const int u = col[e];
      if (colour[u] == 0 && prio_above(prio, u, v)) {
        wins = 0;
        break;
      }
    }
    is_max[v] = wins;
  }
}

// Phase 2: colour the maxima with this iteration's colour.
void color_assign(int tid, int stride, int it, global int *colour,
                  global const int *is_max, int n) {
  for (int v = tid; v < n; v += stride)
    if (colour[v] == 0 && is_max[v])
      colour[v] = it + 1;
}

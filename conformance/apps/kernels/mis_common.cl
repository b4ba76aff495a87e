// Maximal independent set, Pannotia's "mis" (Luby's algorithm with fixed random
// priorities). A node is undecided, in the set (in_set[v] = 1) or removed
// (removed[v] = 1, a neighbour is in the set). Each iteration has three phases
// separated by global barriers:
//   1 select: an undecided node whose priority is below those of all its undecided
//     neighbours (ties: the smaller id wins) becomes a candidate;
//   2 add:    candidates join the set (no two are adjacent);
//   3 remove: undecided nodes with a neighbour in the set are removed.
// The globally smallest undecided node is always a candidate, so every iteration
// decides at least one node. Each phase writes only its own nodes' entries of one
// array that no other node reads in that phase, so plain accesses are race-free.
//
// more[it] is raised when iteration `it` found an undecided node (level_common.cl).
#include "level_common.cl"
#include "priority.cl"

void mis_select(int tid, int stride, int it, global const int *row,
                global const int *col, global const uint *prio,
                global const int *in_set, global const int *removed,
                global int *cand, global atomic_int *more, int n) {
  for (int v = tid; v < n; v += stride) {
    if (in_set[v] || removed[v])
      continue;
    level_more_work(more, it);
    int wins = 1;
    for (int e = row[v]; e < row[v + 1]; ++e) {
      const int u = col[e];
      if (!in_set[u] && !removed[u] && prio_above(prio, v, u)) { // u is below v
        wins = 0;
        break;
      }
    }
    cand[v] = wins;
  }
}

void mis_add(int tid, int stride, global int *in_set, global const int *removed,
             global const int *cand, int n) {
  for (int v = tid; v < n; v += stride)
    if (!in_set[v] && !removed[v] && cand[v])
      in_set[v] = 1;
}

void mis_remove(int tid, int stride, global const int *row, global const int *col,
                global const int *in_set, global int *removed, int n) {
  for (int v = tid; v < n; v += stride) {
    if (in_set[v] || removed[v])
      continue;
    for (int e = row[v]; e < row[v + 1]; ++e)
      if (in_set[col[e]]) {
        removed[v] = 1;
        break;
      }
  }
}

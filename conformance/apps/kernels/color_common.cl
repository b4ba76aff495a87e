// Graph colouring, Pannotia's "color": Jones-Plassmann with random priorities. In
// iteration `it` every still-uncoloured node whose priority beats those of all its
// uncoloured neighbours (ties: the larger id wins) takes colour it + 1. Two nodes
// coloured in one iteration are never adjacent, so the colouring is proper; the
// globally largest uncoloured node always wins, so every iteration colours at least
// one node. The phases are separated by global barriers, which makes the plain
// (non-atomic) accesses race-free: phase 1 only reads colour[], phase 2 only writes
// its own nodes' entries.
//
// colour[v] = 0 (uncoloured) initially. more[it] (zeroed by the host) is raised when
// iteration `it` found an uncoloured node; the loop ends at the first iteration that
// found none.

// Phase 1: mark the local maxima among the uncoloured nodes.
void color_select(int tid, int stride, int it, global const int *row,
                  global const int *col, global const uint *prio,
                  global const int *colour, global int *is_max,
                  global atomic_int *more, int n) {
  for (int v = tid; v < n; v += stride) {
    if (colour[v] != 0)
      continue;
    atomic_store_explicit(&more[it], 1, memory_order_relaxed, memory_scope_device);
    const uint pv = prio[v];
    int wins = 1;
    for (int e = row[v]; e < row[v + 1]; ++e) {
      const int u = col[e];
      if (colour[u] == 0 && (prio[u] > pv || (prio[u] == pv && u > v))) {
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

// After the iteration's last barrier: does another iteration follow?
bool color_continue(global atomic_int *more, int it, int max_iters) {
  return atomic_load_explicit(&more[it], memory_order_relaxed, memory_scope_device) != 0 &&
         it + 1 < max_iters;
}

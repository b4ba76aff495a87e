// Single-source shortest paths, Pannotia's "sssp": Bellman-Ford as a repeated
// (min, +) matrix-vector product over the in-edges of every node. Pannotia runs an
// iteration as three kernels (the product, a vector compare, a vector copy); as one
// persistent kernel the same three phases are separated by three global barriers
// (seed 001 Table 1, p-sssp: 3 barriers):
//   1 relax:   tmp[v] = min(dist[v], min over in-edges (u, w) of dist[u] + w);
//   2 compare: more[it] = 1 if some tmp[v] differs from dist[v];
//   3 assign:  dist[v] = tmp[v].
// Reads of other nodes' entries (phase 1, dist[]) never meet writes of them (phase
// 3) between barriers, so plain accesses are race-free. dist[] is SSSP_INF except 0
// at the source; the graph is given as in-edges (rrow, rcol, rw). more[]:
// level_common.cl.
#include "level_common.cl"

#define SSSP_INF 0x3fffffff

void sssp_relax(int tid, int stride, global const int *rrow, global const int *rcol,
                global const int *rw, global const int *dist, global int *tmp, int n) {
  for (int v = tid; v < n; v += stride) {
    int d = dist[v];
    for (int e = rrow[v]; e < rrow[v + 1]; ++e) {
      const int du = dist[rcol[e]];
      if (du != SSSP_INF && du + rw[e] < d)
        d = du + rw[e];
    }
    tmp[v] = d;
  }
}

void sssp_compare(int tid, int stride, int it, global const int *dist,
                  global const int *tmp, global atomic_int *more, int n) {
  for (int v = tid; v < n; v += stride)
    if (tmp[v] != dist[v])
      level_more_work(more, it);
}

void sssp_assign(int tid, int stride, global int *dist, global const int *tmp, int n) {
  for (int v = tid; v < n; v += stride)
    dist[v] = tmp[v];
}

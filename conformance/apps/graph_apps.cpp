// The level-loop graph apps (README.md): color, mis, sssp and bfs, each with its
// generated graph, the host's run of the same algorithm (or Dijkstra, or BFS) and
// the check of a run's result against it.
#include "app.hpp"
#include "graphs.hpp"

#include <algorithm>
#include <functional>
#include <queue>

namespace fibercl_apps {
namespace {

class GraphApp : public App {
public:
  bool work_stealing() const override { return false; }

protected:
  Graph g;

  // color, mis and sssp (kernels/level_common.cl): a "found work" flag per iteration,
  // more[0 .. max_iters), zeroed before every run; the kernels' last arguments are
  // more, n and max_iters.
  int max_iters() const { return g.n + 2; }
  void reset_more(Cl &cl) { bufs.zeroed(cl, "more", max_iters() * 4); }
  void more_args(Args &a) { a.mem(bufs["more"]).i32(g.n).i32(max_iters()); }

  std::string graph_text(const char *kind) const {
    int maxdeg = 0;
    for (int v = 0; v < g.n; ++v)
      maxdeg = std::max(maxdeg, g.degree(v));
    return format("%s, %d nodes, %d edges, max degree %d", kind, g.n, g.edges(), maxdeg);
  }
};

// 1. color ---------------------------------------------------------------------------------
class ColorApp : public GraphApp {
  std::vector<uint32_t> prio;
  std::vector<int> ref; // the host's run of the same algorithm
  int ref_colours = 0;

public:
  const char *name() const override { return "color"; }
  void prepare() override {
    g = rmat(13, 8, true, 0xc0102);
    prio = random_priorities(g.n, 0xc0103);
    // Host reference: the same Jones-Plassmann iterations.
    ref.assign(g.n, 0);
    for (int it = 0;; ++it) {
      std::vector<int> winners;
      for (int v = 0; v < g.n; ++v) {
        if (ref[v])
          continue;
        bool wins = true;
        for (int e = g.row[v]; e < g.row[v + 1] && wins; ++e) {
          const int u = g.col[e];
          if (!ref[u] && (prio[u] > prio[v] || (prio[u] == prio[v] && u > v)))
            wins = false;
        }
        if (wins)
          winners.push_back(v);
      }
      if (winners.empty())
        break;
      for (int v : winners)
        ref[v] = it + 1;
      ref_colours = it + 1;
    }
  }
  std::string describe() const override {
    return graph_text("undirected R-MAT") + format(", %d colours", ref_colours);
  }
  void reset(Cl &cl, size_t) override {
    bufs.upload(cl, "row", g.row);
    bufs.upload(cl, "col", g.col);
    bufs.upload(cl, "prio", prio);
    bufs.zeroed(cl, "colour", g.n * 4);
    bufs.zeroed(cl, "is_max", g.n * 4);
    reset_more(cl);
  }
  void set_args(Args a, Form, size_t) override {
    a.mem(bufs["row"]).mem(bufs["col"]).mem(bufs["prio"]).mem(bufs["colour"]).mem(bufs["is_max"]);
    more_args(a);
  }
  std::string verify(Cl &cl) override {
    auto colour = cl.read<int>(bufs["colour"], g.n);
    for (int v = 0; v < g.n; ++v)
      if (colour[v] <= 0)
        return format("node %d is not coloured (%d)", v, colour[v]);
    for (int v = 0; v < g.n; ++v)
      for (int e = g.row[v]; e < g.row[v + 1]; ++e)
        if (colour[g.col[e]] == colour[v])
          return format("adjacent nodes %d and %d share colour %d", v, g.col[e], colour[v]);
    for (int v = 0; v < g.n; ++v)
      if (colour[v] != ref[v])
        return format("node %d has colour %d, the host's run %d", v, colour[v], ref[v]);
    return "";
  }
};

// 2. mis -----------------------------------------------------------------------------------
class MisApp : public GraphApp {
  std::vector<uint32_t> prio;
  std::vector<int> ref_in; // the host's run of the same algorithm
  int ref_size = 0, ref_iters = 0;

public:
  const char *name() const override { return "mis"; }
  void prepare() override {
    g = rmat(13, 8, true, 0x3150);
    prio = random_priorities(g.n, 0x3151);
    ref_in.assign(g.n, 0);
    std::vector<int> removed(g.n, 0);
    for (;;) {
      std::vector<int> cand;
      for (int v = 0; v < g.n; ++v) {
        if (ref_in[v] || removed[v])
          continue;
        bool wins = true;
        for (int e = g.row[v]; e < g.row[v + 1] && wins; ++e) {
          const int u = g.col[e];
          if (!ref_in[u] && !removed[u] && (prio[u] < prio[v] || (prio[u] == prio[v] && u < v)))
            wins = false;
        }
        if (wins)
          cand.push_back(v);
      }
      if (cand.empty())
        break;
      ++ref_iters;
      for (int v : cand)
        ref_in[v] = 1;
      for (int v = 0; v < g.n; ++v)
        if (!ref_in[v] && !removed[v])
          for (int e = g.row[v]; e < g.row[v + 1]; ++e)
            if (ref_in[g.col[e]]) {
              removed[v] = 1;
              break;
            }
    }
    for (int v = 0; v < g.n; ++v)
      ref_size += ref_in[v];
  }
  std::string describe() const override {
    return graph_text("undirected R-MAT") +
           format(", set of %d nodes in %d iterations", ref_size, ref_iters);
  }
  void reset(Cl &cl, size_t) override {
    bufs.upload(cl, "row", g.row);
    bufs.upload(cl, "col", g.col);
    bufs.upload(cl, "prio", prio);
    bufs.zeroed(cl, "in_set", g.n * 4);
    bufs.zeroed(cl, "removed", g.n * 4);
    bufs.zeroed(cl, "cand", g.n * 4);
    reset_more(cl);
  }
  void set_args(Args a, Form, size_t) override {
    a.mem(bufs["row"])
        .mem(bufs["col"])
        .mem(bufs["prio"])
        .mem(bufs["in_set"])
        .mem(bufs["removed"])
        .mem(bufs["cand"]);
    more_args(a);
  }
  std::string verify(Cl &cl) override {
    auto in = cl.read<int>(bufs["in_set"], g.n);
    auto removed = cl.read<int>(bufs["removed"], g.n);
    for (int v = 0; v < g.n; ++v)
      if ((in[v] != 0) == (removed[v] != 0))
        return format("node %d is %s", v, in[v] ? "both in the set and removed" : "undecided");
    for (int v = 0; v < g.n; ++v) {
      bool covered = in[v] != 0;
      for (int e = g.row[v]; e < g.row[v + 1]; ++e) {
        if (in[v] && in[g.col[e]])
          return format("not independent: adjacent nodes %d and %d are both in the set", v,
                        g.col[e]);
        covered = covered || in[g.col[e]];
      }
      if (!covered)
        return format("not maximal: node %d and all its neighbours are outside the set", v);
    }
    for (int v = 0; v < g.n; ++v)
      if ((in[v] != 0) != (ref_in[v] != 0))
        return format("node %d is %s the set in the host's run", v, in[v] ? "outside" : "in");
    return "";
  }
};

// 3. sssp ----------------------------------------------------------------------------------
class SsspApp : public GraphApp {
  static constexpr int kInf = 0x3fffffff; // SSSP_INF of sssp_common.cl
  Graph rg;                               // in-edges
  int src = 0;
  std::vector<int> ref; // Dijkstra
  int ref_reached = 0, ref_far = 0, ref_rounds = 0;

public:
  const char *name() const override { return "sssp"; }
  void prepare() override {
    g = grid_roads(80, 0x555);
    rg = reverse(g);
    src = 0;
    // Host reference: Dijkstra over the out-edges.
    ref.assign(g.n, kInf);
    using Item = std::pair<int, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
    ref[src] = 0;
    pq.push({0, src});
    while (!pq.empty()) {
      auto [d, u] = pq.top();
      pq.pop();
      if (d != ref[u])
        continue;
      for (int e = g.row[u]; e < g.row[u + 1]; ++e)
        if (d + g.w[e] < ref[g.col[e]]) {
          ref[g.col[e]] = d + g.w[e];
          pq.push({ref[g.col[e]], g.col[e]});
        }
    }
    for (int d : ref)
      if (d != kInf) {
        ++ref_reached;
        ref_far = std::max(ref_far, d);
      }
    // The kernel's iteration count: Jacobi-style Bellman-Ford rounds until no change.
    std::vector<int> dist(g.n, kInf), next;
    dist[src] = 0;
    for (bool changed = true; changed; ++ref_rounds) {
      next = dist;
      for (int v = 0; v < g.n; ++v)
        for (int e = rg.row[v]; e < rg.row[v + 1]; ++e)
          if (dist[rg.col[e]] != kInf)
            next[v] = std::min(next[v], dist[rg.col[e]] + rg.w[e]);
      changed = next != dist;
      dist.swap(next);
    }
  }
  std::string describe() const override {
    return graph_text("grid roads") + format(", %d reached from node %d, farthest at %d, %d rounds",
                                             ref_reached, src, ref_far, ref_rounds);
  }
  void reset(Cl &cl, size_t) override {
    bufs.upload(cl, "rrow", rg.row);
    bufs.upload(cl, "rcol", rg.col);
    bufs.upload(cl, "rw", rg.w);
    std::vector<int> dist(g.n, kInf);
    dist[src] = 0;
    bufs.upload(cl, "dist", dist);
    bufs.zeroed(cl, "tmp", g.n * 4);
    reset_more(cl);
  }
  void set_args(Args a, Form, size_t) override {
    a.mem(bufs["rrow"]).mem(bufs["rcol"]).mem(bufs["rw"]).mem(bufs["dist"]).mem(bufs["tmp"]);
    more_args(a);
  }
  std::string verify(Cl &cl) override {
    auto dist = cl.read<int>(bufs["dist"], g.n);
    for (int v = 0; v < g.n; ++v)
      if (dist[v] != ref[v])
        return format("distance of node %d is %d, Dijkstra's %d", v, dist[v], ref[v]);
    return "";
  }
};

// 4. bfs -----------------------------------------------------------------------------------
class BfsApp : public GraphApp {
  int src = 0;
  std::vector<int> ref;
  int ref_reached = 0, ref_depth = 0;

public:
  const char *name() const override { return "bfs"; }
  void prepare() override {
    g = rmat(14, 8, false, 0xbf5);
    for (int v = 1; v < g.n; ++v)
      if (g.degree(v) > g.degree(src))
        src = v;
    ref.assign(g.n, -1);
    std::vector<int> q{src};
    ref[src] = 0;
    for (size_t i = 0; i < q.size(); ++i)
      for (int e = g.row[q[i]]; e < g.row[q[i] + 1]; ++e)
        if (ref[g.col[e]] < 0) {
          ref[g.col[e]] = ref[q[i]] + 1;
          q.push_back(g.col[e]);
        }
    ref_reached = int(q.size());
    ref_depth = ref[q.back()];
  }
  std::string describe() const override {
    return graph_text("directed R-MAT") +
           format(", %d reached from node %d in %d levels", ref_reached, src, ref_depth + 1);
  }
  void reset(Cl &cl, size_t) override {
    bufs.upload(cl, "row", g.row);
    bufs.upload(cl, "col", g.col);
    std::vector<int> levels(g.n, -1);
    levels[src] = 0;
    bufs.upload(cl, "levels", levels);
    // bfs_worklist: size, then room for every node. n0 = {src}, n1 empty.
    std::vector<int> wl(g.n + 1, 0);
    wl[0] = 1;
    wl[1] = src;
    bufs.upload(cl, "n0", wl);
    bufs.zeroed(cl, "n1", (g.n + 1) * 4);
  }
  void set_args(Args a, Form, size_t) override {
    a.mem(bufs["row"]).mem(bufs["col"]).mem(bufs["levels"]).mem(bufs["n0"]).mem(bufs["n1"]);
  }
  std::string verify(Cl &cl) override {
    auto levels = cl.read<int>(bufs["levels"], g.n);
    for (int v = 0; v < g.n; ++v)
      if (levels[v] != ref[v])
        return format("level of node %d is %d, the host's BFS %d", v, levels[v], ref[v]);
    return "";
  }
};

} // namespace

std::unique_ptr<App> make_color_app() { return std::make_unique<ColorApp>(); }
std::unique_ptr<App> make_mis_app() { return std::make_unique<MisApp>(); }
std::unique_ptr<App> make_sssp_app() { return std::make_unique<SsspApp>(); }
std::unique_ptr<App> make_bfs_app() { return std::make_unique<BfsApp>(); }

} // namespace fibercl_apps

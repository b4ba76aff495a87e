// Discovery-based programs: discovery_xf (discovery + XF barrier rounds) and bfs
// (persistent-thread BFS). Kernels: kernels/discovery_xf.cl, kernels/bfs.cl.
#include "host_graph.hpp"
#include "program.hpp"

#include <algorithm>

namespace corpus {
namespace {

std::vector<std::string> discoveryFiles(const char *main) {
  return {"common.cl", "mutex.cl", "discovery.cl", "xf_barrier.cl", main};
}

std::string discoveryOptions(const std::string &lock) {
  return "-cl-std=CL2.0 -DMUTEX_" + upper(lock);
}

// Checks the protocol's own postconditions (seed 000 §3.2): the poll is closed,
// 1 <= count <= min(G, bound), exactly `count` groups participated and their
// participating ids are 0..count-1. Returns count (0 if it is unusable).
int checkDiscovery(Outcome &out, const Params &p, const std::vector<int> &disc,
                   const std::vector<int> &M, const std::vector<int> &participated) {
  const int n = disc[1];
  out.found = n;
  const int limit = p.bound ? (int)std::min(p.bound, p.groups) : (int)p.groups;
  if (disc[0] != 0) {
    markWrong(out, "poll still open after the protocol");
    return 0;
  }
  if (n < 1 || n > limit) {
    markWrong(out, "found " + std::to_string(n) + " participating groups, outside 1.." +
                       std::to_string(limit));
    return 0;
  }
  std::vector<int> ids;
  for (cl_uint g = 0; g < p.groups; ++g)
    if (participated[g])
      ids.push_back(M[g]);
  std::sort(ids.begin(), ids.end());
  if ((int)ids.size() != n) {
    markWrong(out, std::to_string(ids.size()) + " groups participated but count is " +
                       std::to_string(n));
    return 0;
  }
  for (int i = 0; i < n; ++i)
    if (ids[i] != i) {
      markWrong(out, "participating ids are not 0..count-1");
      return 0;
    }
  return n;
}

class DiscoveryXf : public Program {
public:
  DiscoveryXf()
      : Program({"discovery_xf",
                 "discovery (--lock ticket|spin), then R=iters rounds of the XF "
                 "barrier among participants, neighbour data checked; 256 groups",
                 "seed 000 Fig. 3, Table 2, §4 (XF + atomics); seed 003 §5", Expect::Ok,
                 GroupRule::Fixed, 256, 64, 4, "ticket", true}) {}

  Outcome run(Session &s, const Params &p, const Schedule &schedule) const override {
    const size_t G = p.groups, ls = p.local;
    cl_program prog = s.program(discoveryFiles("discovery_xf.cl"), discoveryOptions(p.lock));
    Kernel k = s.kernel(prog, "discovery_xf");
    Buffer mutex = s.buffer(std::vector<int>{0, 0});
    Buffer disc = s.buffer(std::vector<int>{1, 0});
    Buffer M = s.buffer(std::vector<int>(G, -1));
    Buffer part = s.buffer(std::vector<int>(G, 0));
    Buffer flags = s.buffer(std::vector<int>(G, 0));
    Buffer data = s.buffer(std::vector<int>(2 * G * ls, 0));
    Buffer errors = s.buffer(std::vector<int>(G * ls, -1));
    setArgs(k, mutex, disc, M, part, flags, data, errors, (cl_int)p.iters);

    Outcome out;
    if (launched(s, k, p, schedule, out)) {
      int n = checkDiscovery(out, p, s.read<int>(disc, 2), s.read<int>(M, G), s.read<int>(part, G));
      auto err = s.read<int>(errors, G * ls);
      for (size_t i = 0; i < (size_t)n * ls; ++i)
        if (err[i] != 0) {
          markWrong(out, err[i] < 0 ? "participant " + std::to_string(i / ls) +
                                          " did not finish its rounds"
                                    : "participant " + std::to_string(i / ls) +
                                          " read stale neighbour data after a barrier");
          break;
        }
    }
    conclude(out);
    return out;
  }
};

// A small graph with a long tail: a random undirected graph on the first 3/4 of
// the vertices (average degree ~3), a path hanging off vertex 0 through the rest,
// and a few isolated vertices. CSR, both directions stored.
Graph makeGraph(int vertices, unsigned salt) {
  std::vector<std::vector<int>> adj(vertices);
  auto link = [&](int a, int b) {
    adj[a].push_back(b);
    adj[b].push_back(a);
  };
  const int body = vertices * 3 / 4, isolated = 4;
  unsigned h = hostHash(salt * 2654435761u + 17);
  for (int e = 0; e < body * 3 / 2; ++e) {
    h = hostHash(h + e);
    int a = (int)(h % body);
    h = hostHash(h);
    int b = (int)(h % body);
    if (a != b)
      link(a, b);
  }
  int prev = 0;
  for (int v = body; v < vertices - isolated; ++v) {
    link(prev, v);
    prev = v;
  }
  return csrFrom(adj);
}

class Bfs : public Program {
public:
  Bfs()
      : Program({"bfs",
                 "discovery, then level-synchronous BFS over a generated graph of "
                 "iters vertices with an XF barrier per level; levels vs host BFS",
                 "seed 000 §5.2 (persistent-thread graph apps), Fig. 4(b)", Expect::Ok,
                 GroupRule::Fixed, 64, 64, 256, "ticket", true}) {}

  Outcome run(Session &s, const Params &p, const Schedule &schedule) const override {
    const size_t G = p.groups;
    const Graph graph = makeGraph(std::max(p.iters, 16), p.salt);
    const int V = graph.vertices;
    cl_program prog = s.program(discoveryFiles("bfs.cl"), discoveryOptions(p.lock));
    Kernel k = s.kernel(prog, "bfs");
    Buffer mutex = s.buffer(std::vector<int>{0, 0});
    Buffer disc = s.buffer(std::vector<int>{1, 0});
    Buffer M = s.buffer(std::vector<int>(G, -1));
    Buffer flags = s.buffer(std::vector<int>(G, 0));
    Buffer row = s.buffer(graph.row);
    Buffer col = s.buffer(graph.col);
    std::vector<int> init(V, -1);
    init[0] = 0;
    Buffer level = s.buffer(init);
    Buffer changed = s.buffer(std::vector<int>(V + 2, 0));
    Buffer levelsRun = s.buffer(std::vector<int>(G, -1));
    setArgs(k, mutex, disc, M, flags, row, col, level, changed, (cl_int)V, levelsRun);

    Outcome out;
    if (launched(s, k, p, schedule, out)) {
      // Which groups participated is not recorded separately: M[g] >= 0 says it.
      auto m = s.read<int>(M, G);
      std::vector<int> part(G);
      for (size_t g = 0; g < G; ++g)
        part[g] = m[g] >= 0;
      int n = checkDiscovery(out, p, s.read<int>(disc, 2), m, part);
      auto got = s.read<int>(level, V);
      auto want = bfsLevels(graph, 0);
      for (int v = 0; v < V; ++v)
        if (got[v] != want[v]) {
          markWrong(out, "vertex " + std::to_string(v) + " at level " + std::to_string(got[v]) +
                             ", host BFS says " + std::to_string(want[v]));
          break;
        }
      auto runs = s.read<int>(levelsRun, G);
      for (int i = 1; i < n; ++i)
        if (runs[i] != runs[0]) {
          markWrong(out, "participants ran different numbers of levels");
          break;
        }
    }
    conclude(out);
    return out;
  }
};

} // namespace

void addDiscoveryPrograms(ProgramList &list) {
  list.push_back(std::make_unique<DiscoveryXf>());
  list.push_back(std::make_unique<Bfs>());
}

} // namespace corpus

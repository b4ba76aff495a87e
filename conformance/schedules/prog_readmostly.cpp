// Programs whose waiting loops mostly read (issue 27): scan_lookback (single-pass
// prefix scan with decoupled look-back), bfs_sweep (persistent bottom-up BFS),
// label_prop (Jacobi label propagation between counter barriers), label_inplace (the
// same in place, atomic reads), ring_queue
// (producers and consumers scanning a ring of slot flags), status_poll (every group
// polls every status word). Kernels: kernels/scan_lookback.cl, bfs_sweep.cl,
// label_prop.cl, ring_queue.cl, status_poll.cl.
#include "host_graph.hpp"
#include "program.hpp"

#include <algorithm>
#include <queue>

namespace corpus {
namespace {

// Marks `out` wrong at the first index where got and want differ.
template <class T>
bool sameArray(Outcome &out, const std::vector<T> &got, const std::vector<T> &want,
               const std::string &what) {
  for (size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i]) {
      markWrong(out, what + "[" + std::to_string(i) + "] = " + std::to_string(got[i]) +
                         ", host says " + std::to_string(want[i]));
      return false;
    }
  return true;
}

// ---------------------------------------------------------------------------
// scan_lookback

class ScanLookback : public Program {
public:
  ScanLookback()
      : Program({"scan_lookback",
                 "single-pass inclusive prefix sum with decoupled look-back, tile "
                 "ids from a global atomic ticket; tiles of 64 x iters ints, one "
                 "per group (1024 groups: 2^18 ints); output vs host prefix sum",
                 "Merrill & Garland, single-pass scan with decoupled look-back "
                 "(CUB DeviceScan)",
                 Expect::Ok, GroupRule::Fixed, 1024, 64, 4}) {}

  Outcome run(Session &s, const Params &p, const Schedule &schedule) const override {
    const size_t G = p.groups, ls = p.local;
    if (ls > 256 || p.iters < 1)
      throw SetupError("scan_lookback: local size <= 256 and iters >= 1");
    const size_t n = G * ls * (size_t)p.iters;
    std::vector<int> in(n);
    for (size_t i = 0; i < n; ++i)
      in[i] = (int)(hostHash(p.salt * 2246822519u + (unsigned)i) % 17);
    cl_program prog = s.program({"common.cl", "scan_lookback.cl"},
                                "-cl-std=CL2.0 -DITEMS=" + std::to_string(p.iters));
    Kernel k = s.kernel(prog, "scan_lookback");
    Buffer inBuf = s.buffer(in);
    Buffer outBuf = s.buffer(std::vector<int>(n, -1));
    Buffer ticket = s.buffer(std::vector<int>{0});
    Buffer status = s.buffer(std::vector<int>(G, 0));
    Buffer aggregate = s.buffer(std::vector<int>(G, 0));
    Buffer inclusive = s.buffer(std::vector<int>(G, 0));
    setArgs(k, inBuf, outBuf, ticket, status, aggregate, inclusive, (cl_int)n);
    Outcome out;
    if (launched(s, k, p, schedule, out)) {
      std::vector<int> want(n);
      int run = 0;
      for (size_t i = 0; i < n; ++i)
        want[i] = run += in[i];
      sameArray(out, s.read<int>(outBuf, n), want, "out");
      if (int t = s.read<int>(ticket, 1)[0]; t != (int)G)
        markWrong(out, "ticket ends at " + std::to_string(t) + ", not " + std::to_string(G));
      auto st = s.read<int>(status, G);
      for (size_t t = 0; t < G; ++t)
        if (st[t] != 2) {
          markWrong(out, "tile " + std::to_string(t) + " ends with status " +
                             std::to_string(st[t]) + ", not P");
          break;
        }
    }
    conclude(out);
    return out;
  }
};

// ---------------------------------------------------------------------------
// bfs_sweep

// A graph with a long diameter: a grid 64 wide whose edges are each present with
// probability 5/8, a few random long-range edges, and the last 3 vertices isolated.
Graph makeGridGraph(int vertices, unsigned salt) {
  const int width = 64, isolated = 3;
  const int body = std::max(vertices - isolated, 1);
  std::vector<std::vector<int>> adj(vertices);
  auto link = [&](int a, int b) {
    if (a == b)
      return;
    adj[a].push_back(b);
    adj[b].push_back(a);
  };
  unsigned h = hostHash(salt * 40503u + 11);
  for (int v = 0; v < body; ++v) {
    h = hostHash(h + (unsigned)v);
    if (v % width + 1 < width && v + 1 < body && (h & 7) < 5)
      link(v, v + 1);
    if (v + width < body && ((h >> 3) & 7) < 5)
      link(v, v + width);
  }
  for (int e = 0; e < body / 256; ++e) {
    h = hostHash(h + 7919u * (unsigned)e);
    link((int)(h % (unsigned)body), (int)(hostHash(h) % (unsigned)body));
  }
  return csrFrom(adj);
}

class BfsSweep : public Program {
public:
  BfsSweep()
      : Program({"bfs_sweep",
                 "persistent bottom-up BFS, G = bound groups (8 unbounded): every "
                 "level every work-item sweeps all its vertices (atomic loads of "
                 "dist[], mostly only read), one counter barrier per level, a "
                 "changed flag per level; iters vertices (grid-like graph, ~100 "
                 "levels); dist vs host BFS",
                 "Beamer et al., direction-optimizing BFS (bottom-up step); seed 000 "
                 "§5.2 (persistent graph apps)",
                 Expect::Ok, GroupRule::AtBound, 8, 64, 4096}) {}

  Outcome run(Session &s, const Params &p, const Schedule &schedule) const override {
    const size_t G = p.groups;
    const Graph graph = makeGridGraph(std::max(p.iters, 16), p.salt);
    const int V = graph.vertices;
    cl_program prog = s.program({"common.cl", "bfs_sweep.cl"}, "-cl-std=CL2.0");
    Kernel k = s.kernel(prog, "bfs_sweep");
    Buffer row = s.buffer(graph.row);
    Buffer col = s.buffer(graph.col);
    std::vector<int> init(V, -1);
    init[0] = 0;
    Buffer dist = s.buffer(init);
    Buffer changed = s.buffer(std::vector<int>(V + 1, 0));
    Buffer arrived = s.buffer(std::vector<int>{0});
    Buffer levelsRun = s.buffer(std::vector<int>(G, -1));
    setArgs(k, row, col, dist, changed, arrived, (cl_int)V, levelsRun);
    Outcome out;
    if (launched(s, k, p, schedule, out)) {
      const auto want = bfsLevels(graph, 0);
      sameArray(out, s.read<int>(dist, V), want, "dist");
      const int levels = *std::max_element(want.begin(), want.end()) + 1;
      auto runs = s.read<int>(levelsRun, G);
      for (size_t g = 0; g < G; ++g)
        if (runs[g] != levels) {
          markWrong(out, "group " + std::to_string(g) + " swept " + std::to_string(runs[g]) +
                             " levels, not " + std::to_string(levels));
          break;
        }
    }
    conclude(out);
    return out;
  }
};

// ---------------------------------------------------------------------------
// label_prop

// The fixed point of label propagation on a side x side grid (-1: walls): each open
// cell gets its component's smallest index (the first cell of the component met in
// index order, from which a BFS labels the rest). Jacobi sweeps reach a cell at its
// distance from that cell, so the last change happens at sweep D = the largest such
// distance, and they run D + 1 sweeps (the last one changes nothing).
std::vector<int> hostLabels(const std::vector<int> &lab, int side, int &D) {
  const int cells = side * side;
  std::vector<int> want(lab), distance(cells, -1);
  D = 0;
  for (int c0 = 0; c0 < cells; ++c0) {
    if (lab[c0] < 0 || distance[c0] >= 0)
      continue;
    std::queue<int> q;
    distance[c0] = 0;
    q.push(c0);
    while (!q.empty()) {
      const int c = q.front();
      q.pop();
      want[c] = c0;
      D = std::max(D, distance[c]);
      const int x = c % side, y = c / side;
      const int next[4] = {x > 0 ? c - 1 : -1, x + 1 < side ? c + 1 : -1, y > 0 ? c - side : -1,
                           y + 1 < side ? c + side : -1};
      for (int u : next)
        if (u >= 0 && lab[u] >= 0 && distance[u] < 0) {
          distance[u] = distance[c] + 1;
          q.push(u);
        }
    }
  }
  return want;
}

// The grid of label_prop and label_inplace: 30% walls, open cells labelled by index.
std::vector<int> gridLabels(unsigned salt, int side) {
  std::vector<int> lab(side * side);
  for (int c = 0; c < side * side; ++c)
    lab[c] = hostHash(salt * 3266489917u + (unsigned)c) % 10 < 3 ? -1 : c;
  return lab;
}

// label_prop (Jacobi: double-buffered, exactly D + 1 sweeps) and label_inplace (in
// place, atomic reads: at most D + 1 sweeps, every group the same number).
class LabelPropagation : public Program {
public:
  explicit LabelPropagation(bool inPlace)
      : Program(inPlace ? ProgramInfo{"label_inplace",
                                      "label_prop computed in place: atomic loads of every "
                                      "label, a label lowered by its owner only when a "
                                      "neighbour's is smaller, the flag raised then (late "
                                      "sweeps only read); iters x iters grid, G = bound groups "
                                      "(8 unbounded); labels vs host, every group the same "
                                      "sweep count, at most the Jacobi count",
                                      "persistent-thread label propagation (chaotic "
                                      "relaxation); seed 003 §5 (atomic counter barrier)",
                                      Expect::Ok, GroupRule::AtBound, 8, 64, 256}
                        : ProgramInfo{"label_prop",
                                      "Jacobi label propagation (connected components) on an "
                                      "iters x iters grid with 30% walls, G = bound groups (8 "
                                      "unbounded), sweeps between sense-reversing counter "
                                      "barriers until the atomic convergence flag stays clear; "
                                      "labels and sweep count vs host",
                                      "persistent-thread stencil / label propagation; seed 003 "
                                      "§5 (atomic counter barrier)",
                                      Expect::Ok, GroupRule::AtBound, 8, 64, 256}),
        inPlace_(inPlace) {}

  Outcome run(Session &s, const Params &p, const Schedule &schedule) const override {
    const size_t G = p.groups;
    const int side = std::max(p.iters, 2), cells = side * side;
    const std::vector<int> lab = gridLabels(p.salt, side);
    cl_program prog = s.program({"common.cl", "label_prop.cl"}, "-cl-std=CL2.0");
    Kernel k = s.kernel(prog, inPlace_ ? "label_inplace" : "label_prop");
    Buffer bar = s.buffer(std::vector<int>{0, 0});
    Buffer flag = s.buffer(std::vector<int>{0, 0, 0});
    Buffer lab0 = s.buffer(lab);
    Buffer lab1 = s.buffer(lab);
    Buffer sweepsRun = s.buffer(std::vector<int>(G, -1));
    if (inPlace_)
      setArgs(k, bar, flag, lab0, (cl_int)side, sweepsRun);
    else
      setArgs(k, bar, flag, lab0, lab1, (cl_int)side, sweepsRun);
    Outcome out;
    if (launched(s, k, p, schedule, out)) {
      int D = 0;
      const std::vector<int> want = hostLabels(lab, side, D);
      if (sameArray(out, s.read<int>(lab0, cells), want, "lab0") && !inPlace_)
        sameArray(out, s.read<int>(lab1, cells), want, "lab1");
      auto runs = s.read<int>(sweepsRun, G);
      for (size_t g = 0; g < G; ++g)
        if (inPlace_ ? runs[g] != runs[0] || runs[g] < 1 || runs[g] > D + 1 : runs[g] != D + 1) {
          markWrong(out, "group " + std::to_string(g) + " ran " + std::to_string(runs[g]) +
                             " sweeps (group 0: " + std::to_string(runs[0]) +
                             ", Jacobi: " + std::to_string(D + 1) + ")");
          break;
        }
    }
    conclude(out);
    return out;
  }

private:
  bool inPlace_;
};

// ---------------------------------------------------------------------------
// ring_queue

constexpr int kRingSlots = 1024;

class RingQueue : public Program {
public:
  RingQueue()
      : Program({"ring_queue",
                 "work queue in a ring of 1024 slots with per-slot state flags, G = "
                 "bound groups (8 unbounded) each producing K=iters items and "
                 "consuming any: scan for an EMPTY / READY flag, claim by CAS; every "
                 "item consumed exactly once, payloads checked",
                 "bounded MPMC ring buffers of GPU task queues (per-slot flags "
                 "instead of head/tail)",
                 Expect::Ok, GroupRule::AtBound, 8, 64, 256}) {}

  Outcome run(Session &s, const Params &p, const Schedule &schedule) const override {
    const size_t G = p.groups;
    const int K = p.iters, total = (int)G * K;
    cl_program prog = s.program({"common.cl", "ring_queue.cl"}, "-cl-std=CL2.0");
    Kernel k = s.kernel(prog, "ring_queue");
    Buffer state = s.buffer(std::vector<int>(kRingSlots, 0));
    Buffer item = s.buffer(std::vector<int>(kRingSlots, -1));
    Buffer payload = s.buffer(std::vector<unsigned>(kRingSlots, 0));
    Buffer consumed = s.buffer(std::vector<int>{0});
    Buffer seen = s.buffer(std::vector<int>(std::max(total, 1), 0));
    Buffer stats = s.buffer(std::vector<int>(2 * G, -1));
    setArgs(k, state, item, payload, consumed, seen, (cl_int)kRingSlots, (cl_int)K, stats);
    Outcome out;
    if (launched(s, k, p, schedule, out)) {
      sameArray(out, s.read<int>(seen, total), std::vector<int>(total, 1), "times consumed: item");
      if (int c = s.read<int>(consumed, 1)[0]; c != total)
        markWrong(out, "consumed " + std::to_string(c) + " items, not " + std::to_string(total));
      auto st = s.read<int>(stats, 2 * G);
      int sum = 0;
      for (size_t g = 0; g < G; ++g) {
        sum += st[2 * g];
        if (st[2 * g + 1] != 0)
          markWrong(out, "group " + std::to_string(g) + " took " + std::to_string(st[2 * g + 1]) +
                             " items with a wrong payload");
      }
      if (sum != total)
        markWrong(out, "groups count " + std::to_string(sum) + " items taken, not " +
                           std::to_string(total));
      sameArray(out, s.read<int>(state, kRingSlots), std::vector<int>(kRingSlots, 0),
                "final slot state");
    }
    conclude(out);
    return out;
  }
};

// ---------------------------------------------------------------------------
// status_poll

constexpr int kStatusRounds = 4;

class StatusPoll : public Program {
public:
  StatusPoll()
      : Program({"status_poll",
                 "G = bound groups (8 unbounded), 4 rounds: publish own chunks "
                 "(status word each), then every group scans all iters status words "
                 "until all reached the round, then sums everybody's data; sums and "
                 "data vs host",
                 "flag-array / status-word polling of persistent kernels (seed 003 "
                 "§5, XF master polling every flag)",
                 Expect::Ok, GroupRule::AtBound, 8, 64, 4096}) {}

  Outcome run(Session &s, const Params &p, const Schedule &schedule) const override {
    const size_t G = p.groups;
    const int NC = std::max(p.iters, 1), R = kStatusRounds;
    cl_program prog = s.program({"common.cl", "status_poll.cl"}, "-cl-std=CL2.0");
    Kernel k = s.kernel(prog, "status_poll");
    Buffer status = s.buffer(std::vector<int>(NC, 0));
    Buffer data = s.buffer(std::vector<int>(2 * NC, 0));
    Buffer sums = s.buffer(std::vector<int>(G * R, -1));
    setArgs(k, status, data, (cl_int)NC, (cl_int)R, sums);
    Outcome out;
    if (launched(s, k, p, schedule, out)) {
      // The same rounds on the host (status_value is the kernel's).
      std::vector<int> d(2 * NC, 0), roundSum(R);
      for (int r = 0; r < R; ++r) {
        int *cur = d.data() + (r & 1) * NC;
        const int *prev = d.data() + ((r + 1) & 1) * NC;
        unsigned sum = 0;
        for (int c = 0; c < NC; ++c) {
          int v = (int)(hostHash((unsigned)(r * 1000003 + c)) & 0xffff);
          if (r > 0)
            v += prev[(7 * c + 1) % NC];
          cur[c] = v;
          sum += (unsigned)v;
        }
        roundSum[r] = (int)sum;
      }
      auto got = s.read<int>(sums, G * R);
      for (size_t g = 0; g < G && out.status == Outcome::Status::Ok; ++g)
        for (int r = 0; r < R; ++r)
          if (got[g * R + r] != roundSum[r]) {
            markWrong(out, "group " + std::to_string(g) + " summed round " + std::to_string(r) +
                               " as " + std::to_string(got[g * R + r]) + ", host says " +
                               std::to_string(roundSum[r]));
            break;
          }
      sameArray(out, s.read<int>(data, 2 * NC), d, "data");
      sameArray(out, s.read<int>(status, NC), std::vector<int>(NC, R), "status");
    }
    conclude(out);
    return out;
  }
};

} // namespace

void addReadMostlyPrograms(ProgramList &list) {
  list.push_back(std::make_unique<ScanLookback>());
  list.push_back(std::make_unique<BfsSweep>());
  list.push_back(std::make_unique<LabelPropagation>(false));
  list.push_back(std::make_unique<LabelPropagation>(true));
  list.push_back(std::make_unique<RingQueue>());
  list.push_back(std::make_unique<StatusPoll>());
}

} // namespace corpus

// fibercl_apps: the evaluation applications of "Cooperative Kernels" (seed 001, §5.1
// Table 1) in three forms each, run through the OpenCL ICD loader and checked against
// references computed here on the host. README.md beside this file describes them.
//
//   fibercl_apps <app|all> <plain|prim|coop|all> [--groups G] [--local L]
//                [--repeat R] [--time] [--timeout S] [--kernels DIR] [--source]
//
// One line per (app, form): "<app> <form> ok <ms>" (median kernel time of the R
// runs, every run verified) or "<app> <form> FAIL <why>". Exit status 1 if any
// failed. --time adds the spread of the runs and the slowdown of the prim and coop
// forms over the plain one (seed 001 Table 2 measures coop over plain). --source
// prints the composed kernel sources with line numbers (as deadlock reports cite them).
//
// Forms: plain = persistent threads with a hand-written barrier or mutex over all
// launched groups; prim = <fibercl/primitives.h> (discovery, XF barrier, library
// mutexes); coop = <fibercl/cooperative.h> (resizing barriers / request_fork +
// offer_kill). Kernels are kernels/<app>_<form>.cl; `#include "file"` lines are
// inlined from the same directory here (angle-bracket includes are left to the
// OpenCL compiler, which serves the <fibercl/...> headers itself).
//
// Environment: FIBERCL_APPS_BUILD_OPTIONS replaces the build options (default
// "-cl-std=CL2.0"), e.g. to add -I for the <fibercl/...> headers on another OpenCL.

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>
#if __has_include(<CL/cl_fibercl.h>)
#include <CL/cl_fibercl.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <queue>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <unistd.h>
#include <vector>

#ifndef FIBERCL_PRIMITIVES_CTX_BYTES
// <CL/cl_fibercl.h> without the primitives' context size: take more than enough (the
// context only has to be at least that big).
#define FIBERCL_PRIMITIVES_CTX_BYTES (64 * 1024)
#endif

#ifndef FIBERCL_APPS_KERNEL_DIR
// Default: kernels/ beside this source file.
static std::string default_kernel_dir() {
  std::string f = __FILE__;
  size_t slash = f.find_last_of('/');
  return (slash == std::string::npos ? std::string(".") : f.substr(0, slash)) + "/kernels";
}
#define FIBERCL_APPS_KERNEL_DIR default_kernel_dir()
#endif

namespace {

// ---- Small utilities ------------------------------------------------------------------

std::string format(const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void fail(const std::string &why) { throw Failure(why); }

const char *cl_error_name(cl_int e) {
  switch (e) {
  case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
  case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
  case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
  case CL_INVALID_KERNEL_NAME: return "CL_INVALID_KERNEL_NAME";
  case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
  case CL_INVALID_ARG_SIZE: return "CL_INVALID_ARG_SIZE";
  case CL_INVALID_ARG_INDEX: return "CL_INVALID_ARG_INDEX";
  case CL_INVALID_ARG_VALUE: return "CL_INVALID_ARG_VALUE";
  case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
  case CL_INVALID_WORK_DIMENSION: return "CL_INVALID_WORK_DIMENSION";
  case CL_INVALID_BUILD_OPTIONS: return "CL_INVALID_BUILD_OPTIONS";
  case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
  case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
  case CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST:
    return "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST";
  case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
  case -1001: return "CL_PLATFORM_NOT_FOUND_KHR (no ICD found)";
  default: return "CL error";
  }
}

void check(cl_int e, const char *what) {
  if (e != CL_SUCCESS)
    fail(format("%s: %s (%d)", what, cl_error_name(e), e));
}

// splitmix64: the runner's only source of randomness; inputs are fixed by the seeds.
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed) {}
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint32_t u32() { return uint32_t(next() >> 32); }
  uint32_t below(uint32_t n) { return uint32_t((next() >> 32) * uint64_t(n) >> 32); }
  double unit() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }
};

// ---- OpenCL ----------------------------------------------------------------------------

struct Cl {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  std::string platform_name;

  void open() {
    cl_uint n = 0;
    check(clGetPlatformIDs(0, nullptr, &n), "clGetPlatformIDs");
    if (n == 0)
      fail("no OpenCL platform");
    std::vector<cl_platform_id> ps(n);
    check(clGetPlatformIDs(n, ps.data(), nullptr), "clGetPlatformIDs");
    platform = ps[0];
    char name[256] = {};
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name - 1, name, nullptr);
    platform_name = name;
    check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr), "clGetDeviceIDs");
    cl_int e;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &e);
    check(e, "clCreateContext");
    queue = clCreateCommandQueueWithProperties(context, device, nullptr, &e);
    check(e, "clCreateCommandQueueWithProperties");
  }

  cl_mem alloc(size_t bytes) {
    cl_int e;
    cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE, std::max<size_t>(bytes, 4), nullptr, &e);
    check(e, "clCreateBuffer");
    return m;
  }
  void write(cl_mem m, const void *data, size_t bytes) {
    check(clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, bytes, data, 0, nullptr, nullptr),
          "clEnqueueWriteBuffer");
  }
  template <class T> void write(cl_mem m, const std::vector<T> &v) {
    write(m, v.data(), v.size() * sizeof(T));
  }
  void zero(cl_mem m, size_t bytes) {
    const cl_uint z = 0;
    check(clEnqueueFillBuffer(queue, m, &z, sizeof z, 0, bytes, 0, nullptr, nullptr),
          "clEnqueueFillBuffer");
    check(clFinish(queue), "clFinish");
  }
  template <class T> std::vector<T> read(cl_mem m, size_t count) {
    std::vector<T> v(count);
    check(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, count * sizeof(T), v.data(), 0, nullptr,
                              nullptr),
          "clEnqueueReadBuffer");
    return v;
  }
  template <class T> T read1(cl_mem m, size_t index = 0) {
    T v;
    check(clEnqueueReadBuffer(queue, m, CL_TRUE, index * sizeof(T), sizeof(T), &v, 0, nullptr,
                              nullptr),
          "clEnqueueReadBuffer");
    return v;
  }
};

// Kernel argument setter: arguments in order.
struct Args {
  cl_kernel k;
  cl_uint i;
  Args &mem(cl_mem m) {
    check(clSetKernelArg(k, i++, sizeof m, &m), "clSetKernelArg");
    return *this;
  }
  Args &i32(cl_int v) {
    check(clSetKernelArg(k, i++, sizeof v, &v), "clSetKernelArg");
    return *this;
  }
  Args &u32(cl_uint v) {
    check(clSetKernelArg(k, i++, sizeof v, &v), "clSetKernelArg");
    return *this;
  }
};

// Reads kernels/<name>, inlining `#include "file"` lines (once each) from the same
// directory. `#include <...>` stays for the OpenCL compiler.
std::string load_source(const std::string &dir, const std::string &name,
                        std::set<std::string> &seen) {
  if (!seen.insert(name).second)
    return "";
  std::ifstream in(dir + "/" + name);
  if (!in)
    fail("cannot read " + dir + "/" + name);
  std::string out, line;
  while (std::getline(in, line)) {
    const size_t h = line.find_first_not_of(" \t");
    if (h != std::string::npos && line.compare(h, 8, "#include") == 0) {
      const size_t q1 = line.find('"');
      const size_t q2 = q1 == std::string::npos ? q1 : line.find('"', q1 + 1);
      if (q2 != std::string::npos) {
        out += "// ---- " + line.substr(q1 + 1, q2 - q1 - 1) + "\n";
        out += load_source(dir, line.substr(q1 + 1, q2 - q1 - 1), seen);
        out += "// ---- end of " + line.substr(q1 + 1, q2 - q1 - 1) + "\n";
        continue;
      }
    }
    out += line + "\n";
  }
  return out;
}

// ---- Graphs ----------------------------------------------------------------------------

struct Edge {
  int u, v, w;
};

// Compressed sparse rows: the out-edges of v are col[row[v] .. row[v + 1]).
struct Graph {
  int n = 0;
  std::vector<int> row, col, w;
  int edges() const { return int(col.size()); }
  int degree(int v) const { return row[v + 1] - row[v]; }
};

// Drops self loops and parallel edges (keeping the lightest), sorts by (u, v).
Graph to_csr(int n, std::vector<Edge> es) {
  std::sort(es.begin(), es.end(), [](const Edge &a, const Edge &b) {
    return std::tie(a.u, a.v, a.w) < std::tie(b.u, b.v, b.w);
  });
  Graph g;
  g.n = n;
  g.row.assign(n + 1, 0);
  for (size_t i = 0; i < es.size(); ++i) {
    const Edge &e = es[i];
    if (e.u == e.v || (i > 0 && es[i - 1].u == e.u && es[i - 1].v == e.v))
      continue;
    g.col.push_back(e.v);
    g.w.push_back(e.w);
    g.row[e.u + 1]++;
  }
  for (int v = 0; v < n; ++v)
    g.row[v + 1] += g.row[v];
  return g;
}

Graph reverse(const Graph &g) {
  std::vector<Edge> es;
  for (int u = 0; u < g.n; ++u)
    for (int e = g.row[u]; e < g.row[u + 1]; ++e)
      es.push_back({g.col[e], u, g.w[e]});
  return to_csr(g.n, es);
}

// R-MAT (Chakrabarti et al.): 2^scale nodes, edge_factor * 2^scale edges drawn with
// quadrant probabilities (0.57, 0.19, 0.19, 0.05), node ids shuffled so that degree
// does not follow the id. Skewed degrees, small diameter. Weights 1..100.
Graph rmat(int scale, int edge_factor, bool undirected, uint64_t seed) {
  Rng rng(seed);
  const int n = 1 << scale;
  std::vector<int> perm(n);
  for (int i = 0; i < n; ++i)
    perm[i] = i;
  for (int i = n - 1; i > 0; --i)
    std::swap(perm[i], perm[rng.below(uint32_t(i + 1))]);
  std::vector<Edge> es;
  for (long k = 0; k < long(n) * edge_factor; ++k) {
    int u = 0, v = 0;
    for (int b = 0; b < scale; ++b) {
      const double r = rng.unit();
      const int du = r >= 0.76 ? 1 : 0;                  // c + d: lower half
      const int dv = (r >= 0.57 && r < 0.76) || r >= 0.95 ? 1 : 0; // b or d: right half
      u = u << 1 | du;
      v = v << 1 | dv;
    }
    const int w = 1 + int(rng.below(100));
    es.push_back({perm[u], perm[v], w});
    if (undirected)
      es.push_back({perm[v], perm[u], w});
  }
  return to_csr(n, es);
}

// A road-like graph: a side x side grid, each street with a random weight per
// direction (1..100), plus a few random longer roads. Large diameter: many
// Bellman-Ford rounds, so many barriers.
Graph grid_roads(int side, uint64_t seed) {
  Rng rng(seed);
  const int n = side * side;
  std::vector<Edge> es;
  for (int r = 0; r < side; ++r)
    for (int c = 0; c < side; ++c) {
      const int v = r * side + c;
      if (c + 1 < side) {
        es.push_back({v, v + 1, 1 + int(rng.below(100))});
        es.push_back({v + 1, v, 1 + int(rng.below(100))});
      }
      if (r + 1 < side) {
        es.push_back({v, v + side, 1 + int(rng.below(100))});
        es.push_back({v + side, v, 1 + int(rng.below(100))});
      }
    }
  for (int k = 0; k < side; ++k) {
    const int u = int(rng.below(n)), v = int(rng.below(n));
    es.push_back({u, v, 200 + int(rng.below(800))});
  }
  return to_csr(n, es);
}

std::vector<cl_uint> random_priorities(int n, uint64_t seed) {
  Rng rng(seed);
  std::vector<cl_uint> p(n);
  for (auto &x : p)
    x = rng.u32();
  return p;
}

// ---- Applications ----------------------------------------------------------------------

enum Form { PLAIN, PRIM, COOP };
const char *const kFormNames[] = {"plain", "prim", "coop"};

class App {
public:
  virtual ~App() { release(); }
  virtual const char *name() const = 0;
  // true: work stealing (mutexes); false: level loop with global barriers.
  virtual bool work_stealing() const = 0;
  // Inputs and the host reference; once.
  virtual void prepare() = 0;
  virtual std::string describe() const = 0;
  // Device buffers with the initial state, before every run of `groups` groups.
  virtual void reset(Cl &cl, size_t groups) = 0;
  // The app's arguments, after the form's synchronisation arguments.
  virtual void set_args(Args a, Form f, size_t groups) = 0;
  // "" if the run's result is right, else why not.
  virtual std::string verify(Cl &cl) = 0;

protected:
  cl_mem buf(Cl &cl, const std::string &key, size_t bytes) {
    auto it = bufs_.find(key);
    if (it != bufs_.end() && it->second.second >= bytes)
      return it->second.first;
    if (it != bufs_.end())
      clReleaseMemObject(it->second.first);
    cl_mem m = cl.alloc(bytes);
    bufs_[key] = {m, bytes};
    return m;
  }
  template <class T> cl_mem upload(Cl &cl, const std::string &key, const std::vector<T> &v) {
    cl_mem m = buf(cl, key, v.size() * sizeof(T));
    cl.write(m, v);
    return m;
  }
  cl_mem zeroed(Cl &cl, const std::string &key, size_t bytes) {
    cl_mem m = buf(cl, key, bytes);
    cl.zero(m, bytes);
    return m;
  }
  cl_mem get(const std::string &key) const { return bufs_.at(key).first; }
  void release() {
    for (auto &kv : bufs_)
      clReleaseMemObject(kv.second.first);
    bufs_.clear();
  }

private:
  std::map<std::string, std::pair<cl_mem, size_t>> bufs_;
};

// The level-loop graph apps keep their per-iteration "another iteration?" flags in
// more[0 .. max_iters).
class GraphApp : public App {
public:
  bool work_stealing() const override { return false; }

protected:
  Graph g;
  int max_iters() const { return g.n + 2; }
  std::string graph_text(const char *kind) const {
    int maxdeg = 0;
    for (int v = 0; v < g.n; ++v)
      maxdeg = std::max(maxdeg, g.degree(v));
    return format("%s, %d nodes, %d edges, max degree %d", kind, g.n, g.edges(), maxdeg);
  }
};

// 1. color ---------------------------------------------------------------------------------
class ColorApp : public GraphApp {
  std::vector<cl_uint> prio;
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
    upload(cl, "row", g.row);
    upload(cl, "col", g.col);
    upload(cl, "prio", prio);
    zeroed(cl, "colour", g.n * 4);
    zeroed(cl, "is_max", g.n * 4);
    zeroed(cl, "more", max_iters() * 4);
  }
  void set_args(Args a, Form, size_t) override {
    a.mem(get("row")).mem(get("col")).mem(get("prio")).mem(get("colour")).mem(get("is_max"))
        .mem(get("more")).i32(g.n).i32(max_iters());
  }
  std::string verify(Cl &cl) override {
    auto colour = cl.read<int>(get("colour"), g.n);
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
  std::vector<cl_uint> prio;
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
    upload(cl, "row", g.row);
    upload(cl, "col", g.col);
    upload(cl, "prio", prio);
    zeroed(cl, "in_set", g.n * 4);
    zeroed(cl, "removed", g.n * 4);
    zeroed(cl, "cand", g.n * 4);
    zeroed(cl, "more", max_iters() * 4);
  }
  void set_args(Args a, Form, size_t) override {
    a.mem(get("row")).mem(get("col")).mem(get("prio")).mem(get("in_set")).mem(get("removed"))
        .mem(get("cand")).mem(get("more")).i32(g.n).i32(max_iters());
  }
  std::string verify(Cl &cl) override {
    auto in = cl.read<int>(get("in_set"), g.n);
    auto removed = cl.read<int>(get("removed"), g.n);
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
  Graph rg; // in-edges
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
    return graph_text("grid roads") +
           format(", %d reached from node %d, farthest at %d, %d rounds", ref_reached, src,
                  ref_far, ref_rounds);
  }
  void reset(Cl &cl, size_t) override {
    upload(cl, "rrow", rg.row);
    upload(cl, "rcol", rg.col);
    upload(cl, "rw", rg.w);
    std::vector<int> dist(g.n, kInf);
    dist[src] = 0;
    upload(cl, "dist", dist);
    zeroed(cl, "tmp", g.n * 4);
    zeroed(cl, "more", max_iters() * 4);
  }
  void set_args(Args a, Form, size_t) override {
    a.mem(get("rrow")).mem(get("rcol")).mem(get("rw")).mem(get("dist")).mem(get("tmp"))
        .mem(get("more")).i32(g.n).i32(max_iters());
  }
  std::string verify(Cl &cl) override {
    auto dist = cl.read<int>(get("dist"), g.n);
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
    upload(cl, "row", g.row);
    upload(cl, "col", g.col);
    std::vector<int> levels(g.n, -1);
    levels[src] = 0;
    upload(cl, "levels", levels);
    // bfs_worklist: size, then room for every node. n0 = {src}, n1 empty.
    std::vector<int> wl(g.n + 1, 0);
    wl[0] = 1;
    wl[1] = src;
    upload(cl, "n0", wl);
    zeroed(cl, "n1", (g.n + 1) * 4);
  }
  void set_args(Args a, Form, size_t) override {
    a.mem(get("row")).mem(get("col")).mem(get("levels")).mem(get("n0")).mem(get("n1"));
  }
  std::string verify(Cl &cl) override {
    auto levels = cl.read<int>(get("levels"), g.n);
    for (int v = 0; v < g.n; ++v)
      if (levels[v] != ref[v])
        return format("level of node %d is %d, the host's BFS %d", v, levels[v], ref[v]);
    return "";
  }
};

// Work-stealing queues (ws_common.cl): per queue {head, tail}, then `cap` slots each.
struct WsQueues {
  static void reset(Cl &cl, cl_mem queues, cl_mem slots, size_t groups, int cap, int root) {
    std::vector<cl_uint> ht(2 * groups, 0);
    ht[1] = 1; // queue 0 holds the root task
    cl.write(queues, ht);
    std::vector<int> s(size_t(cap) * groups, -1);
    s[0] = root;
    cl.write(slots, s);
  }
};

// Decodes the work-stealing error word.
std::string ws_error_text(int e) {
  switch (e) {
  case 0: return "";
  case 1: return "node table full";
  case 2: return "queue full";
  default: return format("error %d", e);
  }
}

// 5. octree --------------------------------------------------------------------------------
struct OctreeNode { // octree_node of octree_common.cl
  cl_int start, count, depth, pad;
  cl_float x, y, z, size;
};
static_assert(sizeof(OctreeNode) == 32, "octree_node layout");

class OctreeApp : public App {
  static constexpr int kPoints = 20000, kMaxLeaf = 16, kMaxDepth = 24;
  std::vector<cl_float4> pts;
  // Host octree: every leaf as (depth, x, y, z, count), sorted; node count.
  std::vector<std::tuple<int, float, float, float, int>> ref_leaves;
  int ref_nodes = 0, ref_depth = 0;
  int node_cap = 0;

  void build(std::vector<int> ids, int depth, float x, float y, float z, float size) {
    ++ref_nodes;
    ref_depth = std::max(ref_depth, depth);
    if (int(ids.size()) <= kMaxLeaf || depth >= kMaxDepth) {
      ref_leaves.emplace_back(depth, x, y, z, int(ids.size()));
      return;
    }
    const float half = size * 0.5f;
    std::vector<int> part[8];
    for (int p : ids)
      part[octant(pts[p], x + half, y + half, z + half)].push_back(p);
    ids.clear();
    ids.shrink_to_fit();
    for (int o = 0; o < 8; ++o)
      if (!part[o].empty())
        build(std::move(part[o]), depth + 1, (o & 1) ? x + half : x, (o & 2) ? y + half : y,
              (o & 4) ? z + half : z, half);
  }
  static int octant(const cl_float4 &p, float cx, float cy, float cz) {
    return (p.s[0] >= cx ? 1 : 0) | (p.s[1] >= cy ? 2 : 0) | (p.s[2] >= cz ? 4 : 0);
  }

public:
  const char *name() const override { return "octree"; }
  bool work_stealing() const override { return true; }
  void prepare() override {
    // Half the points uniform in the unit cube, half in 12 tight clusters (deep,
    // unbalanced subtrees). Coordinates are k / 2^24, distinct points only.
    Rng rng(0x0c7);
    std::set<std::tuple<uint32_t, uint32_t, uint32_t>> seen;
    struct C { double x, y, z, r; };
    std::vector<C> clusters;
    for (int c = 0; c < 12; ++c)
      clusters.push_back({rng.unit(), rng.unit(), rng.unit(), 0.002 + 0.03 * rng.unit()});
    while (int(pts.size()) < kPoints) {
      double c[3];
      if (rng.below(2) == 0) {
        for (double &v : c)
          v = rng.unit();
      } else {
        const C &k = clusters[rng.below(uint32_t(clusters.size()))];
        const double ctr[3] = {k.x, k.y, k.z};
        for (int i = 0; i < 3; ++i) // a sum of uniforms: roughly normal around the centre
          c[i] = ctr[i] + k.r * (rng.unit() + rng.unit() + rng.unit() - 1.5);
      }
      uint32_t q[3];
      bool inside = true;
      for (int i = 0; i < 3; ++i) {
        inside = inside && c[i] >= 0 && c[i] < 1;
        q[i] = uint32_t(std::max(0.0, std::min(c[i], 0.999999)) * 16777216.0);
      }
      if (!inside || !seen.insert({q[0], q[1], q[2]}).second)
        continue;
      cl_float4 p;
      for (int i = 0; i < 3; ++i)
        p.s[i] = float(q[i]) / 16777216.0f;
      p.s[3] = 0;
      pts.push_back(p);
    }
    std::vector<int> all(kPoints);
    for (int i = 0; i < kPoints; ++i)
      all[i] = i;
    build(std::move(all), 0, 0, 0, 0, 1);
    std::sort(ref_leaves.begin(), ref_leaves.end());
    node_cap = 2 * ref_nodes + 64; // room to see a wrong node count, not just overflow
  }
  std::string describe() const override {
    return format("%d points (half clustered), leaves of <= %d points: %d nodes, %d leaves, "
                  "depth %d",
                  kPoints, kMaxLeaf, ref_nodes, int(ref_leaves.size()), ref_depth);
  }
  void reset(Cl &cl, size_t groups) override {
    upload(cl, "pts", pts);
    std::vector<int> idx(kPoints);
    for (int i = 0; i < kPoints; ++i)
      idx[i] = i;
    upload(cl, "idx", idx);
    zeroed(cl, "tmp", kPoints * 4);
    std::vector<OctreeNode> nodes(node_cap, OctreeNode{0, 0, 0, 0, 0, 0, 0, 0});
    nodes[0] = OctreeNode{0, kPoints, 0, 0, 0, 0, 0, 1.0f};
    upload(cl, "nodes", nodes);
    upload(cl, "node_count", std::vector<int>{1});
    zeroed(cl, "leaves", node_cap * 4);
    zeroed(cl, "leaf_count", 4);
    upload(cl, "pending", std::vector<int>{1});
    zeroed(cl, "error", 4);
    WsQueues::reset(cl, buf(cl, "queues", groups * 8), buf(cl, "slots", groups * size_t(node_cap) * 4),
                    groups, node_cap, 0);
  }
  void set_args(Args a, Form f, size_t groups) override {
    a.mem(get("queues")).mem(get("slots")).u32(cl_uint(node_cap)).mem(get("pending"))
        .mem(get("error")).mem(get("pts")).mem(get("idx")).mem(get("tmp")).mem(get("nodes"))
        .mem(get("node_count")).i32(node_cap).mem(get("leaves")).mem(get("leaf_count"))
        .i32(kMaxLeaf);
    if (f == COOP)
      a.i32(cl_int(groups));
  }
  std::string verify(Cl &cl) override {
    const int err = cl.read1<int>(get("error"));
    if (err)
      return ws_error_text(err);
    const int pending = cl.read1<int>(get("pending"));
    if (pending != 0)
      return format("%d tasks still pending at exit", pending);
    const int count = cl.read1<int>(get("node_count"));
    const int nleaves = cl.read1<int>(get("leaf_count"));
    if (count != ref_nodes)
      return format("%d nodes, the host's octree has %d", count, ref_nodes);
    if (nleaves != int(ref_leaves.size()))
      return format("%d leaves, the host's octree has %d", nleaves, int(ref_leaves.size()));
    auto nodes = cl.read<OctreeNode>(get("nodes"), count);
    auto leaves = cl.read<int>(get("leaves"), nleaves);
    auto idx = cl.read<int>(get("idx"), kPoints);
    // idx is a permutation; every position lies in exactly one leaf's range.
    std::vector<int> seen(kPoints, 0), owner(kPoints, -1);
    for (int i = 0; i < kPoints; ++i) {
      if (idx[i] < 0 || idx[i] >= kPoints || seen[idx[i]]++)
        return format("idx[%d] = %d: not a permutation of the points", i, idx[i]);
    }
    std::vector<std::tuple<int, float, float, float, int>> got;
    for (int l : leaves) {
      if (l < 0 || l >= count)
        return format("leaf id %d out of range", l);
      const OctreeNode &nd = nodes[l];
      if (nd.count > kMaxLeaf && nd.depth < kMaxDepth)
        return format("leaf %d holds %d points (> %d)", l, nd.count, kMaxLeaf);
      if (nd.start < 0 || nd.count < 0 || nd.start + nd.count > kPoints)
        return format("leaf %d range [%d, +%d) out of bounds", l, nd.start, nd.count);
      for (int i = nd.start; i < nd.start + nd.count; ++i) {
        if (owner[i] >= 0)
          return format("point %d is in leaves %d and %d", idx[i], owner[i], l);
        owner[i] = l;
        const cl_float4 &p = pts[idx[i]];
        const float lo[3] = {nd.x, nd.y, nd.z};
        for (int c = 0; c < 3; ++c)
          if (!(p.s[c] >= lo[c] && p.s[c] < lo[c] + nd.size))
            return format("point %d lies outside its leaf %d", idx[i], l);
      }
      got.emplace_back(nd.depth, nd.x, nd.y, nd.z, nd.count);
    }
    for (int i = 0; i < kPoints; ++i)
      if (owner[i] < 0)
        return format("point %d is in no leaf", idx[i]);
    std::sort(got.begin(), got.end());
    if (got != ref_leaves)
      return "the leaves differ from the host's octree";
    return "";
  }
};

// 6. game ----------------------------------------------------------------------------------
struct GameNode { // game_node of game_common.cl
  cl_int parent;
  cl_uint xb, ob;
  cl_int depth, pending, value;
};
static_assert(sizeof(GameNode) == 24, "game_node layout");

class GameApp : public App {
  static constexpr int kSplit = 5; // nodes above this depth fork, nodes at it are searched
  std::vector<signed char> memo;   // minimax value per (xb << 9 | ob), 9 = not yet
  int ref_nodes = 0, ref_searched = 0, node_cap = 0;

  static bool line(uint32_t b) {
    static const uint32_t lines[8] = {0x007, 0x038, 0x1c0, 0x049, 0x092, 0x124, 0x111, 0x054};
    for (uint32_t l : lines)
      if ((b & l) == l)
        return true;
    return false;
  }
  static bool x_moves(uint32_t xb, uint32_t ob) {
    return __builtin_popcount(xb) == __builtin_popcount(ob);
  }
  static int final_value(uint32_t xb, uint32_t ob) { // 2 = not finished
    return line(xb) ? 1 : line(ob) ? -1 : (xb | ob) == 0x1ff ? 0 : 2;
  }
  int value(uint32_t xb, uint32_t ob) {
    signed char &m = memo[xb << 9 | ob];
    if (m != 9)
      return m;
    int v = final_value(xb, ob);
    if (v == 2) {
      const bool xm = x_moves(xb, ob);
      v = xm ? -2 : 2;
      for (int c = 0; c < 9; ++c)
        if (!((xb | ob) >> c & 1)) {
          const int cv = xm ? value(xb | 1u << c, ob) : value(xb, ob | 1u << c);
          v = xm ? std::max(v, cv) : std::min(v, cv);
        }
    }
    return m = static_cast<signed char>(v);
  }
  // Nodes of the task tree below (and including) this position.
  void count(uint32_t xb, uint32_t ob, int depth) {
    ++ref_nodes;
    if (final_value(xb, ob) != 2)
      return;
    if (depth >= kSplit) {
      ++ref_searched;
      return;
    }
    for (int c = 0; c < 9; ++c)
      if (!((xb | ob) >> c & 1))
        x_moves(xb, ob) ? count(xb | 1u << c, ob, depth + 1) : count(xb, ob | 1u << c, depth + 1);
  }

public:
  const char *name() const override { return "game"; }
  bool work_stealing() const override { return true; }
  void prepare() override {
    memo.assign(1 << 18, 9);
    value(0, 0);
    count(0, 0, 0);
    node_cap = 2 * ref_nodes + 64;
  }
  std::string describe() const override {
    return format("noughts and crosses from the empty board: %d task nodes (fork above "
                  "depth %d, %d searched subtrees), value %d",
                  ref_nodes, kSplit, ref_searched, int(memo[0]));
  }
  void reset(Cl &cl, size_t groups) override {
    std::vector<GameNode> nodes(node_cap, GameNode{0, 0, 0, 0, 0, 0});
    nodes[0] = GameNode{-1, 0, 0, 0, 0, -2}; // the root: X to move, folds with max
    upload(cl, "nodes", nodes);
    upload(cl, "node_count", std::vector<int>{1});
    upload(cl, "pending", std::vector<int>{1});
    zeroed(cl, "error", 4);
    WsQueues::reset(cl, buf(cl, "queues", groups * 8), buf(cl, "slots", groups * size_t(node_cap) * 4),
                    groups, node_cap, 0);
  }
  void set_args(Args a, Form f, size_t groups) override {
    a.mem(get("queues")).mem(get("slots")).u32(cl_uint(node_cap)).mem(get("pending"))
        .mem(get("error")).mem(get("nodes")).mem(get("node_count")).i32(node_cap).i32(kSplit);
    if (f == COOP)
      a.i32(cl_int(groups));
  }
  std::string verify(Cl &cl) override {
    const int err = cl.read1<int>(get("error"));
    if (err)
      return ws_error_text(err);
    const int pending = cl.read1<int>(get("pending"));
    if (pending != 0)
      return format("%d tasks still pending at exit", pending);
    const int count = cl.read1<int>(get("node_count"));
    if (count != ref_nodes)
      return format("%d task nodes, the host's tree has %d", count, ref_nodes);
    auto nodes = cl.read<GameNode>(get("nodes"), count);
    std::set<std::tuple<int, uint32_t, uint32_t>> unique;
    for (int i = 0; i < count; ++i) {
      const GameNode &n = nodes[i];
      if (i > 0) { // a child is its parent's position plus one stone of the mover
        if (n.parent < 0 || n.parent >= count)
          return format("node %d has parent %d", i, n.parent);
        const GameNode &p = nodes[n.parent];
        const bool xm = x_moves(p.xb, p.ob);
        const uint32_t added = xm ? n.xb ^ p.xb : n.ob ^ p.ob;
        if ((xm ? n.ob != p.ob : n.xb != p.xb) || __builtin_popcount(added) != 1 ||
            (added & (p.xb | p.ob)) || n.depth != p.depth + 1)
          return format("node %d is not a move from its parent %d", i, n.parent);
        if (!unique.insert({n.parent, n.xb, n.ob}).second)
          return format("node %d repeats a move of node %d", i, n.parent);
      }
      if (n.pending != 0)
        return format("node %d still waits for %d children", i, n.pending);
      const int want = value(n.xb, n.ob);
      if (n.value != want)
        return format("node %d (depth %d) has value %d, minimax %d", i, n.depth, n.value, want);
    }
    return "";
  }
};

std::unique_ptr<App> make_app(const std::string &name) {
  if (name == "color") return std::make_unique<ColorApp>();
  if (name == "mis") return std::make_unique<MisApp>();
  if (name == "sssp") return std::make_unique<SsspApp>();
  if (name == "bfs") return std::make_unique<BfsApp>();
  if (name == "octree") return std::make_unique<OctreeApp>();
  if (name == "game") return std::make_unique<GameApp>();
  return nullptr;
}
const char *const kAppNames[] = {"color", "mis", "sssp", "bfs", "octree", "game"};

// ---- Watchdog --------------------------------------------------------------------------
// A blocking algorithm that hangs (an all-groups barrier on an implementation that
// does not run all groups at once) never returns from the wait: report and exit.

std::atomic<long long> g_deadline_ms{0}; // 0 = disarmed
std::string g_running;                   // "<app> <form>" being run

long long now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void start_watchdog(int timeout_s) {
  std::thread([timeout_s] {
    for (;;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      const long long d = g_deadline_ms.load();
      if (d != 0 && now_ms() > d) {
        std::printf("%s FAIL hang: no completion after %d s\n", g_running.c_str(), timeout_s);
        std::fflush(stdout);
        _exit(3);
      }
    }
  }).detach();
}

// ---- Running one (app, form) -------------------------------------------------------------

struct Options {
  size_t groups = 8, local = 64;
  int repeat = 1, timeout = 60;
  bool time = false;
  bool source = false; // print the composed kernel sources instead of running
  std::string kernel_dir;
};

struct Result {
  bool ok = false;
  std::vector<double> ms;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2]
                                      : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

Result run(Cl &cl, App &app, Form form, const Options &opt) {
  Result res;
  const std::string kname = std::string(app.name()) + "_" + kFormNames[form];
  std::set<std::string> seen;
  const std::string src = load_source(opt.kernel_dir, kname + ".cl", seen);
  const char *text = src.c_str();
  cl_int e;
  cl_program prog = clCreateProgramWithSource(cl.context, 1, &text, nullptr, &e);
  check(e, "clCreateProgramWithSource");
  const char *env_opts = std::getenv("FIBERCL_APPS_BUILD_OPTIONS");
  const std::string opts = env_opts ? env_opts : "-cl-std=CL2.0";
  e = clBuildProgram(prog, 1, &cl.device, opts.c_str(), nullptr, nullptr);
  if (e != CL_SUCCESS) {
    size_t n = 0;
    clGetProgramBuildInfo(prog, cl.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
    std::string log(n, '\0');
    clGetProgramBuildInfo(prog, cl.device, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
    clReleaseProgram(prog);
    std::fprintf(stderr, "---- build log of %s.cl (%s)\n%s\n", kname.c_str(), opts.c_str(),
                 log.c_str());
    // The first error line says enough on the result line.
    std::string first;
    std::istringstream ls(log);
    for (std::string l; std::getline(ls, l);)
      if (l.find("error") != std::string::npos) {
        first = l;
        break;
      }
    fail(format("build: %s%s%s", cl_error_name(e), first.empty() ? "" : ": ", first.c_str()));
  }
  cl_kernel k = clCreateKernel(prog, kname.c_str(), &e);
  if (e != CL_SUCCESS) {
    clReleaseProgram(prog);
    check(e, ("clCreateKernel " + kname).c_str());
  }
  struct Cleanup {
    cl_program p;
    cl_kernel k;
    std::vector<cl_mem> mems;
    ~Cleanup() {
      for (cl_mem m : mems)
        clReleaseMemObject(m);
      clReleaseKernel(k);
      clReleaseProgram(p);
    }
  } cleanup{prog, k, {}};

  // The form's synchronisation state (first arguments): the plain barrier's counter
  // and generation, the primitives' context (zeroed once: discovery leaves it ready
  // for the next launch), the queues' mutexes (16 bytes each is enough for any).
  cl_mem bar = cl.alloc(8), ctx = cl.alloc(FIBERCL_PRIMITIVES_CTX_BYTES);
  cl_mem locks = cl.alloc(16 * opt.groups);
  cleanup.mems = {bar, ctx, locks};
  cl.zero(ctx, FIBERCL_PRIMITIVES_CTX_BYTES);

  const size_t global = opt.groups * opt.local, local = opt.local;
  for (int r = 0; r < opt.repeat; ++r) {
    app.reset(cl, opt.groups);
    cl.zero(bar, 8);
    cl.zero(locks, 16 * opt.groups);
    Args a{k, 0};
    if (!app.work_stealing()) {
      if (form == PLAIN)
        a.mem(bar);
      if (form == PRIM)
        a.mem(ctx);
    } else {
      if (form == PRIM)
        a.mem(ctx);
      a.mem(locks);
    }
    app.set_args(a, form, opt.groups);
    check(clFinish(cl.queue), "clFinish");

    g_deadline_ms = now_ms() + 1000LL * opt.timeout;
    const auto t0 = std::chrono::steady_clock::now();
    cl_event ev = nullptr;
    check(clEnqueueNDRangeKernel(cl.queue, k, 1, nullptr, &global, &local, 0, nullptr, &ev),
          "clEnqueueNDRangeKernel");
    const cl_int waited = clWaitForEvents(1, &ev);
    const auto t1 = std::chrono::steady_clock::now();
    g_deadline_ms = 0;
    cl_int status = CL_COMPLETE;
    clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
    clReleaseEvent(ev);
    if (status < 0 || waited != CL_SUCCESS) {
      const cl_int code = status < 0 ? status : waited;
      fail(format("%s: kernel failed: %s (%d)",
                  code == CL_OUT_OF_RESOURCES ? "deadlock reported" : "launch", cl_error_name(code),
                  code));
    }
    res.ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    const std::string why = app.verify(cl);
    if (!why.empty())
      fail(r == 0 ? why : format("run %d of %d: %s", r + 1, opt.repeat, why.c_str()));
  }
  res.ok = true;
  return res;
}

void usage() {
  std::fprintf(stderr,
               "usage: fibercl_apps <app|all> <plain|prim|coop|all> [--groups G] [--local L]\n"
               "                    [--repeat R] [--time] [--timeout S] [--kernels DIR] [--source]\n"
               "apps: color mis sssp bfs octree game\n");
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    usage();
    return 2;
  }
  Options opt;
  opt.kernel_dir = FIBERCL_APPS_KERNEL_DIR;
  std::vector<std::string> apps, forms;
  const std::string a1 = argv[1], a2 = argv[2];
  if (a1 == "all")
    apps.assign(std::begin(kAppNames), std::end(kAppNames));
  else
    apps.push_back(a1);
  if (a2 == "all")
    forms.assign(std::begin(kFormNames), std::end(kFormNames));
  else
    forms.push_back(a2);
  for (int i = 3; i < argc; ++i) {
    const std::string s = argv[i];
    auto value = [&]() -> long {
      if (i + 1 >= argc) {
        usage();
        std::exit(2);
      }
      return std::strtol(argv[++i], nullptr, 10);
    };
    if (s == "--groups")
      opt.groups = size_t(std::max(1L, value()));
    else if (s == "--local")
      opt.local = size_t(std::max(1L, value()));
    else if (s == "--repeat")
      opt.repeat = int(std::max(1L, value()));
    else if (s == "--timeout")
      opt.timeout = int(std::max(1L, value()));
    else if (s == "--time")
      opt.time = true;
    else if (s == "--source")
      opt.source = true;
    else if (s == "--kernels" && i + 1 < argc)
      opt.kernel_dir = argv[++i];
    else {
      usage();
      return 2;
    }
  }
  for (const auto &a : apps)
    if (!make_app(a)) {
      std::fprintf(stderr, "unknown app '%s'\n", a.c_str());
      usage();
      return 2;
    }
  for (const auto &f : forms)
    if (f != "plain" && f != "prim" && f != "coop") {
      std::fprintf(stderr, "unknown form '%s'\n", f.c_str());
      usage();
      return 2;
    }

  if (opt.source) {
    // The text the OpenCL compiler sees (deadlock reports name its line numbers).
    for (const auto &aname : apps)
      for (const auto &fname : forms) {
        std::set<std::string> seen;
        const std::string src = load_source(opt.kernel_dir, aname + "_" + fname + ".cl", seen);
        std::istringstream in(src);
        int n = 0;
        std::printf("==== %s_%s.cl\n", aname.c_str(), fname.c_str());
        for (std::string line; std::getline(in, line);)
          std::printf("%5d  %s\n", ++n, line.c_str());
      }
    return 0;
  }

  Cl cl;
  try {
    cl.open();
  } catch (const Failure &f) {
    std::printf("setup FAIL %s\n", f.what());
    return 1;
  }
  start_watchdog(opt.timeout);
  if (opt.time)
    std::printf("# %s, %zu groups x %zu work-items, %d run(s) each\n", cl.platform_name.c_str(),
                opt.groups, opt.local, opt.repeat);

  bool all_ok = true;
  std::map<std::pair<std::string, std::string>, double> medians;
  for (const auto &aname : apps) {
    auto app = make_app(aname);
    app->prepare();
    if (opt.time)
      std::printf("# %s: %s\n", aname.c_str(), app->describe().c_str());
    for (const auto &fname : forms) {
      const Form form = fname == "plain" ? PLAIN : fname == "prim" ? PRIM : COOP;
      g_running = aname + " " + fname;
      try {
        Result r = run(cl, *app, form, opt);
        const double med = median(r.ms);
        medians[{aname, fname}] = med;
        std::printf("%s %s ok %.2f\n", aname.c_str(), fname.c_str(), med);
        if (opt.time)
          std::printf("#   %s %s: median %.3f ms, min %.3f, max %.3f over %zu runs\n",
                      aname.c_str(), fname.c_str(), med,
                      *std::min_element(r.ms.begin(), r.ms.end()),
                      *std::max_element(r.ms.begin(), r.ms.end()), r.ms.size());
      } catch (const Failure &f) {
        all_ok = false;
        std::printf("%s %s FAIL %s\n", aname.c_str(), fname.c_str(), f.what());
      }
      std::fflush(stdout);
    }
  }

  if (opt.time) {
    // Seed 001 Table 2: slowdown of the cooperative form over the original one.
    for (const char *other : {"prim", "coop"}) {
      double log_sum = 0, worst = 0;
      int n = 0;
      std::string worst_app;
      for (const auto &aname : apps) {
        auto p = medians.find({aname, "plain"}), o = medians.find({aname, other});
        if (p == medians.end() || o == medians.end() || p->second <= 0)
          continue;
        const double s = o->second / p->second;
        std::printf("# slowdown %s/plain %s: %.3f\n", other, aname.c_str(), s);
        log_sum += std::log(s);
        ++n;
        if (s > worst) {
          worst = s;
          worst_app = aname;
        }
      }
      if (n > 0)
        std::printf("# slowdown %s/plain: geometric mean %.3f, max %.3f (%s) over %d apps\n",
                    other, std::exp(log_sum / n), worst, worst_app.c_str(), n);
    }
  }
  return all_ok ? 0 : 1;
}

// fibercl_executor_microbench: the executor's own costs (runtime/exec/), driven with
// hand-written work-group functions, so no compiler and no OpenCL API is involved. It
// has no PoCL counterpart: these are the figures behind the launch, barrier and yield
// paths (the side-by-side figures are fibercl_bench's).
//
//   empty launch     runNDRange + helpUntil of an empty 1-group range (1 and 2 workers)
//   barrier          one 256-item group with 100 barriers: per work-item per barrier
//   yield overhead   10^5 groups x 16 atomics, plain launch vs a yielding one
//   group switch     a yield that switches between 2 groups on 1 worker
//   grid barrier     an inter-work-group barrier, 64 groups, 2 workers, fair
//
// Every result is checked; a wrong one aborts. Medians of `reps` runs (default 5).
// Usage: build/bench/fibercl_executor_microbench [reps]
// (These were "tests" in the unit suite that asserted nothing; moved here, issue 14.)
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "runtime/exec/executor.hpp"
#include "runtime/exec/host_abi.hpp"

using fibercl::exec::Executor;
using fibercl::exec::NDRange;
using fibercl::exec::Scheduling;
using Clock = std::chrono::steady_clock;

namespace {

void check(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "fibercl_executor_microbench: wrong result: %s\n", what);
    std::exit(1);
  }
}

double nsSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Runs one range to completion and returns its status; the calling thread helps, or
// (help = false) only the executor's workers run it.
int32_t run(Executor &ex, NDRange r, bool help = true) {
  std::atomic<int32_t> status{1};
  std::atomic<bool> done{false};
  ex.runNDRange(std::move(r), [&](int32_t s) {
    status.store(s);
    done.store(true);
  });
  if (help)
    ex.helpUntil([&] { return done.load(); });
  else
    while (!done.load())
      std::this_thread::sleep_for(std::chrono::microseconds(100));
  return status.load();
}

NDRange range1D(fcl_work_group_fn fn, void **args, uint64_t global, uint64_t local) {
  NDRange r;
  r.entry = fn;
  r.kernelName = "bench_kernel";
  r.workDim = 1;
  r.globalSize[0] = global;
  r.localSize[0] = local;
  r.args = args;
  return r;
}

NDRange yielding(fcl_work_group_fn fn, void **args, uint64_t groups) {
  NDRange r = range1D(fn, args, groups, 1);
  r.mayYield = true;
  r.scheduling = Scheduling{};
  r.describeSite = [](uint32_t site) { return "bench.cl:" + std::to_string(site); };
  return r;
}

// What the compiler emits at a yield point, a spin loop's yield point, and after an
// atomic write that changed memory.
using YieldFn = void (*)(fcl_group_ctx *, fcl_u32);
YieldFn hostYield() {
  static YieldFn f = reinterpret_cast<YieldFn>(fibercl::exec::hostSymbols()[FIBERCL_HOST_YIELD]);
  return f;
}
inline void yieldPoint(fcl_group_ctx *c, uint32_t site) {
  auto *ys = reinterpret_cast<fcl_yield_state *>(c->yield_state);
  if (int64_t(--ys->countdown) <= 0)
    hostYield()(c, site);
}
inline void waitPoint(fcl_group_ctx *c, uint32_t site) {
  // The compiler's back-edge check of an iteration that saw nothing new: a failed await.
  reinterpret_cast<fcl_yield_state *>(c->yield_state)->awaits += 1;
  yieldPoint(c, site | FIBERCL_SITE_WAITING);
}
inline void progress(fcl_group_ctx *c) {
  reinterpret_cast<fcl_yield_state *>(c->yield_state)->progress += 1;
}

void emptyLaunch(int reps) {
  for (unsigned workers : {1u, 2u}) {
    Executor ex(workers);
    std::vector<double> medians;
    for (int rep = 0; rep < reps; ++rep) {
      std::vector<double> ns(10000);
      for (double &t : ns) {
        auto t0 = Clock::now();
        check(run(ex, range1D([](void **, fcl_group_ctx *) {}, nullptr, 1, 1)) == 0,
              "empty launch status");
        t = nsSince(t0);
      }
      medians.push_back(median(ns));
    }
    std::printf("| empty launch (runNDRange + helpUntil), %u worker(s) | %.0f ns |\n", workers,
                median(medians));
  }
}

void barrierCost(int reps) {
  constexpr int kBarriers = 100, kItems = 256;
  auto item = [](void **args, fcl_group_ctx *c, fcl_u32, fcl_u32, fcl_u32) {
    auto *passed = static_cast<std::atomic<int> *>(args[0]);
    for (int i = 0; i < kBarriers; ++i)
      __fibercl_host_barrier(c, 1, 0);
    passed->fetch_add(1, std::memory_order_relaxed);
  };
  static fcl_item_fn itemFn = +item;
  auto group = [](void **args, fcl_group_ctx *c) { __fibercl_host_run_items(c, itemFn, args); };
  Executor ex(1);
  std::atomic<int> passed{0};
  void *args[] = {&passed};
  check(run(ex, range1D(+group, args, kItems * 8, kItems)) == 0, "barrier warm-up"); // stacks
  std::vector<double> ns;
  for (int i = 0; i < 10 * reps; ++i) {
    passed = 0;
    auto t0 = Clock::now();
    check(run(ex, range1D(+group, args, kItems, kItems)) == 0, "barrier status");
    ns.push_back(nsSince(t0) / (kItems * kBarriers));
    check(passed.load() == kItems, "every work-item passed every barrier");
  }
  std::printf("| barrier, one 256-item group, 1 worker | %.2f ns per work-item per barrier |\n",
              median(ns));
}

void yieldOverhead(int reps) {
  constexpr uint64_t kGroups = 100000;
  auto kernel = [](void **a, fcl_group_ctx *c) {
    auto *cells = static_cast<std::atomic<uint64_t> *>(a[0]);
    std::atomic<uint64_t> *sum = &cells[c->group_id[0] * 16]; // its own cache lines
    for (int i = 0; i < 16; ++i) {
      sum->fetch_add(1, std::memory_order_relaxed);
      if (c->yield_state) {
        progress(c);
        yieldPoint(c, 80);
      }
    }
  };
  Executor ex(2);
  std::vector<std::atomic<uint64_t>> cells(kGroups * 16);
  double perGroup[2];
  const uint64_t stacks0 = ex.stacksCreated(), switches0 = ex.groupSwitches();
  for (bool mayYield : {false, true}) {
    std::vector<double> ns;
    for (int rep = 0; rep < reps; ++rep) {
      for (auto &cell : cells)
        cell.store(0, std::memory_order_relaxed);
      void *args[] = {cells.data()};
      NDRange r = yielding(+kernel, args, kGroups);
      r.mayYield = mayYield;
      auto t0 = Clock::now();
      check(run(ex, r) == 0, "atomic kernel status");
      ns.push_back(nsSince(t0) / kGroups);
      uint64_t sum = 0;
      for (auto &cell : cells)
        sum += cell.load();
      check(sum == kGroups * 16, "every atomic counted");
    }
    perGroup[mayYield] = median(ns);
  }
  // What the yielding runs cost in fiber stacks and group switches explains the ratio.
  const double runs = double(reps) * kGroups;
  std::printf("| 10^5 groups x 16 atomics, 2 workers: plain / yielding launch | %.1f / %.1f ns "
              "per group (x%.2f; yielding: %.2f group switches and %.3f stacks created per "
              "group) |\n",
              perGroup[0], perGroup[1], perGroup[1] / perGroup[0],
              double(ex.groupSwitches() - switches0) / runs,
              double(ex.stacksCreated() - stacks0) / runs);
}

void groupSwitch(int reps) {
  auto switcher = [](void **args, fcl_group_ctx *c) {
    uint64_t n = *static_cast<uint64_t *>(args[0]);
    for (uint64_t i = 0; i < n; ++i)
      hostYield()(c, 50); // every call is a decision point
  };
  Executor ex(1);
  uint64_t n = 200000;
  void *args[] = {&n};
  std::vector<double> ns;
  for (int rep = 0; rep < reps; ++rep) {
    auto t0 = Clock::now();
    check(run(ex, yielding(+switcher, args, 2), /*help=*/false) == 0, "switcher status");
    ns.push_back(nsSince(t0) / double(2 * n));
  }
  std::printf("| yield that switches groups, 2 groups, 1 worker | %.1f ns |\n", median(ns));
}

void gridBarrier(int reps) {
  struct Bar {
    std::atomic<uint64_t> count{0}, gen{0};
    uint64_t rounds = 2000;
  };
  auto kernel = [](void **a, fcl_group_ctx *c) {
    auto &b = *static_cast<Bar *>(a[0]);
    for (uint64_t r = 0; r < b.rounds; ++r) {
      uint64_t g = b.gen.load();
      if (b.count.fetch_add(1) + 1 == c->num_groups[0]) {
        b.count.store(0);
        b.gen.store(g + 1);
        progress(c);
      } else {
        progress(c);
        while (b.gen.load() == g)
          waitPoint(c, 60);
      }
    }
  };
  Executor ex(2);
  std::vector<double> perSecond;
  for (int rep = 0; rep < reps; ++rep) {
    Bar bar;
    void *args[] = {&bar};
    auto t0 = Clock::now();
    check(run(ex, yielding(+kernel, args, 64), /*help=*/false) == 0, "grid barrier status");
    perSecond.push_back(double(bar.rounds) / (nsSince(t0) * 1e-9));
    check(bar.gen.load() == bar.rounds, "every barrier round completed");
  }
  std::printf("| inter-work-group barrier, 64 groups, 2 workers, fair | %.0f barriers/s |\n",
              median(perSecond));
}

} // namespace

int main(int argc, char **argv) {
  int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  std::printf("| executor measurement (median of %d) | value |\n|---|---|\n", reps);
  emptyLaunch(reps);
  barrierCost(reps);
  yieldOverhead(reps);
  groupSwitch(reps);
  gridBarrier(reps);
  return 0;
}

// Discovery recall table (see recall.hpp).
#include "recall.hpp"

#include "tally.hpp"

#include <cstdio>

namespace corpus {

int recallMain(const Options &o) {
  const Program *prog = findProgram("discovery_xf");
  std::vector<cl_uint> bounds = o.bounds;
  if (bounds.empty())
    bounds = {1, 2, 4, 8, 16, 32, 64};
  bounds.push_back(0); // and unbounded
  std::vector<std::string> locks = o.locks;
  if (locks.empty())
    locks = {"ticket", "spin"};
  const bool seeded = o.seedsSet || o.parallel == 0;
  const uint64_t first = o.seedsSet ? o.seedFirst : 1, last = o.seedsSet ? o.seedLast : 10;

  Session s(findKernelDir(o.kernels));
  std::printf("| bound | lock | mode | runs | mean found | min | max | recall %% | "
              "deadlock reports | wrong |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  bool clean = true;
  for (cl_uint bound : bounds) {
    for (const std::string &lock : locks) {
      Options po = o;
      po.lock = lock;
      po.iters = o.iters >= 0 ? o.iters : 1; // one XF round validates the result
      Params p = resolveParams(*prog, po, bound);
      const cl_uint limit = bound && bound < p.groups ? bound : p.groups;
      for (int m = 0; m < 2; ++m) {
        const bool seededMode = m == 0;
        if ((seededMode && !seeded) || (!seededMode && o.parallel <= 0))
          continue;
        Tally t;
        const uint64_t a = seededMode ? first : 1;
        const uint64_t b = seededMode ? last : (uint64_t)o.parallel;
        for (uint64_t n = a; n <= b; ++n) {
          Schedule sch;
          sch.setOccupancy = true;
          sch.occupancy = bound;
          sch.seeded = seededMode;
          sch.seed = n;
          sch.quiet = o.quiet;
          p.salt = (cl_uint)n;
          t.add(prog->run(s, p, sch), "run", Expect::Ok);
        }
        clean &= t.ok() == t.runs();
        const std::string boundText =
            bound ? std::to_string(bound) : "unbounded (" + std::to_string(p.groups) + " launched)";
        std::printf("| %s | %s | %s | %d | %.2f | %d | %d | %.1f | %d | %d |\n", boundText.c_str(),
                    lock.c_str(),
                    seededMode ? ("seeds " + std::to_string(a) + ".." + std::to_string(b)).c_str()
                               : "parallel",
                    t.runs(), t.meanFound(), t.minFound(), t.maxFound(),
                    100.0 * t.meanFound() / limit, t.deadlocks(), t.wrong() + t.failed());
        std::fflush(stdout);
      }
    }
  }
  return clean ? 0 : 1;
}

} // namespace corpus

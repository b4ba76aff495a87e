// schedule_corpus: a corpus of OpenCL programs whose work-groups synchronise with
// each other (discovery, inter-group barriers, mutexes, semaphores, litmus tests,
// handshakes, delay loops) and of buggy ones, run under FiberCL's scheduling
// controls (cl_fibercl_scheduling) and checked. See `schedule_corpus help` and
// README.md in this directory.
#include "cli.hpp"
#include "recall.hpp"
#include "tally.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace corpus {
namespace {

int listPrograms() {
  for (auto &p : allPrograms()) {
    const ProgramInfo &i = p->info();
    std::printf("%-22s expect %-8s %s\n", i.name, expectName(i.expect), i.what);
    std::printf("%-22s %-15s from: %s\n", "", "", i.paper);
  }
  return 0;
}

std::string reproduce(const ProgramInfo &info, const Options &o, const Params &p,
                      const std::string &mode) {
  std::string cmd = std::string("schedule_corpus run ") + info.name;
  if (o.occupancySet)
    cmd += " --occupancy " + std::to_string(o.occupancy);
  cmd += " " + mode + " --groups " + std::to_string(p.groups);
  if (!p.lock.empty())
    cmd += " --lock " + p.lock;
  if (o.iters >= 0)
    cmd += " --iters " + std::to_string(o.iters);
  if (o.unfair)
    cmd += " --unfair";
  return cmd;
}

void printResult(const ProgramInfo &info, const Params &p, const Schedule &base,
                 const std::string &mode, const Tally &t, Expect expect, double minMet, bool pass) {
  std::printf("RESULT program=%s", info.name);
  if (!p.lock.empty())
    std::printf(" lock=%s", p.lock.c_str());
  std::printf(" occupancy=%s policy=%s mode=%s groups=%u runs=%d ok=%d wrong=%d "
              "deadlock=%d failed=%d",
              boundName(p.bound).c_str(), base.unfair ? "unfair" : "fair", mode.c_str(), p.groups,
              t.runs(), t.ok(), t.wrong(), t.deadlocks(), t.failed());
  if (info.reportsFound && !t.found().empty()) {
    const cl_uint limit = p.bound && p.bound < p.groups ? p.bound : p.groups;
    std::printf(" found=%d/%d/%d recall=%.1f%%", t.minFound(), t.medianFound(), t.maxFound(),
                100.0 * t.meanFound() / limit);
  }
  if (info.reportsMet)
    std::printf(" met=%ld/%ld(%.1f%%)", t.met(), t.iterations(), t.metPercent());
  std::printf(" expect=%s", expectName(expect));
  if (minMet >= 0)
    std::printf(" min-met=%.0f%%", minMet);
  std::printf(" verdict=%s\n", pass ? "PASS" : "FAIL");
}

// Runs one mode (seeded over a range, or parallel repetitions); true if it passed.
bool runMode(Session &s, const Program &prog, const Options &o, Params p, Schedule base,
             bool seeded, Expect expect) {
  const ProgramInfo &info = prog.info();
  const uint64_t first = seeded ? o.seedFirst : 1;
  const uint64_t last = seeded ? o.seedLast : (uint64_t)o.parallel;
  const std::string mode = seeded ? "seeds:" + std::to_string(first) + ".." + std::to_string(last)
                                  : "parallel:" + std::to_string(o.parallel);
  Tally t;
  uint64_t firstBadSeed = 0;
  for (uint64_t n = first; n <= last; ++n) {
    Schedule sch = base;
    sch.seeded = seeded;
    sch.seed = n;
    p.salt = (cl_uint)n;
    const std::string label = (seeded ? "seed " : "parallel run ") + std::to_string(n);
    const auto start = std::chrono::steady_clock::now();
    Outcome out = prog.run(s, p, sch);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const bool wasUnexpected = t.firstUnexpected().empty();
    t.add(out, label, expect);
    if (seeded && wasUnexpected && !t.firstUnexpected().empty())
      firstBadSeed = n;
    if (!o.quiet) {
      std::printf("  %s: %s", label.c_str(), statusName(out.status));
      if (!out.detail.empty() && out.status != Outcome::Status::Ok)
        std::printf(" (%s)", out.detail.c_str());
      if (out.found >= 0)
        std::printf(" found=%d", out.found);
      if (info.reportsMet)
        std::printf(" met=%d/%d", out.met, out.iterations);
      std::printf(" (%.1f ms)\n", ms);
    }
  }
  const double minMet = o.minMet;
  const bool pass = t.pass(expect, minMet);
  printResult(info, p, base, mode, t, expect, minMet, pass);
  if (!pass && !t.firstUnexpected().empty()) {
    std::printf("  first unexpected run, %s", t.firstUnexpected().c_str());
    if (seeded && firstBadSeed)
      std::printf("  reproduce: %s\n", reproduce(info, o, p,
                                                 "--seeds " + std::to_string(firstBadSeed) + ".." +
                                                     std::to_string(firstBadSeed))
                                           .c_str());
  }
  std::fflush(stdout);
  return pass;
}

int runProgram(const Options &o) {
  const Program *prog = findProgram(o.program);
  if (!prog)
    throw std::invalid_argument("unknown program " + o.program + " (schedule_corpus list)");
  const ProgramInfo &info = prog->info();
  const cl_uint bound = o.occupancySet ? o.occupancy : environmentBound();
  const Params p = resolveParams(*prog, o, bound);
  Schedule base;
  base.setOccupancy = o.occupancySet;
  base.occupancy = o.occupancy;
  base.unfair = o.unfair || info.unfair;
  base.setPolicy = base.unfair;
  base.quiet = o.quiet;
  const Expect expect = o.expectSet ? o.expect : info.expect;

  Session s(findKernelDir(o.kernels));
  bool pass = true;
  if (o.seedsSet)
    pass &= runMode(s, *prog, o, p, base, true, expect);
  if (o.parallel > 0 || !o.seedsSet) {
    Options one = o;
    if (one.parallel <= 0)
      one.parallel = 1;
    pass &= runMode(s, *prog, one, p, base, false, expect);
  }
  return pass ? 0 : 1;
}

// One launch scheduled by the environment alone; prints only what does not
// depend on the schedule (unless --verbose), so `fibercl explore` flags a seed
// exactly when the program's result differs.
int runOnce(const Options &o) {
  const Program *prog = findProgram(o.program);
  if (!prog)
    throw std::invalid_argument("unknown program " + o.program);
  Params p = resolveParams(*prog, o, environmentBound());
  if (const char *seed = std::getenv("FIBERCL_SEED"); seed && *seed)
    p.salt = (cl_uint)std::strtoull(seed, nullptr, 10); // same run as `run --seeds`
  Schedule sch;                                         // nothing set: the environment decides
  if (prog->info().unfair && !std::getenv("FIBERCL_SCHEDULE")) {
    sch.setPolicy = true;
    sch.unfair = true;
  }
  Session s(findKernelDir(o.kernels));
  Outcome out = prog->run(s, p, sch);
  std::printf("%s\n", out.result.empty() ? statusName(out.status) : out.result.c_str());
  if (o.verbose) {
    if (out.found >= 0)
      std::printf("found %d participating groups\n", out.found);
    if (prog->info().reportsMet)
      std::printf("met %d of %d\n", out.met, out.iterations);
  }
  switch (out.status) {
  case Outcome::Status::Ok:
    return 0;
  case Outcome::Status::Wrong:
    return 1;
  case Outcome::Status::Deadlock:
    return 3;
  case Outcome::Status::Failed:
    return 4;
  }
  return 4;
}

} // namespace
} // namespace corpus

int main(int argc, char **argv) {
  using namespace corpus;
  try {
    Options o = parseOptions(argc, argv);
    if (o.command == "help" || o.command == "--help") {
      printUsage();
      return 0;
    }
    if (o.command == "list")
      return listPrograms();
    if (o.command == "run")
      return runProgram(o);
    if (o.command == "once")
      return runOnce(o);
    return recallMain(o);
  } catch (const std::invalid_argument &e) {
    std::fprintf(stderr, "schedule_corpus: %s\n\n", e.what());
    printUsage();
    return 2;
  } catch (const SetupError &e) {
    std::fprintf(stderr, "schedule_corpus: %s\n", e.what());
    return 2;
  }
}

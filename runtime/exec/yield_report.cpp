// Deadlock reports of yielding launches (stderr, JSON at FIBERCL_REPORT).
#include <cstdio>
#include <string>

#include "runtime/exec/coop_launch.hpp"
#include "runtime/exec/job.hpp"
#include "runtime/exec/json_report.hpp"
#include "runtime/exec/report.hpp"
#include "runtime/exec/yield_launch.hpp"

namespace fibercl::exec {
namespace {

std::string stateOf(YieldShared &sh, uint64_t g) {
  GroupInfo &i = sh.info[g];
  switch (GroupPhase(i.phase.load())) {
  case GroupPhase::Waiting:
    return sh.coop ? "not active" : "waiting for admission";
  case GroupPhase::Admitted:
    return "occupant, not started (its worker is held)";
  case GroupPhase::Running:
    return "running";
  case GroupPhase::Finished:
    return "finished";
  case GroupPhase::Abandoned:
    return "abandoned";
  case GroupPhase::Spinning:
    break;
  }
  uint32_t site = i.site.load();
  std::string where;
  if (sh.job.range.describeSite)
    where = sh.job.range.describeSite(site);
  if (where.empty())
    where = "yield site " + std::to_string(site);
  return std::string(i.atBarrier.load() ? "at barrier, " : "") + "spinning at " + where;
}

} // namespace

void reportDeadlock(YieldShared &sh) noexcept {
  try {
    const Scheduling &S = sh.S;
    const std::string env = reproduceEnvironment(S);
    Report out;
    out << "deadlock in ";
    out.kernel(sh.job.range.kernelName) << "\n";
    out << "  policy " << sh.policy->name() << ", occupancy bound ";
    if (S.occupancy)
      out << S.occupancy;
    else
      out << "unbounded";
    out << (sh.occupancyFromStacks ? " (the fiber stacks that fit, vm.max_map_count)" : "") << ", ";
    if (S.deterministic)
      out << "seed " << S.seed;
    else
      out << "parallel (no seed)";
    out << "\n";
    if (sh.coop) // a global barrier waits for every active group, finished ones too
      out << "  cooperative kernel: " << sh.coop->view.active << " of " << sh.total
          << " groups active; a global or resizing barrier completes only when every "
             "active group reaches it\n";
    std::string groups = "[";
    // Runs of consecutive groups in the same state are printed as ranges.
    uint64_t n = sh.total;
    for (uint64_t a = 0; a < n;) {
      std::string st = stateOf(sh, a);
      uint64_t b = a + 1;
      while (b < n && stateOf(sh, b) == st)
        ++b;
      out << "  work-group" << (b - a > 1 ? "s " : " ") << a;
      if (b - a > 1)
        out << "-" << b - 1;
      out << ": " << st << "\n";
      groups += std::string(a ? "," : "") + "{\"first\":" + std::to_string(a) +
                ",\"last\":" + std::to_string(b - 1) + ",\"state\":\"" + jsonEscape(st) + "\"}";
      a = b;
    }
    out.reproduce(S);
    groups += "]";
    out.emit();
    if (!S.reportPath.empty()) {
      JsonReport json("deadlock");
      json.field("kernel", sh.job.range.kernelName).field("policy", sh.policy->name());
      json.number("occupancy", S.occupancy).flag("deterministic", S.deterministic);
      json.number("seed", int64_t(S.seed)).json("groups", groups).field("environment", env);
      json.append(S.reportPath);
    }
    sh.trace.event("deadlock", 'i', 0,
                   "\"kernel\":\"" + jsonEscape(sh.job.range.kernelName) + "\"");
  } catch (...) {
    std::fputs("FiberCL: deadlock (report failed)\n", stderr);
  }
}

} // namespace fibercl::exec

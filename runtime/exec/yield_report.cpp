// Deadlock reports (stderr, JSON at FIBERCL_REPORT) and the Chrome trace-event JSON
// (FIBERCL_TRACE) of yielding launches.
#include <cinttypes>
#include <cstdio>
#include <string>

#include "runtime/exec/coop_launch.hpp"
#include "runtime/exec/job.hpp"
#include "runtime/exec/trace_log.hpp"
#include "runtime/exec/yield_launch.hpp"

namespace fibercl::exec {
namespace {

std::string jsonEscape(const std::string &s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') {
      o += '\\';
      o += c;
    } else if (uint8_t(c) < 0x20) {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", c);
      o += b;
    } else {
      o += c;
    }
  }
  return o;
}

std::string stateOf(YieldShared &sh, uint64_t g) {
  GroupInfo &i = sh.info[g];
  switch (GroupPhase(i.phase.load())) {
  case GroupPhase::Waiting:
    return sh.coop ? "not active" : "waiting for admission";
  case GroupPhase::Admitted: return "occupant, not started (its worker is held)";
  case GroupPhase::Running: return "running";
  case GroupPhase::Finished: return "finished";
  case GroupPhase::Abandoned: return "abandoned";
  case GroupPhase::Spinning: break;
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
    std::string env = std::string("FIBERCL_SCHEDULE=") + Scheduling::nameOf(S.policy) +
                      " FIBERCL_OCCUPANCY=" + std::to_string(S.occupancy);
    if (S.admission != Scheduling::Admission::GroupId)
      env += std::string(" FIBERCL_ADMISSION=") + Scheduling::nameOf(S.admission);
    if (S.deterministic) // parallel runs have no seed to give: FIBERCL_SEED selects
      env += " FIBERCL_SEED=" + std::to_string(S.seed); // deterministic mode
    std::string out = "FiberCL: deadlock in kernel '" + sh.job.range.kernelName + "'\n";
    out += "  policy " + std::string(sh.policy->name()) + ", occupancy bound " +
           (S.occupancy ? std::to_string(S.occupancy) : std::string("unbounded")) +
           (sh.occupancyFromStacks ? " (the fiber stacks that fit, vm.max_map_count)" : "") +
           ", " + (S.deterministic ? "seed " + std::to_string(S.seed) : "parallel (no seed)") +
           "\n";
    if (sh.coop) // a global barrier waits for every active group, finished ones too
      out += "  cooperative kernel: " + std::to_string(sh.coop->view.active) + " of " +
             std::to_string(sh.total) + " groups active; a global or resizing barrier " +
             "completes only when every active group reaches it\n";
    std::string json = "{\"kernel\":\"" + jsonEscape(sh.job.range.kernelName) +
                       "\",\"policy\":\"" + sh.policy->name() +
                       "\",\"occupancy\":" + std::to_string(S.occupancy) +
                       ",\"deterministic\":" + (S.deterministic ? "true" : "false") +
                       ",\"seed\":" + std::to_string(S.seed) + ",\"groups\":[";
    // Runs of consecutive groups in the same state are printed as ranges.
    uint64_t n = sh.total;
    for (uint64_t a = 0; a < n;) {
      std::string st = stateOf(sh, a);
      uint64_t b = a + 1;
      while (b < n && stateOf(sh, b) == st)
        ++b;
      out += "  work-group" + std::string(b - a > 1 ? "s " : " ") + std::to_string(a) +
             (b - a > 1 ? "-" + std::to_string(b - 1) : std::string()) + ": " + st + "\n";
      json += std::string(a ? "," : "") + "{\"first\":" + std::to_string(a) +
              ",\"last\":" + std::to_string(b - 1) + ",\"state\":\"" + jsonEscape(st) + "\"}";
      a = b;
    }
    out += "  reproduce with: " + env + "\n";
    json += "],\"environment\":\"" + jsonEscape(env) + "\"}\n";
    std::fputs(out.c_str(), stderr);
    std::fflush(stderr);
    if (!S.reportPath.empty()) {
      if (FILE *f = std::fopen(S.reportPath.c_str(), "w")) {
        std::fputs(json.c_str(), f);
        std::fclose(f);
      }
    }
    sh.traceEvent("deadlock", 'i', 0, "\"kernel\":\"" + jsonEscape(sh.job.range.kernelName) + "\"");
  } catch (...) {
    std::fputs("FiberCL: deadlock (report failed)\n", stderr);
  }
}

void writeTrace(YieldShared &sh) noexcept {
  if (sh.S.tracePath.empty() || !sh.traceLog)
    return;
  try {
    std::string pid = std::to_string(sh.tracePid);
    std::string out = "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" + pid +
                      ",\"tid\":0,\"args\":{\"name\":\"kernel " +
                      jsonEscape(sh.job.range.kernelName) + " (launch " + pid + ")\"}}";
    std::lock_guard<std::mutex> lk(sh.traceM);
    for (const TraceEvent &e : sh.trace) {
      out += ",\n{\"name\":\"" + jsonEscape(e.name) + "\",\"ph\":\"" + e.ph +
             "\",\"pid\":" + pid + ",\"tid\":" + std::to_string(e.tid) +
             ",\"ts\":" + std::to_string(e.ts);
      if (e.ph == 'i')
        out += ",\"s\":\"t\"";
      if (!e.args.empty())
        out += ",\"args\":{" + e.args + "}";
      out += "}";
    }
    sh.traceLog->append(sh.S.tracePath, out);
  } catch (...) {
  }
}

} // namespace fibercl::exec

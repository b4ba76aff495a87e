// LaunchTrace (launch_trace.hpp).
#include "runtime/exec/launch_trace.hpp"

#include "runtime/exec/executor.hpp"
#include "runtime/exec/progress_clock.hpp"
#include "runtime/exec/report.hpp"
#include "runtime/exec/trace_log.hpp"

namespace fibercl::exec {

LaunchTrace::LaunchTrace(const Scheduling &S, const ProgressClock &clock)
    : path_(S.tracePath), deterministic_(S.deterministic), clock_(clock) {}

void LaunchTrace::event(const char *name, char ph, unsigned tid, std::string args) noexcept {
  if (!on())
    return;
  try {
    std::lock_guard<std::mutex> lk(m_);
    uint64_t ts = deterministic_ ? logical_.fetch_add(1) : uint64_t(clock_.nowNs() / 1000);
    events_.push_back(Event{name, ph, tid, ts, std::move(args)});
  } catch (...) {
  }
}

void LaunchTrace::write(const std::string &kernelName) noexcept {
  if (!on() || !log_)
    return;
  try {
    std::string pid = std::to_string(pid_);
    std::string out = "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" + pid +
                      ",\"tid\":0,\"args\":{\"name\":\"kernel " + jsonEscape(kernelName) +
                      " (launch " + pid + ")\"}}";
    std::lock_guard<std::mutex> lk(m_);
    for (const Event &e : events_) {
      out += ",\n{\"name\":\"" + jsonEscape(e.name) + "\",\"ph\":\"" + e.ph + "\",\"pid\":" + pid +
             ",\"tid\":" + std::to_string(e.tid) + ",\"ts\":" + std::to_string(e.ts);
      if (e.ph == 'i')
        out += ",\"s\":\"t\"";
      if (!e.args.empty())
        out += ",\"args\":{" + e.args + "}";
      out += "}";
    }
    log_->append(path_, out);
  } catch (...) {
  }
}

} // namespace fibercl::exec

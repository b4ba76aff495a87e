// The trace of one yielding launch (FIBERCL_TRACE): admissions, each run of a group
// between yield points, a deadlock, as Chrome trace events, appended to the
// executor's trace file (TraceLog) when the launch ends. Timestamps are microseconds
// since the launch began, or in deterministic mode a logical clock, so the same seed
// gives the same trace.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace fibercl::exec {

class ProgressClock;
class TraceLog;
struct Scheduling;

class LaunchTrace {
public:
  LaunchTrace(const Scheduling &S, const ProgressClock &clock);

  // Is the launch traced? (Callers skip building event arguments otherwise.)
  bool on() const noexcept { return !path_.empty(); }
  // The executor's trace files, and this launch's process id in its file.
  void attach(TraceLog &log, unsigned pid) noexcept {
    log_ = &log;
    pid_ = pid;
  }
  // `args`: a JSON object body, or "".
  void event(const char *name, char ph, unsigned tid, std::string args = {}) noexcept;
  // Appends the events to the trace file (once, when the launch ends).
  void write(const std::string &kernelName) noexcept;

private:
  struct Event {
    std::string name;
    char ph;
    unsigned tid;
    uint64_t ts;
    std::string args;
  };
  const std::string &path_;
  const bool deterministic_;
  const ProgressClock &clock_;
  TraceLog *log_ = nullptr;
  unsigned pid_ = 0;
  std::atomic<uint64_t> logical_{0};
  std::mutex m_;
  std::vector<Event> events_;
};

} // namespace fibercl::exec

// FIBERCL_DEBUG=time: how long each phase of a build took, one line per build on
// stderr ("fibercl build: frontend 3.1 ms builtins 4.0 ms ..."). A BuildTimer lives for
// one build; the phases mark it through buildPhaseDone() (thread-local, so the
// pipeline's signatures stay as they are). Costs nothing when off.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

#include "fibercl/compiler/debug.hpp"

namespace fibercl::compiler {

class BuildTimer {
public:
  BuildTimer() : enabled_(debugChannel("time")), last_(Clock::now()), outer_(current()) {
    current() = this;
  }
  ~BuildTimer() {
    current() = outer_;
    if (enabled_ && !line_.empty())
      std::fprintf(stderr, "fibercl build:%s\n", line_.c_str());
  }
  BuildTimer(const BuildTimer &) = delete;
  BuildTimer &operator=(const BuildTimer &) = delete;
  static BuildTimer *&current() {
    static thread_local BuildTimer *timer = nullptr;
    return timer;
  }
  // Closes the phase that started at the previous mark (or at construction).
  void mark(const char *phase) {
    lastPhase_ = phase;
    if (!enabled_)
      return;
    auto now = Clock::now();
    char text[64];
    std::snprintf(text, sizeof text, " %s %.1f ms", phase,
                  std::chrono::duration<double, std::milli>(now - last_).count());
    line_ += text;
    last_ = now;
  }

  // The last phase done (what a crash report says the build got through).
  const char *lastPhase() const { return lastPhase_; }

private:
  using Clock = std::chrono::steady_clock;
  const char *lastPhase_ = "start";
  bool enabled_;
  Clock::time_point last_;
  BuildTimer *outer_;
  std::string line_;
};

inline void buildPhaseDone(const char *phase) {
  if (BuildTimer *timer = BuildTimer::current())
    timer->mark(phase);
}

} // namespace fibercl::compiler

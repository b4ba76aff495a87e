// Passing a signal on to the handler that was installed before ours: FiberCL's signal
// handlers (kernel faults in the runtime, crashes inside a build in the compiler) take
// only the signals that are theirs. Header-only, for the compiler and the runtime alike.
#pragma once

#include <csignal>
#include <cstring>

namespace fibercl::compiler {

// Calls `old` for the signal; if it was the default action, restores that and returns,
// so that the faulting instruction (or abort's second raise) ends the process as it
// would have without FiberCL. Async-signal-safe.
inline void chainSignal(const struct sigaction &old, int sig, siginfo_t *info, void *uc) {
  if (old.sa_flags & SA_SIGINFO) {
    if (old.sa_sigaction) {
      old.sa_sigaction(sig, info, uc);
      return;
    }
  } else if (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN) {
    old.sa_handler(sig);
    return;
  }
  struct sigaction dfl;
  std::memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, nullptr);
}

} // namespace fibercl::compiler

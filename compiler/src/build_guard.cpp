// Recovery from crashes inside a build (build_guard.hpp).
#include "build_guard.hpp"

#include "fibercl/compiler/signal_chain.hpp"

#include <llvm/Support/ErrorHandling.h>

#include <csetjmp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sys/mman.h>

namespace fibercl::compiler {
namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
constexpr size_t kAltStackBytes = 256 * 1024;

// The guarded work running on this thread (null: none); initial-exec, so that the
// signal handler reads it without __tls_get_addr.
struct Guard {
  sigjmp_buf back;
  int signal = 0;
  char fatal[512] = {};
};
__attribute__((tls_model("initial-exec"))) thread_local Guard *tlsGuard = nullptr;

struct sigaction previous[sizeof kSignals / sizeof kSignals[0]];

void chain(int sig, siginfo_t *info, void *uc) {
  size_t i = 0;
  while (kSignals[i] != sig)
    ++i;
  chainSignal(previous[i], sig, info, uc);
}

void onSignal(int sig, siginfo_t *info, void *uc) {
  if (Guard *g = tlsGuard) {
    g->signal = sig;
    siglongjmp(g->back, 1); // restores the signal mask saved by sigsetjmp
  }
  chain(sig, info, uc);
}

void onFatalError(void *, const char *reason, bool) {
  if (Guard *g = tlsGuard) {
    std::strncpy(g->fatal, reason ? reason : "", sizeof g->fatal - 1);
    siglongjmp(g->back, 1);
  }
  // Not inside a guarded build: what LLVM does by default.
  std::fprintf(stderr, "LLVM ERROR: %s\n", reason ? reason : "");
  std::abort();
}

void installOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (size_t i = 0; i < sizeof kSignals / sizeof kSignals[0]; ++i) {
      struct sigaction sa;
      std::memset(&sa, 0, sizeof sa);
      sa.sa_sigaction = onSignal;
      sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
      sigemptyset(&sa.sa_mask);
      sigaction(kSignals[i], &sa, &previous[i]);
    }
    llvm::install_fatal_error_handler(onFatalError);
  });
}

const char *signalName(int sig) {
  switch (sig) {
  case SIGSEGV:
    return "SIGSEGV (an invalid memory access, or the compiler's stack overflowed)";
  case SIGBUS:
    return "SIGBUS";
  case SIGFPE:
    return "SIGFPE";
  case SIGILL:
    return "SIGILL";
  case SIGABRT:
    return "SIGABRT (an assertion or abort)";
  default:
    return "a signal";
  }
}

// An alternate signal stack for this thread while it runs guarded work, so that a
// stack overflow can still be handled (none is removed that was there before).
class AltStack {
public:
  AltStack() {
    stack_t old;
    if (sigaltstack(nullptr, &old) == 0 && !(old.ss_flags & SS_DISABLE))
      return; // the thread has one
    memory_ =
        mmap(nullptr, kAltStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory_ == MAP_FAILED) {
      memory_ = nullptr;
      return;
    }
    stack_t s{};
    s.ss_sp = memory_;
    s.ss_size = kAltStackBytes;
    sigaltstack(&s, nullptr);
  }
  ~AltStack() {
    if (!memory_)
      return;
    stack_t s{};
    s.ss_flags = SS_DISABLE;
    sigaltstack(&s, nullptr);
    munmap(memory_, kAltStackBytes);
  }

private:
  void *memory_ = nullptr;
};

} // namespace

bool runGuarded(llvm::function_ref<void()> fn, std::string &what) {
  installOnce();
  AltStack alt;
  Guard guard;
  Guard *outer = tlsGuard;
  if (sigsetjmp(guard.back, /*savesigs=*/1) == 0) {
    tlsGuard = &guard;
    fn();
    tlsGuard = outer;
    return true;
  }
  tlsGuard = outer;
  what = guard.fatal[0] ? std::string("LLVM fatal error: ") + guard.fatal
                        : std::string(signalName(guard.signal));
  return false;
}

// Deep enough to overflow any stack (1 GiB of frames); not a tail call (the array is
// used after it).
[[gnu::noinline]] int recurseDeeply(volatile int depth) {
  volatile char frame[4096];
  frame[0] = char(depth);
  return (depth < (1 << 18) ? recurseDeeply(depth + 1) : 0) + frame[0];
}

void crashForTesting() {
  const char *how = std::getenv("FIBERCL_TEST_CRASH");
  if (!how)
    return;
  if (!std::strcmp(how, "segv")) {
    // A real fault, without undefined behaviour for the sanitizers to stop at: a store
    // to a page mapped without access.
    void *page = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    *static_cast<volatile int *>(page) = 1;
  } else if (!std::strcmp(how, "abort"))
    std::abort();
  else if (!std::strcmp(how, "fatal"))
    llvm::report_fatal_error("FIBERCL_TEST_CRASH=fatal");
  else if (!std::strcmp(how, "overflow"))
    recurseDeeply(0);
}

} // namespace fibercl::compiler

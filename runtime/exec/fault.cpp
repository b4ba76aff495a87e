// Kernel faults: SIGSEGV/SIGBUS/SIGFPE/SIGILL raised while a work-group runs are
// reported on stderr and turned into a failed command (the runner jumps back to its
// recovery point); any other fault goes to the handler that was installed before ours.
// The kernel watchdog's stop signal (kernel_timeout.hpp) leaves a group the same way.
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <mutex>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "fibercl/compiler/signal_chain.hpp"
#include "runtime/exec/kernel_timeout.hpp"
#include "runtime/exec/report.hpp"
#include "runtime/exec/runner.hpp"

namespace fibercl::exec {
namespace {

// initial-exec: the signal handler must read it without __tls_get_addr allocating.
__attribute__((tls_model("initial-exec"))) thread_local Runner *tlsRunner = nullptr;

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};

// The handlers in place before ours. Signal dispositions are process-wide, so this
// is process-wide too (it is not scheduler state).
struct PreviousHandlers {
  struct sigaction old[4];
};
PreviousHandlers &previous() {
  static PreviousHandlers p;
  return p;
}

const char *describe(int sig, int code, bool stackOverflow) {
  if (stackOverflow)
    return "stack overflow";
  switch (sig) {
  case SIGFPE:
    switch (code) {
    case FPE_INTDIV:
      return "integer divide by zero";
    case FPE_INTOVF:
      return "integer overflow";
    case FPE_FLTDIV:
      return "floating-point divide by zero";
    case FPE_FLTOVF:
      return "floating-point overflow";
    case FPE_FLTUND:
      return "floating-point underflow";
    case FPE_FLTRES:
      return "floating-point inexact result";
    case FPE_FLTINV:
      return "invalid floating-point operation";
    default:
      return "arithmetic exception";
    }
  case SIGSEGV:
    switch (code) {
    case SEGV_ACCERR:
      return "invalid memory access (permission denied)";
    case SEGV_MAPERR:
      return "invalid memory access (address not mapped)";
    // The CPU's general-protection fault, which reports no address: on x86-64 most
    // often an aligned vector load or store on a misaligned address.
    case SI_KERNEL:
      return "general protection fault (a misaligned vector access or a "
             "non-canonical address; the CPU reports no address)";
    default:
      return "invalid memory access";
    }
  case SIGBUS:
    return "bus error (misaligned or unbacked memory access)";
  case SIGILL:
    return "illegal instruction";
  default:
    return "fault";
  }
}

const char *signalName(int sig) {
  switch (sig) {
  case SIGSEGV:
    return "SIGSEGV";
  case SIGBUS:
    return "SIGBUS";
  case SIGFPE:
    return "SIGFPE";
  case SIGILL:
    return "SIGILL";
  default:
    return "signal";
  }
}

void chain(int sig, siginfo_t *info, void *uc) {
  int i = 0;
  while (kSignals[i] != sig)
    ++i;
  fibercl::compiler::chainSignal(previous().old[i], sig, info, uc);
}

// Where a thread whose kernel faulted resumes after the signal handler returned.
[[noreturn]] void abandonFaultedGroup(Runner *r) noexcept { abortGroup(*r); }

// Makes the interrupted context resume in abandonFaultedGroup(r). A handler leaves by
// returning -- not by jumping out -- so the kernel restores the signal mask and
// sanitizers see the handler end (TSan would otherwise take every later allocation on
// this thread for one inside a handler). The interrupted stack may be the one that
// overflowed: the call runs on the top of the alternate stack, free again once the
// handler has returned.
void resumeInAbandon(Runner *r, void *ucv) noexcept {
  auto *uc = static_cast<ucontext_t *>(ucv);
  uintptr_t top = r->alt.top() ? reinterpret_cast<uintptr_t>(r->alt.top())
                               : uintptr_t(uc->uc_mcontext.gregs[REG_RSP]) - 4096;
  uintptr_t sp = (top & ~uintptr_t(15)) - 8; // as just after a call instruction
  uc->uc_mcontext.gregs[REG_RSP] = greg_t(sp);
  uc->uc_mcontext.gregs[REG_RIP] = greg_t(reinterpret_cast<uintptr_t>(&abandonFaultedGroup));
  uc->uc_mcontext.gregs[REG_RDI] = greg_t(reinterpret_cast<uintptr_t>(r));
}

void onFault(int sig, siginfo_t *info, void *ucv) {
  Runner *r = tlsRunner;
  if (!r || !r->inKernel) {
    chain(sig, info, ucv);
    return;
  }
  r->inKernel = 0;
  void *addr = info->si_addr;
  bool overflow = false;
  if (sig == SIGSEGV || sig == SIGBUS) {
    overflow = r->stacks.inAnyGuard(addr);
    // A fault just below the stack pointer is an overflow of the runner's own stack.
    auto *uc = static_cast<ucontext_t *>(ucv);
    uintptr_t sp = uintptr_t(uc->uc_mcontext.gregs[REG_RSP]);
    uintptr_t a = uintptr_t(addr);
    if (a < sp + 256 && a + 65536 > sp)
      overflow = true;
  }
  // Only async-signal-safe code here: Report does not allocate.
  Report msg;
  msg.kernel(r->kernelName) << " crashed in ";
  msg.group(r->group.ctx) << ": " << signalName(sig) << " ("
                          << describe(sig, info->si_code, overflow);
  if ((sig == SIGSEGV || sig == SIGBUS) && info->si_code != SI_KERNEL)
    (msg << " at address ").hex(uintptr_t(addr));
  msg << ")\n";
  msg.emit();
  resumeInAbandon(r, ucv);
}

// The kernel watchdog's stop signal (kernel_timeout.hpp).
struct sigaction &previousStop() {
  static struct sigaction old;
  return old;
}

// Is the interrupted thread in JIT-compiled code (in no loaded object)? There, and
// only there, no lock of a host function (FiberCL's, the C library's) can be held.
bool inJitCode(const void *ucv) noexcept {
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 35)
  auto *uc = static_cast<const ucontext_t *>(ucv);
  auto *pc = reinterpret_cast<void *>(uc->uc_mcontext.gregs[REG_RIP]);
  dl_find_object found; // _dl_find_object is async-signal-safe (glibc's manual)
  return _dl_find_object(pc, &found) != 0;
#else
  (void)ucv;
  return false; // cannot tell: running groups are never stopped
#endif
}

void onStop(int sig, siginfo_t *info, void *ucv) {
  Runner *r = tlsRunner;
  uint64_t launch = r ? r->launch.load(std::memory_order_relaxed) : 0;
  if (!launch || r->stopLaunch.load(std::memory_order_relaxed) != launch) {
    const struct sigaction &old = previousStop();
    if (old.sa_flags & SA_SIGINFO) {
      if (old.sa_sigaction)
        old.sa_sigaction(sig, info, ucv);
    } else if (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN) {
      old.sa_handler(sig);
    }
    return;
  }
  // Between groups, in the scheduler, or in a library the kernel called: the watchdog
  // signals again.
  if (!r->inKernel || !inJitCode(ucv))
    return;
  r->inKernel = 0;
  Report msg;
  msg.kernel(r->kernelName) << ": ";
  msg.group(r->group.ctx) << " stopped\n";
  msg.emit();
  resumeInAbandon(r, ucv);
}

} // namespace

int stopSignal() noexcept { return SIGURG; }

void installStopHandler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = &onStop;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(stopSignal(), &sa, &previousStop());
  });
}

Runner *currentRunner() noexcept { return tlsRunner; }

// A loop that can never end (the compiler's EndlessLoopsPass): the group would never
// finish, nor the command. Reported, and the group abandoned like a faulting one.
[[noreturn]] void endlessLoop(const char *where) noexcept {
  Runner *r = tlsRunner;
  Report msg;
  msg.kernel(r ? r->kernelName : "?") << " in ";
  msg.group(r ? r->group.ctx : nullptr) << " entered a loop that can never exit";
  msg.at(where) << ", so the command could never complete: it fails. (A wait for another "
                   "work-group must re-read what that group writes: an atomic or volatile "
                   "load.)\n";
  msg.emit();
  if (!r || !r->inKernel)
    std::abort(); // kernel code runs only under a runner
  abortGroup(*r);
}

void setCurrentRunner(Runner *r) noexcept { tlsRunner = r; }

void installFaultHandlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int i = 0; i < 4; ++i) {
      struct sigaction sa;
      std::memset(&sa, 0, sizeof sa);
      sa.sa_sigaction = &onFault;
      sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
      sigemptyset(&sa.sa_mask);
      sigaction(kSignals[i], &sa, &previous().old[i]);
    }
  });
}

void abortGroup(Runner &r) noexcept {
  r.inKernel = 0;
  // The frames left behind are abandoned: the running fiber ends unless the recovery
  // point is on its own stack.
  sanSwitching(r.san, *r.recoverFiber, /*ending=*/true);
  __builtin_longjmp(reinterpret_cast<void **>(r.recover), 1);
}

AltStack::~AltStack() {
  uninstall();
  if (mem_)
    munmap(mem_, size_);
}

void AltStack::install() noexcept {
  if (installed_)
    return;
  if (!mem_) {
    size_t size = 64 * 1024;
    void *p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
      return;
    mem_ = p;
    size_ = size;
  }
  stack_t ss;
  ss.ss_sp = mem_;
  ss.ss_size = size_;
  ss.ss_flags = 0;
  if (sigaltstack(&ss, &old_) == 0)
    installed_ = true;
}

void AltStack::uninstall() noexcept {
  if (!installed_)
    return;
  // An old stack flagged SS_ONSTACK cannot be re-installed with that flag.
  old_.ss_flags &= ~SS_ONSTACK;
  if (old_.ss_flags & SS_DISABLE) {
    stack_t off;
    std::memset(&off, 0, sizeof off);
    off.ss_flags = SS_DISABLE;
    sigaltstack(&off, nullptr);
  } else {
    sigaltstack(&old_, nullptr);
  }
  installed_ = false;
}

} // namespace fibercl::exec

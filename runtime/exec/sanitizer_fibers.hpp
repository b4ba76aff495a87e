// Telling AddressSanitizer about FiberCL's own stack switches (Boost.Context's
// fcontext: work-item fibers at barriers, group fibers at yield points, the jump back
// to a recovery point when a group is abandoned). Without it ASan takes a switched-to
// stack for a wild one and leaves abandoned frames poisoned. Empty unless FiberCL is
// compiled with -fsanitize=address (scripts/sanitize.sh).
//
// ThreadSanitizer is deliberately NOT told (__tsan_switch_to_fiber): FiberCL's fibers
// never leave the host thread that made them, so the thread's program order is the
// true happens-before and TSan is exact without fibers (only the call stacks in its
// reports mix fibers of one thread). Telling it was tried and failed three ways: a
// TSan fiber is a ThreadState with a 1 MiB trace mapping, so a fiber per work-item
// exhausted the mappings at 4096 work-items (ENOMEM); TSan keeps a destroyed fiber's
// memory, so 10^5 groups took 21 GB (OOM killer); and a pool of reused fibers made
// objects reused across groups look shared between "threads" (false races).
// What not telling it costs: TSan keeps one shadow call stack per thread (the
// function entries and exits the compiler instruments), and a fiber that ends or is
// abandoned without returning leaves its entries there; past 64K entries TSan wrote
// beyond that stack into its own thread state and crashed (apps.game.coop.beside:
// groups killed and forked by the thousand). So scripts/sanitize.sh builds TSan
// without entry/exit instrumentation (--param=tsan-instrument-func-entry-exit=0):
// every access and synchronisation is still checked; a report then names the accesses'
// code, not their callers.
//
// Protocol, on one host thread: sanSwitching(s, to) right before every jump,
// sanSwitched(s) first thing where a jump lands (a fresh fiber's entry, the return of
// the jump call), sanLanded(s) after a recovery point is reached by abortGroup.
#pragma once

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define FIBERCL_ASAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FIBERCL_ASAN_FIBERS 1
#endif
#endif

#if FIBERCL_ASAN_FIBERS
#include <pthread.h>
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace fibercl::exec {

// What ASan knows of one stack FiberCL runs code on (an empty struct in
// normal builds: members holding it are [[no_unique_address]]).
struct SanFiber {
#if FIBERCL_ASAN_FIBERS
  const void *bottom = nullptr; // lowest address of the stack; null until known
  size_t size = 0;
  void *fakeStack = nullptr; // ASan's fake stack while the fiber is suspended
#endif
};

// The stacks one host thread switches between: its own, and which one runs now.
struct SanFibers {
  SanFiber thread;
  SanFiber *running = &thread;
  SanFiber *left = nullptr; // the one the last switch left
};

// A fiber whose stack is [limit, limit + size), before it is first entered.
inline void sanFiberCreated([[maybe_unused]] SanFiber &f, [[maybe_unused]] const void *limit,
                            [[maybe_unused]] size_t size) noexcept {
#if FIBERCL_ASAN_FIBERS
  f.bottom = limit;
  f.size = size;
  f.fakeStack = nullptr;
  // A reused stack may still carry the poison of frames abandoned on it.
  __asan_unpoison_memory_region(limit, size);
#endif
}

#if FIBERCL_ASAN_FIBERS
// The thread's own stack, whose bounds ASan learns only when a switch leaves it.
inline void sanKnowThreadStack(SanFibers &s) noexcept {
  if (s.thread.bottom)
    return;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0)
    return;
  void *addr = nullptr;
  size_t size = 0;
  pthread_attr_getstack(&attr, &addr, &size);
  pthread_attr_destroy(&attr);
  s.thread.bottom = addr;
  s.thread.size = size;
}
#endif

// Right before jumping from the running fiber to `to` (which may be the running one:
// abortGroup from a signal handler back to the same stack). `ending`: the running
// fiber is never resumed (ASan frees its fake stack).
inline void sanSwitching([[maybe_unused]] SanFibers &s, [[maybe_unused]] SanFiber &to,
                         [[maybe_unused]] bool ending = false) noexcept {
#if FIBERCL_ASAN_FIBERS
  SanFiber *from = s.running;
  s.left = from;
  s.running = &to;
  if (&to == &s.thread)
    sanKnowThreadStack(s);
  bool dies = ending && from != &to;
  __sanitizer_start_switch_fiber(dies ? nullptr : &from->fakeStack, to.bottom, to.size);
#endif
}

// First thing on the fiber a jump landed on.
inline void sanSwitched([[maybe_unused]] SanFibers &s) noexcept {
#if FIBERCL_ASAN_FIBERS
  const void *bottom = nullptr;
  size_t size = 0;
  __sanitizer_finish_switch_fiber(s.running->fakeStack, &bottom, &size);
  s.left->bottom = bottom; // ASan's own view: how the thread's stack is learnt
  s.left->size = size;
#endif
}

// After abortGroup jumped back to a recovery point on the running fiber: the frames
// abandoned below this one leave their poison on the stack; clear it.
[[gnu::noinline]] inline void sanLanded([[maybe_unused]] SanFibers &s) noexcept {
#if FIBERCL_ASAN_FIBERS
  sanSwitched(s);
  const char *bottom = static_cast<const char *>(s.running->bottom);
  const char *here = static_cast<const char *>(__builtin_frame_address(0));
  if (bottom && here > bottom) // (this frame's own redzones may go too: harmless)
    __asan_unpoison_memory_region(bottom, size_t(here - bottom));
#else
  (void)s;
#endif
}

} // namespace fibercl::exec

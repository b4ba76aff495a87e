// Telling AddressSanitizer and ThreadSanitizer about FiberCL's own stack switches
// (Boost.Context's fcontext: work-item fibers at barriers, group fibers at yield
// points, the jump back to a recovery point when a group is abandoned). Without it
// ASan takes a switched-to stack for a wild one and TSan mixes the fibers' call stacks
// and happens-before. Everything here is empty unless FiberCL is compiled with
// -fsanitize=address or -fsanitize=thread (scripts/sanitize.sh).
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
#if defined(__SANITIZE_THREAD__)
#define FIBERCL_TSAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define FIBERCL_TSAN_FIBERS 1
#endif
#endif

#if FIBERCL_ASAN_FIBERS
#include <pthread.h>
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#if FIBERCL_TSAN_FIBERS
#include <sanitizer/tsan_interface.h>
#endif

namespace fibercl::exec {

// What the sanitizers know of one stack FiberCL runs code on (an empty struct in
// normal builds: members holding it are [[no_unique_address]]).
struct SanFiber {
#if FIBERCL_ASAN_FIBERS
  const void *bottom = nullptr; // lowest address of the stack; null until known
  size_t size = 0;
  void *fakeStack = nullptr; // ASan's fake stack while the fiber is suspended
#endif
#if FIBERCL_TSAN_FIBERS
  void *tsan = nullptr;
  SanFiber *tsanAs = nullptr; // runs as that fiber for TSan (see sanFiberCreated)
#endif
};

// The stacks one host thread switches between: its own, and which one runs now.
struct SanFibers {
  SanFiber thread;
  SanFiber *running = &thread;
  SanFiber *left = nullptr; // the one the last switch left
#if FIBERCL_TSAN_FIBERS
  unsigned tsanFibers = 0; // created for this thread's fibers, reused, destroyed at the end
  void *tsanFree[64] = {}; // ... of which not in use
  unsigned tsanFreeCount = 0;
  SanFibers() = default;
  SanFibers(const SanFibers &) = delete;
  ~SanFibers() {
    while (tsanFreeCount)
      __tsan_destroy_fiber(tsanFree[--tsanFreeCount]);
  }
#endif
};

// TSan fibers of their own a host thread's groups may have. Each is a ThreadState with
// a 1 MiB trace mapping, and TSan keeps a destroyed one's memory: hundreds of resident
// groups, or a fiber per work-item (4096 in a group), exhausted the process's mappings
// (ENOMEM), and 10^5 groups created and destroyed one each took 21 GB. So a thread
// makes at most this many and reuses them; beyond, a fiber is one with its thread for
// TSan -- sound, since FiberCL's fibers never leave the thread that made them; only
// the call stacks in reports mix.
constexpr unsigned kMaxTsanFibersPerThread = 64;

// A fiber whose stack is [limit, limit + size), before it is first entered.
// `tsanAs`: the fiber it is one with for TSan (work-items share their group's: they
// run in program order on one thread); else it gets a TSan fiber of its own while
// the thread has fewer than kMaxTsanFibersPerThread.
inline void sanFiberCreated([[maybe_unused]] SanFibers &s, [[maybe_unused]] SanFiber &f,
                            [[maybe_unused]] const void *limit, [[maybe_unused]] size_t size,
                            [[maybe_unused]] SanFiber *tsanAs = nullptr) noexcept {
#if FIBERCL_ASAN_FIBERS
  f.bottom = limit;
  f.size = size;
  f.fakeStack = nullptr;
  // A reused stack may still carry the poison of frames abandoned on it.
  __asan_unpoison_memory_region(limit, size);
#endif
#if FIBERCL_TSAN_FIBERS
  f.tsan = nullptr;
  if (!tsanAs && s.tsanFreeCount)
    f.tsan = s.tsanFree[--s.tsanFreeCount];
  else if (!tsanAs && s.tsanFibers < kMaxTsanFibersPerThread && ++s.tsanFibers)
    f.tsan = __tsan_create_fiber(0);
  else if (!tsanAs)
    tsanAs = &s.thread;
  f.tsanAs = tsanAs && tsanAs->tsanAs ? tsanAs->tsanAs : tsanAs;
#endif
}

// A fiber that will not run again (and is not running).
inline void sanFiberDestroyed([[maybe_unused]] SanFibers &s,
                              [[maybe_unused]] SanFiber &f) noexcept {
#if FIBERCL_TSAN_FIBERS
  if (f.tsan)
    s.tsanFree[s.tsanFreeCount++] = f.tsan; // kept for the next fiber of this thread
  f.tsan = nullptr;
  f.tsanAs = nullptr;
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
#if FIBERCL_ASAN_FIBERS || FIBERCL_TSAN_FIBERS
  SanFiber *from = s.running;
  s.left = from;
  s.running = &to;
#endif
#if FIBERCL_ASAN_FIBERS
  if (&to == &s.thread)
    sanKnowThreadStack(s);
  bool dies = ending && from != &to;
  __sanitizer_start_switch_fiber(dies ? nullptr : &from->fakeStack, to.bottom, to.size);
#endif
#if FIBERCL_TSAN_FIBERS
  SanFiber &fromId = from->tsanAs ? *from->tsanAs : *from;
  SanFiber &toId = to.tsanAs ? *to.tsanAs : to;
  if (&fromId == &s.thread && !fromId.tsan)
    fromId.tsan = __tsan_get_current_fiber();
  if (&fromId != &toId)
    __tsan_switch_to_fiber(toId.tsan, 0);
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

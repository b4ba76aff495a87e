// Inter-work-group mutexes with OpenCL 2.0 atomics, taken by one representative
// work-item per group (block semantics, seed 003 §5):
//   spin lock    test-and-set (seed 000 §5.1 "spin-lock"; seed 003 Algorithm 1/2)
//   backoff lock test-and-set with exponential backoff between attempts (seed 003
//                Algorithm 2 with UseBackoff; the delay doubles up to a cap)
//   ticket lock  fetch-and-add ticket, poll the serving counter (seed 000 §5.1
//                "ticket-lock"; seed 003 Algorithm 3, "FA mutex")
// A lock is an array of two atomic ints, zero-initialised by the host:
// spin/backoff use word 0 as the flag; ticket uses word 0 = next ticket,
// word 1 = now serving. Build with -DMUTEX_SPIN, -DMUTEX_BACKOFF or -DMUTEX_TICKET
// to choose what mutex_lock / mutex_unlock mean.

#ifndef BACKOFF_MIN
#define BACKOFF_MIN 4
#endif
#ifndef BACKOFF_MAX
#define BACKOFF_MAX 8192
#endif

void spin_lock(__global atomic_int *m) {
  while (atomic_exchange_explicit(&m[0], 1, memory_order_acquire,
                                  memory_scope_device) != 0)
    ;
}

void spin_unlock(__global atomic_int *m) {
  atomic_store_explicit(&m[0], 0, memory_order_release, memory_scope_device);
}

void backoff_lock(__global atomic_int *m) {
  int d = BACKOFF_MIN;
  while (atomic_exchange_explicit(&m[0], 1, memory_order_acquire,
                                  memory_scope_device) != 0) {
    volatile int sink = 0;
    for (int i = 0; i < d; ++i)
      sink++;
    d = min(d * 2, BACKOFF_MAX);
  }
}

void backoff_unlock(__global atomic_int *m) { spin_unlock(m); }

void ticket_lock(__global atomic_int *m) {
  int ticket = atomic_fetch_add_explicit(&m[0], 1, memory_order_relaxed,
                                         memory_scope_device);
  while (atomic_load_explicit(&m[1], memory_order_acquire, memory_scope_device) !=
         ticket)
    ;
}

void ticket_unlock(__global atomic_int *m) {
  // Only the holder writes `serving`, so a load + store is a safe increment.
  int serving =
      atomic_load_explicit(&m[1], memory_order_relaxed, memory_scope_device);
  atomic_store_explicit(&m[1], serving + 1, memory_order_release,
                        memory_scope_device);
}

#if defined(MUTEX_TICKET)
#define mutex_lock ticket_lock
#define mutex_unlock ticket_unlock
#elif defined(MUTEX_BACKOFF)
#define mutex_lock backoff_lock
#define mutex_unlock backoff_unlock
#elif defined(MUTEX_SPIN)
#define mutex_lock spin_lock
#define mutex_unlock spin_unlock
#endif

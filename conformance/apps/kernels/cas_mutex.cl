// The per-queue mutex of seed 001 §2.2 written by hand (plain and coop forms): a
// test-and-test-and-set spin lock on a global word, acquired with a device-scope
// compare-and-swap. The holder must keep running for a waiter to get in (fair
// scheduling among the groups involved). Called by one work-item. 0 = unlocked.
typedef atomic_int ws_mutex;

void ws_lock(global ws_mutex *m) {
  for (;;) {
    int unlocked = 0;
    if (atomic_compare_exchange_strong_explicit(m, &unlocked, 1, memory_order_acquire,
                                                memory_order_relaxed, memory_scope_device))
      return;
    // Wait for it to look free before trying again (keeps the CAS traffic down).
    while (atomic_load_explicit(m, memory_order_relaxed, memory_scope_device) != 0)
      ;
  }
}

void ws_unlock(global ws_mutex *m) {
  atomic_store_explicit(m, 0, memory_order_release, memory_scope_device);
}

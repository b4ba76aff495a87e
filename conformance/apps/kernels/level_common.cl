// What the level-loop apps color, mis and sssp share. Iteration `it` raises more[it]
// (zeroed by the host) when it finds work left; the loop ends after the first
// iteration that found none. One flag per iteration: a single flag would have to be
// cleared, with one more barrier between its last read and the clearing.

void level_more_work(global atomic_int *more, int it) {
  atomic_store_explicit(&more[it], 1, memory_order_relaxed, memory_scope_device);
}

// After the iteration's last barrier: does another iteration follow?
bool level_continue(global atomic_int *more, int it, int max_iters) {
  return atomic_load_explicit(&more[it], memory_order_relaxed, memory_scope_device) != 0 &&
         it + 1 < max_iters;
}

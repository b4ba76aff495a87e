// As race_flag_handshake_plain, with relaxed atomics for the flag: still no ordering.
__kernel void race_relaxed_instead_of_release(__global int *data, __global int *out,
                                              __global atomic_int *flag) {
  if (get_group_id(0) == 0) {
    data[0] = 42; // BUG (racy write)
    atomic_store_explicit(flag, 1, memory_order_relaxed, memory_scope_device); // BUG: relaxed
  } else {
    int n = 0;
    while (atomic_load_explicit(flag, memory_order_relaxed, memory_scope_device) == 0 &&
           n < 1000000)
      n++;
    out[0] = data[0]; // BUG (racy read)
    out[1] = n;
  }
}

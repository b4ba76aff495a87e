// Device-scope release/acquire: correct.
__kernel void correct_release_acquire_handshake(__global int *data, __global int *out,
                                                __global atomic_int *flag) {
  if (get_group_id(0) == 0) {
    data[0] = 42;
    atomic_store_explicit(flag, 1, memory_order_release, memory_scope_device);
  } else {
    int n = 0;
    while (atomic_load_explicit(flag, memory_order_acquire, memory_scope_device) == 0 &&
           n < 1000000)
      n++;
    out[0] = data[0];
    out[1] = n;
  }
}

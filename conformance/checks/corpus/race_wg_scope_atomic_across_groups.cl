// Release/acquire, but at work-group scope between two different work-groups.
__kernel void race_wg_scope_atomic_across_groups(__global int *data, __global int *out,
                                                 __global atomic_int *flag) {
  if (get_group_id(0) == 0) {
    data[0] = 42; // BUG (racy write)
    atomic_store_explicit(flag, 1, memory_order_release, memory_scope_work_group); // BUG: scope
  } else {
    int n = 0;
    while (atomic_load_explicit(flag, memory_order_acquire, memory_scope_work_group) == 0 &&
           n < 1000000)
      n++;
    out[0] = data[0]; // BUG (racy read)
    out[1] = n;
  }
}

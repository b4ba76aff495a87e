// One group waits for a flag another group sets: atomics, a spin loop (yield points).
__kernel void handoff(volatile __global int *flag, __global int *data) {
  if (get_group_id(0) == 0) {
    if (get_local_id(0) == 0) {
      data[0] = 42;
      mem_fence(CLK_GLOBAL_MEM_FENCE);
      atomic_xchg(flag, 1);
    }
  } else if (get_local_id(0) == 0) {
    while (atomic_cmpxchg(flag, 1, 1) != 1)
      ;
    atomic_add(&data[1], data[0]);
    atomic_inc(&data[2]);
    atomic_max(&data[3], (int)get_group_id(0));
  }
}

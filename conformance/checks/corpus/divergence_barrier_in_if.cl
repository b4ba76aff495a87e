__kernel void divergence_barrier_in_if(__global const int *in, __global int *out) {
  int lid = get_local_id(0);
  if (lid < 5)
    barrier(CLK_LOCAL_MEM_FENCE); // BUG: only 5 of the 16 work-items reach it
  out[get_global_id(0)] = in[get_global_id(0)];
}

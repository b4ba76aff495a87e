// Program sem_spin: the spin-lock semaphore of seed 003 (§5 "Semaphore",
// Algorithm 4) in the OpenCL 1.2 style of its CUDA original: one word S starts at
// capacity + 1; atomic_xchg(S, 0) takes the word (0 = someone else has it), a value
// above 1 means a free slot. mem_fence orders the critical section against the
// semaphore, as 1.2 atomics order nothing by themselves. Same hold times
// (hold[g * K + k]) and checks as sem_ticket: max simultaneous holders <= capacity,
// total == G * K. Needs common.cl. OpenCL C 1.2.
//
// sem[0] = S (host sets capacity + 1); stats[0] = holders now, stats[1] = max
// holders, stats[2] = total entries (zeroed).

void spin_sem_wait(volatile __global int *sem) {
  for (;;) {
    const int old = atomic_xchg(sem, 0);
    if (old > 1) {
      atomic_xchg(sem, old - 1);
      break;
    }
    if (old == 1)
      atomic_xchg(sem, 1); // at capacity: put the word back, try again
  }
  mem_fence(CLK_GLOBAL_MEM_FENCE);
}

void spin_sem_post(volatile __global int *sem) {
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  for (;;) {
    const int old = atomic_xchg(sem, 0);
    if (old > 0) {
      atomic_xchg(sem, old + 1);
      break;
    }
  }
}

__kernel void sem_spin(volatile __global int *sem, volatile __global int *stats,
                       __global int *per_group, __global const int *hold,
                       int entries) {
  const uint g = get_group_id(0);
  const int lid = (int)get_local_id(0);
  for (int k = 0; k < entries; ++k) {
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (lid == 0) {
      spin_sem_wait(sem);
      atomic_max(&stats[1], atomic_inc(&stats[0]) + 1);
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (lid == 0) {
      corpus_delay(hold[g * entries + k]); // hold time
      per_group[g]++;                       // only this group writes it
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (lid == 0) {
      atomic_inc(&stats[2]);
      atomic_dec(&stats[0]);
      spin_sem_post(sem);
    }
  }
}

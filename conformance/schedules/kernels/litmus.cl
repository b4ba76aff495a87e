// Programs litmus_mp, litmus_sb, litmus_lb, litmus_corr: the litmus idioms of seed
// 004 (Table 3) between the two groups of each pair (groups 2k and 2k+1), with
// OpenCL 2.0 memory orders chosen so that the weak outcome is FORBIDDEN:
//   mp    T0: x=1; y=1 (release)        T1: r0=y (acquire); r1=x   forbid r0=1,r1=0
//   sb    T0: x=1; r0=y   (all seq_cst) T1: y=1; r1=x               forbid r0=0,r1=0
//   lb    T0: r0=x (acq); y=1 (rel)     T1: r1=y (acq); x=1 (rel)   forbid r0=1,r1=1
//   coRR  T0: x=1                       T1: r0=x; r1=x (relaxed)    forbid r0=1,r1=0
// Each iteration uses fresh locations (x, y zeroed by the host) and starts with a
// rendezvous, as litmus harnesses do to make the two threads overlap: each group
// sets its arrival flag for the iteration, then polls the partner's at most
// poll_limit times and goes on either way (met[] records whether it saw it).
// Random-length delay loops come before the arrival and before the test; the other
// work-items of the group meanwhile stress their own scratch words (seed 004
// §4.3.1). Work-item 0 is the testing thread. Needs common.cl.
//
// Results: r[(pair * iters + i) * 2 + {0,1}], met[group * iters + i].

uint litmus_rand(uint *state) {
  *state = corpus_hash(*state + 0x9e3779b9u);
  return *state;
}

int litmus_rendezvous(__global atomic_int *arrive, int iters, int i,
                      int poll_limit, int delay_max, uint *rng) {
  const int g = (int)get_group_id(0);
  const int partner = g ^ 1;
  corpus_delay((int)(litmus_rand(rng) % (uint)delay_max));
  atomic_store_explicit(&arrive[g * iters + i], 1, memory_order_release,
                        memory_scope_device);
  for (int t = 0; t < poll_limit; ++t)
    if (atomic_load_explicit(&arrive[partner * iters + i], memory_order_acquire,
                             memory_scope_device))
      return 1;
  return 0;
}

// The common frame: per iteration, a rendezvous then TEST(role, slot) on work-item
// 0, with stress on the others. `slot` points at this iteration's x, y, r.
#define LITMUS_KERNEL(NAME, TEST)                                               \
  __kernel void NAME(__global atomic_int *x, __global atomic_int *y,            \
                     __global atomic_int *arrive, __global int *r,              \
                     __global int *met, __global int *scratch, int iters,       \
                     int poll_limit, int delay_max, uint salt) {                \
    const int g = (int)get_group_id(0);                                         \
    const int pair = g >> 1, role = g & 1;                                      \
    const int lid = (int)get_local_id(0);                                       \
    uint rng = corpus_hash(salt * 0x632be5abu + (uint)g);                       \
    for (int i = 0; i < iters; ++i) {                                           \
      barrier(CLK_GLOBAL_MEM_FENCE);                                            \
      if (lid == 0) {                                                           \
        met[g * iters + i] =                                                    \
            litmus_rendezvous(arrive, iters, i, poll_limit, delay_max, &rng);   \
        corpus_delay((int)(litmus_rand(&rng) % (uint)delay_max));               \
        const int k = pair * iters + i;                                         \
        TEST                                                                    \
      } else {                                                                  \
        scratch[g * (int)get_local_size(0) + lid] += i;                         \
      }                                                                         \
      barrier(CLK_GLOBAL_MEM_FENCE);                                            \
    }                                                                           \
  }

#define LOAD(p, mo) atomic_load_explicit(p, mo, memory_scope_device)
#define STORE(p, v, mo) atomic_store_explicit(p, v, mo, memory_scope_device)

LITMUS_KERNEL(litmus_mp, {
  if (role == 0) {
    STORE(&x[k], 1, memory_order_relaxed);
    STORE(&y[k], 1, memory_order_release);
  } else {
    r[2 * k] = LOAD(&y[k], memory_order_acquire);
    r[2 * k + 1] = LOAD(&x[k], memory_order_relaxed);
  }
})

LITMUS_KERNEL(litmus_sb, {
  if (role == 0) {
    STORE(&x[k], 1, memory_order_seq_cst);
    r[2 * k] = LOAD(&y[k], memory_order_seq_cst);
  } else {
    STORE(&y[k], 1, memory_order_seq_cst);
    r[2 * k + 1] = LOAD(&x[k], memory_order_seq_cst);
  }
})

LITMUS_KERNEL(litmus_lb, {
  if (role == 0) {
    r[2 * k] = LOAD(&x[k], memory_order_acquire);
    STORE(&y[k], 1, memory_order_release);
  } else {
    r[2 * k + 1] = LOAD(&y[k], memory_order_acquire);
    STORE(&x[k], 1, memory_order_release);
  }
})

LITMUS_KERNEL(litmus_corr, {
  if (role == 0) {
    STORE(&x[k], 1, memory_order_relaxed);
  } else {
    r[2 * k] = LOAD(&x[k], memory_order_relaxed);
    r[2 * k + 1] = LOAD(&x[k], memory_order_relaxed);
  }
})

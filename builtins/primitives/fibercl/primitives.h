/* <fibercl/primitives.h>: inter-work-group synchronisation primitives for OpenCL C 2.0+.
 *
 * Served by FiberCL to every program (no -I needed) and installed as plain OpenCL C
 * (share/fibercl/opencl/fibercl/) so the same kernels build on any OpenCL 2.0 device.
 * Algorithms: the occupancy discovery protocol and the XF barrier of Sorensen et al.,
 * "Portable Inter-workgroup Barrier Synchronisation for GPUs" (OOPSLA 2016); the
 * atomic-counter barrier, mutexes and semaphores of Stuart and Owens, "Efficient
 * Synchronization Primitives for GPUs".
 *
 * PROGRESS ASSUMPTIONS. Every primitive that waits for another work-group terminates
 * only if that group keeps running. Each function below says which of these it needs:
 *   [occupant-fair]  the groups it waits for have started and are scheduled fairly
 *                    (the occupancy-bound model: true of occupant groups on GPUs, and
 *                    of FiberCL's fair policy at any occupancy bound);
 *   [all-occupant]   every group it waits for is occupant at once -- a barrier among
 *                    more groups than the occupancy bound deadlocks.
 * On FiberCL a violated assumption is reported as a deadlock naming the primitive.
 *
 * The context: one global buffer of FIBERCL_PRIMITIVES_CTX_BYTES bytes per launch (or
 * per sequence of launches), zero-filled by the host once (clEnqueueFillBuffer, or
 * fibercl_primitives_reset from a kernel). Discovery leaves it ready for the next
 * launch of an in-order queue provided every group of the launch calls
 * fibercl_discover exactly once: no host reset between launches.
 */
#ifndef FIBERCL_PRIMITIVES_H
#define FIBERCL_PRIMITIVES_H

#if !defined(__OPENCL_C_VERSION__) || __OPENCL_C_VERSION__ < 200
#error "<fibercl/primitives.h> needs OpenCL C 2.0 or later: build with -cl-std=CL2.0 (or CL3.0)"
#endif

/* fibercl_discover broadcasts its result with a work-group collective: mandatory in
 * OpenCL C 2.0, optional in 3.0. Devices without them (PoCL 3) use
 * fibercl_discover_local, which broadcasts through local memory the kernel declares. */
#if __OPENCL_C_VERSION__ == 200 || defined(__opencl_c_work_group_collective_functions)
#define FIBERCL_HAVE_WORK_GROUP_COLLECTIVES 1
#endif
#define FIBERCL_HAVE_DISCOVERY 1
/* uints of local memory fibercl_discover_local needs. */
#define FIBERCL_DISCOVER_SCRATCH 3

/* Participants the discovery protocol admits at most (XF barrier flags). */
#define FIBERCL_MAX_PARTICIPANTS 1024
#define FIBERCL_PRIMITIVES_CTX_BYTES (256 + 4 * FIBERCL_MAX_PARTICIPANTS)

#define FIBERCL_DEV memory_scope_device

/* Work-group functions (they contain barriers) are always inlined: PoCL 3 leaves
 * work-item queries in a called function unresolved otherwise. */
#define FIBERCL_WORK_GROUP_FUNCTION __attribute__((always_inline)) static inline

/* A waiting function's progress assumption, for FiberCL's deadlock reports (which
 * print it when a group is stuck inside the function). */
#define FIBERCL_PROGRESS(text) __attribute__((annotate("fibercl.progress:" text)))
#define FIBERCL_OCCUPANT_FAIR(who)                                                                 \
  FIBERCL_PROGRESS("occupant-fair: " who " keeps running (the occupancy-bound model's "            \
                   "fair scheduling of started groups)")
#define FIBERCL_ALL_OCCUPANT                                                                       \
  FIBERCL_PROGRESS("all-occupant: every participating group is occupant at once and "              \
                   "scheduled fairly (fibercl_discover ensures it; a barrier among more "          \
                   "groups than the occupancy bound deadlocks)")

/* One launch's discovery state. Two of them alternate between launches (parity of
 * `generation`): the last group of a launch to finish discovery clears the other one
 * and advances the generation, so the next launch starts from a clean slot while this
 * launch's participants still use theirs. */
typedef struct {
  atomic_uint lock;          /* spin lock word, or the ticket lock's next ticket */
  atomic_uint serving;       /* ticket lock: the ticket being served */
  atomic_uint closed;        /* the poll is closed */
  atomic_uint count;         /* participants so far */
  atomic_uint arrivals;      /* groups of this launch that finished discovery */
  atomic_uint barrier_count; /* the counter barrier's arrivals, all rounds */
  uint pad[10];
} fibercl_discovery_slot;

typedef struct {
  atomic_uint generation;
  uint pad[15];
  fibercl_discovery_slot slot[2];
  uint pad2[16];
  atomic_uint flags[FIBERCL_MAX_PARTICIPANTS]; /* XF barrier: 1 = arrived */
} fibercl_primitives_ctx;

_Static_assert(sizeof(fibercl_primitives_ctx) == FIBERCL_PRIMITIVES_CTX_BYTES,
               "fibercl_primitives_ctx layout");

/* What discovery told this group (a private value; every work-item holds a copy). */
typedef struct {
  uint participating; /* 1 if the group takes part */
  uint id;            /* participating group id, 0 .. count-1 */
  uint count;         /* participating groups */
  uint slot;          /* the context slot of this launch */
  uint rounds;        /* counter barrier rounds completed (work-item 0's copy) */
} fibercl_participant;

static inline size_t fibercl_local_linear_size(void) {
  return get_local_size(0) * get_local_size(1) * get_local_size(2);
}

static inline uint fibercl_total_groups(void) {
  return (uint)(get_num_groups(0) * get_num_groups(1) * get_num_groups(2));
}

#ifdef FIBERCL_HAVE_DISCOVERY

/* ---- Discovery locks (one work-item) ---------------------------------------------- */

FIBERCL_OCCUPANT_FAIR("the group holding the discovery lock")
static inline void fibercl_discovery_lock(global fibercl_discovery_slot *s) {
#ifdef FIBERCL_DISCOVERY_SPIN_LOCK
  uint expected = 0;
  while (!atomic_compare_exchange_strong_explicit(&s->lock, &expected, 1u, memory_order_acquire,
                                                  memory_order_relaxed, FIBERCL_DEV))
    expected = 0;
#else
  uint ticket = atomic_fetch_add_explicit(&s->lock, 1u, memory_order_relaxed, FIBERCL_DEV);
  while (atomic_load_explicit(&s->serving, memory_order_acquire, FIBERCL_DEV) != ticket)
    ;
#endif
}

static inline void fibercl_discovery_unlock(global fibercl_discovery_slot *s) {
#ifdef FIBERCL_DISCOVERY_SPIN_LOCK
  atomic_store_explicit(&s->lock, 0u, memory_order_release, FIBERCL_DEV);
#else
  uint next = atomic_load_explicit(&s->serving, memory_order_relaxed, FIBERCL_DEV) + 1;
  atomic_store_explicit(&s->serving, next, memory_order_release, FIBERCL_DEV);
#endif
}

/* ---- Discovery -------------------------------------------------------------------- */

/* The occupancy discovery protocol, run by one work-item per group; the group's
 * answer is then broadcast (fibercl_discover / fibercl_discover_local below).
 * fibercl_discover is a work-group function: every work-item of every group calls it
 * once, at the start. The groups that get into the poll before it is
 * closed participate: they are occupant together, so barriers among them are safe.
 * Ticket lock by default (it lets every occupant group in before a participant
 * closes the poll); -DFIBERCL_DISCOVERY_SPIN_LOCK selects the spin lock;
 * -DFIBERCL_DISCOVERY_SETTLE=N keeps the poll open until N polls see no new arrival.
 * [occupant-fair] (the lock holder must get to run). */
static inline void fibercl_discovery_protocol(global void *ctx_, uint *word_, uint *count_,
                                              uint *slot_) {
  global fibercl_primitives_ctx *ctx = (global fibercl_primitives_ctx *)ctx_;
  uint word = 0, count = 0, slot = 0;
  slot = atomic_load_explicit(&ctx->generation, memory_order_acquire, FIBERCL_DEV) & 1u;
  global fibercl_discovery_slot *s = &ctx->slot[slot];
  uint id = 0;
  bool in = false;
  fibercl_discovery_lock(s); /* phase 1: join the poll while it is open */
  if (!atomic_load_explicit(&s->closed, memory_order_relaxed, FIBERCL_DEV)) {
    id = atomic_load_explicit(&s->count, memory_order_relaxed, FIBERCL_DEV);
    if (id < FIBERCL_MAX_PARTICIPANTS) {
      atomic_store_explicit(&s->count, id + 1, memory_order_relaxed, FIBERCL_DEV);
      in = true;
    }
  }
  fibercl_discovery_unlock(s);
  if (in) { /* phase 2: the first participant back closes the poll */
#if defined(FIBERCL_DISCOVERY_SETTLE) && FIBERCL_DISCOVERY_SETTLE > 0
    /* Optional (not in the paper): wait until the count has not changed for
     * FIBERCL_DISCOVERY_SETTLE polls before closing. On devices whose worker threads
     * start their groups with skew (CPU drivers such as PoCL) the poll otherwise closes
     * before the other resident groups arrive. Safety is unchanged: every group that
     * joins is resident while the earlier participants wait here. */
    uint seen = id + 1, quiet = 0;
    while (quiet < FIBERCL_DISCOVERY_SETTLE &&
           !atomic_load_explicit(&s->closed, memory_order_relaxed, FIBERCL_DEV)) {
      uint now = atomic_load_explicit(&s->count, memory_order_relaxed, FIBERCL_DEV);
      quiet = now == seen ? quiet + 1 : 0;
      seen = now;
    }
#endif
    fibercl_discovery_lock(s);
    atomic_store_explicit(&s->closed, 1u, memory_order_relaxed, FIBERCL_DEV);
    count = atomic_load_explicit(&s->count, memory_order_relaxed, FIBERCL_DEV);
    fibercl_discovery_unlock(s);
  }
  word = (in ? 1u : 0u) | id << 1;
  /* The launch's last group out readies the other slot for the next launch. */
  uint arrived = atomic_fetch_add_explicit(&s->arrivals, 1u, memory_order_acq_rel, FIBERCL_DEV) + 1;
  if (arrived == fibercl_total_groups()) {
    global fibercl_discovery_slot *o = &ctx->slot[slot ^ 1u];
    atomic_store_explicit(&o->lock, 0u, memory_order_relaxed, FIBERCL_DEV);
    atomic_store_explicit(&o->serving, 0u, memory_order_relaxed, FIBERCL_DEV);
    atomic_store_explicit(&o->closed, 0u, memory_order_relaxed, FIBERCL_DEV);
    atomic_store_explicit(&o->count, 0u, memory_order_relaxed, FIBERCL_DEV);
    atomic_store_explicit(&o->arrivals, 0u, memory_order_relaxed, FIBERCL_DEV);
    atomic_store_explicit(&o->barrier_count, 0u, memory_order_relaxed, FIBERCL_DEV);
    atomic_fetch_add_explicit(&ctx->generation, 1u, memory_order_release, FIBERCL_DEV);
  }
  *word_ = word;
  *count_ = count;
  *slot_ = slot;
}

static inline fibercl_participant fibercl_participant_from(uint word, uint count, uint slot) {
  fibercl_participant p = {0, 0, 0, 0, 0};
  p.participating = word & 1u;
  p.id = word >> 1;
  p.count = count;
  p.slot = slot;
  return p;
}

#ifdef FIBERCL_HAVE_WORK_GROUP_COLLECTIVES
FIBERCL_WORK_GROUP_FUNCTION fibercl_participant fibercl_discover(global void *ctx_) {
  uint word = 0, count = 0, slot = 0;
  if (get_local_linear_id() == 0)
    fibercl_discovery_protocol(ctx_, &word, &count, &slot);
  /* Broadcast work-item 0's result (max over values that are 0 elsewhere: any dims). */
  word = work_group_reduce_max(word);
  count = work_group_reduce_max(count);
  slot = work_group_reduce_max(slot);
  return fibercl_participant_from(word, count, slot);
}
#else
__attribute__((unavailable("this device has no work-group collective functions: declare "
                           "`local uint scratch[FIBERCL_DISCOVER_SCRATCH];` in the kernel "
                           "and call fibercl_discover_local(ctx, scratch)"))) fibercl_participant
fibercl_discover(global void *ctx_);
#endif

/* fibercl_discover for any device: the result is broadcast through `scratch`
 * (FIBERCL_DISCOVER_SCRATCH uints of local memory, declared in the kernel since OpenCL
 * C allows local variables only there). Same contract as fibercl_discover. */
FIBERCL_WORK_GROUP_FUNCTION fibercl_participant fibercl_discover_local(global void *ctx_,
                                                                       local uint *scratch) {
  if (get_local_linear_id() == 0) {
    uint word = 0, count = 0, slot = 0;
    fibercl_discovery_protocol(ctx_, &word, &count, &slot);
    scratch[0] = word;
    scratch[1] = count;
    scratch[2] = slot;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  fibercl_participant p = fibercl_participant_from(scratch[0], scratch[1], scratch[2]);
  barrier(CLK_LOCAL_MEM_FENCE); /* scratch may be reused after this */
  return p;
}

/* The participating-group environment (seed 000, Table 2). 1-D ids over participants;
 * dims 1 and 2 are those of the launch. */
static inline bool p_participates(fibercl_participant p) { return p.participating != 0; }
static inline uint p_get_group_id(fibercl_participant p) { return p.id; }
static inline uint p_get_num_groups(fibercl_participant p) { return p.count; }
static inline size_t p_get_global_size(fibercl_participant p, uint dim) {
  return dim == 0 ? (size_t)p.count * get_local_size(0) : get_global_size(dim);
}
static inline size_t p_get_global_id(fibercl_participant p, uint dim) {
  return dim == 0 ? (size_t)p.id * get_local_size(0) + get_local_id(0) : get_global_id(dim);
}

/* ---- Inter-work-group barriers among participants ---------------------------------- */

/* Xiao and Feng's barrier with OpenCL 2.0 device-scope acquire/release: each group
 * raises its flag; the master (participant 0) waits for every flag, then lowers them
 * all. A work-group function, called by every work-item of every participant.
 * [all-occupant] among participants: discovery guarantees it. */
FIBERCL_ALL_OCCUPANT
FIBERCL_WORK_GROUP_FUNCTION void fibercl_xf_barrier(global void *ctx_, fibercl_participant *p) {
  global fibercl_primitives_ctx *ctx = (global fibercl_primitives_ctx *)ctx_;
  size_t lid = get_local_linear_id(), lsize = fibercl_local_linear_size();
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (p->id == 0) {
    for (size_t i = lid + 1; i < p->count; i += lsize)
      while (atomic_load_explicit(&ctx->flags[i], memory_order_acquire, FIBERCL_DEV) != 1u)
        ;
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (size_t i = lid + 1; i < p->count; i += lsize)
      atomic_store_explicit(&ctx->flags[i], 0u, memory_order_release, FIBERCL_DEV);
  } else if (lid == 0) {
    atomic_store_explicit(&ctx->flags[p->id], 1u, memory_order_release, FIBERCL_DEV);
    while (atomic_load_explicit(&ctx->flags[p->id], memory_order_acquire, FIBERCL_DEV) != 0u)
      ;
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}

/* The atomic-counter barrier (the baseline of Stuart and Owens): one counter for all
 * rounds; round r waits until it reaches r * count. Same contract as the XF barrier.
 * [all-occupant] among participants. */
FIBERCL_ALL_OCCUPANT
FIBERCL_WORK_GROUP_FUNCTION void fibercl_counter_barrier(global void *ctx_,
                                                         fibercl_participant *p) {
  global fibercl_primitives_ctx *ctx = (global fibercl_primitives_ctx *)ctx_;
  global fibercl_discovery_slot *s = &ctx->slot[p->slot];
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (get_local_linear_id() == 0) {
    p->rounds += 1;
    uint target = p->rounds * p->count;
    atomic_fetch_add_explicit(&s->barrier_count, 1u, memory_order_acq_rel, FIBERCL_DEV);
    while (atomic_load_explicit(&s->barrier_count, memory_order_acquire, FIBERCL_DEV) < target)
      ;
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}

/* Clears the context from a kernel (one work-item), instead of a host fill. */
static inline void fibercl_primitives_reset(global void *ctx_) {
  global uint *words = (global uint *)ctx_;
  for (uint i = 0; i < FIBERCL_PRIMITIVES_CTX_BYTES / 4; ++i)
    words[i] = 0;
}

#endif /* FIBERCL_HAVE_DISCOVERY */

/* ---- Mutexes (called by one work-item; zero-initialised = unlocked) ---------------- */
/* All three: [occupant-fair] -- the holder must get to run. The spin and backoff
 * mutexes let any waiter in next (a waiter may starve under an unfair scheduler);
 * the ticket mutex serves waiters in arrival order. */

typedef struct {
  atomic_uint word;
} fibercl_spin_mutex;
typedef struct {
  atomic_uint word;
} fibercl_backoff_mutex;
typedef struct {
  atomic_uint next, serving;
} fibercl_ticket_mutex;

FIBERCL_OCCUPANT_FAIR("the group holding the mutex")
static inline void fibercl_spin_lock(global fibercl_spin_mutex *m) {
  uint expected = 0;
  while (!atomic_compare_exchange_strong_explicit(&m->word, &expected, 1u, memory_order_acquire,
                                                  memory_order_relaxed, FIBERCL_DEV))
    expected = 0;
}
static inline void fibercl_spin_unlock(global fibercl_spin_mutex *m) {
  atomic_store_explicit(&m->word, 0u, memory_order_release, FIBERCL_DEV);
}

/* Exponential backoff between attempts (a bounded delay loop, not a wait). */
#define FIBERCL_BACKOFF_MAX 4096u
FIBERCL_OCCUPANT_FAIR("the group holding the mutex")
static inline void fibercl_backoff_lock(global fibercl_backoff_mutex *m) {
  uint delay = 16;
  for (;;) {
    uint expected = 0;
    if (atomic_compare_exchange_strong_explicit(&m->word, &expected, 1u, memory_order_acquire,
                                                memory_order_relaxed, FIBERCL_DEV))
      return;
    volatile uint sink = 0;
    for (uint i = 0; i < delay; ++i)
      sink += i;
    delay = delay < FIBERCL_BACKOFF_MAX ? delay * 2 : FIBERCL_BACKOFF_MAX;
  }
}
static inline void fibercl_backoff_unlock(global fibercl_backoff_mutex *m) {
  atomic_store_explicit(&m->word, 0u, memory_order_release, FIBERCL_DEV);
}

/* Fetch-and-add (ticket) mutex: take a ticket, wait for the turn. */
FIBERCL_OCCUPANT_FAIR("every group served before this ticket")
static inline void fibercl_ticket_lock(global fibercl_ticket_mutex *m) {
  uint ticket = atomic_fetch_add_explicit(&m->next, 1u, memory_order_relaxed, FIBERCL_DEV);
  while (atomic_load_explicit(&m->serving, memory_order_acquire, FIBERCL_DEV) != ticket)
    ;
}
static inline void fibercl_ticket_unlock(global fibercl_ticket_mutex *m) {
  atomic_fetch_add_explicit(&m->serving, 1u, memory_order_release, FIBERCL_DEV);
}

/* ---- Semaphores (called by one work-item) ------------------------------------------ */
/* Both: [occupant-fair] -- holders must get to run and post. */

typedef struct {
  atomic_int count;
  int pad[3];
} fibercl_spin_semaphore;
/* Sleeping (fetch-and-add) semaphore: `count` holders and waiters, `value` the
 * capacity; a waiter beyond capacity takes a ticket and waits for its turn. */
typedef struct {
  atomic_int count;
  atomic_uint ticket, turn;
  int value;
} fibercl_sleeping_semaphore;

static inline void fibercl_spin_semaphore_init(global fibercl_spin_semaphore *s, int value) {
  atomic_store_explicit(&s->count, value, memory_order_release, FIBERCL_DEV);
}
FIBERCL_OCCUPANT_FAIR("each group inside the semaphore")
static inline void fibercl_spin_sem_wait(global fibercl_spin_semaphore *s) {
  for (;;) {
    int c = atomic_load_explicit(&s->count, memory_order_relaxed, FIBERCL_DEV);
    if (c > 0 && atomic_compare_exchange_strong_explicit(&s->count, &c, c - 1, memory_order_acquire,
                                                         memory_order_relaxed, FIBERCL_DEV))
      return;
  }
}
static inline void fibercl_spin_sem_post(global fibercl_spin_semaphore *s) {
  atomic_fetch_add_explicit(&s->count, 1, memory_order_release, FIBERCL_DEV);
}

static inline void fibercl_sleeping_semaphore_init(global fibercl_sleeping_semaphore *s,
                                                   int value) {
  atomic_store_explicit(&s->count, 0, memory_order_relaxed, FIBERCL_DEV);
  atomic_store_explicit(&s->ticket, 0u, memory_order_relaxed, FIBERCL_DEV);
  atomic_store_explicit(&s->turn, 0u, memory_order_relaxed, FIBERCL_DEV);
  s->value = value;
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, FIBERCL_DEV);
}
FIBERCL_OCCUPANT_FAIR("each group inside the semaphore")
static inline void fibercl_sleeping_sem_wait(global fibercl_sleeping_semaphore *s) {
  int before = atomic_fetch_add_explicit(&s->count, 1, memory_order_acq_rel, FIBERCL_DEV);
  if (before < s->value)
    return; /* under capacity: one atomic, no waiting */
  uint ticket = atomic_fetch_add_explicit(&s->ticket, 1u, memory_order_relaxed, FIBERCL_DEV);
  while (atomic_load_explicit(&s->turn, memory_order_acquire, FIBERCL_DEV) <= ticket)
    ;
}
static inline void fibercl_sleeping_sem_post(global fibercl_sleeping_semaphore *s) {
  int before = atomic_fetch_sub_explicit(&s->count, 1, memory_order_acq_rel, FIBERCL_DEV);
  if (before > s->value) /* someone holds a ticket: let the next one in */
    atomic_fetch_add_explicit(&s->turn, 1u, memory_order_release, FIBERCL_DEV);
}

#endif

/* The contract between JIT-compiled kernels and the runtime that launches them.
 *
 * This header is included by C++ (runtime, compiler) and by OpenCL C (the builtins
 * library), so it uses only fixed-width integer fields: no pointers, no bool.
 *
 * A kernel `K` is compiled into one work-group function per kernel:
 *
 *     void K_entry(void **args, fcl_group_ctx *ctx);      // see FIBERCL_WG_FN
 *
 * `args[i]` points to the bytes of argument i as the application gave them to
 * clSetKernelArg, except: a buffer argument holds the device address (a host pointer,
 * 8 bytes, or 0 for NULL); a __local argument holds a uint64 byte offset into the
 * work-group's local block (`ctx->local_mem`), after the kernel's own static __local
 * variables (`static_local_size` in the kernel metadata).
 *
 * `ctx` describes one work-group. It is not modified while the group runs.
 */
#ifndef FIBERCL_KERNEL_ABI_H
#define FIBERCL_KERNEL_ABI_H

#ifdef __OPENCL_C_VERSION__
typedef ulong fcl_u64;
typedef uint fcl_u32;
#else
#include <stdint.h>
typedef uint64_t fcl_u64;
typedef uint32_t fcl_u32;
#endif

/* Per work-group scheduling state of a kernel with yield points (kernel metadata
 * `yields`). Yield points -- after atomic and volatile accesses to global memory,
 * after fences and barriers, and on the back-edges of loops that may spin -- run
 * inline:
 *     if (state && --countdown <= 0) FIBERCL_HOST_YIELD(ctx, site);
 * Inside a loop that may spin, a write that changed global memory also does
 * `progress += 1`, and so does entering such a loop from code that does not wait
 * (what a group did before it got there is work). Inside a loop that
 * may spin, every change of private or __local memory (and every read of a pipe's
 * counters) adds a hash of its address and value to `observed`, and each back-edge
 * compares the iteration's state -- what it observed, the loop-carried values its
 * branches and addresses depend on, whether it wrote -- with the previous iteration's:
 * the same state is a failed await (`awaits += 1`: the group waits), another one is
 * an advance (`advances += 1`: it works, e.g. a scan reading new addresses). The
 * deadlock detector's evidence that a group only waits is failed awaits alone. Those
 * checks run only while `checking` is nonzero: always in deterministic mode, in
 * parallel mode once no group has made progress for a while. */
typedef struct fcl_yield_state {
  fcl_u64 countdown; /* signed in practice: yield points compare it as int64 */
  fcl_u64 progress;
  fcl_u64 observed;
  fcl_u64 awaits;
  fcl_u64 advances;
  fcl_u64 checking; /* written by the runtime only */
} fcl_yield_state;

typedef struct fcl_group_ctx {
  fcl_u64 global_offset[3];
  fcl_u64 global_size[3];
  fcl_u64 enqueued_local_size[3]; /* the work-group size of the launch */
  fcl_u64 local_size[3];          /* this group's size (smaller at a non-uniform edge) */
  fcl_u64 num_groups[3];
  fcl_u64 group_id[3];
  fcl_u32 work_dim;
  fcl_u32 reserved;
  fcl_u64 local_mem;   /* address of this group's __local block, 0 if none */
  fcl_u64 runtime;     /* opaque: the runtime's state for this group (fibers, printf) */
  fcl_u64 yield_state; /* address of this group's fcl_yield_state; 0 when the launch
                          does not schedule groups (yield points are skipped) */
  fcl_u64 coop;        /* address of the launch's fcl_coop_view if the kernel is
                          cooperative, else 0 */
  fcl_u64 sub_groups;  /* address of the group's sub-group masks (fcl_u64 per sub-group,
                          bit j: lane j is active at its sub-group's latest sub-group
                          barrier), for kernels with sub-group barriers; else 0 */
  fcl_u64 checks;      /* address of the launch's fcl_check_bounds, one per kernel
                          argument, for kernels built with FIBERCL_CHECK=bounds; else 0 */
  fcl_u64 local_shadow; /* FIBERCL_CHECK=uninit: the byte offset from a __local byte to
                           its shadow byte in the group's local block, which equals the
                           group's tag (below) once a work-item of the group wrote the
                           byte; else 0 */
  /* FIBERCL_CHECK=uninit: the group's tag (1..255) in each of the 16 bytes, so that a
     load of N <= 16 of them is the value of N written shadow bytes. The groups a runner
     runs one after the other take the next tag, so the shadow of the group before is
     stale without a clear (runtime/exec/local_shadow.hpp). */
  fcl_u64 local_shadow_tag[2];
} fcl_group_ctx;

/* Checked mode (FIBERCL_CHECK=bounds, compiler/src/passes/access_checks.cpp): where a
 * pointer argument may reach, as byte offsets from the pointer the kernel was given --
 * [lo, hi): a buffer's 0 and its size, a pointer into an SVM allocation the
 * allocation's ends, a __local argument 0 and its size -- and what the kernel may not
 * do there (a READ_ONLY buffer is not written, a WRITE_ONLY one not read). */
typedef struct fcl_check_bounds {
  fcl_u64 lo; /* signed */
  fcl_u64 hi; /* signed */
  fcl_u64 flags;
} fcl_check_bounds;
#define FCL_CHECK_NO_READ 1u
#define FCL_CHECK_NO_WRITE 2u
/* FIBERCL_CHECK=races: set by the runtime on an argument the kernel only reads, or
 * accesses each work-item at an offset of its own, when no other argument's range
 * overlaps it (one the kernel only reads may overlap another such): its accesses cannot
 * race and are not recorded (access_checks.cpp, KernelInfo::raceFreeArgs). */
#define FCL_CHECK_RACE_FREE 4u

/* FIBERCL_HOST_CHECK_RACE's `how`. */
#define FCL_RACE_READ 1u
#define FCL_RACE_WRITE 2u
#define FCL_RACE_ATOMIC 4u
#define FCL_RACE_VALUE 8u /* `value` is what a store writes */
#define FCL_RACE_LOCAL 16u
#define FCL_RACE_ACQUIRE 32u /* an atomic or fence with acquire semantics (or stronger) */
#define FCL_RACE_RELEASE 64u /* ... with release semantics */
#define FCL_RACE_NARROW 128u /* ... of a scope narrower than the device (cannot order groups) */
#define FCL_RACE_AFTER 256u /* the second call, after an atomic read: its acquire half */
/* FIBERCL_HOST_CHECK_RACE_LINE's `state`. */
#define FCL_RACE_LINE_FIRST 1u
#define FCL_RACE_LINE_MORE 2u

/* What a cooperative launch shows its kernels (read with volatile loads: it changes as
 * groups are killed and forked). Written by the runtime under its lock. */
typedef struct fcl_coop_view {
  fcl_u64 active; /* M: get_num_groups(0) */
} fcl_coop_view;

/* Cooperative kernels (fibercl/cooperative.h): the builtins library calls the marker
 *   fcl_u32 __fibercl_coop_point(fcl_u32 op);
 * which the compiler replaces by FIBERCL_HOST_COOP(ctx, op, site, x, y, z, frame,
 * frame_size): (x, y, z) is the calling work-item's local id, `frame` its transmit
 * frame (the bytes of its `transmit` variables). Every work-item makes the same
 * sequence of these calls (they are work-group functions); the first work-item to make
 * a group's j-th call decides for the group, and the others get the same answer at
 * their j-th call. */
#define FCL_COOP_ENTRY                                                                             \
  0                        /* at the start: returns the fork site to resume at (0: none),          \
                              filling the frame with the transmitted bytes */
#define FCL_COOP_KILL 1    /* offer_kill: returns FCL_COOP_LEAVE if accepted */
#define FCL_COOP_FORK 2    /* request_fork: forked groups resume after it */
#define FCL_COOP_BARRIER 3 /* global_barrier (waits) */
#define FCL_COOP_RESIZE 4  /* resizing_global_barrier (waits; may leave; a fork site) */
#define FCL_COOP_QUERY 5   /* cooperative_query: returns the groups wanted back */
#define FCL_COOP_LEAVE 1u

/* The largest work-group (CL_DEVICE_MAX_WORK_GROUP_SIZE), and the bytes a kernel that
 * calls work-group collective functions reserves in its local block for them (one
 * 8-byte value per work-item plus one; builtins/lib/work_group_collectives.cl). */
#define FIBERCL_MAX_WORK_GROUP_SIZE 4096
#define FIBERCL_COLLECTIVE_SCRATCH_BYTES (8 * (FIBERCL_MAX_WORK_GROUP_SIZE + 1))

/* Bit of FIBERCL_HOST_YIELD's `site`: the yield point is inside a loop that may spin
 * (one whose exit depends on memory another group can write). There, whether the group
 * waits is told by its failed awaits and advances (fcl_yield_state); at any other
 * yield point it is making progress. */
#define FIBERCL_SITE_WAITING 0x80000000u

/* Bit of a barrier site: the barrier is a sub-group barrier (the work-items of a
 * sub-group that reach it wait for each other, not for the rest of the group). Sites
 * are numbered in program order; when the work-items of a sub-group wait at different
 * sub-group barriers, the lowest site is released first (so code that branches around
 * a barrier reaches it later with the others). The largest sub-group (bits of a mask). */
#define FIBERCL_SITE_SUB_GROUP 0x40000000u
#define FIBERCL_MAX_SUB_GROUP_SIZE 64
/* Bit of FIBERCL_HOST_SUB_GROUP_ROUND's result: every work-item waits at that site. */
#define FIBERCL_ROUND_EVERYONE 0x80000000u

#ifndef __OPENCL_C_VERSION__
#ifdef __cplusplus
extern "C" {
#endif
typedef void (*fcl_item_fn)(void **args, fcl_group_ctx *ctx, fcl_u32 x, fcl_u32 y, fcl_u32 z);
typedef void (*fcl_work_group_fn)(void **args, fcl_group_ctx *ctx);
#ifdef __cplusplus
}

/* The functions of the runtime that JIT-compiled code calls (absolute symbols) are
 * listed, with what each does, in fibercl/host_abi.def. Their names, for the compiler
 * and the runtime: FIBERCL_HOST_YIELD is "__fibercl_host_yield", and so on (constants,
 * not macros). */
#define FCL_HOST_FN(NAME, ret, symbol, params)                                                     \
  inline constexpr char FIBERCL_HOST_##NAME[] = #symbol;
#include "fibercl/host_abi.def"
#endif
#endif

/* Markers the builtins library calls and the compiler replaces (never linked):
 *   fcl_u32 __fibercl_local_id(fcl_u32 dim);   -> the work-item's local id in dim (0 if dim > 2)
 *   const fcl_group_ctx *__fibercl_ctx(void);  -> the group's ctx
 *   void __fibercl_barrier(fcl_u32 flags);     -> FIBERCL_HOST_BARRIER(ctx, site, flags)
 *   void __fibercl_sub_group_barrier(fcl_u32 flags)
 *                                   -> FIBERCL_HOST_SUB_GROUP_BARRIER(ctx, site, flags)
 *   fcl_u32 __fibercl_sub_group_width(void);   -> the kernel's sub-group size (a constant)
 */

#endif

/* Synchronization and explicit memory fence functions (OpenCL C 3.0 s6.15.9,
 * s6.15.10, s6.15.12.1 atomic_work_item_fence).
 *
 * A barrier calls the compiler's marker __fibercl_barrier(flags), which becomes
 * FIBERCL_HOST_BARRIER(ctx, site, flags) (switch to the next work-item's fiber).
 * Around it we put acq_rel fences: all work-items of a group run on one host
 * thread, so work-group-scope ordering only needs the compiler not to move
 * memory accesses across the barrier (on x86 an acq_rel fence emits no
 * instruction); the host barrier is an opaque call anyway.
 *
 * Memory scopes are ignored: every scope is implemented at least as strongly as
 * device scope. seq_cst fences emit mfence.
 */
#include "fcl_internal.h"

void __fibercl_barrier(uint flags);

FCL_INLINE void fcl_fence_acq_rel(void) { __c11_atomic_thread_fence(__ATOMIC_ACQ_REL); }

__attribute__((overloadable, convergent)) void barrier(cl_mem_fence_flags flags) {
  fcl_fence_acq_rel();
  __fibercl_barrier(flags);
  fcl_fence_acq_rel();
}

__attribute__((overloadable, convergent)) void work_group_barrier(cl_mem_fence_flags flags) {
  fcl_fence_acq_rel();
  __fibercl_barrier(flags);
  fcl_fence_acq_rel();
}

__attribute__((overloadable, convergent)) void work_group_barrier(cl_mem_fence_flags flags,
                                                                 memory_scope scope) {
  fcl_fence_acq_rel();
  __fibercl_barrier(flags);
  fcl_fence_acq_rel();
}

/* mem_fence orders the work-item's loads and stores: acq_rel (compiler fence on
 * x86, whose loads are not reordered with loads and stores not with stores). */
FCL_OVL void mem_fence(cl_mem_fence_flags flags) { __c11_atomic_thread_fence(__ATOMIC_ACQ_REL); }
FCL_OVL void read_mem_fence(cl_mem_fence_flags flags) {
  __c11_atomic_thread_fence(__ATOMIC_ACQUIRE);
}
FCL_OVL void write_mem_fence(cl_mem_fence_flags flags) {
  __c11_atomic_thread_fence(__ATOMIC_RELEASE);
}

FCL_OVL void atomic_work_item_fence(cl_mem_fence_flags flags, memory_order order,
                                    memory_scope scope) {
  /* memory_order_* values are the __ATOMIC_* ones; a run-time order becomes a
   * switch that folds away once inlined with a constant. relaxed: no fence. */
  switch (order) {
  case memory_order_acquire:
    FCL_NARROW_SCOPE(scope);
    __c11_atomic_thread_fence(__ATOMIC_ACQUIRE);
    break;
  case memory_order_release:
    FCL_NARROW_SCOPE(scope);
    __c11_atomic_thread_fence(__ATOMIC_RELEASE);
    break;
  case memory_order_acq_rel:
    FCL_NARROW_SCOPE(scope);
    __c11_atomic_thread_fence(__ATOMIC_ACQ_REL);
    break;
  case memory_order_seq_cst:
    FCL_NARROW_SCOPE(scope);
    __c11_atomic_thread_fence(__ATOMIC_SEQ_CST);
    break;
  default:
    break;
  }
}

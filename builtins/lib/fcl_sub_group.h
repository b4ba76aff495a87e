/* FiberCL builtins library: the sub-group primitives every sub-group function is built
 * from (builtins/lib/sub_groups*.cl).
 *
 * A sub-group is a run of S consecutive work-items in local linear id order (the last
 * one of a group may be shorter). S is the kernel's sub-group size: its
 * intel_reqd_sub_group_size, else FIBERCL_SUBGROUP_SIZE when the program was built,
 * else the host's vector width for 32-bit lanes. The compiler replaces the marker
 * __fibercl_sub_group_width() by it in each kernel.
 *
 * Work-items exchange values through the group's collective scratch (8 bytes per
 * work-item; slot j of a sub-group belongs to its lane j) and a sub-group barrier:
 *   slots[lane] = value; fcl_sg_sync();   every active lane has published
 *   ... read slots[j] for the lanes j in fcl_sg_active() ...
 *   fcl_sg_sync();                        nobody publishes again before all have read
 * The sub-group barrier (marker __fibercl_sub_group_barrier -> FIBERCL_HOST_SUB_GROUP_SYNC)
 * waits for the work-items of the sub-group that are *active*: those that reach this
 * call, as opposed to those that went elsewhere and wait at a later barrier or have
 * finished. Which they are is fcl_sg_active() after the call (bit j: lane j), valid
 * until the work-item's next sub-group barrier.
 */
#ifndef FIBERCL_SUB_GROUP_H
#define FIBERCL_SUB_GROUP_H

#include "fcl_internal.h"
#include "fibercl/kernel_abi.h"

uint __fibercl_sub_group_width(void);
void __fibercl_sub_group_barrier(uint flags);
const __private fcl_group_ctx *__fibercl_ctx(void) __attribute__((const));
__local void *__fibercl_collective_scratch(void);

FCL_INLINE uint fcl_sg_width(void) { return __fibercl_sub_group_width(); }
FCL_INLINE uint fcl_sg_linear_id(void) { return (uint)get_local_linear_id(); }
FCL_INLINE uint fcl_sg_lane(void) { return fcl_sg_linear_id() % fcl_sg_width(); }
FCL_INLINE uint fcl_sg_index(void) { return fcl_sg_linear_id() / fcl_sg_width(); }
FCL_INLINE uint fcl_sg_group_items(void) {
  return (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));
}
/* The size of this work-item's sub-group. */
FCL_INLINE uint fcl_sg_size(void) {
  uint first = fcl_sg_index() * fcl_sg_width();
  uint left = fcl_sg_group_items() - first;
  return left < fcl_sg_width() ? left : fcl_sg_width();
}

/* This sub-group's 8-byte slots in the collective scratch (S is a power of two). */
FCL_INLINE __local ulong *fcl_sg_slots(void) {
  return (__local ulong *)__fibercl_collective_scratch() +
         (fcl_sg_linear_id() & ~(fcl_sg_width() - 1));
}

FCL_INLINE void fcl_sg_sync(void) {
  __c11_atomic_thread_fence(__ATOMIC_ACQ_REL);
  __fibercl_sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  __c11_atomic_thread_fence(__ATOMIC_ACQ_REL);
}

/* The lanes of this sub-group that reached its latest sub-group barrier with it. */
FCL_INLINE ulong fcl_sg_active(void) {
  const __private fcl_group_ctx *ctx = __fibercl_ctx();
  return ((const __private ulong *)ctx->sub_groups)[fcl_sg_index()];
}

/* Vector sub-groups (compiler/src/passes/sub_group_vectors.cpp). A kernel whose
 * collectives all have a vector form is also compiled with each sub-group one vector
 * of the work-item loop: in that copy __fibercl_sub_group_vectors() is 1 and a
 * collective is one call, which the vectoriser turns into an operation across the
 * vector's active lanes (a horizontal add, an extract); no slot, no barrier round. In
 * the ordinary copy it is 0 and the calls are dead. The runtime runs the vector copy
 * when its vectors are the launch's sub-groups. */
bool __fibercl_sub_group_vectors(void);
#define FCL_SG_VECTOR_FORMS(T, S)                                                          \
  T __fibercl_sg_v_reduce_add_##S(T) __attribute__((convergent, const));                  \
  T __fibercl_sg_v_reduce_min_##S(T) __attribute__((convergent, const));                  \
  T __fibercl_sg_v_reduce_max_##S(T) __attribute__((convergent, const));                  \
  T __fibercl_sg_v_broadcast_##S(T, uint) __attribute__((convergent, const));
FCL_SG_VECTOR_FORMS(int, i32)
FCL_SG_VECTOR_FORMS(uint, u32)
FCL_SG_VECTOR_FORMS(long, i64)
FCL_SG_VECTOR_FORMS(ulong, u64)
FCL_SG_VECTOR_FORMS(float, f32)
FCL_SG_VECTOR_FORMS(double, f64)
FCL_SG_VECTOR_FORMS(half, f16)
int __fibercl_sg_v_any(int) __attribute__((convergent, const));
int __fibercl_sg_v_all(int) __attribute__((convergent, const));

/* Values of at most 8 bytes through the slots. */
#define FCL_SG_PUBLISH(T, x)                                                               \
  (*(__local T *)((__local ulong *)__fibercl_collective_scratch() + fcl_sg_linear_id()) = (x))
#define FCL_SG_READ(T, j) (*(__local T *)(fcl_sg_slots() + (j)))

/* A reduction or scan over the active lanes in lane order (floating-point results
 * are combined in that order): the lanes j, ascending, for which INCLUDE (an
 * expression of j and `me`, this lane) holds, combined with OP; ID if there are none
 * (an exclusive scan's first lane). */
#define FCL_SG_FOLD(T, x, OP, ID, INCLUDE)                                                 \
  ({                                                                                       \
    FCL_SG_PUBLISH(T, x);                                                                  \
    fcl_sg_sync();                                                                         \
    ulong act_ = fcl_sg_active();                                                          \
    uint me = fcl_sg_lane();                                                               \
    T acc_ = (ID);                                                                         \
    bool have_ = false;                                                                    \
    /* A loop of S steps (a constant): unrolled, and vectorised across work-items. */      \
    for (uint j = 0; j < fcl_sg_width(); ++j) {                                            \
      bool in_ = ((act_ >> j) & 1) && (INCLUDE);                                           \
      T v_ = FCL_SG_READ(T, j);                                                            \
      acc_ = in_ ? (have_ ? OP(acc_, v_) : v_) : acc_;                                     \
      have_ = have_ || in_;                                                                \
    }                                                                                      \
    (void)me;                                                                              \
    fcl_sg_sync();                                                                         \
    acc_;                                                                                  \
  })

#endif

/* Sub-groups (cl_khr_subgroups, OpenCL C 3.0 feature __opencl_c_subgroups): the
 * queries, sub_group_barrier and the core collectives. What a sub-group is and how its
 * work-items exchange values: fcl_sub_group.h. The cl_khr_subgroup_* extensions are in
 * the other sub_groups_*.cl files.
 *
 * Sub-groups make independent forward progress: a kernel with sub-group barriers
 * yields in its waiting loops (compiler/src/passes/sub_group_yields.cpp).
 */
#include "fcl_sub_group.h"

FCL_OVL uint get_sub_group_size(void) { return fcl_sg_size(); }
FCL_OVL uint get_max_sub_group_size(void) {
  uint n = (uint)(get_enqueued_local_size(0) * get_enqueued_local_size(1) *
                  get_enqueued_local_size(2));
  return n < fcl_sg_width() ? n : fcl_sg_width();
}
FCL_OVL uint get_num_sub_groups(void) {
  return (fcl_sg_group_items() + fcl_sg_width() - 1) / fcl_sg_width();
}
FCL_OVL uint get_enqueued_num_sub_groups(void) {
  uint n = (uint)(get_enqueued_local_size(0) * get_enqueued_local_size(1) *
                  get_enqueued_local_size(2));
  return (n + fcl_sg_width() - 1) / fcl_sg_width();
}
FCL_OVL uint get_sub_group_id(void) { return fcl_sg_index(); }
FCL_OVL uint get_sub_group_local_id(void) { return fcl_sg_lane(); }

/* The fences are the sub-group barrier's own (fcl_sg_sync); every scope is implemented
 * at least as strongly as device scope (synchronization.cl). */
/* In the vector copy the sub-group's work-items are one vector's lanes, which run in
 * step: the fence alone keeps their accesses on either side of it. */
FCL_INLINE void fcl_sg_barrier(void) {
  if (__fibercl_sub_group_vectors())
    __c11_atomic_thread_fence(__ATOMIC_ACQ_REL);
  else
    fcl_sg_sync();
}
__attribute__((overloadable, convergent)) void sub_group_barrier(cl_mem_fence_flags flags) {
  fcl_sg_barrier();
}
__attribute__((overloadable, convergent)) void sub_group_barrier(cl_mem_fence_flags flags,
                                                                 memory_scope scope) {
  fcl_sg_barrier();
}

#define FCL_SG_ADD(a, b) ((a) + (b))
#define FCL_SG_MIN(a, b) ((b) < (a) ? (b) : (a))
#define FCL_SG_MAX(a, b) ((b) > (a) ? (b) : (a))
#define FCL_SG_ALL_LANES 1
#define FCL_SG_UP_TO_ME (j <= me)
#define FCL_SG_BEFORE_ME (j < me)

FCL_OVL int sub_group_all(int predicate) {
  if (__fibercl_sub_group_vectors())
    return __fibercl_sg_v_all(predicate);
  return FCL_SG_FOLD(int, predicate != 0, FCL_SG_MIN, 1, FCL_SG_ALL_LANES);
}
FCL_OVL int sub_group_any(int predicate) {
  if (__fibercl_sub_group_vectors())
    return __fibercl_sg_v_any(predicate);
  return FCL_SG_FOLD(int, predicate != 0, FCL_SG_MAX, 0, FCL_SG_ALL_LANES);
}

/* Reductions and broadcasts have a vector form (fcl_sub_group.h); scans do not (yet):
 * a kernel that scans keeps the slots. */
#define FCL_SG_CORE_OP(T, S, NAME, OP, ID)                                                 \
  FCL_OVL T sub_group_reduce_##NAME(T x) {                                                 \
    if (__fibercl_sub_group_vectors())                                                     \
      return __fibercl_sg_v_reduce_##NAME##_##S(x);                                        \
    return FCL_SG_FOLD(T, x, OP, ID, FCL_SG_ALL_LANES);                                    \
  }                                                                                        \
  FCL_OVL T sub_group_scan_inclusive_##NAME(T x) {                                         \
    return FCL_SG_FOLD(T, x, OP, ID, FCL_SG_UP_TO_ME);                                     \
  }                                                                                        \
  FCL_OVL T sub_group_scan_exclusive_##NAME(T x) {                                         \
    return FCL_SG_FOLD(T, x, OP, ID, FCL_SG_BEFORE_ME);                                    \
  }
#define FCL_SG_CORE_TYPE(T, S, MIN, MAX)                                                   \
  FCL_OVL T sub_group_broadcast(T x, uint id) {                                            \
    if (__fibercl_sub_group_vectors())                                                     \
      return __fibercl_sg_v_broadcast_##S(x, id);                                          \
    FCL_SG_PUBLISH(T, x);                                                                  \
    fcl_sg_sync();                                                                         \
    T r = FCL_SG_READ(T, id);                                                              \
    fcl_sg_sync();                                                                         \
    return r;                                                                              \
  }                                                                                        \
  FCL_SG_CORE_OP(T, S, add, FCL_SG_ADD, (T)0)                                              \
  FCL_SG_CORE_OP(T, S, min, FCL_SG_MIN, MAX)                                               \
  FCL_SG_CORE_OP(T, S, max, FCL_SG_MAX, MIN)

FCL_SG_CORE_TYPE(int, i32, INT_MIN, INT_MAX)
FCL_SG_CORE_TYPE(uint, u32, 0u, UINT_MAX)
FCL_SG_CORE_TYPE(long, i64, LONG_MIN, LONG_MAX)
FCL_SG_CORE_TYPE(ulong, u64, 0ul, ULONG_MAX)
FCL_SG_CORE_TYPE(float, f32, -INFINITY, INFINITY)
FCL_SG_CORE_TYPE(double, f64, -(double)INFINITY, (double)INFINITY)
FCL_SG_CORE_TYPE(half, f16, -(half)INFINITY, (half)INFINITY)

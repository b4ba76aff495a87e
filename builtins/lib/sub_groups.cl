/* Sub-groups (cl_khr_subgroups, OpenCL C 3.0 feature __opencl_c_subgroups): the
 * queries, sub_group_barrier and the core collectives. What a sub-group is and how its
 * work-items exchange values: fcl_sub_group.h. The cl_khr_subgroup_* extensions are in
 * the other sub_groups_*.cl files.
 *
 * Sub-groups make no independent forward progress guarantee
 * (CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS is false): the work-items of a
 * group run one after another on one host thread, and a sub-group spinning on another
 * one's write would never let it run.
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
__attribute__((overloadable, convergent)) void sub_group_barrier(cl_mem_fence_flags flags) {
  fcl_sg_sync();
}
__attribute__((overloadable, convergent)) void sub_group_barrier(cl_mem_fence_flags flags,
                                                                 memory_scope scope) {
  fcl_sg_sync();
}

#define FCL_SG_ADD(a, b) ((a) + (b))
#define FCL_SG_MIN(a, b) ((b) < (a) ? (b) : (a))
#define FCL_SG_MAX(a, b) ((b) > (a) ? (b) : (a))
#define FCL_SG_ALL_LANES 1
#define FCL_SG_UP_TO_ME (j <= me)
#define FCL_SG_BEFORE_ME (j < me)

FCL_OVL int sub_group_all(int predicate) {
  return FCL_SG_FOLD(int, predicate != 0, FCL_SG_MIN, 1, FCL_SG_ALL_LANES);
}
FCL_OVL int sub_group_any(int predicate) {
  return FCL_SG_FOLD(int, predicate != 0, FCL_SG_MAX, 0, FCL_SG_ALL_LANES);
}

#define FCL_SG_CORE_OP(T, NAME, OP, ID)                                              \
  FCL_OVL T sub_group_reduce_##NAME(T x) { return FCL_SG_FOLD(T, x, OP, ID, FCL_SG_ALL_LANES); }  \
  FCL_OVL T sub_group_scan_inclusive_##NAME(T x) { return FCL_SG_FOLD(T, x, OP, ID, FCL_SG_UP_TO_ME); } \
  FCL_OVL T sub_group_scan_exclusive_##NAME(T x) {                                         \
    return FCL_SG_FOLD(T, x, OP, ID, FCL_SG_BEFORE_ME);                                           \
  }
#define FCL_SG_CORE_TYPE(T, MIN, MAX)                                                \
  FCL_OVL T sub_group_broadcast(T x, uint id) {                                            \
    FCL_SG_PUBLISH(T, x);                                                                  \
    fcl_sg_sync();                                                                         \
    T r = FCL_SG_READ(T, id);                                                              \
    fcl_sg_sync();                                                                         \
    return r;                                                                              \
  }                                                                                        \
  FCL_SG_CORE_OP(T, add, FCL_SG_ADD, (T)0)                                           \
  FCL_SG_CORE_OP(T, min, FCL_SG_MIN, MAX)                                            \
  FCL_SG_CORE_OP(T, max, FCL_SG_MAX, MIN)

FCL_SG_CORE_TYPE(int, INT_MIN, INT_MAX)
FCL_SG_CORE_TYPE(uint, 0u, UINT_MAX)
FCL_SG_CORE_TYPE(long, LONG_MIN, LONG_MAX)
FCL_SG_CORE_TYPE(ulong, 0ul, ULONG_MAX)
FCL_SG_CORE_TYPE(float, -INFINITY, INFINITY)
FCL_SG_CORE_TYPE(double, -(double)INFINITY, (double)INFINITY)
FCL_SG_CORE_TYPE(half, -(half)INFINITY, (half)INFINITY)

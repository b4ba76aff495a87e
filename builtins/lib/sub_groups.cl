/* Sub-groups (cl_khr_subgroups, OpenCL C 3.0 feature __opencl_c_subgroups).
 *
 * A work-group is one sub-group: its work-items run one after another on one host
 * thread, so there is no narrower hardware unit a sub-group could stand for, and a
 * sub-group as wide as the group keeps every sub-group function a work-group one
 * (barriers and the collectives' scratch area). The runtime reports the same
 * (clGetKernelSubGroupInfo: one sub-group of the local size; CL_DEVICE_MAX_NUM_SUB_GROUPS
 * 1). Sub-groups make no independent forward progress guarantee
 * (CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS is false).
 */
#include "fcl_internal.h"

FCL_OVL uint get_sub_group_size(void) {
  return (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));
}
FCL_OVL uint get_max_sub_group_size(void) {
  return (uint)(get_enqueued_local_size(0) * get_enqueued_local_size(1) *
                get_enqueued_local_size(2));
}
FCL_OVL uint get_num_sub_groups(void) { return 1; }
FCL_OVL uint get_enqueued_num_sub_groups(void) { return 1; }
FCL_OVL uint get_sub_group_id(void) { return 0; }
FCL_OVL uint get_sub_group_local_id(void) { return (uint)get_local_linear_id(); }

__attribute__((overloadable, convergent)) void sub_group_barrier(cl_mem_fence_flags flags) {
  work_group_barrier(flags);
}
__attribute__((overloadable, convergent)) void sub_group_barrier(cl_mem_fence_flags flags,
                                                                 memory_scope scope) {
  work_group_barrier(flags, scope);
}

FCL_OVL int sub_group_all(int predicate) { return work_group_all(predicate); }
FCL_OVL int sub_group_any(int predicate) { return work_group_any(predicate); }

#define FCL_SG_TYPE(T)                                                                     \
  FCL_OVL T sub_group_broadcast(T x, uint id) { return work_group_broadcast(x, (size_t)id); } \
  FCL_SG_OP(T, add) FCL_SG_OP(T, min) FCL_SG_OP(T, max)
#define FCL_SG_OP(T, OP)                                                                   \
  FCL_OVL T sub_group_reduce_##OP(T x) { return work_group_reduce_##OP(x); }               \
  FCL_OVL T sub_group_scan_inclusive_##OP(T x) { return work_group_scan_inclusive_##OP(x); } \
  FCL_OVL T sub_group_scan_exclusive_##OP(T x) { return work_group_scan_exclusive_##OP(x); }

FCL_SG_TYPE(int)
FCL_SG_TYPE(uint)
FCL_SG_TYPE(long)
FCL_SG_TYPE(ulong)
FCL_SG_TYPE(float)
FCL_SG_TYPE(double)

/* half (cl_khr_fp16): through the float collectives, rounded once (as the work-group
 * collectives' half overloads do). */
#define FCL_SG_HALF_OP(OP)                                                                 \
  FCL_OVL half sub_group_reduce_##OP(half x) { return (half)work_group_reduce_##OP((float)x); } \
  FCL_OVL half sub_group_scan_inclusive_##OP(half x) {                                     \
    return (half)work_group_scan_inclusive_##OP((float)x);                                 \
  }                                                                                        \
  FCL_OVL half sub_group_scan_exclusive_##OP(half x) {                                     \
    return (half)work_group_scan_exclusive_##OP((float)x);                                 \
  }
FCL_OVL half sub_group_broadcast(half x, uint id) {
  return (half)work_group_broadcast((float)x, (size_t)id);
}
FCL_SG_HALF_OP(add)
FCL_SG_HALF_OP(min)
FCL_SG_HALF_OP(max)

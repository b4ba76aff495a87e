/* cl_khr_subgroup_shuffle (sub_group_shuffle, sub_group_shuffle_xor),
 * cl_khr_subgroup_shuffle_relative (sub_group_shuffle_up, sub_group_shuffle_down) and
 * cl_khr_subgroup_rotate (sub_group_rotate, sub_group_clustered_rotate): x of another
 * lane. Primitives: fcl_sub_group.h, fcl_sub_group_ext.h.
 *
 * A lane that is outside the sub-group or not active (an index or delta out of range:
 * undefined, and what the CTS checks with) gives this lane's own x. Rotations wrap at
 * the maximum sub-group size (get_max_sub_group_size(), as in the CTS's reference, even
 * in a smaller last sub-group) or at the cluster size; delta is taken as unsigned
 * (SPIR-V's OpGroupNonUniformRotateKHR), the sum computed in 64 bits as the CTS does.
 */
#include "fcl_sub_group_ext.h"

#define FCL_SG_SHUFFLES(T, ...)                                                            \
  FCL_OVL T sub_group_shuffle(T x, uint index) { return FCL_SG_GET(T, x, index); }         \
  FCL_OVL T sub_group_shuffle_xor(T x, uint mask) { return FCL_SG_GET(T, x, me ^ mask); }  \
  FCL_OVL T sub_group_shuffle_up(T x, uint delta) {                                        \
    return FCL_SG_GET(T, x, (ulong)me - delta);                                            \
  }                                                                                        \
  FCL_OVL T sub_group_shuffle_down(T x, uint delta) {                                      \
    return FCL_SG_GET(T, x, (ulong)me + delta);                                            \
  }                                                                                        \
  FCL_OVL T sub_group_rotate(T x, int delta) {                                             \
    return FCL_SG_GET(T, x, ((ulong)me + (uint)delta) % fcl_sg_max_size());               \
  }                                                                                        \
  FCL_OVL T sub_group_clustered_rotate(T x, int delta, uint clustersize) {                 \
    ulong mask = clustersize - 1;                                                          \
    return FCL_SG_GET(T, x, (me & ~mask) + (((ulong)me + (uint)delta) & mask));            \
  }

FCL_INT_TYPES(FCL_SG_SHUFFLES)
FCL_FLOAT_TYPES(FCL_SG_SHUFFLES)
FCL_SG_SHUFFLES(half)

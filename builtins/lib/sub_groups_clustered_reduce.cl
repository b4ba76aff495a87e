/* cl_khr_subgroup_clustered_reduce: sub_group_clustered_reduce_<op>(x, clustersize),
 * the reduction over this lane's cluster, the clustersize lanes starting at a multiple
 * of clustersize (a power of two, at most the maximum sub-group size), of those that
 * call it together (the active lanes). Primitives: fcl_sub_group.h, fcl_sub_group_ext.h.
 *
 * As in the CTS's host reference: lane order, half arithmetic in half (each step
 * rounded), integers wrapping in their type; logical operations give 0 or 1.
 */
#include "fcl_sub_group_ext.h"

/* j (a lane of FCL_SG_FOLD) is in `me`'s cluster. */
#define FCL_SG_IN_CLUSTER (((j ^ me) & ~(clustersize - 1)) == 0)

#define FCL_SG_CLUSTERED(T, NAME, OP, IN)                                                  \
  FCL_OVL T sub_group_clustered_reduce_##NAME(T x, uint clustersize) {                     \
    return FCL_SG_FOLD(T, IN, OP, (T)0, FCL_SG_IN_CLUSTER);                                \
  }
#define FCL_SG_CLUSTERED_ARITH(T, ...)                                                     \
  FCL_SG_CLUSTERED(T, add, FCL_SG_OP_ADD, x)                                               \
  FCL_SG_CLUSTERED(T, mul, FCL_SG_OP_MUL, x)                                               \
  FCL_SG_CLUSTERED(T, min, FCL_SG_OP_MIN, x)                                               \
  FCL_SG_CLUSTERED(T, max, FCL_SG_OP_MAX, x)
#define FCL_SG_CLUSTERED_INT(T, ...)                                                       \
  FCL_SG_CLUSTERED_ARITH(T)                                                                \
  FCL_SG_CLUSTERED(T, and, FCL_SG_OP_AND, x)                                               \
  FCL_SG_CLUSTERED(T, or, FCL_SG_OP_OR, x)                                                 \
  FCL_SG_CLUSTERED(T, xor, FCL_SG_OP_XOR, x)

FCL_INT_TYPES(FCL_SG_CLUSTERED_INT)
FCL_FLOAT_TYPES(FCL_SG_CLUSTERED_ARITH)
FCL_SG_CLUSTERED_ARITH(half)

FCL_SG_CLUSTERED(int, logical_and, FCL_SG_OP_AND, (x != 0))
FCL_SG_CLUSTERED(int, logical_or, FCL_SG_OP_OR, (x != 0))
FCL_SG_CLUSTERED(int, logical_xor, FCL_SG_OP_XOR, (x != 0))

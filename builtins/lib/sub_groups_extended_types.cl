/* cl_khr_subgroup_extended_types: the core sub-group collectives (sub_groups.cl) for
 * char, uchar, short and ushort, and sub_group_broadcast for every vector type.
 * Primitives: fcl_sub_group.h, fcl_sub_group_ext.h.
 *
 * Vectors wider than 8 bytes are broadcast in 8-byte chunks. Integer sums wrap in the
 * element type (the CTS's host reference).
 */
#include "fcl_sub_group_ext.h"

#define FCL_SG_BROADCAST(W, T)                                                             \
  FCL_OVL T##W sub_group_broadcast(T##W x, uint id) { return FCL_SG_GET(T##W, x, id); }

#define FCL_SG_SMALL_INT(T)                                                                \
  FCL_SG_BROADCAST(, T)                                                                    \
  FCL_SG_REDUCE_SCANS(sub_group_, T, add, FCL_SG_OP_ADD, (T)0, x)                          \
  FCL_SG_REDUCE_SCANS(sub_group_, T, min, FCL_SG_OP_MIN, (T)FCL_MAX_##T, x)                \
  FCL_SG_REDUCE_SCANS(sub_group_, T, max, FCL_SG_OP_MAX, (T)FCL_MIN_##T, x)

FCL_SG_SMALL_INT(char)
FCL_SG_SMALL_INT(uchar)
FCL_SG_SMALL_INT(short)
FCL_SG_SMALL_INT(ushort)

/* The scalar overloads of the other types are cl_khr_subgroups' (sub_groups.cl). */
FCL_INT_TYPES(FCL_ALLVW, FCL_SG_BROADCAST)
FCL_FLOAT_TYPES(FCL_ALLVW, FCL_SG_BROADCAST)
FCL_ALLVW(half, FCL_SG_BROADCAST)

/* cl_khr_subgroup_ballot: non-uniform broadcasts, sub_group_ballot and the functions
 * on its bit masks. Primitives: fcl_sub_group.h, fcl_sub_group_ext.h.
 *
 * A mask has a bit per lane, lane j at bit j % 32 of component j / 32: sub-groups have
 * at most 64 lanes, so only .x and .y are ever set by these functions. As in the CTS's
 * host references, the mask functions count the bits of every lane below the maximum
 * sub-group size (get_max_sub_group_size()), and get_sub_group_ge/gt_mask set the bits
 * up to it, whether or not this sub-group (the last one of a group) is that large.
 */
#include "fcl_sub_group_ext.h"

/* The lanes of a mask below the maximum sub-group size, and back. */
FCL_INLINE ulong fcl_sg_bits(uint4 v) {
  return (((ulong)v.y << 32) | v.x) & fcl_sg_lanes_below(fcl_sg_max_size());
}
FCL_INLINE uint4 fcl_sg_mask(ulong m) { return (uint4)((uint)m, (uint)(m >> 32), 0, 0); }

#define FCL_SG_NU_BROADCAST(W, T)                                                          \
  FCL_OVL T##W sub_group_non_uniform_broadcast(T##W x, uint id) {                          \
    return FCL_SG_GET(T##W, x, id);                                                        \
  }
#define FCL_SG_BROADCAST_FIRST(T, ...)                                                     \
  FCL_OVL T sub_group_broadcast_first(T x) { return FCL_SG_GET(T, x, ctz(fcl_sg_active())); }

FCL_INT_TYPES(FCL_ALLW, FCL_SG_NU_BROADCAST)
FCL_FLOAT_TYPES(FCL_ALLW, FCL_SG_NU_BROADCAST)
FCL_ALLW(half, FCL_SG_NU_BROADCAST)
FCL_INT_TYPES(FCL_SG_BROADCAST_FIRST)
FCL_FLOAT_TYPES(FCL_SG_BROADCAST_FIRST)
FCL_SG_BROADCAST_FIRST(half)

FCL_OVL uint4 sub_group_ballot(int predicate) {
  ulong bit = predicate ? 1ul << fcl_sg_lane() : 0;
  return fcl_sg_mask(FCL_SG_FOLD(ulong, bit, FCL_SG_OP_OR, 0, 1));
}

/* The bit of this lane; of lane `index`, of any of the 128. */
FCL_CONST int sub_group_inverse_ballot(uint4 value) {
  uint lane = fcl_sg_lane();
  return ((lane < 32 ? value.x : value.y) >> (lane & 31)) & 1;
}
FCL_CONST int sub_group_ballot_bit_extract(uint4 value, uint index) {
  uint w = index < 32 ? value.x : index < 64 ? value.y : index < 96 ? value.z : value.w;
  return index < 128 ? (w >> (index & 31)) & 1 : 0;
}

FCL_CONST uint sub_group_ballot_bit_count(uint4 value) {
  return (uint)popcount(fcl_sg_bits(value));
}
FCL_OVL uint sub_group_ballot_inclusive_scan(uint4 value) {
  return (uint)popcount(fcl_sg_bits(value) & fcl_sg_lanes_below(fcl_sg_lane() + 1));
}
FCL_OVL uint sub_group_ballot_exclusive_scan(uint4 value) {
  return (uint)popcount(fcl_sg_bits(value) & fcl_sg_lanes_below(fcl_sg_lane()));
}
/* Undefined for a mask without bits: then 64 and UINT_MAX. */
FCL_OVL uint sub_group_ballot_find_lsb(uint4 value) { return (uint)ctz(fcl_sg_bits(value)); }
FCL_OVL uint sub_group_ballot_find_msb(uint4 value) {
  return 63u - (uint)clz(fcl_sg_bits(value));
}

FCL_CONST uint4 get_sub_group_eq_mask(void) { return fcl_sg_mask(1ul << fcl_sg_lane()); }
FCL_CONST uint4 get_sub_group_ge_mask(void) {
  return fcl_sg_mask(fcl_sg_lanes_below(fcl_sg_max_size()) & ~fcl_sg_lanes_below(fcl_sg_lane()));
}
FCL_CONST uint4 get_sub_group_gt_mask(void) {
  return fcl_sg_mask(fcl_sg_lanes_below(fcl_sg_max_size()) &
                     ~fcl_sg_lanes_below(fcl_sg_lane() + 1));
}
FCL_CONST uint4 get_sub_group_le_mask(void) {
  return fcl_sg_mask(fcl_sg_lanes_below(fcl_sg_lane() + 1));
}
FCL_CONST uint4 get_sub_group_lt_mask(void) {
  return fcl_sg_mask(fcl_sg_lanes_below(fcl_sg_lane()));
}

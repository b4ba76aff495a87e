/* cl_khr_subgroup_non_uniform_vote: sub_group_elect, sub_group_non_uniform_all/any
 * and sub_group_non_uniform_all_equal, over the lanes that call them together (the
 * active lanes). Primitives: fcl_sub_group.h, fcl_sub_group_ext.h.
 *
 * all_equal compares with ==, as the CTS does: floating-point -0 equals +0 and a NaN
 * equals nothing.
 */
#include "fcl_sub_group_ext.h"

FCL_OVL int sub_group_elect(void) {
  fcl_sg_sync();
  return fcl_sg_lane() == (uint)ctz(fcl_sg_active());
}

FCL_OVL int sub_group_non_uniform_all(int predicate) {
  return FCL_SG_FOLD(int, predicate != 0, FCL_SG_OP_MIN, 1, 1);
}
FCL_OVL int sub_group_non_uniform_any(int predicate) {
  return FCL_SG_FOLD(int, predicate != 0, FCL_SG_OP_MAX, 0, 1);
}

/* Every active lane's value against the lowest active lane's. */
#define FCL_SG_ALL_EQUAL(T, ...)                                                               \
  FCL_OVL int sub_group_non_uniform_all_equal(T x) {                                       \
    FCL_SG_PUBLISH(T, x);                                                                  \
    fcl_sg_sync();                                                                         \
    ulong act = fcl_sg_active();                                                           \
    T first = FCL_SG_READ(T, ctz(act));                                                    \
    int eq = 1;                                                                            \
    for (; act; act &= act - 1)                                                            \
      eq &= FCL_SG_READ(T, ctz(act)) == first;                                             \
    fcl_sg_sync();                                                                         \
    return eq;                                                                             \
  }

FCL_INT_TYPES(FCL_SG_ALL_EQUAL)
FCL_FLOAT_TYPES(FCL_SG_ALL_EQUAL)
FCL_SG_ALL_EQUAL(half)

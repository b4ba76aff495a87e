/* cl_khr_subgroup_non_uniform_arithmetic: sub_group_non_uniform_reduce_<op>,
 * _scan_inclusive_<op> and _scan_exclusive_<op> over the lanes that call them together
 * (the active lanes). Primitives: fcl_sub_group.h, fcl_sub_group_ext.h.
 *
 * As in the CTS's host references: values are combined in lane order (floating-point
 * results depend on it), half ones in half (each step rounded, which is what computing
 * in float and rounding each step gives), integer ones wrap in their type; the first
 * active lane of an exclusive scan gets the identity (0, 1, the type's largest or
 * smallest value or +-infinity, all ones). Logical operations take and give 0 or 1.
 */
#include "fcl_sub_group_ext.h"

#define FCL_SG_NU(T, NAME, OP, ID) FCL_SG_REDUCE_SCANS(sub_group_non_uniform_, T, NAME, OP, ID, x)

#define FCL_SG_NU_ARITH(T, MIN, MAX)                                                       \
  FCL_SG_NU(T, add, FCL_SG_OP_ADD, (T)0)                                                   \
  FCL_SG_NU(T, mul, FCL_SG_OP_MUL, (T)1)                                                   \
  FCL_SG_NU(T, min, FCL_SG_OP_MIN, MAX)                                                    \
  FCL_SG_NU(T, max, FCL_SG_OP_MAX, MIN)
#define FCL_SG_NU_INT(T, ...)                                                              \
  FCL_SG_NU_ARITH(T, (T)FCL_MIN_##T, (T)FCL_MAX_##T)                                       \
  FCL_SG_NU(T, and, FCL_SG_OP_AND, (T)~(T)0)                                               \
  FCL_SG_NU(T, or, FCL_SG_OP_OR, (T)0)                                                     \
  FCL_SG_NU(T, xor, FCL_SG_OP_XOR, (T)0)

FCL_INT_TYPES(FCL_SG_NU_INT)
FCL_SG_NU_ARITH(float, -INFINITY, INFINITY)
FCL_SG_NU_ARITH(double, -(double)INFINITY, (double)INFINITY)
FCL_SG_NU_ARITH(half, -(half)INFINITY, (half)INFINITY)

#define FCL_SG_LOGICAL(NAME, OP, ID)                                                       \
  FCL_SG_REDUCE_SCANS(sub_group_non_uniform_, int, logical_##NAME, OP, ID, (x != 0))
FCL_SG_LOGICAL(and, FCL_SG_OP_AND, 1)
FCL_SG_LOGICAL(or, FCL_SG_OP_OR, 0)
FCL_SG_LOGICAL(xor, FCL_SG_OP_XOR, 0)

/* FiberCL builtins library: what the cl_khr_subgroup_* extension files
 * (builtins/lib/sub_groups_*.cl) share, on top of the primitives of fcl_sub_group.h.
 *
 * Clang declares the extensions' builtins (-fdeclare-opencl-builtins) only where the
 * extension's macro is defined, and -cl-ext defines macros only for the extensions
 * Clang knows, which these are not (for x86). The front end defines every extension
 * as a macro for kernels; the library does it here, so that the definitions below
 * are checked against Clang's declarations.
 */
#ifndef FIBERCL_SUB_GROUP_EXT_H
#define FIBERCL_SUB_GROUP_EXT_H

#ifndef cl_khr_subgroup_extended_types
#define cl_khr_subgroup_extended_types 1
#endif
#ifndef cl_khr_subgroup_non_uniform_vote
#define cl_khr_subgroup_non_uniform_vote 1
#endif
#ifndef cl_khr_subgroup_ballot
#define cl_khr_subgroup_ballot 1
#endif
#ifndef cl_khr_subgroup_non_uniform_arithmetic
#define cl_khr_subgroup_non_uniform_arithmetic 1
#endif
#ifndef cl_khr_subgroup_shuffle
#define cl_khr_subgroup_shuffle 1
#endif
#ifndef cl_khr_subgroup_shuffle_relative
#define cl_khr_subgroup_shuffle_relative 1
#endif
#ifndef cl_khr_subgroup_clustered_reduce
#define cl_khr_subgroup_clustered_reduce 1
#endif
#ifndef cl_khr_subgroup_rotate
#define cl_khr_subgroup_rotate 1
#endif

#include "fcl_sub_group.h"
#include "fcl_vec.h"

/* get_max_sub_group_size(): the kernel's sub-group size, or the enqueued work-group
 * size if that is smaller. */
FCL_INLINE uint fcl_sg_max_size(void) {
  uint n = (uint)(get_enqueued_local_size(0) * get_enqueued_local_size(1) *
                  get_enqueued_local_size(2));
  return n < fcl_sg_width() ? n : fcl_sg_width();
}
/* The lanes below n (n <= 64). */
FCL_INLINE ulong fcl_sg_lanes_below(uint n) { return n >= 64 ? ~0ul : (1ul << n) - 1; }

/* The value x of the lane SRC, for a value of any type T (scalar or vector): x is
 * published, SRC (a ulong expression, evaluated after the sub-group barrier, so it
 * may use fcl_sg_active() and `me`, this lane) names the lane to read. If that lane
 * is not an active lane of this sub-group (the result is undefined then), the result
 * is this lane's own x. Types wider than a slot go through it in 8-byte chunks (a
 * publish / sync / read / sync round each). */
#define FCL_SG_GET(T, x, SRC)                                                              \
  ({                                                                                       \
    T v_ = (x);                                                                            \
    uint me = fcl_sg_lane();                                                               \
    if (sizeof(T) <= 8) {                                                                  \
      FCL_SG_PUBLISH(T, v_);                                                               \
      fcl_sg_sync();                                                                       \
      ulong src_ = (SRC);                                                                  \
      if (src_ < 64 && ((fcl_sg_active() >> src_) & 1))                                    \
        v_ = FCL_SG_READ(T, src_);                                                         \
      fcl_sg_sync();                                                                       \
    } else {                                                                               \
      union {                                                                              \
        T v;                                                                               \
        ulong w[(sizeof(T) + 7) / 8];                                                      \
      } u_;                                                                                \
      u_.v = v_;                                                                           \
      for (uint c_ = 0; c_ < (sizeof(T) + 7) / 8; ++c_) {                                  \
        FCL_SG_PUBLISH(ulong, u_.w[c_]);                                                   \
        fcl_sg_sync();                                                                     \
        ulong src_ = (SRC);                                                                \
        if (src_ < 64 && ((fcl_sg_active() >> src_) & 1))                                  \
          u_.w[c_] = FCL_SG_READ(ulong, src_);                                             \
        fcl_sg_sync();                                                                     \
      }                                                                                    \
      v_ = u_.v;                                                                           \
    }                                                                                      \
    (void)me;                                                                              \
    v_;                                                                                    \
  })

/* Operators for FCL_SG_FOLD (arguments of the value's type; integer results are
 * truncated to it, as the CTS's host references do). */
#define FCL_SG_OP_ADD(a, b) ((a) + (b))
#define FCL_SG_OP_MUL(a, b) ((a) * (b))
#define FCL_SG_OP_MIN(a, b) ((b) < (a) ? (b) : (a))
#define FCL_SG_OP_MAX(a, b) ((b) > (a) ? (b) : (a))
#define FCL_SG_OP_AND(a, b) ((a) & (b))
#define FCL_SG_OP_OR(a, b) ((a) | (b))
#define FCL_SG_OP_XOR(a, b) ((a) ^ (b))

/* PREFIX##reduce_NAME, PREFIX##scan_inclusive_NAME and PREFIX##scan_exclusive_NAME
 * for T: OP over the active lanes' IN (an expression of x), in lane order; ID for
 * the first lane of an exclusive scan. */
#define FCL_SG_REDUCE_SCANS(PREFIX, T, NAME, OP, ID, IN)                                   \
  FCL_OVL T PREFIX##reduce_##NAME(T x) { return FCL_SG_FOLD(T, IN, OP, ID, 1); }           \
  FCL_OVL T PREFIX##scan_inclusive_##NAME(T x) { return FCL_SG_FOLD(T, IN, OP, ID, j <= me); } \
  FCL_OVL T PREFIX##scan_exclusive_##NAME(T x) { return FCL_SG_FOLD(T, IN, OP, ID, j < me); }

#endif

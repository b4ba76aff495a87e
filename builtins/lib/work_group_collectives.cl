/* Work-group collective functions (OpenCL C 3.0 s6.15.15, feature
 * __opencl_c_work_group_collective_functions): work_group_all/any/broadcast,
 * work_group_reduce_<op>, work_group_scan_inclusive_<op> and
 * work_group_scan_exclusive_<op> for op in add, min, max and the types int, uint,
 * long, ulong, float, double and half.
 *
 * Every work-item of the group calls the function (the specification requires it), so
 * they are built on barriers and a scratch area in the group's local block (the
 * marker __fibercl_collective_scratch, placed by the compiler's LocalMemoryPass; room for one
 * 8-byte value per work-item plus one): each work-item stores its value, work-item 0
 * combines them, everyone reads its result. The last barrier keeps the scratch intact
 * until every work-item has read it, so collectives can follow each other.
 * Floating-point reductions and scans combine in local-id order.
 */
#include "fcl_internal.h"

__local void *__fibercl_collective_scratch(void);

static inline uint fcl_wg_items(void) {
  return (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));
}

#define FCL_WG_ADD(a, b) ((a) + (b))
#define FCL_WG_MIN(a, b) ((b) < (a) ? (b) : (a))
#define FCL_WG_MAX(a, b) ((b) > (a) ? (b) : (a))

/* Identities of the exclusive scans (s6.15.15: 0 for add, the type's largest value
 * for min, its smallest for max; +-INFINITY for floating point). */
#define FCL_WG_ID_add(T, MIN, MAX) ((T)0)
#define FCL_WG_ID_min(T, MIN, MAX) (MAX)
#define FCL_WG_ID_max(T, MIN, MAX) (MIN)

#define FCL_WG_OPS(T, MIN, MAX)                                                            \
  FCL_WG_OP(T, add, FCL_WG_ADD, MIN, MAX)                                                  \
  FCL_WG_OP(T, min, FCL_WG_MIN, MIN, MAX)                                                  \
  FCL_WG_OP(T, max, FCL_WG_MAX, MIN, MAX)                                                  \
  FCL_OVL T work_group_broadcast(T a, size_t x) {                                          \
    __local T *s = (__local T *)__fibercl_collective_scratch();                                    \
    if (get_local_linear_id() == x)                                                        \
      s[0] = a;                                                                            \
    barrier(CLK_LOCAL_MEM_FENCE);                                                          \
    T r = s[0];                                                                            \
    barrier(CLK_LOCAL_MEM_FENCE);                                                          \
    return r;                                                                              \
  }                                                                                        \
  FCL_OVL T work_group_broadcast(T a, size_t x, size_t y) {                                \
    return work_group_broadcast(a, y * get_local_size(0) + x);                             \
  }                                                                                        \
  FCL_OVL T work_group_broadcast(T a, size_t x, size_t y, size_t z) {                      \
    return work_group_broadcast(a, (z * get_local_size(1) + y) * get_local_size(0) + x);   \
  }

#define FCL_WG_OP(T, NAME, OP, MIN, MAX)                                                   \
  FCL_OVL T work_group_reduce_##NAME(T x) {                                                \
    __local T *s = (__local T *)__fibercl_collective_scratch();                                    \
    uint n = fcl_wg_items(), id = (uint)get_local_linear_id();                             \
    s[id] = x;                                                                             \
    barrier(CLK_LOCAL_MEM_FENCE);                                                          \
    if (id == 0) {                                                                         \
      T acc = s[0];                                                                        \
      for (uint i = 1; i < n; ++i)                                                         \
        acc = OP(acc, s[i]);                                                               \
      s[n] = acc;                                                                          \
    }                                                                                      \
    barrier(CLK_LOCAL_MEM_FENCE);                                                          \
    T r = s[n];                                                                            \
    barrier(CLK_LOCAL_MEM_FENCE);                                                          \
    return r;                                                                              \
  }                                                                                        \
  FCL_OVL T work_group_scan_inclusive_##NAME(T x) {                                        \
    __local T *s = (__local T *)__fibercl_collective_scratch();                                    \
    uint n = fcl_wg_items(), id = (uint)get_local_linear_id();                             \
    s[id] = x;                                                                             \
    barrier(CLK_LOCAL_MEM_FENCE);                                                          \
    if (id == 0)                                                                           \
      for (uint i = 1; i < n; ++i)                                                         \
        s[i] = OP(s[i - 1], s[i]);                                                         \
    barrier(CLK_LOCAL_MEM_FENCE);                                                          \
    T r = s[id];                                                                           \
    barrier(CLK_LOCAL_MEM_FENCE);                                                          \
    return r;                                                                              \
  }                                                                                        \
  FCL_OVL T work_group_scan_exclusive_##NAME(T x) {                                        \
    __local T *s = (__local T *)__fibercl_collective_scratch();                                    \
    uint n = fcl_wg_items(), id = (uint)get_local_linear_id();                             \
    s[id + 1] = x;                                                                         \
    barrier(CLK_LOCAL_MEM_FENCE);                                                          \
    if (id == 0) {                                                                         \
      s[0] = FCL_WG_ID_##NAME(T, MIN, MAX);                                                \
      for (uint i = 1; i < n; ++i)                                                         \
        s[i] = OP(s[i - 1], s[i]);                                                         \
    }                                                                                      \
    barrier(CLK_LOCAL_MEM_FENCE);                                                          \
    T r = s[id];                                                                           \
    barrier(CLK_LOCAL_MEM_FENCE);                                                          \
    return r;                                                                              \
  }

FCL_WG_OPS(int, INT_MIN, INT_MAX)
FCL_WG_OPS(uint, 0u, UINT_MAX)
FCL_WG_OPS(long, LONG_MIN, LONG_MAX)
FCL_WG_OPS(ulong, 0ul, ULONG_MAX)
FCL_WG_OPS(float, -INFINITY, INFINITY)
FCL_WG_OPS(double, -(double)INFINITY, (double)INFINITY)

/* half (cl_khr_fp16, s6.15.15's gentype includes it): through the float collectives,
 * each result rounded once (min and max are exact either way; a sum in float loses
 * less than one in half). */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define FCL_WG_HALF_OP(NAME)                                                               \
  FCL_OVL half work_group_reduce_##NAME(half x) {                                          \
    return (half)work_group_reduce_##NAME((float)x);                                       \
  }                                                                                        \
  FCL_OVL half work_group_scan_inclusive_##NAME(half x) {                                  \
    return (half)work_group_scan_inclusive_##NAME((float)x);                               \
  }                                                                                        \
  FCL_OVL half work_group_scan_exclusive_##NAME(half x) {                                  \
    return (half)work_group_scan_exclusive_##NAME((float)x);                               \
  }
FCL_WG_HALF_OP(add)
FCL_WG_HALF_OP(min)
FCL_WG_HALF_OP(max)
FCL_OVL half work_group_broadcast(half a, size_t x) {
  return (half)work_group_broadcast((float)a, x);
}
FCL_OVL half work_group_broadcast(half a, size_t x, size_t y) {
  return (half)work_group_broadcast((float)a, x, y);
}
FCL_OVL half work_group_broadcast(half a, size_t x, size_t y, size_t z) {
  return (half)work_group_broadcast((float)a, x, y, z);
}

/* Non-zero in every (all) or some (any) work-item; the result is 1 or 0. */
FCL_OVL int work_group_all(int predicate) { return work_group_reduce_min(predicate != 0); }
FCL_OVL int work_group_any(int predicate) { return work_group_reduce_max(predicate != 0); }

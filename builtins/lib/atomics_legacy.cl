/* OpenCL 1.x atomic functions: atomic_* (OpenCL C 1.1+ core) and atom_*
 * (cl_khr_{global,local}_int32_{base,extended}_atomics, cl_khr_int64_*).
 *
 * The specification leaves their memory ordering unspecified (relaxed is
 * enough); FiberCL makes them sequentially consistent, which on x86 costs
 * nothing over relaxed for read-modify-write operations (all are lock-prefixed)
 * and makes GPU-style hand-rolled synchronisation between work-groups work.
 */
#include "fcl_internal.h"

#define FCL_SC __ATOMIC_SEQ_CST

/* One operation family for one address space and element type. */
#define FCL_LEGACY_RMW(NAME, AS, T, EXPR)                                                  \
  FCL_OVL T NAME(volatile AS T *p, T v) { return EXPR; }

#define FCL_LEGACY_ALL(PFX, AS, T)                                                         \
  FCL_LEGACY_RMW(PFX##add, AS, T, __atomic_fetch_add(p, v, FCL_SC))                        \
  FCL_LEGACY_RMW(PFX##sub, AS, T, __atomic_fetch_sub(p, v, FCL_SC))                        \
  FCL_LEGACY_RMW(PFX##xchg, AS, T, __atomic_exchange_n(p, v, FCL_SC))                      \
  FCL_LEGACY_RMW(PFX##min, AS, T, __atomic_fetch_min(p, v, FCL_SC))                        \
  FCL_LEGACY_RMW(PFX##max, AS, T, __atomic_fetch_max(p, v, FCL_SC))                        \
  FCL_LEGACY_RMW(PFX##and, AS, T, __atomic_fetch_and(p, v, FCL_SC))                        \
  FCL_LEGACY_RMW(PFX##or, AS, T, __atomic_fetch_or(p, v, FCL_SC))                          \
  FCL_LEGACY_RMW(PFX##xor, AS, T, __atomic_fetch_xor(p, v, FCL_SC))                        \
  FCL_OVL T PFX##inc(volatile AS T *p) { return __atomic_fetch_add(p, (T)1, FCL_SC); }     \
  FCL_OVL T PFX##dec(volatile AS T *p) { return __atomic_fetch_sub(p, (T)1, FCL_SC); }     \
  FCL_OVL T PFX##cmpxchg(volatile AS T *p, T cmp, T val) {                                 \
    __atomic_compare_exchange_n(p, &cmp, val, false, FCL_SC, FCL_SC);                      \
    return cmp;                                                                            \
  }

#define FCL_LEGACY_AS(PFX, T)                                                              \
  FCL_LEGACY_ALL(PFX, __global, T)                                                         \
  FCL_LEGACY_ALL(PFX, __local, T)

FCL_LEGACY_AS(atomic_, int)
FCL_LEGACY_AS(atomic_, uint)
FCL_LEGACY_AS(atom_, int)
FCL_LEGACY_AS(atom_, uint)
FCL_LEGACY_AS(atom_, long)
FCL_LEGACY_AS(atom_, ulong)

/* atomic_xchg on float (OpenCL C 1.1+). */
#define FCL_XCHG_FLOAT(AS)                                                                 \
  FCL_OVL float atomic_xchg(volatile AS float *p, float v) {                               \
    return as_float(__atomic_exchange_n((volatile AS uint *)p, as_uint(v), FCL_SC));      \
  }
FCL_XCHG_FLOAT(__global)
FCL_XCHG_FLOAT(__local)

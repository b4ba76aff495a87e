/* OpenCL C 2.0+ atomic functions (OpenCL C 3.0 s6.15.12).
 *
 * Implemented with Clang's __opencl_atomic_* builtins, which become LLVM atomic
 * instructions with the requested ordering (a run-time order becomes a switch
 * that folds away after inlining with a constant). Memory scopes are passed on
 * but the x86 target maps every scope to the system scope, i.e. every scope is
 * at least device scope. The functions without _explicit use seq_cst and
 * memory_scope_device as the specification says.
 *
 * Defined for the generic address space and, as OpenCL C 3.0 declares them,
 * for __global and __local objects (compare_exchange: every combination of
 * object and `expected` address spaces that the headers declare).
 */
#include "fcl_internal.h"

#define FCL_SEQ memory_order_seq_cst
#define FCL_DEV memory_scope_device

/* init / load / store / exchange for atomic type A holding T, object in AS. */
#define FCL_C11_LSX(AS, A, T)                                                              \
  FCL_OVL void atomic_init(volatile AS A *p, T v) { __opencl_atomic_init(p, v); }           \
  FCL_OVL void atomic_store(volatile AS A *p, T v) {                                       \
    __opencl_atomic_store(p, v, FCL_SEQ, FCL_DEV);                                         \
  }                                                                                        \
  FCL_OVL void atomic_store_explicit(volatile AS A *p, T v, memory_order o) {              \
    __opencl_atomic_store(p, v, o, FCL_DEV);                                               \
  }                                                                                        \
  FCL_OVL void atomic_store_explicit(volatile AS A *p, T v, memory_order o,                \
                                     memory_scope s) {                                     \
    FCL_NARROW_SCOPE(s);                                                                   \
    __opencl_atomic_store(p, v, o, s);                                                     \
  }                                                                                        \
  FCL_OVL T atomic_load(volatile AS A *p) { return __opencl_atomic_load(p, FCL_SEQ, FCL_DEV); } \
  FCL_OVL T atomic_load_explicit(volatile AS A *p, memory_order o) {                       \
    return __opencl_atomic_load(p, o, FCL_DEV);                                            \
  }                                                                                        \
  FCL_OVL T atomic_load_explicit(volatile AS A *p, memory_order o, memory_scope s) {       \
    FCL_NARROW_SCOPE(s);                                                                   \
    return __opencl_atomic_load(p, o, s);                                                  \
  }                                                                                        \
  FCL_OVL T atomic_exchange(volatile AS A *p, T v) {                                       \
    return __opencl_atomic_exchange(p, v, FCL_SEQ, FCL_DEV);                               \
  }                                                                                        \
  FCL_OVL T atomic_exchange_explicit(volatile AS A *p, T v, memory_order o) {              \
    return __opencl_atomic_exchange(p, v, o, FCL_DEV);                                     \
  }                                                                                        \
  FCL_OVL T atomic_exchange_explicit(volatile AS A *p, T v, memory_order o,                \
                                     memory_scope s) {                                     \
    FCL_NARROW_SCOPE(s);                                                                   \
    return __opencl_atomic_exchange(p, v, o, s);                                           \
  }

/* compare_exchange_{strong,weak} for object in AS, `expected` in EAS. */
#define FCL_C11_CAS1(KIND, AS, EAS, A, T)                                                  \
  FCL_OVL bool atomic_compare_exchange_##KIND(volatile AS A *p, EAS T *e, T d) {           \
    return __opencl_atomic_compare_exchange_##KIND(p, e, d, FCL_SEQ, FCL_SEQ, FCL_DEV);    \
  }                                                                                        \
  FCL_OVL bool atomic_compare_exchange_##KIND##_explicit(volatile AS A *p, EAS T *e, T d,  \
                                                         memory_order os, memory_order of) { \
    return __opencl_atomic_compare_exchange_##KIND(p, e, d, os, of, FCL_DEV);              \
  }                                                                                        \
  FCL_OVL bool atomic_compare_exchange_##KIND##_explicit(volatile AS A *p, EAS T *e, T d,  \
                                                         memory_order os, memory_order of, \
                                                         memory_scope s) {                 \
    FCL_NARROW_SCOPE(s);                                                                   \
    return __opencl_atomic_compare_exchange_##KIND(p, e, d, os, of, s);                    \
  }
#define FCL_C11_CAS(AS, EAS, A, T)                                                         \
  FCL_C11_CAS1(strong, AS, EAS, A, T)                                                      \
  FCL_C11_CAS1(weak, AS, EAS, A, T)

/* fetch_<op> for object A in AS with operand type V. */
#define FCL_C11_FETCH1(OP, AS, A, V)                                                       \
  FCL_OVL __typeof__(__opencl_atomic_load((volatile AS A *)0, FCL_SEQ, FCL_DEV))           \
      atomic_fetch_##OP(volatile AS A *p, V v) {                                           \
    return __opencl_atomic_fetch_##OP(p, v, FCL_SEQ, FCL_DEV);                             \
  }                                                                                        \
  FCL_OVL __typeof__(__opencl_atomic_load((volatile AS A *)0, FCL_SEQ, FCL_DEV))           \
      atomic_fetch_##OP##_explicit(volatile AS A *p, V v, memory_order o) {                \
    return __opencl_atomic_fetch_##OP(p, v, o, FCL_DEV);                                   \
  }                                                                                        \
  FCL_OVL __typeof__(__opencl_atomic_load((volatile AS A *)0, FCL_SEQ, FCL_DEV))           \
      atomic_fetch_##OP##_explicit(volatile AS A *p, V v, memory_order o, memory_scope s) { \
    FCL_NARROW_SCOPE(s);                                                                   \
    return __opencl_atomic_fetch_##OP(p, v, o, s);                                         \
  }

#define FCL_C11_FETCH_ALL(AS, A, T)                                                        \
  FCL_C11_FETCH1(add, AS, A, T)                                                            \
  FCL_C11_FETCH1(sub, AS, A, T)                                                            \
  FCL_C11_FETCH1(or, AS, A, T)                                                             \
  FCL_C11_FETCH1(xor, AS, A, T)                                                            \
  FCL_C11_FETCH1(and, AS, A, T)                                                            \
  FCL_C11_FETCH1(min, AS, A, T)                                                            \
  FCL_C11_FETCH1(max, AS, A, T)

/* The intptr_t/uintptr_t variants (s6.15.12.7.5): add/sub take a ptrdiff_t
 * operand on atomic_uintptr_t; the bitwise and min/max ones mix signedness. */
#define FCL_C11_FETCH_PTR(AS)                                                              \
  FCL_C11_FETCH1(add, AS, atomic_uintptr_t, ptrdiff_t)                                     \
  FCL_C11_FETCH1(sub, AS, atomic_uintptr_t, ptrdiff_t)                                     \
  FCL_C11_FETCH1(or, AS, atomic_uintptr_t, intptr_t)                                       \
  FCL_C11_FETCH1(xor, AS, atomic_uintptr_t, intptr_t)                                      \
  FCL_C11_FETCH1(and, AS, atomic_uintptr_t, intptr_t)                                      \
  FCL_C11_FETCH1(min, AS, atomic_uintptr_t, intptr_t)                                      \
  FCL_C11_FETCH1(max, AS, atomic_uintptr_t, intptr_t)                                      \
  FCL_C11_FETCH1(or, AS, atomic_intptr_t, uintptr_t)                                       \
  FCL_C11_FETCH1(xor, AS, atomic_intptr_t, uintptr_t)                                      \
  FCL_C11_FETCH1(and, AS, atomic_intptr_t, uintptr_t)                                      \
  FCL_C11_FETCH1(min, AS, atomic_intptr_t, uintptr_t)                                      \
  FCL_C11_FETCH1(max, AS, atomic_intptr_t, uintptr_t)

#define FCL_C11_FLAG(AS)                                                                   \
  FCL_OVL bool atomic_flag_test_and_set(volatile AS atomic_flag *p) {                      \
    return __opencl_atomic_exchange((volatile AS atomic_int *)p, 1, FCL_SEQ, FCL_DEV) != 0; \
  }                                                                                        \
  FCL_OVL bool atomic_flag_test_and_set_explicit(volatile AS atomic_flag *p, memory_order o) { \
    return __opencl_atomic_exchange((volatile AS atomic_int *)p, 1, o, FCL_DEV) != 0;      \
  }                                                                                        \
  FCL_OVL bool atomic_flag_test_and_set_explicit(volatile AS atomic_flag *p, memory_order o, \
                                                 memory_scope s) {                         \
    FCL_NARROW_SCOPE(s);                                                                   \
    return __opencl_atomic_exchange((volatile AS atomic_int *)p, 1, o, s) != 0;            \
  }                                                                                        \
  FCL_OVL void atomic_flag_clear(volatile AS atomic_flag *p) {                             \
    __opencl_atomic_store((volatile AS atomic_int *)p, 0, FCL_SEQ, FCL_DEV);               \
  }                                                                                        \
  FCL_OVL void atomic_flag_clear_explicit(volatile AS atomic_flag *p, memory_order o) {    \
    __opencl_atomic_store((volatile AS atomic_int *)p, 0, o, FCL_DEV);                     \
  }                                                                                        \
  FCL_OVL void atomic_flag_clear_explicit(volatile AS atomic_flag *p, memory_order o,      \
                                          memory_scope s) {                                \
    FCL_NARROW_SCOPE(s);                                                                   \
    __opencl_atomic_store((volatile AS atomic_int *)p, 0, o, s);                           \
  }

/* Everything for one object address space; EAS_LIST expands FCL_C11_CAS for each
 * `expected` address space. */
#define FCL_C11_TYPE(AS, A, T, CAS_EXPANDER)                                               \
  FCL_C11_LSX(AS, A, T)                                                                    \
  CAS_EXPANDER(AS, A, T)

#define FCL_CAS_GENERIC(AS, A, T) FCL_C11_CAS(AS, __generic, A, T)
#define FCL_CAS_NAMED(AS, A, T)                                                            \
  FCL_C11_CAS(AS, __global, A, T)                                                          \
  FCL_C11_CAS(AS, __local, A, T)                                                           \
  FCL_C11_CAS(AS, __private, A, T)

#define FCL_C11_SPACE(AS, CASX)                                                            \
  FCL_C11_TYPE(AS, atomic_int, int, CASX)                                                  \
  FCL_C11_TYPE(AS, atomic_uint, uint, CASX)                                                \
  FCL_C11_TYPE(AS, atomic_long, long, CASX)                                                \
  FCL_C11_TYPE(AS, atomic_ulong, ulong, CASX)                                              \
  FCL_C11_TYPE(AS, atomic_float, float, CASX)                                              \
  FCL_C11_TYPE(AS, atomic_double, double, CASX)                                            \
  FCL_C11_FETCH_ALL(AS, atomic_int, int)                                                   \
  FCL_C11_FETCH_ALL(AS, atomic_uint, uint)                                                 \
  FCL_C11_FETCH_ALL(AS, atomic_long, long)                                                 \
  FCL_C11_FETCH_ALL(AS, atomic_ulong, ulong)                                               \
  FCL_C11_FETCH_PTR(AS)                                                                    \
  FCL_C11_FLAG(AS)

FCL_C11_SPACE(__generic, FCL_CAS_GENERIC)
FCL_C11_SPACE(__global, FCL_CAS_NAMED)
FCL_C11_SPACE(__local, FCL_CAS_NAMED)

/* Async copies between global and local memory (OpenCL C 3.0 s6.15.10):
 * async_work_group_copy, async_work_group_strided_copy, wait_group_events,
 * prefetch.
 *
 * Every work-item of the group calls the copy with the same arguments; each
 * copies a strided share of the elements (work-item i copies elements i,
 * i + local size, ...), synchronously. wait_group_events, which the whole
 * group must also reach, is a work-group barrier, so after it every element is
 * visible to every work-item. The event returned is the one passed in (its
 * value does not matter to wait_group_events). prefetch does nothing.
 */
#include "fcl_vec.h"

#define FCL_ASYNC(W, S)                                                                    \
  FCL_ASYNC_DIR(S##W, __local, __global)                                                   \
  FCL_ASYNC_DIR(S##W, __global, __local)                                                   \
  FCL_OVL void prefetch(const __global S##W *p, size_t n) {}
/* The stride applies to the global side: source for global->local, destination
 * for local->global. */
#define FCL_ASYNC_DIR(T, DAS, SAS)                                                         \
  FCL_OVL event_t async_work_group_copy(DAS T *dst, const SAS T *src, size_t n, event_t e) { \
    size_t step = get_local_size(0) * get_local_size(1) * get_local_size(2);               \
    for (size_t i = get_local_linear_id(); i < n; i += step)                               \
      dst[i] = src[i];                                                                     \
    return e;                                                                              \
  }                                                                                        \
  FCL_OVL event_t async_work_group_strided_copy(DAS T *dst, const SAS T *src, size_t n,    \
                                                size_t stride, event_t e) {                \
    size_t step = get_local_size(0) * get_local_size(1) * get_local_size(2);               \
    size_t ds = FCL_STRIDE_##DAS, ss = FCL_STRIDE_##SAS;                                   \
    for (size_t i = get_local_linear_id(); i < n; i += step)                               \
      dst[i * ds] = src[i * ss];                                                           \
    return e;                                                                              \
  }
#define FCL_STRIDE___global stride
#define FCL_STRIDE___local 1

FCL_INT_TYPES(FCL_ALLW, FCL_ASYNC)
FCL_FLOAT_TYPES(FCL_ALLW, FCL_ASYNC)
FCL_ALLW(half, FCL_ASYNC)

__attribute__((overloadable, convergent)) void wait_group_events(int n, __private event_t *ev) {
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
#ifdef __opencl_c_generic_address_space
__attribute__((overloadable, convergent)) void wait_group_events(int n, __generic event_t *ev) {
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
#endif

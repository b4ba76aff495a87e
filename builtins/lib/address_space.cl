/* Address space qualifier functions (OpenCL C 3.0 s6.15.7): to_global,
 * to_local, to_private (Clang lowers them to calls of __to_global, __to_local
 * and __to_private on a generic pointer) and get_fence.
 *
 * APPROXIMATION: on FiberCL every address space is the host's flat address
 * space and a generic pointer carries no tag, so these functions cannot tell
 * which named space a generic pointer points into: the to_* conversions return
 * the pointer unchanged (never NULL), and get_fence returns
 * CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE (a fence over both is always
 * correct). The compiler may replace the __to_* calls with an exact answer
 * where it can prove the origin of a pointer.
 */
#include "fcl_internal.h"

__global void *__to_global(__generic void *p) { return (__global void *)p; }
__local void *__to_local(__generic void *p) { return (__local void *)p; }
__private void *__to_private(__generic void *p) { return (__private void *)p; }

FCL_OVL cl_mem_fence_flags get_fence(void *p) {
  return CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE;
}
FCL_OVL cl_mem_fence_flags get_fence(const void *p) {
  return CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE;
}

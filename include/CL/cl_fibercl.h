/* cl_fibercl_scheduling: FiberCL's extension for controlling and observing how
 * work-groups are scheduled. Installed with FiberCL; include after <CL/cl.h>.
 *
 * Scheduling applies to kernels that may block: kernels with a loop that may wait for
 * another work-group (its exit depends on global memory another group can write).
 * Kernels whose only inter-group accesses are global atomics or volatile accesses
 * outside such loops are scheduled when a seed or an occupancy bound is set (for
 * them or through the environment); otherwise, like every other kernel, each
 * work-group runs to completion at full speed. README "Which kernels are scheduled".
 *
 * Per kernel, for its later launches (clSetKernelExecInfo); these override the
 * environment (FIBERCL_OCCUPANCY, FIBERCL_SCHEDULE, FIBERCL_SEED, FIBERCL_ADMISSION):
 *   CL_KERNEL_EXEC_INFO_OCCUPANCY_FIBERCL  cl_uint   at most this many work-groups
 *                                                    occupant at once; 0 = unbounded
 *   CL_KERNEL_EXEC_INFO_SCHEDULE_FIBERCL   cl_uint   CL_SCHEDULE_FAIR_FIBERCL or
 *                                                    CL_SCHEDULE_UNFAIR_FIBERCL
 *   CL_KERNEL_EXEC_INFO_SEED_FIBERCL       cl_ulong  deterministic mode with this seed
 *   CL_KERNEL_EXEC_INFO_ADMISSION_FIBERCL  cl_uint   CL_ADMISSION_*_FIBERCL
 *
 * Device queries (clGetDeviceInfo):
 *   CL_DEVICE_STACKS_CREATED_FIBERCL     cl_ulong  work-item fiber stacks mmap'ed so far
 *   CL_DEVICE_FIBER_GROUPS_RUN_FIBERCL   cl_ulong  work-groups that needed fibers
 *   CL_DEVICE_OCCUPANCY_FIBERCL          cl_uint   default occupancy bound (0 = none)
 *   CL_DEVICE_SCHEDULE_FIBERCL           cl_uint   default policy (CL_SCHEDULE_*)
 */
#ifndef CL_FIBERCL_H
#define CL_FIBERCL_H

#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

#define cl_fibercl_scheduling 1
#define CL_FIBERCL_SCHEDULING_EXTENSION_NAME "cl_fibercl_scheduling"

#define CL_DEVICE_STACKS_CREATED_FIBERCL 0x4F00
#define CL_DEVICE_FIBER_GROUPS_RUN_FIBERCL 0x4F01
#define CL_DEVICE_OCCUPANCY_FIBERCL 0x4F02
#define CL_DEVICE_SCHEDULE_FIBERCL 0x4F03

#define CL_KERNEL_EXEC_INFO_OCCUPANCY_FIBERCL 0x4F10
#define CL_KERNEL_EXEC_INFO_SCHEDULE_FIBERCL 0x4F11
#define CL_KERNEL_EXEC_INFO_SEED_FIBERCL 0x4F12
#define CL_KERNEL_EXEC_INFO_ADMISSION_FIBERCL 0x4F13

#define CL_SCHEDULE_FAIR_FIBERCL 0
#define CL_SCHEDULE_UNFAIR_FIBERCL 1

#define CL_ADMISSION_GROUP_ID_FIBERCL 0
#define CL_ADMISSION_REVERSE_FIBERCL 1
#define CL_ADMISSION_RANDOM_FIBERCL 2

/* The kernel-side libraries <fibercl/primitives.h> and <fibercl/cooperative.h>
 * (OpenCL C 2.0; served by FiberCL, installed in share/fibercl/opencl for other
 * devices). The primitives take one context buffer of this many bytes, zero-filled
 * once (clEnqueueFillBuffer); consecutive launches on an in-order queue reuse it. */
#define FIBERCL_PRIMITIVES_CTX_BYTES (256 + 4 * 1024)

/* Creates a primitives context in `context`, zero-filled by a command on `queue`
 * (kernels enqueued on that queue afterwards see it cleared). Works with any OpenCL
 * 1.2+ implementation. Returns NULL and sets *errcode_ret on failure. */
static inline cl_mem fiberclCreatePrimitivesContext(cl_context context, cl_command_queue queue,
                                                    cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS, zero = 0;
  cl_mem ctx = clCreateBuffer(context, CL_MEM_READ_WRITE, FIBERCL_PRIMITIVES_CTX_BYTES, NULL, &err);
  if (ctx && err == CL_SUCCESS)
    err = clEnqueueFillBuffer(queue, ctx, &zero, sizeof zero, 0, FIBERCL_PRIMITIVES_CTX_BYTES, 0,
                              NULL, NULL);
  if (err != CL_SUCCESS && ctx) {
    clReleaseMemObject(ctx);
    ctx = NULL;
  }
  if (errcode_ret)
    *errcode_ret = err;
  return ctx;
}

#ifdef __cplusplus
}
#endif

#endif

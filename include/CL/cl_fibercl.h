/* cl_fibercl_scheduling: FiberCL's extension for controlling and observing how
 * work-groups are scheduled. Installed with FiberCL; include after <CL/cl.h>.
 *
 * Device queries (clGetDeviceInfo), all cl_ulong, read-only debug counters:
 *   CL_DEVICE_STACKS_CREATED_FIBERCL     work-item fiber stacks mmap'ed so far
 *   CL_DEVICE_FIBER_GROUPS_RUN_FIBERCL   work-groups that needed fibers (barriers)
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

#ifdef __cplusplus
}
#endif

#endif

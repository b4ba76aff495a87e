/* <fibercl/cooperative.h>: the cooperative kernels language of Sorensen, Evrard and
 * Donaldson, "Cooperative Kernels: GPU Multitasking for Blocking Algorithms".
 *
 * A kernel that calls any function below is cooperative: launched with N work-groups
 * (1-D), it runs with M active groups, 1 <= M <= N, ids 0..M-1. get_num_groups(0)
 * returns M and get_global_size(0) M times the work-group size, both re-read at every
 * call (stable between resizing barriers when the kernel calls neither offer_kill nor
 * request_fork directly). Active groups are scheduled fairly: on FiberCL they are
 * always all occupant (M never exceeds the occupancy bound).
 *
 *   offer_kill()     work-group function. If this group has the largest id and M > 1,
 *                    the scheduler may accept: the group's work-items return from the
 *                    kernel here and M decreases by one. Otherwise a no-op.
 *   request_fork()   work-group function. The scheduler picks k in [0, N-M]; k new
 *                    groups with ids M..M+k-1 start right after this call, their
 *                    `transmit` variables holding work-item 0 of the forking group's
 *                    values, every other private variable uninitialised (FiberCL fills
 *                    them with 0xA5 bytes so that a missing `transmit` shows up).
 *   global_barrier() every work-item of every active group; global memory accesses
 *                    before it are visible after it.
 *   resizing_global_barrier()  a global barrier at which M may change to any M' in
 *                    [1, N]: groups M'..M-1 leave, or M'-M groups join after it as if
 *                    forked from work-group 0.
 *   cooperative_query()  the number of groups the scheduler wants back (another kernel
 *                    is waiting for them).
 *   transmit         qualifier of private variables at the kernel's outermost scope.
 *
 * The functions may be called from helper functions too (FiberCL inlines them), but a
 * forked group resumes with every private variable of every enclosing function
 * uninitialised except the `transmit` ones: a helper's own parameters included. Only
 * the kernel's arguments are always available. offer_kill and request_fork are not
 * barriers: the group decides at the first work-item's call and every other work-item
 * follows at the same call (a killed group's other work-items run on until they get
 * there); FiberCL reports a group whose work-items made different calls.
 *
 * On FiberCL the scheduler is real: a kernel enqueued on another queue of the device
 * gets its work-groups from kills at offer_kill / resizing barriers, and returns them
 * through later forks. In deterministic mode (a seed) every kill and fork decision is
 * drawn from the seed.
 */
#ifndef FIBERCL_COOPERATIVE_H
#define FIBERCL_COOPERATIVE_H

#if !defined(__OPENCL_C_VERSION__) || __OPENCL_C_VERSION__ < 200
#error "<fibercl/cooperative.h> needs OpenCL C 2.0 or later: build with -cl-std=CL2.0 (or CL3.0)"
#endif

#define transmit __attribute__((annotate("fibercl.transmit")))

void offer_kill(void);
void request_fork(void);
void global_barrier(void);
void resizing_global_barrier(void);
uint cooperative_query(void);

#endif

/* Pipe functions (OpenCL C 3.0 s6.15.16, feature __opencl_c_pipes). Clang turns
 * read_pipe, write_pipe, reserve_*, commit_*, work_group_* / sub_group_* and
 * get_pipe_* into calls of the __read_pipe_2 ... __get_pipe_max_packets_wo functions
 * below, with the packet's size and alignment as the last two arguments; a pipe is
 * `__global fcl_pipe *` (fibercl/pipe_abi.h). Which slots a reservation gets is the
 * runtime's business (runtime/exec/pipes.cpp, under the pipe's lock); the packets are
 * copied here, by the work-item.
 *
 * The work_group_* and sub_group_* functions work alike: the first work-item of the
 * group (of the sub-group) reserves for it and every work-item gets the id through
 * the collective scratch (as the broadcasts do); the commit waits until every
 * work-item has copied its packet. */
#include "fcl_internal.h"
#include "fcl_sub_group.h"
#include "fibercl/pipe_abi.h"

/* The runtime's pipe functions this library calls (the host ABI's FCL_HOST_LIBRARY_FN). */
#define FCL_HOST_FN(NAME, ret, symbol, params)
#define FCL_HOST_LIBRARY_FN(NAME, ret, symbol, params) ret symbol params;
#include "fibercl/host_abi.def"
__local void *__fibercl_collective_scratch(void);

#define FCL_READ 0u
#define FCL_WRITE 1u

static inline reserve_id_t fcl_reserve_id(ulong r) {
  return __builtin_astype((__private void *)r, reserve_id_t);
}
static inline ulong fcl_reservation(reserve_id_t id) {
  return (ulong)__builtin_astype(id, __private void *);
}

FCL_OVL bool is_valid_reserve_id(reserve_id_t id) {
  return fcl_reservation(id) != FCL_PIPE_NULL_RESERVATION;
}

/* Packet `index` of a reservation, or NULL if there is no such packet. */
static __global char *fcl_packet(__global fcl_pipe *p, ulong r, uint index) {
  uint max = p->max_packets;
  if (r == FCL_PIPE_NULL_RESERVATION || index >= (uint)(r >> 32))
    return 0;
  ulong slot = (ulong)(uint)r + index;
  if (slot >= max)
    slot -= max;
  return (__global char *)p + FCL_PIPE_PACKETS_OFFSET(max) + slot * p->packet_size;
}

/* ---- one packet, no reservation: 0 on success, -1 if the pipe is empty / full ---- */
int __read_pipe_2(__global fcl_pipe *p, void *ptr, uint size, uint align) {
  ulong r = __fibercl_host_pipe_reserve(p, 1, FCL_READ);
  __global char *packet = fcl_packet(p, r, 0);
  if (!packet)
    return -1;
  __builtin_memcpy(ptr, packet, size);
  __fibercl_host_pipe_commit(p, r, FCL_READ);
  return 0;
}

int __write_pipe_2(__global fcl_pipe *p, const void *ptr, uint size, uint align) {
  ulong r = __fibercl_host_pipe_reserve(p, 1, FCL_WRITE);
  __global char *packet = fcl_packet(p, r, 0);
  if (!packet)
    return -1;
  __builtin_memcpy(packet, ptr, size);
  __fibercl_host_pipe_commit(p, r, FCL_WRITE);
  return 0;
}

/* ---- packet `index` of a reservation: 0 on success, -1 for a bad id or index ---- */
int __read_pipe_4(__global fcl_pipe *p, reserve_id_t id, uint index, void *ptr,
                  uint size, uint align) {
  __global char *packet = fcl_packet(p, fcl_reservation(id), index);
  if (!packet)
    return -1;
  __builtin_memcpy(ptr, packet, size);
  return 0;
}

int __write_pipe_4(__global fcl_pipe *p, reserve_id_t id, uint index, const void *ptr,
                   uint size, uint align) {
  __global char *packet = fcl_packet(p, fcl_reservation(id), index);
  if (!packet)
    return -1;
  __builtin_memcpy(packet, ptr, size);
  return 0;
}

/* ---- reservations of one work-item ---- */
reserve_id_t __reserve_read_pipe(__global fcl_pipe *p, uint n, uint size, uint align) {
  return fcl_reserve_id(__fibercl_host_pipe_reserve(p, n, FCL_READ));
}
reserve_id_t __reserve_write_pipe(__global fcl_pipe *p, uint n, uint size, uint align) {
  return fcl_reserve_id(__fibercl_host_pipe_reserve(p, n, FCL_WRITE));
}
void __commit_read_pipe(__global fcl_pipe *p, reserve_id_t id, uint size, uint align) {
  __fibercl_host_pipe_commit(p, fcl_reservation(id), FCL_READ);
}
void __commit_write_pipe(__global fcl_pipe *p, reserve_id_t id, uint size, uint align) {
  __fibercl_host_pipe_commit(p, fcl_reservation(id), FCL_WRITE);
}

/* ---- reservations of the whole work-group (= sub-group) ---- */
static reserve_id_t fcl_group_reserve(__global fcl_pipe *p, uint n, uint write) {
  __local ulong *s = (__local ulong *)__fibercl_collective_scratch();
  if (get_local_linear_id() == 0)
    s[0] = __fibercl_host_pipe_reserve(p, n, write);
  barrier(CLK_LOCAL_MEM_FENCE);
  ulong r = s[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  return fcl_reserve_id(r);
}

static void fcl_group_commit(__global fcl_pipe *p, reserve_id_t id, uint write) {
  barrier(CLK_GLOBAL_MEM_FENCE); /* every work-item's packet is copied */
  if (get_local_linear_id() == 0)
    __fibercl_host_pipe_commit(p, fcl_reservation(id), write);
}

/* ---- reservations of a sub-group ---- */
static reserve_id_t fcl_sub_group_reserve(__global fcl_pipe *p, uint n, uint write) {
  __local ulong *s = fcl_sg_slots();
  if (fcl_sg_lane() == 0)
    s[0] = __fibercl_host_pipe_reserve(p, n, write);
  fcl_sg_sync();
  ulong r = s[0];
  fcl_sg_sync();
  return fcl_reserve_id(r);
}

static void fcl_sub_group_commit(__global fcl_pipe *p, reserve_id_t id, uint write) {
  fcl_sg_sync(); /* every work-item of the sub-group has copied its packet */
  if (fcl_sg_lane() == 0)
    __fibercl_host_pipe_commit(p, fcl_reservation(id), write);
}

#define FCL_GROUP_PIPE_FUNCTIONS(scope, reserve, commit)                                  \
  reserve_id_t __##scope##_reserve_read_pipe(__global fcl_pipe *p, uint n, uint size,      \
                                             uint align) {                                 \
    return reserve(p, n, FCL_READ);                                                        \
  }                                                                                        \
  reserve_id_t __##scope##_reserve_write_pipe(__global fcl_pipe *p, uint n, uint size,     \
                                              uint align) {                                \
    return reserve(p, n, FCL_WRITE);                                                       \
  }                                                                                        \
  void __##scope##_commit_read_pipe(__global fcl_pipe *p, reserve_id_t id, uint size,      \
                                    uint align) {                                          \
    commit(p, id, FCL_READ);                                                               \
  }                                                                                        \
  void __##scope##_commit_write_pipe(__global fcl_pipe *p, reserve_id_t id, uint size,     \
                                     uint align) {                                         \
    commit(p, id, FCL_WRITE);                                                              \
  }
FCL_GROUP_PIPE_FUNCTIONS(work_group, fcl_group_reserve, fcl_group_commit)
FCL_GROUP_PIPE_FUNCTIONS(sub_group, fcl_sub_group_reserve, fcl_sub_group_commit)

/* ---- queries ---- */
uint __get_pipe_num_packets_ro(__global fcl_pipe *p, uint size, uint align) {
  return __fibercl_host_pipe_packets(p, FCL_READ);
}
uint __get_pipe_num_packets_wo(__global fcl_pipe *p, uint size, uint align) {
  return __fibercl_host_pipe_packets(p, FCL_WRITE);
}
uint __get_pipe_max_packets_ro(__global fcl_pipe *p, uint size, uint align) {
  return p->max_packets;
}
uint __get_pipe_max_packets_wo(__global fcl_pipe *p, uint size, uint align) {
  return p->max_packets;
}

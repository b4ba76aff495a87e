/* Pipes as kernels see them: the contract between the runtime (clCreatePipe allocates
 * the storage; runtime/exec/pipes.cpp keeps the ring's books) and the builtins library
 * (read_pipe, write_pipe, reservations: builtins/lib/pipes.cl). Included by C++ and by
 * OpenCL C.
 *
 * A pipe argument holds the device address of its fcl_pipe header (Clang types it
 * `ptr addrspace(1)`). After the header come max_packets state bytes, then the packets,
 * FCL_PIPE_PACKETS_OFFSET(max_packets) bytes from the header, packet_size bytes each.
 *
 * The packets are a ring indexed by four counters that only grow:
 *     read_done <= read_reserved <= write_done <= write_reserved <= read_done + max
 * A writer reserves slots [write_reserved, +n), fills them and commits; committed slots
 * become readable once every slot before them is committed too (write_done moves over
 * the run of committed slots, whose state byte says so). Readers do the same with
 * read_reserved and read_done, which gives the slots back to writers. `lock` (0 free,
 * 1 held) guards the counters and the state bytes; only the runtime's functions below
 * take it, never across kernel code.
 *
 * A reservation id (reserve_id_t, a pointer-sized value) is the ring index of its first
 * slot | n << 32; CLK_NULL_RESERVE_ID (all ones) is no reservation.
 */
#ifndef FIBERCL_PIPE_ABI_H
#define FIBERCL_PIPE_ABI_H

#include "fibercl/kernel_abi.h"

typedef struct fcl_pipe {
  fcl_u32 lock;
  fcl_u32 packet_size;
  fcl_u32 max_packets;
  fcl_u32 padding;
  fcl_u64 read_done;
  fcl_u64 read_reserved;
  fcl_u64 write_done;
  fcl_u64 write_reserved;
} fcl_pipe;

/* Packets start 128-byte aligned (the largest alignment of an OpenCL C type). */
#define FCL_PIPE_PACKETS_OFFSET(max_packets)                                                       \
  ((((fcl_u64)sizeof(fcl_pipe) + (fcl_u64)(max_packets)) + 127u) & ~(fcl_u64)127u)

/* State byte of a slot committed by its reservation and not yet passed by its side's
 * *_done counter. */
#define FCL_PIPE_SLOT_COMMITTED 1u

#define FCL_PIPE_NULL_RESERVATION (~(fcl_u64)0)

/* The runtime's functions kernels call for pipes are in fibercl/host_abi.def, where a
 * pipe is an `FCL_GLOBAL fcl_pipe *`. */
#ifdef __OPENCL_C_VERSION__
#define FCL_GLOBAL __global
#else
#define FCL_GLOBAL
#endif

#endif

// The books of a pipe's ring (fibercl/pipe_abi.h): reservations and commits, called by
// JIT-compiled kernels through the builtins library. Packets themselves are copied by
// the kernel; this only decides which slots, under the pipe's lock.
#include "runtime/exec/host_abi.hpp"

#include <cstdint>
#include <sched.h>

namespace {

// The pipe's spin lock. Held for a few dozen instructions of this file at most (never
// across kernel code), so a waiter spins briefly, then lets the holder's thread run.
class PipeLock {
public:
  explicit PipeLock(fcl_pipe *pipe) : lock_(&pipe->lock) {
    for (unsigned spins = 0; __atomic_exchange_n(lock_, 1u, __ATOMIC_ACQUIRE) != 0; ++spins)
      while (__atomic_load_n(lock_, __ATOMIC_RELAXED) != 0)
        if (++spins % 64 == 0)
          sched_yield();
  }
  ~PipeLock() { __atomic_store_n(lock_, 0u, __ATOMIC_RELEASE); }
  PipeLock(const PipeLock &) = delete;
  PipeLock &operator=(const PipeLock &) = delete;

private:
  fcl_u32 *lock_; // the header's word, shared with kernels' memory model
};

uint8_t *slotStates(fcl_pipe *pipe) { return reinterpret_cast<uint8_t *>(pipe + 1); }

} // namespace

extern "C" fcl_u64 __fibercl_host_pipe_reserve(fcl_pipe *pipe, fcl_u32 n, fcl_u32 write) noexcept {
  if (n == 0 || n > pipe->max_packets)
    return FCL_PIPE_NULL_RESERVATION;
  PipeLock lock(pipe);
  fcl_u64 first;
  if (write) {
    if (pipe->write_reserved + n - pipe->read_done > pipe->max_packets)
      return FCL_PIPE_NULL_RESERVATION; // not enough free slots
    first = pipe->write_reserved;
    pipe->write_reserved += n;
  } else {
    if (pipe->write_done - pipe->read_reserved < n)
      return FCL_PIPE_NULL_RESERVATION; // not enough readable packets
    first = pipe->read_reserved;
    pipe->read_reserved += n;
  }
  return (first % pipe->max_packets) | fcl_u64(n) << 32;
}

extern "C" void __fibercl_host_pipe_commit(fcl_pipe *pipe, fcl_u64 reservation,
                                           fcl_u32 write) noexcept {
  if (reservation == FCL_PIPE_NULL_RESERVATION)
    return;
  const fcl_u32 max = pipe->max_packets;
  const fcl_u32 first = fcl_u32(reservation), n = fcl_u32(reservation >> 32);
  if (first >= max || n == 0 || n > max)
    return; // not a reservation of this pipe
  PipeLock lock(pipe);
  uint8_t *state = slotStates(pipe);
  for (fcl_u32 i = 0, slot = first; i < n; ++i, slot = slot + 1 == max ? 0 : slot + 1)
    state[slot] = FCL_PIPE_SLOT_COMMITTED;
  // Move this side's done counter over the run of committed slots: reservations
  // committed out of order become visible together, in ring order.
  fcl_u64 &done = write ? pipe->write_done : pipe->read_done;
  const fcl_u64 reserved = write ? pipe->write_reserved : pipe->read_reserved;
  while (done != reserved && state[done % max] == FCL_PIPE_SLOT_COMMITTED) {
    state[done % max] = 0;
    ++done;
  }
}

extern "C" fcl_u32 __fibercl_host_pipe_packets(fcl_pipe *pipe, fcl_u32 write) noexcept {
  PipeLock lock(pipe);
  return fcl_u32(write ? pipe->write_reserved - pipe->read_done
                       : pipe->write_done - pipe->read_reserved);
}

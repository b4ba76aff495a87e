// A cooperative launch (fibercl/cooperative.h): the growable set of active groups
// 0..M-1 of a kernel launched with N groups, the decisions at offer_kill,
// request_fork and resizing barriers, the global barrier, and the groups waiting to
// start (forked ones start at their fork site with the transmitted bytes).
//
// M never exceeds the launch's occupancy bound, so every active group is occupant and
// scheduled fairly, as the model requires. Slots the device's other kernels need are
// taken back at offer_kill and resizing barriers and returned by forks (DeviceSlots).
// In deterministic mode every decision is drawn from the seed instead.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "fibercl/kernel_abi.h"
#include "runtime/exec/sched_policy.hpp"

namespace fibercl::exec {

class DeviceSlots;
struct YieldGroup;

// A group to start: the initial ones (site 0) and forked ones.
struct GroupStart {
  uint64_t gid = 0;
  uint32_t site = 0;          // fork site to resume at, 0 = the kernel's start
  std::vector<uint8_t> frame; // the transmitted bytes
};

class CoopLaunch {
public:
  // `requested`: N, the groups the kernel was launched with; `bound`: the occupancy
  // bound (0 = none). `slots`: the device's ledger (may be null).
  // `remaining`: the launch's count of groups left to finish (forks add to it).
  CoopLaunch(std::string kernel, uint32_t requested, uint32_t bound, bool deterministic,
             uint64_t seed, std::atomic<uint64_t> &remaining, DeviceSlots *slots);
  ~CoopLaunch();
  CoopLaunch(const CoopLaunch &) = delete;
  CoopLaunch &operator=(const CoopLaunch &) = delete;
  uint32_t initialStarts();
  // The launch completed: its slots go back to the device (also on destruction);
  // with FIBERCL_DEBUG=coop, a summary of its kills, forks and resizes.
  void end();

  fcl_coop_view view{}; // what kernels read (M)

  // Admission: the next group to start, if any.
  bool takeStart(GroupStart &out);
  bool hasStart();
  uint32_t dropStarts(); // the launch is abandoned: returns how many never started

  // The runtime side of FIBERCL_HOST_COOP (decided once per group and call).
  uint32_t offerKill(uint32_t gid);
  // Returns the number of groups forked (they are added to the starts).
  uint32_t requestFork(uint32_t gid, uint32_t site, const uint8_t *frame, uint64_t size);
  // Arrival at a global (or resizing) barrier; returns the generation to wait past.
  uint64_t arrive(uint32_t gid, bool resizing, uint32_t site, const uint8_t *frame, uint64_t size);
  bool released(uint64_t generation) const {
    return generation_.load(std::memory_order_acquire) != generation;
  }
  // After the resizing barrier of `generation` released it: does `gid` leave (the
  // barrier shrank M to or below it)? Decided per barrier, not per group id: ids are
  // reused by forks, and a group that leaves may not have been resumed yet when a new
  // group of its id joins (and reaches the next resizing barrier).
  bool leavesAfterResize(uint64_t generation, uint32_t gid);
  uint32_t wanted() const; // cooperative_query
  uint32_t bound() const { return capacity_; }

private:
  // All under m_.
  void setActive(uint32_t m);
  void releaseBarrier(); // the last arrival: resizes if it is a resizing barrier
  uint32_t forkable();   // groups a fork may add now
  void addStarts(uint32_t from, uint32_t to, uint32_t site, const std::vector<uint8_t> &frame);
  bool decide(uint32_t percent); // deterministic coin

  std::mutex m_;
  const std::string kernel_;
  const uint32_t requested_;
  const uint32_t capacity_; // at most this many active groups
  const bool deterministic_;
  SplitMix rng_;
  DeviceSlots *slots_;
  std::atomic<uint64_t> &remaining_;
  // Shrinking resizes whose leaving groups have not all asked yet: the barrier's
  // generation, the new M, and how many groups (ids M..) are still to leave.
  struct Shrink {
    uint64_t generation;
    uint32_t to, pending;
  };
  std::vector<Shrink> shrinks_;
  uint32_t active_ = 0; // M
  std::deque<GroupStart> starts_;
  // Global barrier.
  uint32_t arrived_ = 0;
  bool resizing_ = false;
  uint32_t resizeSite_ = 0;
  std::vector<uint8_t> resizeFrame_; // group 0's transmitted bytes
  std::atomic<uint64_t> generation_{0};
  // What happened, for FIBERCL_DEBUG=coop.
  uint64_t kills_ = 0, forks_ = 0, resizes_ = 0;
  uint32_t minActive_ = ~0u, maxActive_ = 0;
  bool ended_ = false;
};

} // namespace fibercl::exec

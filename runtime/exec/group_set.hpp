// The group set of a yielding launch: the groups left to start, and in which order --
// every group id once, in the admission order (FIBERCL_ADMISSION: by group id,
// reversed, or shuffled by the seed), or a cooperative kernel's starts (its initial
// groups, then forked ones). Workers take starts from it concurrently.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "runtime/exec/executor.hpp"

namespace fibercl::exec {

class CoopLaunch;
struct GroupStart;
struct Job;

class GroupSet {
public:
  // `coop`: the cooperative launch whose starts these are, or null.
  GroupSet(Job &job, uint64_t total, const Scheduling &S, CoopLaunch *coop);

  // The group id admitted `admissionIndex`-th.
  uint64_t groupAt(uint64_t admissionIndex) const noexcept;
  // Is a group left to start? Take the next one (false if none), with its admission
  // index. On abandon, take all that are left and say how many.
  bool startsLeft() const noexcept;
  bool takeStart(GroupStart &out, uint64_t &admissionIndex) noexcept;
  uint64_t dropStarts() noexcept;
  // Admission indices handed out so far.
  uint64_t taken() const noexcept { return next_.load(std::memory_order_relaxed); }
  // The launch stays in the executor's queue after its last start, so that idle workers
  // still join it to take over suspended groups (group_migration.hpp).
  void stayQueuedAfterLastStart() noexcept { stayQueued_ = true; }

private:
  Job &job_;
  const uint64_t total_;
  const Scheduling::Admission admission_;
  CoopLaunch *const coop_;
  std::vector<uint64_t> order_; // admission index -> group id (random admission)
  std::atomic<uint64_t> next_{0};
  bool stayQueued_ = false;
};

} // namespace fibercl::exec

// The device's ledger of work-group slots while a cooperative kernel runs: the
// cooperative launch holds M of its bound's slots; a kernel enqueued meanwhile (on any
// queue) waits until it holds the slots it asks for, which the cooperative kernel
// gives back at offer_kill and resizing barriers (it learns how many through
// cooperative_query), and returns them when it finishes, for later forks.
// One cooperative launch at a time takes part (as in the paper's prototype).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>

namespace fibercl::exec {

class DeviceSlots {
public:
  // The cooperative launch starts / ends; `capacity` is its bound (its slots).
  bool coopStarted(uint32_t capacity); // false if another one already takes part
  void coopEnded();
  bool coopRunning();
  // Called by the cooperative launch (under its lock) whenever M changes.
  void setCoopActive(uint32_t m);
  // Slots the waiting kernels still miss (cooperative_query), and slots free for forks.
  uint32_t wantedBack();
  uint32_t freeForForks();

  // The slots a kernel of `groups` work-groups asks for: FIBERCL_MULTITASK_GROUPS if
  // set, else half the cooperative kernel's bound; never more than its groups.
  uint32_t request(uint64_t groups);
  // A kernel that needs `want` slots (at least one, never all of them: group 0 of the
  // cooperative kernel is never killed): waits until it has them. If the cooperative
  // kernel gives nothing back for `timeoutSeconds`, says so on stderr (naming
  // `kernel`) and goes ahead anyway. Returns the slots to release afterwards.
  uint32_t acquire(uint32_t want, const std::string &kernel, double timeoutSeconds);
  void release(uint32_t n);

private:
  uint32_t freeLocked() const; // under m_
  std::mutex m_;
  std::condition_variable cv_;
  bool coop_ = false;
  uint32_t capacity_ = 0, coopActive_ = 0, held_ = 0, demand_ = 0;
};

} // namespace fibercl::exec

// DeviceSlots (device_slots.hpp).
#include "runtime/exec/device_slots.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>

#include "runtime/exec/report.hpp"

namespace fibercl::exec {

bool DeviceSlots::coopStarted(uint32_t capacity) {
  std::lock_guard<std::mutex> lk(m_);
  if (coop_)
    return false;
  coop_ = true;
  capacity_ = capacity;
  coopActive_ = 0;
  return true;
}

void DeviceSlots::coopEnded() {
  std::lock_guard<std::mutex> lk(m_);
  coop_ = false;
  coopActive_ = 0;
  cv_.notify_all();
}

bool DeviceSlots::coopRunning() {
  std::lock_guard<std::mutex> lk(m_);
  return coop_;
}

void DeviceSlots::setCoopActive(uint32_t m) {
  std::lock_guard<std::mutex> lk(m_);
  coopActive_ = m;
  cv_.notify_all();
}

uint32_t DeviceSlots::freeLocked() const {
  if (!coop_)
    return UINT32_MAX;
  uint64_t used = uint64_t(coopActive_) + held_;
  return used >= capacity_ ? 0 : uint32_t(capacity_ - used);
}

uint32_t DeviceSlots::wantedBack() {
  std::lock_guard<std::mutex> lk(m_);
  uint32_t f = freeLocked();
  return demand_ > f ? demand_ - f : 0;
}

uint32_t DeviceSlots::freeForForks() {
  std::lock_guard<std::mutex> lk(m_);
  uint32_t f = freeLocked();
  return f > demand_ ? f - demand_ : 0;
}

uint32_t DeviceSlots::request(uint64_t groups) {
  uint64_t want = 0;
  if (const char *env = std::getenv("FIBERCL_MULTITASK_GROUPS"))
    want = std::strtoull(env, nullptr, 10);
  if (want == 0) {
    std::lock_guard<std::mutex> lk(m_);
    want = (capacity_ + 1) / 2;
  }
  return uint32_t(std::min<uint64_t>(want, groups));
}

uint32_t DeviceSlots::acquire(uint32_t want, const std::string &kernel, double timeoutSeconds) {
  std::unique_lock<std::mutex> lk(m_);
  if (!coop_)
    return 0;
  want = std::max(std::min(want, capacity_ > 1 ? capacity_ - 1 : 1u), 1u);
  demand_ += want;
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                      std::chrono::duration<double>(timeoutSeconds));
  bool granted = cv_.wait_until(lk, deadline, [&] { return freeLocked() >= want; });
  demand_ -= want;
  if (!granted) {
    Report msg;
    msg.kernel(kernel).format(" waited %.0f s for %u work-group slot(s) that the running "
                              "cooperative kernel did not give back (it reaches offer_kill or "
                              "resizing_global_barrier too rarely, or never); running it "
                              "anyway\n",
                              timeoutSeconds, want);
    msg.emit();
    return 0;
  }
  held_ += want;
  return want;
}

void DeviceSlots::release(uint32_t n) {
  if (n == 0)
    return;
  std::lock_guard<std::mutex> lk(m_);
  held_ -= n;
  cv_.notify_all();
}

} // namespace fibercl::exec

// The platform and device singletons: identity strings, host memory size, the CPU's
// name, and the lazily started executor.
#include "runtime/platform.hpp"
#include "runtime/exec/executor.hpp"

#include <unistd.h>

#include <fstream>

namespace fibercl::runtime {

Platform &Platform::get() {
  static Platform *platform = new Platform; // never destroyed: handles outlive exit
  return *platform;
}

Device &Platform::device() { return Device::get(); }

Device &Device::get() {
  static Device *device = new Device;
  return *device;
}

namespace {
std::string cpuModelName() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) {
        auto start = line.find_first_not_of(" \t", colon + 1);
        if (start != std::string::npos)
          return line.substr(start);
      }
    }
  }
  return "CPU";
}

uint32_t cpuMaxMHz() {
  std::ifstream in("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
  uint64_t khz = 0;
  if (in >> khz && khz)
    return uint32_t(khz / 1000);
  std::ifstream info("/proc/cpuinfo");
  std::string line;
  while (std::getline(info, line)) {
    if (line.rfind("cpu MHz", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos)
        return uint32_t(std::stod(line.substr(colon + 1)));
    }
  }
  return 0;
}
} // namespace

Device::Device() : name_(cpuModelName()), maxClockMHz_(cpuMaxMHz()) {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  globalMemSize_ = (pages > 0 && pageSize > 0) ? uint64_t(pages) * uint64_t(pageSize)
                                               : uint64_t(1) << 30;
}

exec::Executor &Device::executor() {
  if (auto *e = started_.load(std::memory_order_acquire))
    return *e;
  std::call_once(executorOnce_, [this] {
    executor_ = std::make_unique<exec::Executor>();
    started_.store(executor_.get(), std::memory_order_release);
  });
  return *executor_;
}

exec::Executor *Device::executorIfStarted() {
  return started_.load(std::memory_order_acquire);
}

void Device::wakeWaiters() {
  if (auto *e = executorIfStarted())
    e->runHost([] { return int32_t(CL_COMPLETE); }, [](int32_t) {});
}

} // namespace fibercl::runtime

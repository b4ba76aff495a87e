// The CPU device: the CPU's name, host memory size, and the lazily started executor.
#include "runtime/cpu_device.hpp"
#include "runtime/exec/executor.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>

namespace fibercl::runtime {

CpuDevice &CpuDevice::get() {
  static CpuDevice *device = new CpuDevice;
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
// The host's widest SIMD register in bytes (x86: AVX-512, AVX, else SSE's 16).
uint32_t hostSimdBytes() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f"))
    return 64;
  if (__builtin_cpu_supports("avx"))
    return 32;
#endif
  return 16;
}
} // namespace

cl_uint CpuDevice::vectorWidth(size_t elementBytes) const {
  return cl_uint(std::min<size_t>(16, simdBytes_ / elementBytes));
}

CpuDevice::CpuDevice()
    : name_(cpuModelName()), maxClockMHz_(cpuMaxMHz()), simdBytes_(hostSimdBytes()) {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  globalMemSize_ =
      (pages > 0 && pageSize > 0) ? uint64_t(pages) * uint64_t(pageSize) : uint64_t(1) << 30;
}

exec::Executor &CpuDevice::executor() {
  if (auto *e = started_.load(std::memory_order_acquire))
    return *e;
  std::call_once(executorOnce_, [this] {
    executor_ = std::make_unique<exec::Executor>();
    started_.store(executor_.get(), std::memory_order_release);
  });
  return *executor_;
}

exec::Executor *CpuDevice::executorIfStarted() { return started_.load(std::memory_order_acquire); }

unsigned CpuDevice::computeUnits() { return executor().workerCount(); }

} // namespace fibercl::runtime

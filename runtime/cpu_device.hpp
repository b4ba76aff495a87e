// The host CPU as an OpenCL device: work-groups on FiberCL's executor (runtime/exec/,
// this device's private engine: nothing outside the CPU device's files names it).
#pragma once

#include "runtime/device.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

namespace fibercl::exec {
class Executor;
}

namespace fibercl::runtime {

// The host CPU as an OpenCL device. A process-wide singleton (a root device:
// retain/release do nothing). Owns the executor, created on first need so that
// loading the library starts no threads.
class CpuDevice final : public Device {
public:
  static CpuDevice &get();

  cl_device_type type() const override { return CL_DEVICE_TYPE_CPU; }
  void info(cl_device_info param, InfoWriter &out) override; // cpu_device_info.cpp
  uint64_t maxAllocSize() const override { return globalMemSize_ / 4; }
  const DeviceLimits &limits() const override {
    static constexpr DeviceLimits kLimits{kMaxWorkGroupSize,
                                          kLocalMemSize,
                                          kMemBaseAddrAlignBits,
                                          kPreferredWorkGroupSizeMultiple,
                                          16384,
                                          2048,
                                          size_t(1) << 27,
                                          2048,
                                          kPipeMaxPacketSize};
    return kLimits;
  }
  unsigned computeUnits() override;

  // cpu_launch.cpp: code, commands and waiting, on the executor.
  std::unique_ptr<compiler::Executable> loadBinary(const compiler::Binary &binary,
                                                   std::string &error) override;
  std::unique_ptr<DeviceLaunch> prepareLaunch(const Kernel &kernel, void **args,
                                              uint64_t localMemSize, const fcl_check_bounds *checks,
                                              const LaunchGeometry &geometry) override;
  void runHost(std::function<int32_t()> work, Completion done) override;
  void waitUntil(const std::function<bool()> &finished) override;
  void wakeWaiters() override;

  const std::string &name() const { return name_; }
  uint64_t globalMemSize() const { return globalMemSize_; }
  uint32_t maxClockMHz() const { return maxClockMHz_; }
  // CL_DEVICE_PREFERRED/NATIVE_VECTOR_WIDTH_* for elements of `elementBytes`: as many
  // as fill the host's widest SIMD register (the JIT targets the host CPU), at most 16
  // (OpenCL C's widest vector). AVX-512: 16 int/float, 8 long/double.
  cl_uint vectorWidth(size_t elementBytes) const;

  static constexpr uint64_t kMaxWorkGroupSize = 4096;
  static constexpr uint64_t kLocalMemSize = 256 * 1024;
  static constexpr uint32_t kMemBaseAddrAlignBits = 1024;
  static constexpr uint64_t kPrintfBufferSize = 1 << 20;
  static constexpr uint64_t kMaxParameterSize = 4096;
  static constexpr size_t kPreferredWorkGroupSizeMultiple = 8;
  // Pipes (runtime/exec/pipes.cpp) have no limits of their own: these are the
  // specification's minimums.
  static constexpr uint32_t kPipeMaxPacketSize = 1024;
  static constexpr uint32_t kMaxPipeArgs = 16;
  static constexpr uint32_t kPipeMaxActiveReservations = 16;
  // SPIR-V 1.0 to 1.<this> (cpu_device_info.cpp says why not 1.4).
  static constexpr unsigned kSpirvLastMinor = 3;

private:
  CpuDevice();
  // The executor that runs this device's work (started on first need), or, from
  // executorIfStarted, nullptr if it has not started.
  exec::Executor &executor();
  exec::Executor *executorIfStarted();

  std::string name_;
  uint64_t globalMemSize_ = 0;
  uint32_t maxClockMHz_ = 0;
  uint32_t simdBytes_ = 16; // the host's widest SIMD register
  std::once_flag executorOnce_;
  std::unique_ptr<exec::Executor> executor_;
  std::atomic<exec::Executor *> started_{nullptr};
};

} // namespace fibercl::runtime

// buildKernelLaunch (kernel_launch.hpp): the launch geometry and its rules, the
// work-group size when the application gives none, and the command that hands the
// launch the device prepared to the device when it starts.
#include "runtime/kernel_launch.hpp"

#include <algorithm>
#include <cstdint>

#include "runtime/device.hpp"
#include "runtime/error.hpp"
#include "runtime/kernel.hpp"
#include "runtime/program.hpp"
#include "runtime/queue.hpp"

namespace fibercl::runtime {
namespace {

class NDRangeCommand final : public Command {
public:
  NDRangeCommand(Device &device, Kernel &kernel, const LaunchGeometry &geometry)
      : kernel_(kernel), snapshot_(kernel.snapshot()),
        launch_(device.prepareLaunch(kernel, snapshot_.args, snapshot_.localMemSize,
                                     snapshot_.bounds.empty() ? nullptr : snapshot_.bounds.data(),
                                     geometry)) {}
  uint64_t localMemSize() const { return snapshot_.localMemSize; }

  void start(Event &ev) override {
    Event *e = &ev;
    // Running (CL_PROFILING_COMMAND_START) when the device takes its first group:
    // beside a cooperative kernel, that is after the work-group slots were gathered.
    // It holds the event: the runner that marks it running may be overtaken by others
    // that run every group and complete it (and the application release it) first.
    launch_->run([held = Ref<Event>(ev)] { held->setRunning(); },
                 [e](int32_t status) { e->complete(status); });
  }

private:
  Ref<Kernel> kernel_;
  Kernel::Snapshot snapshot_;
  std::unique_ptr<DeviceLaunch> launch_;
};

// The largest divisor of n that is <= limit (at least 1).
uint64_t largestDivisorAtMost(uint64_t n, uint64_t limit) {
  if (n <= limit)
    return n;
  for (uint64_t d = limit; d > 1; --d)
    if (n % d == 0)
      return d;
  return 1;
}

// The work-group size when the application gives none: as large as is useful in
// dimension 0 first -- long work-item loops vectorise -- but leaving several groups per
// worker thread. Groups divide the global size where that costs little; where the best
// divisor is much smaller (a prime global size would give 1-item groups) and the
// program allows non-uniform work-groups (OpenCL C 2.0+ without
// -cl-uniform-work-group-size), the last group is partial instead.
void chooseLocalSize(const Kernel &k, Device &device, cl_uint workDim, const uint64_t *global,
                     uint64_t *local) {
  uint64_t total = 1;
  for (cl_uint d = 0; d < workDim; ++d)
    total *= global[d];
  uint64_t budget = k.info().usesBarriers ? 256 : device.limits().maxWorkGroupSize;
  uint64_t workers = device.computeUnits();
  uint64_t perGroupForBalance = total / (4 * (workers ? workers : 1));
  if (perGroupForBalance < budget)
    budget = perGroupForBalance ? perGroupForBalance : 1;
  bool partialAllowed = !k.program().uniformWorkGroups();
  for (cl_uint d = 0; d < workDim; ++d) {
    local[d] = largestDivisorAtMost(global[d], budget);
    uint64_t wanted = std::min(global[d], budget);
    if (partialAllowed && local[d] * 8 <= wanted)
      local[d] = wanted;
    budget /= local[d];
    if (budget == 0)
      budget = 1;
  }
}

} // namespace

std::unique_ptr<Command> buildKernelLaunch(Queue &q, Kernel &k, const LaunchRequest &r) {
  Device &device = q.device();
  const DeviceLimits &limits = device.limits();
  LaunchGeometry range;
  range.workDim = r.workDim;
  bool empty = !r.global;
  for (cl_uint d = 0; d < r.workDim; ++d) {
    range.global[d] = r.global ? r.global[d] : 0;
    range.offset[d] = r.offset ? r.offset[d] : 0;
    empty |= range.global[d] == 0;
    // CL_INVALID_GLOBAL_OFFSET if the value specified in global_work_size + the
    // corresponding values in global_work_offset for any dimensions is greater than
    // the maximum value representable by size_t on the device.
    check(range.offset[d] > SIZE_MAX - range.global[d], CL_INVALID_GLOBAL_OFFSET,
          "global_work_offset + global_work_size overflows");
  }

  const auto &info = k.info();
  bool hasReqd = info.reqdWorkGroupSize[0] != 0;
  if (r.local) {
    uint64_t product = 1;
    for (cl_uint d = 0; d < r.workDim; ++d) {
      check(r.local[d] == 0, CL_INVALID_WORK_GROUP_SIZE, "local_work_size has an element 0");
      // CL_INVALID_WORK_ITEM_SIZE if the number of work-items specified in any of
      // local_work_size[0], ... is greater than CL_DEVICE_MAX_WORK_ITEM_SIZES.
      check(r.local[d] > limits.maxWorkGroupSize, CL_INVALID_WORK_ITEM_SIZE,
            "a local_work_size element exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES");
      product *= r.local[d];
      range.local[d] = r.local[d];
    }
    // CL_INVALID_WORK_GROUP_SIZE if local_work_size is specified and does not match
    // the required work-group size for kernel in the program source.
    if (hasReqd)
      for (cl_uint d = 0; d < 3; ++d)
        check((d < r.workDim ? range.local[d] : 1) != info.reqdWorkGroupSize[d],
              CL_INVALID_WORK_GROUP_SIZE, "local_work_size differs from reqd_work_group_size");
    // CL_INVALID_WORK_GROUP_SIZE if local_work_size is specified and the total
    // number of work-items in the work-group is greater than
    // CL_KERNEL_WORK_GROUP_SIZE.
    check(product > limits.maxWorkGroupSize, CL_INVALID_WORK_GROUP_SIZE,
          "the work-group has more than CL_KERNEL_WORK_GROUP_SIZE work-items");
  } else if (hasReqd) {
    for (cl_uint d = 0; d < r.workDim; ++d)
      range.local[d] = info.reqdWorkGroupSize[d];
  } else if (!empty) {
    chooseLocalSize(k, device, r.workDim, range.global, range.local);
  }
  // CL_INVALID_WORK_GROUP_SIZE if the work-group size must be uniform and the
  // global_work_size is not evenly divisible by the local_work_size (or by the
  // required work-group size).
  if (!empty && k.program().uniformWorkGroups())
    for (cl_uint d = 0; d < r.workDim; ++d)
      check(range.global[d] % range.local[d] != 0, CL_INVALID_WORK_GROUP_SIZE,
            "global_work_size is not a multiple of the work-group size, which must be "
            "uniform (OpenCL C 1.x or -cl-uniform-work-group-size)");

  std::unique_ptr<Command> cmd;
  if (!empty) {
    // The cooperative kernels model numbers active groups 0..M-1 in one dimension.
    check(info.cooperative && r.workDim != 1, CL_INVALID_WORK_DIMENSION,
          "a cooperative kernel (fibercl/cooperative.h) is launched in one dimension");
    // Its groups are interchangeable slots (forked ids are reused): all the same size.
    check(info.cooperative && range.global[0] % range.local[0] != 0, CL_INVALID_WORK_GROUP_SIZE,
          "a cooperative kernel's global size is a multiple of its work-group size");
    auto nd = std::make_unique<NDRangeCommand>(device, k, range);
    // CL_OUT_OF_RESOURCES if the local memory the work-group needs exceeds
    // CL_DEVICE_LOCAL_MEM_SIZE.
    check(nd->localMemSize() > limits.localMemSize, CL_OUT_OF_RESOURCES,
          "the kernel needs more __local memory than CL_DEVICE_LOCAL_MEM_SIZE");
    cmd = std::move(nd);
  }
  return cmd;
}

} // namespace fibercl::runtime

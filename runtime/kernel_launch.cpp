// buildKernelLaunch (kernel_launch.hpp): the launch geometry and its rules, the
// work-group size when the application gives none, the scheduling of a kernel that
// may wait for another group, and the command handed to the device's executor.
#include "runtime/kernel_launch.hpp"

#include <CL/cl_fibercl.h>

#include <algorithm>
#include <cstdint>
#include <iterator>

#include "runtime/device.hpp"
#include "runtime/error.hpp"
#include "runtime/exec/executor.hpp"
#include "runtime/kernel.hpp"
#include "runtime/program.hpp"
#include "runtime/queue.hpp"

namespace fibercl::runtime {
namespace {

// The launch's scheduling: the environment (read at each launch, so a program or the
// `fibercl` tool may change it between launches), then clSetKernelExecInfo's values.
exec::Scheduling schedulingFor(const Kernel &k) {
  exec::Scheduling s = exec::Scheduling::fromEnvironment();
  const Kernel::SchedulingOverrides &o = k.scheduling();
  if (o.occupancy)
    s.occupancy = *o.occupancy;
  if (o.schedule)
    s.policy = *o.schedule;
  if (o.seed) {
    s.deterministic = true;
    s.seed = *o.seed;
  }
  if (o.admission)
    s.admission = *o.admission;
  return s;
}

// "<source>:12 (atomic read)" for reports.
std::string describeSite(const std::vector<compiler::SiteInfo> &sites, uint32_t id) {
  static const char *const kinds[] = {"barrier", "loop poll",     "atomic read",
                                      "atomic write", "fence", "volatile read",
                                      "volatile write", "cooperative"};
  static_assert(std::size(kinds) == size_t(compiler::SiteInfo::kLastKind) + 1);
  id &= ~FIBERCL_SITE_WAITING;
  for (const compiler::SiteInfo &site : sites)
    if (site.id == id) {
      std::string text = (site.file.empty() ? std::string("<unknown>") : site.file) + ":" +
                         std::to_string(site.line) + " (" + kinds[uint32_t(site.kind)] + ")";
      if (!site.function.empty())
        text += " in " + site.function;
      if (!site.progress.empty()) // a primitive that says what it needs of the scheduler
        text += " [" + site.function + " assumes: " + site.progress + "]";
      return text;
    }
  return "site #" + std::to_string(id);
}


class NDRangeCommand final : public Command {
public:
  NDRangeCommand(Kernel &kernel, exec::NDRange range)
      : kernel_(kernel), snapshot_(kernel.snapshot()), range_(std::move(range)) {
    range_.args = snapshot_.args;
    range_.localMemSize = snapshot_.localMemSize;
  }
  uint64_t localMemSize() const { return snapshot_.localMemSize; }

  void start(Event &ev) override {
    Event *e = &ev;
    // Running (CL_PROFILING_COMMAND_START) when the executor takes its first group:
    // beside a cooperative kernel, that is after the work-group slots were gathered.
    // It holds the event: the runner that marks it running may be overtaken by others
    // that run every group and complete it (and the application release it) first.
    range_.started = [held = Ref<Event>(ev)] { held->setRunning(); };
    ev.queue()->device().executor().runNDRange(std::move(range_),
                                        [e](int32_t status) { e->complete(status); });
  }

private:
  Ref<Kernel> kernel_;
  Kernel::Snapshot snapshot_;
  exec::NDRange range_;
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
  uint64_t workers = device.executor().workerCount();
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
  exec::NDRange range;
  range.workDim = r.workDim;
  bool empty = !r.global;
  for (cl_uint d = 0; d < r.workDim; ++d) {
    range.globalSize[d] = r.global ? r.global[d] : 0;
    range.globalOffset[d] = r.offset ? r.offset[d] : 0;
    empty |= range.globalSize[d] == 0;
    // CL_INVALID_GLOBAL_OFFSET if the value specified in global_work_size + the
    // corresponding values in global_work_offset for any dimensions is greater than
    // the maximum value representable by size_t on the device.
    check(range.globalOffset[d] > SIZE_MAX - range.globalSize[d], CL_INVALID_GLOBAL_OFFSET,
          "global_work_offset + global_work_size overflows");
  }

  const auto &info = k.info();
  bool hasReqd = info.reqdWorkGroupSize[0] != 0;
  if (r.local) {
    uint64_t product = 1;
    for (cl_uint d = 0; d < r.workDim; ++d) {
      check(r.local[d] == 0, CL_INVALID_WORK_GROUP_SIZE,
            "local_work_size has an element 0");
      // CL_INVALID_WORK_ITEM_SIZE if the number of work-items specified in any of
      // local_work_size[0], ... is greater than CL_DEVICE_MAX_WORK_ITEM_SIZES.
      check(r.local[d] > limits.maxWorkGroupSize, CL_INVALID_WORK_ITEM_SIZE,
            "a local_work_size element exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES");
      product *= r.local[d];
      range.localSize[d] = r.local[d];
    }
    // CL_INVALID_WORK_GROUP_SIZE if local_work_size is specified and does not match
    // the required work-group size for kernel in the program source.
    if (hasReqd)
      for (cl_uint d = 0; d < 3; ++d)
        check((d < r.workDim ? range.localSize[d] : 1) != info.reqdWorkGroupSize[d],
              CL_INVALID_WORK_GROUP_SIZE,
              "local_work_size differs from reqd_work_group_size");
    // CL_INVALID_WORK_GROUP_SIZE if local_work_size is specified and the total
    // number of work-items in the work-group is greater than
    // CL_KERNEL_WORK_GROUP_SIZE.
    check(product > limits.maxWorkGroupSize, CL_INVALID_WORK_GROUP_SIZE,
          "the work-group has more than CL_KERNEL_WORK_GROUP_SIZE work-items");
  } else if (hasReqd) {
    for (cl_uint d = 0; d < r.workDim; ++d)
      range.localSize[d] = info.reqdWorkGroupSize[d];
  } else if (!empty) {
    chooseLocalSize(k, device, r.workDim, range.globalSize, range.localSize);
  }
  // CL_INVALID_WORK_GROUP_SIZE if the work-group size must be uniform and the
  // global_work_size is not evenly divisible by the local_work_size (or by the
  // required work-group size).
  if (!empty && k.program().uniformWorkGroups())
    for (cl_uint d = 0; d < r.workDim; ++d)
      check(range.globalSize[d] % range.localSize[d] != 0, CL_INVALID_WORK_GROUP_SIZE,
            "global_work_size is not a multiple of the work-group size, which must be "
            "uniform (OpenCL C 1.x or -cl-uniform-work-group-size)");

  std::unique_ptr<Command> cmd;
  if (!empty) {
    range.entry = k.entry();
    range.kernelName = k.name();
    range.itemFibers = info.usesBarriers && !info.barrierRegions;
    // Only a kernel that may wait for another group needs the scheduler. One whose
    // yield points are mere atomics is scheduled too when the user asked for a seed
    // (to explore interleavings) or an occupancy bound; else its groups run to
    // completion at full speed.
    if (info.yields || info.cooperative) {
      range.scheduling = schedulingFor(k);
      range.mayYield = info.mayBlock || info.cooperative ||
                       range.scheduling.deterministic || range.scheduling.occupancy != 0;
    } else {
      range.scheduling.kernelTimeoutSeconds = exec::Scheduling::kernelTimeoutFromEnvironment();
    }
    // The cooperative kernels model numbers active groups 0..M-1 in one dimension.
    check(info.cooperative && r.workDim != 1, CL_INVALID_WORK_DIMENSION,
          "a cooperative kernel (fibercl/cooperative.h) is launched in one dimension");
    // Its groups are interchangeable slots (forked ids are reused): all the same size.
    check(info.cooperative && range.globalSize[0] % range.localSize[0] != 0,
          CL_INVALID_WORK_GROUP_SIZE,
          "a cooperative kernel's global size is a multiple of its work-group size");
    range.cooperative = info.cooperative;
    range.describeSite = [sites = &info.sites](uint32_t id) { return describeSite(*sites, id); };
    auto nd = std::make_unique<NDRangeCommand>(k, std::move(range));
    // CL_OUT_OF_RESOURCES if the local memory the work-group needs exceeds
    // CL_DEVICE_LOCAL_MEM_SIZE.
    check(nd->localMemSize() > limits.localMemSize, CL_OUT_OF_RESOURCES,
          "the kernel needs more __local memory than CL_DEVICE_LOCAL_MEM_SIZE");
    cmd = std::move(nd);
  }
  return cmd;
}

} // namespace fibercl::runtime

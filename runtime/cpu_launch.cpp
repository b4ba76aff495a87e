// The CPU device's commands, code and waiting (device.hpp's interface) on its executor:
// a kernel launch becomes an exec::NDRange -- how its work-groups run, the scheduling of
// a kernel that may wait for another group, the sites reports name -- host commands
// become executor host work, and programs load with the executor's host symbols.
#include "runtime/cpu_device.hpp"

#include <CL/cl_fibercl.h>

#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "fibercl/compiler/compiler.hpp"
#include "runtime/exec/executor.hpp"
#include "runtime/exec/group_races.hpp"
#include "runtime/kernel.hpp"

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
  static const char *const kinds[] = {"barrier",        "loop poll",   "atomic read",
                                      "atomic write",   "fence",       "volatile read",
                                      "volatile write", "cooperative", "sub-group barrier",
                                      "read",           "write",       "read"};
  static_assert(std::size(kinds) == size_t(compiler::SiteInfo::kLastKind) + 1);
  id &= ~(FIBERCL_SITE_WAITING | FIBERCL_SITE_SUB_GROUP);
  for (const compiler::SiteInfo &site : sites)
    if (site.id == id) {
      std::string text = (site.file.empty() ? std::string("<unknown>") : site.file) + ":" +
                         std::to_string(site.line) + " (" + kinds[uint32_t(site.kind)] +
                         (site.object.empty() ? "" : " of " + site.object) + ")";
      if (!site.function.empty())
        text += " in " + site.function;
      if (!site.progress.empty()) // a primitive that says what it needs of the scheduler
        text += " [" + site.function + " assumes: " + site.progress + "]";
      return text;
    }
  return "site #" + std::to_string(id);
}

// Groups of at most this many work-items get a work-group function compiled for their
// size when the kernel has barrier regions (FIBERCL_SPECIALISE=N changes it, 0 turns
// it off). The barrier loop of bench/limits_bench.cpp, ms for 65,536 work-items:
// 16: 2.24 -> 0.79, 64: 1.18 -> 0.46, 256: 1.06 -> 0.21, but 512: 1.10 -> 1.32 (its
// copy's loops are unrolled past what the registers hold; 57 ms to compile).
constexpr uint64_t kSpecialiseUpToItems = 256;

// The vector copy when each vector of its work-item loop is a sub-group: its rows of
// work-items (x) are one row, or whole sub-groups. FIBERCL_SUBGROUP_VECTORS=0 turns it
// off (to compare with the slots).
bool vectorsAreSubGroups(const Kernel &k, const LaunchGeometry &g) {
  if (!k.subGroupVectorEntry())
    return false;
  const char *env = std::getenv("FIBERCL_SUBGROUP_VECTORS");
  if (env && std::strcmp(env, "0") == 0)
    return false;
  uint64_t rows = 1;
  for (uint32_t d = 1; d < g.workDim; ++d)
    rows *= g.local[d];
  // Non-uniform launches: the remainder groups' rows are shorter.
  uint64_t x = g.local[0], left = g.global[0] % (x ? x : 1);
  uint32_t s = k.info().subGroupSize;
  return rows == 1 || (x % s == 0 && left % s == 0);
}

// The work-group function for this launch: specialised for its size when every group
// has that size (a uniform launch) and the kernel gains from it.
fcl_work_group_fn entryFor(const Kernel &k, const LaunchGeometry &g) {
  // A vector copy is specialised too: its vectors' masks and a division by
  // get_max_sub_group_size() then fold away.
  bool vectors = vectorsAreSubGroups(k, g);
  fcl_work_group_fn generic = vectors ? k.subGroupVectorEntry() : k.entry();
  if (!vectors && !k.info().barrierRegions)
    return generic;
  // A checked kernel with sub-group barriers (slots) is not specialised: its specialised
  // 2-D copy ran lane checks and atomics for lanes past the row (a 16-lane vector over
  // rows of 8) although every mask in its IR excludes them -- seen with S = 4 on
  // AVX-512, not understood yet (issue 32's closing note).
  const compiler::KernelInfo &info = k.info();
  if (info.boundsChecked || info.uninitChecked || info.racesChecked || info.weakMemory)
    for (const compiler::SiteInfo &site : info.sites)
      if (site.kind == compiler::SiteInfo::Kind::SubGroupBarrier)
        return generic;
  const char *env = std::getenv("FIBERCL_SPECIALISE"); // read at each launch, like the rest
  uint64_t upTo = env ? std::strtoull(env, nullptr, 10) : kSpecialiseUpToItems;
  uint64_t size[3] = {1, 1, 1}, items = 1;
  for (uint32_t d = 0; d < g.workDim; ++d) {
    if (g.local[d] == 0 || g.global[d] % g.local[d] != 0)
      return generic;
    size[d] = g.local[d];
    items *= g.local[d];
  }
  if (items > upTo)
    return generic;
  fcl_work_group_fn specialised = k.specialisedEntry(size, vectors);
  return specialised ? specialised : generic;
}

class CpuLaunch final : public DeviceLaunch {
public:
  CpuLaunch(exec::Executor &executor, exec::NDRange range)
      : executor_(executor), range_(std::move(range)) {}
  void run(std::function<void()> started, Completion done) override {
    range_.started = std::move(started);
    executor_.runNDRange(std::move(range_), std::move(done));
  }

private:
  exec::Executor &executor_;
  exec::NDRange range_;
};

} // namespace

std::unique_ptr<DeviceLaunch> CpuDevice::prepareLaunch(const Kernel &k, void **args,
                                                       uint64_t localMemSize,
                                                       const fcl_check_bounds *checks,
                                                       const LaunchGeometry &g) {
  const compiler::KernelInfo &info = k.info();
  exec::NDRange range;
  range.workDim = g.workDim;
  for (int d = 0; d < 3; ++d) {
    range.globalOffset[d] = g.offset[d];
    range.globalSize[d] = g.global[d];
    range.localSize[d] = g.local[d];
  }
  range.entry = entryFor(k, g);
  range.kernelName = k.name();
  range.args = args;
  range.localMemSize = localMemSize;
  // FIBERCL_CHECK=uninit: the block doubles, its second half the first's shadow.
  if (info.uninitChecked && localMemSize) {
    uint64_t shadow = (localMemSize + 63) / 64 * 64;
    range.localMemSize = 2 * shadow;
    range.localShadow = shadow;
  }
  range.checks = checks;
  if (info.racesChecked)
    range.groupRaces = exec::makeGroupRaces(range.localMemSize);
  range.weakMemory = info.weakMemory;
  if (checks || range.localShadow || info.racesChecked) {
    const char *go = std::getenv("FIBERCL_CHECK_CONTINUE");
    range.checkContinue = go && std::strcmp(go, "0") != 0;
  }
  range.itemFibers = info.usesBarriers && !info.barrierRegions;
  // Only a kernel that may wait for another group needs the scheduler. One whose
  // yield points are mere atomics is scheduled too when the user asked for a seed
  // (to explore interleavings) or an occupancy bound; else its groups run to
  // completion at full speed.
  if (info.yields || info.cooperative) {
    range.scheduling = schedulingFor(k);
    range.mayYield = info.mayBlock || info.cooperative || range.scheduling.deterministic ||
                     range.scheduling.occupancy != 0;
  } else {
    range.scheduling.kernelTimeoutSeconds = kernelTimeoutFromEnvironment();
  }
  range.cooperative = info.cooperative;
  range.describeSite = [sites = &info.sites](uint32_t id) { return describeSite(*sites, id); };
  return std::make_unique<CpuLaunch>(executor(), std::move(range));
}

void CpuDevice::runHost(std::function<int32_t()> work, Completion done) {
  executor().runHost(std::move(work), std::move(done));
}

void CpuDevice::waitUntil(const std::function<bool()> &finished) { executor().helpUntil(finished); }

void CpuDevice::wakeWaiters() {
  if (auto *e = executorIfStarted())
    e->runHost([] { return int32_t(CL_COMPLETE); }, [](int32_t) {});
}

std::unique_ptr<compiler::Executable> CpuDevice::loadBinary(const compiler::Binary &binary,
                                                            std::string &error) {
  return compiler::load(binary, exec::hostSymbols(), error);
}

} // namespace fibercl::runtime

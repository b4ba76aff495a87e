// Checked mode's reports (host_abi.def: FIBERCL_HOST_CHECK_FAILED, _CHECK_UNINIT): an
// access the compiler's checks (compiler/src/passes/access_checks.cpp) refused.
#include <functional>
#include <mutex>
#include <set>
#include <utility>

#include "runtime/exec/check_reports.hpp"
#include "runtime/exec/host_abi.hpp"
#include "runtime/exec/json_report.hpp"
#include "runtime/exec/report.hpp"
#include "runtime/exec/runner.hpp"

namespace fibercl::exec {

namespace {

bool firstTime(uint64_t launch, uint64_t what) noexcept {
  static std::mutex m;
  static std::set<std::pair<uint64_t, uint64_t>> reported;
  std::lock_guard<std::mutex> hold(m);
  if (reported.size() > 100000) // a long-running process: forget old launches
    reported.clear();
  return reported.emplace(launch, what).second;
}

} // namespace

bool firstCheckReport(uint64_t launch, uint32_t site) noexcept { return firstTime(launch, site); }

std::string siteText(const Runner &r, uint32_t site) noexcept {
  const auto *describe = r.describeSite;
  if (describe && *describe) {
    try {
      return (*describe)(site);
    } catch (...) {
    }
  }
  return std::string();
}

bool firstRaceReport(uint64_t launch, const std::string &a, const std::string &b) noexcept {
  try {
    const std::string pair = a < b ? a + "|" + b : b + "|" + a;
    return firstTime(launch, uint64_t(1) << 63 | std::hash<std::string>()(pair) >> 1);
  } catch (...) {
    return true;
  }
}

} // namespace fibercl::exec

// Reports a failed check of `site` once per launch -- `what` it was, the access
// (`bytes` at `offset`, and the object's `size` when the check knows it), the
// work-item, the group, the site and the command's fate -- then goes on (the access
// skipped or made, FIBERCL_CHECK_CONTINUE=1) or abandons the group.
static void failed(fcl_group_ctx *ctx, uint32_t site, const char *kind, const char *what,
                   uint64_t offset, uint64_t bytes, const uint64_t *size, uint32_t x, uint32_t y,
                   uint32_t z) noexcept {
  using namespace fibercl::exec;
  Runner &r = *reinterpret_cast<GroupState *>(ctx->runtime)->runner;
  if (firstCheckReport(r.launch.load(std::memory_order_relaxed), site)) {
    Report msg;
    int64_t at = int64_t(offset);
    msg.kernel(r.kernelName) << ": " << what << ": " << bytes << " bytes at byte offset " << at;
    if (bytes && at % int64_t(bytes) == 0)
      msg << " (element " << at / int64_t(bytes) << ")";
    if (size)
      msg << " of an object of " << *size << " bytes";
    msg << ", by ";
    msg.item(x, y, z) << " in ";
    msg.group(ctx) << "\n";
    std::string where = siteText(r, site);
    if (!where.empty())
      msg << "  at " << where << "\n";
    try {
      JsonReport json("check");
      json.field("kernel", r.kernelName).field("check", kind).field("what", what);
      json.field("at", where)
          .number("site", site)
          .number("offset", at)
          .number("bytes", int64_t(bytes));
      if (size)
        json.number("size", int64_t(*size));
      json.ids("item", x, y, z).ids("group", ctx->group_id[0], ctx->group_id[1], ctx->group_id[2]);
      json.flag("continued", r.checkContinue).append();
    } catch (...) {
    }
    if (!r.checkContinue)
      msg << "  the command fails; FIBERCL_CHECK_CONTINUE=1 goes on after such reports\n";
    msg.emit();
  }
  if (!r.checkContinue)
    abortGroup(r);
}

extern "C" void __fibercl_host_check_failed(fcl_group_ctx *ctx, fcl_u32 site, fcl_u64 offset,
                                            fcl_u64 bytes, fcl_u64 size, fcl_u32 x, fcl_u32 y,
                                            fcl_u32 z) noexcept {
  int64_t at = int64_t(offset);
  bool inside = at >= 0 && bytes <= size && uint64_t(at) <= size - bytes;
  failed(ctx, site, inside ? "access" : "bounds",
         inside ? "access not allowed (a READ_ONLY buffer written or a WRITE_ONLY one read)"
                : "out-of-bounds access",
         offset, bytes, &size, x, y, z);
}

extern "C" void __fibercl_host_check_uninit(fcl_group_ctx *ctx, fcl_u32 site, fcl_u64 offset,
                                            fcl_u64 bytes, fcl_u32 x, fcl_u32 y,
                                            fcl_u32 z) noexcept {
  failed(ctx, site, "uninit",
         "read of __local memory that no work-item of the group wrote in this launch", offset,
         bytes, nullptr, x, y, z);
}

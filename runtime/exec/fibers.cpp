// Work-items of a group and barriers: the host functions FIBERCL_HOST_RUN_ITEMS and
// FIBERCL_HOST_BARRIER. Work-items run in linear order (x fastest) on the runner's
// stack until work-item 0 reaches a barrier; from then on each work-item has a fiber
// (created when it is first reached) and a barrier jumps directly to the next
// work-item, the last one back to work-item 0. Everything here runs across context
// switches, so it is noexcept: nothing may unwind across fibers.
#include <cstdint>
#include <new>

#include "runtime/exec/host_abi.hpp"
#include "runtime/exec/json_report.hpp"
#include "runtime/exec/report.hpp"
#include "runtime/exec/runner.hpp"
#include "runtime/exec/sub_group_release.hpp"

namespace bctx = boost::context::detail;

namespace fibercl::exec {
namespace {

// Work-item g.cur is at barrier `site` (-1: it finished) but the round waits for
// g.roundSite.
// In fiber mode the round then runs on to the last work-item (continueDivergence), so
// the report can say where each went; before it (work-item 0 finished without a
// barrier) the report stops at this work-item.
[[noreturn]] void continueDivergence(GroupState &g, int64_t site) noexcept;
[[noreturn, gnu::cold, gnu::noinline]] void diverge(GroupState &g, int64_t site) noexcept {
  bool sequential = g.roundSite == GroupState::kSequential;
  int64_t item0 = sequential || g.roundSite == GroupState::kFinish ? -1 : g.roundSite;
  if (sequential || !g.fiberMode)
    barrierDivergence(g, g.cur, site, item0, sequential);
  try {
    g.whereItems.assign(g.n, 0);
  } catch (...) {
    barrierDivergence(g, g.cur, site, item0, sequential);
  }
  for (uint32_t i = 0; i < g.cur; ++i)
    g.whereItems[i] = item0 > 0 ? uint32_t(item0) : 0;
  g.diverging = true;
  g.divergedItem = g.cur;
  g.divergedSite = site;
  continueDivergence(g, site);
}

// Work-item g.cur reached the round's barrier with other fence flags than work-item 0
// (OpenCL: every work-item of the group must give the same).
[[noreturn, gnu::cold, gnu::noinline]] void fenceFlagsDiffer(GroupState &g, uint32_t site,
                                                             uint32_t flags) noexcept {
  uint32_t x, y, z;
  localIdOf(g, g.cur, x, y, z);
  auto name = [](uint32_t f) {
    return f == 0   ? "0"
           : f == 1 ? "CLK_LOCAL_MEM_FENCE"
           : f == 2 ? "CLK_GLOBAL_MEM_FENCE"
           : f == 3 ? "CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE"
                    : "other flags";
  };
  Report msg;
  msg.kernel(g.runner->kernelName) << ": barrier divergence in ";
  msg.group(g.ctx) << ": ";
  msg.item(x, y, z) << " reached barrier #" << site << " with fence flags " << name(flags) << " ("
                    << flags << ") but work-item (0,0,0) with " << name(g.roundFlags) << " ("
                    << g.roundFlags << ")\n";
  std::string where = siteText(*g.runner, site);
  if (!where.empty())
    msg << "  barrier #" << site << " is at " << where << "\n";
  msg.emit();
  abortGroup(*g.runner);
}

[[noreturn, gnu::cold, gnu::noinline]] void outOfStacks(GroupState &g) noexcept {
  Report msg;
  msg.kernel(g.runner->kernelName) << ": cannot allocate work-item stacks for ";
  msg.group(g.ctx) << "\n";
  msg.emit();
  abortGroup(*g.runner);
}

void fiberMain(bctx::transfer_t t) noexcept;

// Boost.Context's switch functions never throw; calling them through noexcept types
// keeps the compiler from wrapping the calls in a terminate region (which would also
// forbid the tail call below).
using JumpFn = bctx::transfer_t (*)(bctx::fcontext_t, void *) noexcept;
using OntopFn = bctx::transfer_t (*)(bctx::fcontext_t, void *,
                                     bctx::transfer_t (*)(bctx::transfer_t)) noexcept;
const JumpFn jumpTo = reinterpret_cast<JumpFn>(&bctx::jump_fcontext);
const OntopFn resumeOnTop = reinterpret_cast<OntopFn>(&bctx::ontop_fcontext);

// Runs on the resumed work-item's stack, first thing after a switch: records the
// context of the work-item that was suspended.
bctx::transfer_t onResume(bctx::transfer_t t) noexcept {
  *static_cast<GroupState *>(t.data)->saveSlot = t.fctx;
  return t;
}

[[gnu::noinline]] bctx::fcontext_t newFiber(GroupState &g, uint32_t idx) noexcept {
  Stack *s = g.runner->stacks.take();
  if (!s)
    outOfStacks(g);
  g.items[idx].stack = s;
  // Stagger the tops so the hot frames of consecutive work-items do not map to the
  // same L1 sets (stacks are page aligned).
  char *top = s->top() - (idx % 64) * 64 - (s->serial % 4) * 16;
  sanFiberCreated(g.items[idx].san, s->limit(), size_t(top - s->limit()));
  return bctx::make_fcontext(top, size_t(top - s->limit()), &fiberMain);
}

SanFiber &sanFiberOf(GroupState &g, uint32_t idx) noexcept {
  return idx == g.stackItem ? *g.item0Fiber : g.items[idx].san;
}

// Starts work-item g.cur on a fresh fiber; the suspended one is recorded by fiberMain.
[[gnu::noinline]] void startFiber(GroupState &g, bool ending) noexcept {
  bctx::fcontext_t fresh = newFiber(g, g.cur);
  sanSwitching(g.runner->san, g.items[g.cur].san, ending);
  bctx::transfer_t t = jumpTo(fresh, &g);
  // Resumed later through resumeOnTop: onResume has already recorded t.fctx.
  (void)t;
  sanSwitched(g.runner->san);
}

// Suspends work-item `from` and resumes (or starts) work-item `to`.
//
// Resuming goes through ontop_fcontext: onResume runs on the target's stack and then
// *returns* into the target. When the caller tail-calls this (the barrier), the
// target returns straight into its work-item function at the same barrier call site
// the suspended one left from, so the CPU's return-address predictor stays right; a
// jump_fcontext + ret would mispredict on every switch (~20 ns here).
// `ending`: `from` has finished and is never resumed.
inline void switchTo(GroupState &g, uint32_t from, uint32_t to, bool ending = false) noexcept {
  g.saveSlot = &g.items[from].ctx;
  g.cur = to;
  bctx::fcontext_t target = g.items[to].ctx;
  if (__builtin_expect(target == nullptr, 0))
    return startFiber(g, ending);
  // The work-item after `to` is the next one resumed: fetch its saved context (and
  // its page's TLB entry) while `to` runs.
  uint32_t after = to + 1 == g.n ? 0 : to + 1;
  // The saved context is at the top of that fiber's stack, with the frames the
  // work-item resumes into just above it: fetch those lines too.
  const char *saved = static_cast<const char *>(g.items[after].ctx);
  __builtin_prefetch(saved, 1);
  __builtin_prefetch(saved + 64, 1);
  __builtin_prefetch(saved + 128, 1);
  __builtin_prefetch(saved + 192, 1);
  sanSwitching(g.runner->san, sanFiberOf(g, to), ending);
  resumeOnTop(target, &g, &onResume);
  sanSwitched(g.runner->san); // (empty unless sanitized: the tail call stays)
}

void subGroupStop(GroupState &g, uint32_t site) noexcept;

// Work-item g.cur of a diverged round is at `site` (<= 0: finished): records it and
// runs the next one; after the last, reports. The work-items are never resumed.
[[noreturn]] void continueDivergence(GroupState &g, int64_t site) noexcept {
  uint32_t cur = g.cur;
  g.whereItems[cur] = site > 0 ? uint32_t(site) : 0;
  if (cur + 1 == g.n) {
    int64_t item0 = g.whereItems[0] ? int64_t(g.whereItems[0]) : -1;
    barrierDivergence(g, g.divergedItem, g.divergedSite, item0, false, g.whereItems.data());
  }
  switchTo(g, cur, cur + 1, /*ending=*/site <= 0);
  __builtin_trap(); // never resumed
}

[[noreturn]] void itemFinished(GroupState &g) noexcept {
  if (__builtin_expect(g.diverging, 0))
    continueDivergence(g, -1);
  if (g.subGroupMode) {
    subGroupStop(g, 0);
    __builtin_trap(); // a finished fiber is never resumed
  }
  uint32_t cur = g.cur;
  if (g.roundSite != GroupState::kFinish)
    diverge(g, -1);
  uint32_t next = cur + 1 == g.n ? 0 : cur + 1;
  switchTo(g, cur, next, /*ending=*/true);
  __builtin_trap(); // a finished work-item is never resumed
}

void fiberMain(bctx::transfer_t t) noexcept {
  GroupState &g = *static_cast<GroupState *>(t.data);
  sanSwitched(g.runner->san);
  *g.saveSlot = t.fctx; // started by jump_fcontext, not through onResume
  uint32_t x, y, z;
  localIdOf(g, g.cur, x, y, z);
  g.item(g.args, g.ctx, x, y, z);
  itemFinished(g);
}

[[gnu::noinline]] void enterFiberMode(GroupState &g) noexcept {
  try {
    g.items.assign(g.n, ItemSlot{});
  } catch (...) {
    outOfStacks(g);
  }
  g.fiberMode = true;
  g.item0Fiber = g.runner->san.running;
  g.runner->counters.fiberGroups.fetch_add(1, std::memory_order_relaxed);
}

void releaseStacks(GroupState &g) noexcept {
  for (uint32_t i = 0; i < g.items.size(); ++i) {
    if (g.items[i].stack)
      g.runner->stacks.give(g.items[i].stack);
    g.items[i] = ItemSlot{};
  }
  g.fiberMode = false;
  g.subGroupMode = false;
  g.stackItem = 0;
  g.roundSite = GroupState::kSequential;
}

// Kernels with sub-group barriers (sub_group_release.hpp). The work-item that first
// reaches a barrier stays on the runner's stack (the ones before it have finished);
// the ones after it are released to run up to their first barrier.
[[gnu::noinline]] void enterSubGroupMode(GroupState &g, uint32_t width) noexcept {
  enterFiberMode(g);
  try {
    g.sgWait.assign(g.n, 0);
    g.sgRun.clear();
    for (uint32_t i = g.cur + 1; i < g.n; ++i)
      g.sgRun.push_back(i);
  } catch (...) {
    outOfStacks(g);
  }
  g.subGroupMode = true;
  g.stackItem = g.cur;
  g.sgWidth = width;
  g.sgNext = 0;
}

[[noreturn, gnu::cold, gnu::noinline]] void subGroupDivergence(GroupState &g,
                                                               const SubGroupRelease &r) noexcept {
  barrierDivergence(g, r.item, r.itemSite ? int64_t(r.itemSite) : -1,
                    r.firstSite ? int64_t(r.firstSite) : -1, false, g.sgWait.data());
}

// Work-item g.cur stops at `site` (0: it finished; kYielded: it yielded): runs the next released
// work-item, or releases the next site. Returns when g.cur is resumed, or (the work-item on the
// runner's stack only) when every work-item has finished.
void subGroupStop(GroupState &g, uint32_t site) noexcept {
  uint32_t cur = g.cur;
  g.sgWait[cur] = site;
  if (g.sgNext == g.sgRun.size()) {
    // sgRun keeps its capacity (n): no allocation.
    ++g.barrierEpoch;
    SubGroupRelease r = chooseFiberRelease(g.sgWait.data(), g.n, g.sgWidth, g.sgMasks, g.sgRun);
    if (r.diverged)
      subGroupDivergence(g, r);
    if (g.sgRun.empty()) { // all finished: back to the runner's stack
      if (cur == g.stackItem)
        return;
      switchTo(g, cur, g.stackItem, /*ending=*/true);
      __builtin_trap();
    }
    g.sgNext = 0;
  }
  uint32_t next = g.sgRun[g.sgNext++];
  if (next != cur)
    switchTo(g, cur, next, /*ending=*/site == 0);
}

} // namespace

bool GroupState::prepareSubGroupMasks() noexcept {
  try {
    size_t need = (size_t(n) + 3) / 4;
    if (sgMasks.size() < need)
      sgMasks.resize(need);
  } catch (...) {
    return false;
  }
  ctx->sub_groups = reinterpret_cast<uintptr_t>(sgMasks.data());
  return true;
}

void localIdOf(const GroupState &g, uint32_t idx, uint32_t &x, uint32_t &y, uint32_t &z) noexcept {
  x = idx % g.lx;
  uint32_t rest = idx / g.lx;
  y = rest % g.ly;
  z = rest / g.ly;
}

namespace {

// "barrier #3 (<source>:12)", "finished" for `site` (<= 0: finished).
void namePlace(Report &msg, const GroupState &g, int64_t site) noexcept {
  if (site <= 0) {
    msg << "finished";
    return;
  }
  msg << "barrier #" << site;
  std::string where = siteText(*g.runner, uint32_t(site));
  if (!where.empty())
    msg << " (" << where << ")";
}

// One line per place the work-items went: how many, and their ids as runs of
// consecutive linear ids ("(0,0,0)..(4,0,0)"), at most kRuns runs per place.
// `placeOf(i)`: where work-item i is (<= 0: finished; kUnknown: not there yet).
constexpr int64_t kUnknown = INT64_MIN;
template <typename PlaceOf>
void whoWentWhere(Report &msg, std::string &json, const GroupState &g, PlaceOf placeOf) noexcept {
  constexpr unsigned kPlaces = 8, kRuns = 6;
  int64_t places[kPlaces];
  unsigned nPlaces = 0;
  for (uint32_t i = 0; i < g.n && nPlaces < kPlaces; ++i) {
    int64_t p = placeOf(i) <= 0 && placeOf(i) != kUnknown ? 0 : placeOf(i);
    bool seen = false;
    for (unsigned k = 0; k < nPlaces; ++k)
      seen |= places[k] == p;
    if (!seen)
      places[nPlaces++] = p;
  }
  msg << "  where the group's " << g.n << " work-items are:\n";
  for (unsigned k = 0; k < nPlaces; ++k) {
    auto here = [&](uint32_t i) {
      int64_t p = placeOf(i);
      return (p <= 0 && p != kUnknown ? 0 : p) == places[k];
    };
    uint32_t count = 0;
    for (uint32_t i = 0; i < g.n; ++i)
      count += here(i);
    msg << "    ";
    if (places[k] == kUnknown)
      msg << "not there yet (they run after the first that differed)";
    else
      namePlace(msg, g, places[k]);
    msg << ": " << count << (count == 1 ? " work-item" : " work-items");
    // Runs of consecutive linear ids.
    uint32_t runs[kRuns + 1][2];
    unsigned nRuns = 0;
    for (uint32_t i = 0; i < g.n && nRuns <= kRuns; ++i) {
      if (!here(i) || (i > 0 && here(i - 1)))
        continue;
      uint32_t last = i;
      while (last + 1 < g.n && here(last + 1))
        ++last;
      runs[nRuns][0] = i;
      runs[nRuns++][1] = last;
    }
    try { // [{"site":3,"items":5,"runs":[[0,4]]}, ...]; site 0: finished, -1: not there yet
      json += std::string(k ? "," : "[") +
              "{\"site\":" + std::to_string(places[k] == kUnknown ? -1 : places[k]) +
              ",\"items\":" + std::to_string(count) + ",\"runs\":[";
      for (unsigned r = 0; r < nRuns && r < kRuns; ++r)
        json += std::string(r ? "," : "") + "[" + std::to_string(runs[r][0]) + "," +
                std::to_string(runs[r][1]) + "]";
      json += std::string("]}") + (k + 1 == nPlaces ? "]" : "");
    } catch (...) {
    }
    for (unsigned r = 0; r < nRuns; ++r) {
      if (r == kRuns) {
        msg << ", ...";
        break;
      }
      uint32_t x, y, z;
      localIdOf(g, runs[r][0], x, y, z);
      msg << (r == 0 ? ": " : ", ") << "(" << x << "," << y << "," << z << ")";
      if (runs[r][1] != runs[r][0]) {
        localIdOf(g, runs[r][1], x, y, z);
        msg << ".."
            << "(" << x << "," << y << "," << z << ")";
      }
    }
    msg << "\n";
  }
}

} // namespace

void barrierDivergence(GroupState &g, uint32_t item, int64_t site, int64_t item0Site,
                       bool firstRound, const uint32_t *sites) noexcept {
  // Sites as the compiler numbered them (without the sub-group barrier bit).
  if (site > 0)
    site &= ~int64_t(FIBERCL_SITE_SUB_GROUP);
  if (item0Site > 0)
    item0Site &= ~int64_t(FIBERCL_SITE_SUB_GROUP);
  uint32_t x, y, z;
  localIdOf(g, item, x, y, z);
  Report msg;
  msg.kernel(g.runner->kernelName) << ": barrier divergence in ";
  msg.group(g.ctx) << ": ";
  msg.item(x, y, z);
  if (item0Site < 0 && firstRound)
    msg << " reached barrier #" << site << " but earlier work-items finished without reaching it";
  else if (item0Site < 0)
    msg << " waits at barrier #" << site << " but work-item (0,0,0) finished";
  else if (site < 0)
    msg << " finished but work-item (0,0,0) waits at barrier #" << item0Site;
  else
    msg << " waits at barrier #" << site << " but work-item (0,0,0) waits at barrier #"
        << item0Site;
  msg << "\n";
  // Where the barriers are in the source, when the compiler knows.
  for (int64_t s : {site, item0Site == site ? int64_t(-1) : item0Site}) {
    std::string where = s > 0 ? siteText(*g.runner, uint32_t(s)) : std::string();
    if (!where.empty())
      msg << "  barrier #" << s << " is at " << where << "\n";
  }
  auto plain = [](uint32_t s) { return int64_t(s & ~uint32_t(FIBERCL_SITE_SUB_GROUP)); };
  std::string places;
  if (sites)
    whoWentWhere(msg, places, g, [&](uint32_t i) { return plain(sites[i]); });
  else // the fibers' rounds stop at the first work-item that differs
    whoWentWhere(msg, places, g, [&](uint32_t i) {
      return i < item ? item0Site : i == item ? site : kUnknown;
    });
  msg.emit();
  try {
    JsonReport json("divergence");
    json.field("kernel", g.runner->kernelName)
        .ids("group", g.ctx->group_id[0], g.ctx->group_id[1], g.ctx->group_id[2])
        .ids("item", x, y, z)
        .number("site", site > 0 ? site : 0)
        .number("item0_site", item0Site > 0 ? item0Site : 0);
    if (!places.empty())
      json.json("places", places);
    json.append();
  } catch (...) {
  }
  abortGroup(*g.runner);
}

void resetGroup(GroupState &g) noexcept {
  if (g.fiberMode)
    releaseStacks(g);
  g.fiberMode = false;
  g.regions = false;
  g.diverging = false;
  g.roundSite = GroupState::kSequential;
}

} // namespace fibercl::exec

using fibercl::exec::GroupState;

extern "C" void __fibercl_host_run_items(fcl_group_ctx *ctx, fcl_item_fn item,
                                         void **args) noexcept {
  GroupState &g = *reinterpret_cast<GroupState *>(ctx->runtime);
  g.ctx = ctx;
  g.item = item;
  g.args = args;
  g.lx = uint32_t(ctx->local_size[0]);
  g.ly = uint32_t(ctx->local_size[1]);
  g.lz = uint32_t(ctx->local_size[2]);
  g.n = g.lx * g.ly * g.lz;
  if (!g.prepareSubGroupMasks())
    fibercl::exec::outOfStacks(g);
  g.fiberMode = false;
  g.roundSite = GroupState::kSequential;
  uint32_t idx = 0;
  for (uint32_t z = 0; z < g.lz; ++z)
    for (uint32_t y = 0; y < g.ly; ++y)
      for (uint32_t x = 0; x < g.lx; ++x, ++idx) {
        g.cur = idx;
        item(args, ctx, x, y, z);
        if (g.subGroupMode) {
          // The work-item on the runner's stack finished: the others must too.
          fibercl::exec::subGroupStop(g, 0);
          fibercl::exec::releaseStacks(g);
          return;
        }
        if (g.fiberMode) {
          // Work-item 0 returned after barriers: the others must finish too. Resume
          // work-item 1; the last one to finish jumps back here.
          g.roundSite = GroupState::kFinish;
          fibercl::exec::switchTo(g, 0, 1);
          fibercl::exec::releaseStacks(g);
          return;
        }
      }
}

extern "C" void __fibercl_host_barrier(fcl_group_ctx *ctx, fcl_u32 site, fcl_u32 flags) noexcept {
  GroupState &g = *reinterpret_cast<GroupState *>(ctx->runtime);
  uint32_t n = g.n;
  if (n <= 1)
    return;
  if (__builtin_expect(g.diverging, 0))
    fibercl::exec::continueDivergence(g, site);
  uint32_t cur = g.cur;
  if (cur == 0) {
    if (__builtin_expect(!g.fiberMode, 0))
      fibercl::exec::enterFiberMode(g);
    g.roundSite = site;
    g.roundFlags = flags;
  } else if (__builtin_expect(g.roundSite != int64_t(site), 0)) {
    fibercl::exec::diverge(g, site);
  } else if (__builtin_expect(g.roundFlags != flags, 0)) {
    fibercl::exec::fenceFlagsDiffer(g, site, flags);
  }
  if (cur + 1 == n) {
    ++g.barrierEpoch; // the round is complete
    fibercl::exec::switchTo(g, cur, 0);
  } else {
    fibercl::exec::switchTo(g, cur, cur + 1);
  }
}

extern "C" void __fibercl_host_sub_group_barrier(fcl_group_ctx *ctx, fcl_u32 site,
                                                 fcl_u32 width) noexcept {
  GroupState &g = *reinterpret_cast<GroupState *>(ctx->runtime);
  if (g.n <= 1) { // alone in its sub-group
    g.sgMasks[0] = 1;
    return;
  }
  if (__builtin_expect(!g.subGroupMode, 0))
    fibercl::exec::enterSubGroupMode(g, width);
  fibercl::exec::subGroupStop(g, site);
}

extern "C" void __fibercl_host_sub_group_yield(fcl_group_ctx *ctx, fcl_u32 width) noexcept {
  GroupState &g = *reinterpret_cast<GroupState *>(ctx->runtime);
  // Every 64th back-edge: a wait lets the others run soon enough, a loop that does not
  // wait pays little.
  if (g.n <= 1 || (++g.sgYields & 63) != 0)
    return;
  if (__builtin_expect(!g.subGroupMode, 0))
    fibercl::exec::enterSubGroupMode(g, width);
  fibercl::exec::subGroupStop(g, fibercl::exec::kYielded);
}

// FIBERCL_CHECK=races within a work-group (host_abi.def: FIBERCL_HOST_CHECK_RACE): two
// work-items of a group touch the same byte of __local or __global memory between two
// barriers, at least one writes, and not both atomically.
//
// The compiler calls CHECK_RACE before every such access (access_checks.cpp). The group
// keeps, for each byte touched since its last barrier, who wrote it, who read it
// (one work-item, or several) and who touched it atomically. GroupState::barrierEpoch
// counts group starts and barrier rounds (of fibers, of sub-groups, and of barrier
// regions, whose driver calls CHECK_RACE_ROUND): when it moved, the record is
// forgotten. So
// what is reported does not depend on the order the work-items ran in: any two of them
// in one round conflict, whichever came first.
//
// Warnings, not failures: a write of the value the byte already had from another
// work-item's write in the round (both store the same thing: `flag = 1`), and a plain
// read of memory others update atomically (the first read of a compare-and-swap loop).
// Races across sub-group barriers are not seen (a sub-group barrier starts a round for
// everyone). Races between work-groups: group_races.cpp, reported here.
//
// Lines (race_lines.hpp): a versioned work-item loop records each plain __local access
// its work-items all make at a line of addresses once, before it runs
// (CHECK_RACE_LINE). A line is checked against the round's other lines; one that may
// meet them is not recorded, and the loop runs its checked copy, which records per
// byte. A round's lines become per-byte records at its first such record: the bytes a
// line wrote hold what it wrote (its loop ran to its end, with no record in between).
// An access in a loop each work-item runs comes with the work-items' trip counts
// (CHECK_RACE_TRIPS's buffer): one line per run of work-items making their k-th access.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "runtime/exec/check_reports.hpp"
#include "runtime/exec/group_races.hpp"
#include "runtime/exec/host_abi.hpp"
#include "runtime/exec/json_report.hpp"
#include "runtime/exec/race_lines.hpp"
#include "runtime/exec/report.hpp"
#include "runtime/exec/runner.hpp"

namespace fibercl::exec {

namespace {

constexpr uint16_t kNobody = 0xFFFF, kSeveral = 0xFFFE;

// CHECK_RACE_TRIPS's buffer when the group's could not be made (written by any group
// then, read by none).
fcl_u32 kNoTrips[FIBERCL_MAX_WORK_GROUP_SIZE];

// One byte's accesses in the current round, each with when it was made (the round's
// clock) and where.
struct RaceCell {
  uint16_t writer = kNobody, reader = kNobody, atomic = kNobody;
  uint8_t value = 0; // what `writer` wrote, if `valueKnown`
  bool valueKnown = false;
  uint32_t writerSite = 0, readerSite = 0, atomicSite = 0;
  uint32_t writerTime = 0, readerTime = 0, atomicTime = 0;
};

// The cells of one aligned 4-byte word, valid in round `epoch` only: a table of them
// needs no clearing when a round ends.
struct RaceWord {
  uint64_t address = 0;
  uint64_t epoch = ~uint64_t(0);
  RaceCell bytes[4];
};

// An open-addressing table of the round's words (linear probing). A slot of an older
// round is free: within a round slots are only ever taken, so a word's probe sequence
// never passes a free slot before reaching it.
class RaceWords {
public:
  // The cells of the aligned word holding `address`, in round `epoch` (valid until the
  // next call).
  RaceCell *word(uint64_t address, uint64_t epoch) {
    if (2 * (used_ + 1) > slots_.size() || usedEpoch_ != epoch)
      prepare(epoch);
    uint64_t word = address & ~uint64_t(3);
    RaceWord &w = find(slots_, word, epoch);
    if (w.epoch != epoch) {
      w = RaceWord();
      w.address = word;
      w.epoch = epoch;
      ++used_;
    }
    return w.bytes;
  }

private:
  static RaceWord &find(std::vector<RaceWord> &in, uint64_t word, uint64_t epoch) {
    size_t mask = in.size() - 1;
    for (size_t i = (word >> 2) * 0x9E3779B97F4A7C15ull >> 20 & mask;; i = (i + 1) & mask)
      if (in[i].epoch != epoch || in[i].address == word)
        return in[i];
  }
  // A new round starts empty; a full table doubles, keeping the round's words.
  void prepare(uint64_t epoch) {
    if (usedEpoch_ != epoch) {
      usedEpoch_ = epoch;
      used_ = 0;
      if (!slots_.empty())
        return;
    }
    std::vector<RaceWord> bigger(slots_.empty() ? 256 : 2 * slots_.size());
    for (RaceWord &w : slots_)
      if (w.epoch == epoch)
        find(bigger, w.address, epoch) = w;
    slots_.swap(bigger);
  }

  std::vector<RaceWord> slots_;
  uint64_t usedEpoch_ = ~uint64_t(0);
  size_t used_ = 0;
};

// The round's words of the group's __local block, by their offset in it: no hashing.
// (A word of an older round is stale: rounds only ever count up.)
class LocalRaceWords {
public:
  RaceCell *word(uint64_t offset, uint64_t epoch) {
    size_t i = size_t(offset >> 2);
    if (i >= words_.size())
      words_.resize(std::max(i + 1, 2 * words_.size()));
    RaceWord &w = words_[i];
    if (w.epoch != epoch) {
      w = RaceWord();
      w.address = offset & ~uint64_t(3);
      w.epoch = epoch;
    }
    return w.bytes;
  }

private:
  std::vector<RaceWord> words_;
};

struct Conflict {
  const char *what = nullptr; // "wrote", "read", "updated atomically"
  uint16_t with = kNobody;
  uint32_t site = 0;
  bool warning = false;   // not a failure:
  bool sameValue = false; //   a write of what the other write wrote, or
  bool staleRead = false; //   a plain read of what others update atomically
};

} // namespace

// The group's accesses since its last barrier. Work-items of a group may also order
// their accesses through atomics: an access of work-item u is ordered before one of t
// when u made a release (an atomic or fence with release semantics) after it and t an
// acquire after that release. Which location they went through is not looked at: an
// ordering it assumes may be missing (a race missed), never a race reported that the
// atomics prevent.
struct RaceShadow {
  uint64_t epoch = ~uint64_t(0);
  uint32_t clock = 0; // accesses of the round so far
  RaceWords cells;
  LocalRaceWords localCells;
  std::vector<std::vector<uint32_t>> releases; // per work-item, in time order
  std::vector<uint32_t> lastAcquire;           // per work-item
  std::vector<uint16_t> synced; // the work-items with releases or an acquire this round
  // The round's lines while it has no per-byte record, those that read and those that
  // write; where the lines of the loop being recorded start.
  std::vector<RaceLine> readLines, writeLines;
  size_t loopReads = 0, loopWrites = 0;
  std::vector<fcl_u32> trips; // CHECK_RACE_TRIPS's buffer
  bool perByte = false;       // a per-byte record was made this round

  void startRound(uint64_t e, uint32_t items) {
    epoch = e;
    clock = 0;
    readLines.clear();
    writeLines.clear();
    perByte = false;
    // Only what the last round touched is cleared: a round is often a few lines.
    if (releases.size() != items) {
      releases.assign(items, {});
      lastAcquire.assign(items, 0);
    } else {
      for (uint16_t t : synced) {
        releases[t].clear();
        lastAcquire[t] = 0;
      }
    }
    synced.clear();
  }
  // The cells of the aligned word holding `byte` (the group's __local block, of
  // `localBytes` at `localBase`, is 4-byte aligned).
  RaceCell *word(uint64_t byte, uint64_t localBase, uint64_t localBytes) {
    if (byte - localBase < localBytes)
      return localCells.word(byte - localBase, epoch);
    return cells.word(byte, epoch);
  }
  // Whether work-item u's access at `time` is ordered before what t does now.
  bool ordered(uint16_t u, uint32_t time, uint16_t t) const {
    if (u >= releases.size() || t >= lastAcquire.size())
      return false;
    const std::vector<uint32_t> &r = releases[u];
    auto after = std::upper_bound(r.begin(), r.end(), time);
    return after != r.end() && lastAcquire[t] > *after;
  }
  // A conflicting earlier access by `who` (kSeveral: more than one work-item).
  bool conflicts(uint16_t who, uint32_t time, uint16_t t) const {
    return who != kNobody && who != t && (who == kSeveral || !ordered(who, time, t));
  }
};

namespace {

// Records work-item `t`'s access of one byte; the conflict it makes, if any.
Conflict touch(RaceShadow &s, RaceCell &c, uint16_t t, uint32_t how, uint32_t site, bool valueKnown,
               uint8_t value, uint32_t now) {
  Conflict k;
  bool writes = how & FCL_RACE_WRITE, atomic = how & FCL_RACE_ATOMIC;
  if (s.conflicts(c.writer, c.writerTime, t)) {
    k = {"wrote", c.writer, c.writerSite};
    k.sameValue = writes && !atomic && valueKnown && c.valueKnown && c.value == value;
  } else if (writes && s.conflicts(c.reader, c.readerTime, t)) {
    k = {"read", c.reader, c.readerSite};
  } else if (!atomic && s.conflicts(c.atomic, c.atomicTime, t)) {
    k = {"updated atomically", c.atomic, c.atomicSite};
    k.staleRead = !writes;
  }
  k.warning = k.sameValue || k.staleRead;
  if (atomic) {
    if (writes) {
      bool alone = c.atomic == kNobody || c.atomic == t;
      c.atomic = alone ? t : kSeveral;
      c.atomicSite = site;
      c.atomicTime = now;
    }
  } else if (writes) {
    c.writer = t;
    c.writerSite = site;
    c.writerTime = now;
    c.value = value;
    c.valueKnown = valueKnown;
  } else {
    // An earlier reader ordered before this one need not be remembered.
    bool alone = c.reader == kNobody || c.reader == t ||
                 (c.reader != kSeveral && s.ordered(c.reader, c.readerTime, t));
    c.reader = alone ? t : kSeveral;
    c.readerSite = site;
    c.readerTime = now;
  }
  return k;
}

// The group's record, started afresh if a barrier (or a new group) came since its last
// use. Throws std::bad_alloc.
RaceShadow &currentRound(GroupState &g, const fcl_group_ctx &ctx) {
  if (!g.races)
    g.races = std::make_shared<RaceShadow>();
  RaceShadow &s = *g.races;
  if (s.epoch != g.barrierEpoch)
    s.startRound(g.barrierEpoch,
                 uint32_t(ctx.local_size[0] * ctx.local_size[1] * ctx.local_size[2]));
  return s;
}

// The round's lines as per-byte records, made when they were recorded; a written byte's
// value is the one in memory.
void recordLinesPerByte(RaceShadow &s, uint64_t localBase, uint64_t localBytes) {
  for (const std::vector<RaceLine> *lines : {&s.readLines, &s.writeLines})
    for (const RaceLine &l : *lines)
      for (uint32_t i = 0; i < l.count; ++i) {
        // (Only written bytes are read: the loop wrote them, so they are the group's.)
        const bool wrote = l.how & FCL_RACE_WRITE;
        uint64_t at = l.address + uint64_t(l.step * int64_t(i));
        RaceCell *cells = nullptr;
        for (uint64_t byte = at; byte < at + l.bytes; ++byte) {
          if (!cells || (byte & 3) == 0)
            cells = s.word(byte, localBase, localBytes);
          touch(s, cells[byte & 3], uint16_t(l.first + i), l.how, l.site, wrote,
                wrote ? *reinterpret_cast<const uint8_t *>(byte) : 0, l.time);
        }
      }
  s.readLines.clear();
  s.writeLines.clear();
}

// Where both accesses are (and `more` lines), and whether the command fails: what every
// race report ends with. Returns whether it fails.
bool endRaceReport(Report &msg, const Runner &r, const std::string &here, const std::string &there,
                   bool warning, const std::string &more = std::string()) noexcept {
  if (!here.empty())
    msg << "  at " << here << "\n";
  if (!there.empty())
    msg << "  the other access: " << there << "\n";
  msg << more;
  bool fails = !warning && !r.checkContinue;
  if (fails)
    msg << "  the command fails; FIBERCL_CHECK_CONTINUE=1 goes on after such reports\n";
  msg.emit();
  return fails;
}

[[gnu::cold]] void reportRace(fcl_group_ctx *ctx, GroupState &g, uint32_t site, uint64_t address,
                              uint64_t byte, uint64_t bytes, uint32_t how, uint32_t x, uint32_t y,
                              uint32_t z, const Conflict &k) noexcept {
  Runner &r = *g.runner;
  bool local = how & FCL_RACE_LOCAL;
  const std::string here = siteText(r, site), there = siteText(r, k.site);
  // "<source>:8 (read of ...) in k" -> "<source>:8"
  auto line = [](const std::string &s) { return s.substr(0, s.find(' ')); };
  if (!firstRaceReport(r.launch.load(std::memory_order_relaxed), line(here), line(there)))
    return;
  Report msg;
  msg.kernel(r.kernelName) << ": " << (k.warning ? "warning: " : "") << "data race on "
                           << (local ? "__local" : "__global") << " memory in ";
  msg.group(ctx) << ": ";
  msg.item(x, y, z) << ((how & FCL_RACE_WRITE) ? " writes " : " reads ") << bytes << " bytes at ";
  if (local)
    msg << "__local byte " << address - ctx->local_mem;
  else
    msg.hex(uintptr_t(address));
  msg << ((how & FCL_RACE_ATOMIC) ? " atomically" : "") << " that ";
  if (k.with == kSeveral) {
    msg << "several other work-items ";
  } else {
    uint32_t lx = uint32_t(ctx->local_size[0]), ly = uint32_t(ctx->local_size[1]);
    msg.item(k.with % lx, k.with / lx % ly, k.with / lx / ly) << " ";
  }
  msg << k.what;
  if (byte != address)
    msg << " (byte " << byte - address << " of the access)";
  msg << " since the group's last barrier"
      << (k.sameValue ? ": the same value; a benign race on this CPU, not on every GPU" : "")
      << (k.staleRead ? ": a plain read may see a stale or torn value (atomic_load would not)" : "")
      << "\n";
  const bool fails = endRaceReport(msg, r, here, there, k.warning);
  try {
    JsonReport json("check");
    json.field("kernel", r.kernelName)
        .field("check", k.sameValue   ? "race-same-value"
                        : k.staleRead ? "race-plain-read-of-atomic"
                                      : "race");
    json.field("memory", local ? "local" : "global").field("at", here).field("other", there);
    json.number("site", site).number("other_site", k.site).number("bytes", int64_t(bytes));
    json.ids("item", x, y, z).ids("group", ctx->group_id[0], ctx->group_id[1], ctx->group_id[2]);
    json.flag("continued", !fails).append();
  } catch (...) {
  }
  if (fails)
    abortGroup(r);
}

// A race between work-groups: g's work-item (x, y, z) and an access of group k.group.
[[gnu::cold]] void reportGroupRace(fcl_group_ctx *ctx, GroupState &g, uint32_t site, uint64_t bytes,
                                   uint32_t how, uint32_t x, uint32_t y, uint32_t z,
                                   const GroupRace &k) noexcept {
  Runner &r = *g.runner;
  const std::string here = siteText(r, site), there = k.site ? siteText(r, k.site) : "";
  auto line = [](const std::string &s) { return s.substr(0, s.find(' ')); };
  if (!firstRaceReport(r.launch.load(std::memory_order_relaxed), line(here), line(there)))
    return;
  const uint64_t n0 = ctx->num_groups[0], n1 = ctx->num_groups[1];
  const uint64_t other[3] = {k.group % n0, k.group / n0 % n1, k.group / n0 / n1};
  Report msg;
  msg.kernel(r.kernelName) << ": " << (k.warning ? "warning: " : "")
                           << "data race between work-groups on __global memory: ";
  msg.item(x, y, z) << " of ";
  msg.group(ctx) << ((how & FCL_RACE_WRITE) ? " writes " : " reads ") << bytes << " bytes at ";
  msg.hex(uintptr_t(k.byte)) << ((how & FCL_RACE_ATOMIC) ? " atomically" : "") << " that ";
  msg.group(other) << " " << k.what
                   << (k.sameValue ? " (the same value: a benign race on this CPU, not on "
                                     "every GPU)"
                                   : "")
                   << ", and nothing orders the two accesses";
  if (k.narrowScope)
    msg << ": insufficient scope -- the groups synchronise through atomics of work-group "
           "scope, which order nothing between groups (memory_scope_device does)";
  else if (!k.warning)
    msg << " (a release of device scope in one group -- atomic_store_explicit with "
           "memory_order_release, or a fence before a relaxed store -- read by an acquire "
           "in the other)";
  msg << "\n";
  std::string scope;
  try {
    if (std::string a = siteText(r, k.acquireSite); k.narrowScope && !a.empty())
      scope += "  the work-group-scope acquire: " + a + "\n";
    if (std::string b = siteText(r, k.releaseSite); k.narrowScope && !b.empty())
      scope += "  the release it read: " + b + "\n";
  } catch (...) { // (no memory: the report goes without those lines)
  }
  const bool fails = endRaceReport(msg, r, here, there, k.warning, scope);
  try {
    JsonReport json("check");
    json.field("kernel", r.kernelName)
        .field("check", k.narrowScope ? "race-insufficient-scope"
                        : k.sameValue ? "race-same-value"
                        : k.warning   ? "race-plain-read-of-atomic"
                                      : "race-between-groups");
    json.field("memory", "global").field("at", here).field("other", there);
    json.number("site", site).number("other_site", k.site).number("bytes", int64_t(bytes));
    json.ids("item", x, y, z).ids("group", ctx->group_id[0], ctx->group_id[1], ctx->group_id[2]);
    json.ids("other_group", other[0], other[1], other[2]);
    json.flag("continued", !fails).append();
  } catch (...) {
  }
  if (fails)
    abortGroup(r);
}

} // namespace

} // namespace fibercl::exec

extern "C" void __fibercl_host_check_race(fcl_group_ctx *ctx, fcl_u32 site, fcl_u64 address,
                                          fcl_u64 bytes, fcl_u32 how, fcl_u64 value, fcl_u32 x,
                                          fcl_u32 y, fcl_u32 z) noexcept {
  using namespace fibercl::exec;
  GroupState &g = *reinterpret_cast<GroupState *>(ctx->runtime);
  if (how & FCL_RACE_AFTER) { // between groups only: the acquire half of an atomic read
    GroupRace none;
    checkGroupRace(g, site, address, bytes, how, value, none);
    return;
  }
  Conflict found;
  uint64_t at = 0;
  try {
    RaceShadow &s = currentRound(g, *ctx);
    uint64_t lx = ctx->local_size[0], ly = ctx->local_size[1];
    uint64_t linear = x + lx * (y + ly * uint64_t(z));
    if (linear >= s.lastAcquire.size()) // not a work-item of the group: nothing to record
      return;
    if (!s.perByte) {
      s.perByte = true;
      recordLinesPerByte(s, ctx->local_mem, g.localBytes);
    }
    uint16_t item = uint16_t(linear);
    ++s.clock;
    if (how & FCL_RACE_ACQUIRE) {
      if (s.lastAcquire[item] == 0)
        s.synced.push_back(item);
      s.lastAcquire[item] = s.clock;
    }
    bool valueKnown = how & FCL_RACE_VALUE;
    RaceCell *cells = nullptr;
    for (uint64_t b = 0; b < bytes; ++b) {
      uint64_t byte = address + b;
      if (!cells || (byte & 3) == 0)
        cells = s.word(byte, ctx->local_mem, g.localBytes);
      Conflict k = touch(s, cells[byte & 3], item, how, site, valueKnown && b < 8,
                         uint8_t(value >> (8 * (b & 7))), s.clock);
      // The first conflict, unless a later byte makes it a failure.
      if (k.what && (!found.what || (found.warning && !k.warning))) {
        found = k;
        at = byte;
      }
    }
    if (how & FCL_RACE_RELEASE) { // orders what the work-item did before, not this access
      if (s.releases[item].empty())
        s.synced.push_back(item);
      s.releases[item].push_back(++s.clock);
    }
  } catch (...) { // no memory for the record: the check is lost, the kernel goes on
    return;
  }
  if (found.what)
    reportRace(ctx, g, site, address, at, bytes, how, x, y, z, found);
  GroupRace between;
  if (!(how & FCL_RACE_LOCAL) && checkGroupRace(g, site, address, bytes, how, value, between))
    reportGroupRace(ctx, g, site, bytes, how, x, y, z, between);
}

extern "C" void __fibercl_host_check_race_round(fcl_group_ctx *ctx) noexcept {
  ++reinterpret_cast<fibercl::exec::GroupState *>(ctx->runtime)->barrierEpoch;
}

extern "C" fcl_u32 __fibercl_host_check_race_line(fcl_group_ctx *ctx, fcl_u32 state, fcl_u32 site,
                                                  fcl_u64 address, fcl_u64 step, fcl_u64 bytes,
                                                  fcl_u32 how, fcl_u32 x, fcl_u32 y, fcl_u32 z,
                                                  fcl_u32 count, fcl_u64 stride,
                                                  const fcl_u32 *trips) noexcept {
  using namespace fibercl::exec;
  // Enough for a loop nest's rows of a 2-D group; past it, the check per line costs more
  // than recording per byte.
  constexpr size_t kMaxLines = 512;
  if (state == 0)
    return 0;
  GroupState &g = *reinterpret_cast<GroupState *>(ctx->runtime);
  try {
    RaceShadow &s = currentRound(g, *ctx);
    uint64_t lx = ctx->local_size[0], ly = ctx->local_size[1];
    if (state == FCL_RACE_LINE_FIRST) {
      s.loopReads = s.readLines.size();
      s.loopWrites = s.writeLines.size();
      ++s.clock;
    }
    auto refuse = [&s] {
      s.readLines.resize(s.loopReads);
      s.writeLines.resize(s.loopWrites);
      return fcl_u32(0);
    };
    uint64_t first = x + lx * (y + ly * uint64_t(z));
    if (s.perByte || first + count > s.lastAcquire.size() || bytes == 0 || bytes > 64)
      return refuse();
    const bool writes = how & FCL_RACE_WRITE;
    // Work-items i .. i + n - 1 of the loop, at their k-th access.
    auto add = [&](uint32_t i, uint32_t n, uint64_t k) {
      if (s.readLines.size() + s.writeLines.size() >= kMaxLines)
        return false;
      RaceLine l;
      l.address = address + step * i + stride * k;
      l.step = int64_t(step);
      l.bytes = uint32_t(bytes);
      l.first = uint32_t(first + i);
      l.count = n;
      l.how = how;
      l.site = site;
      l.time = s.clock;
      if (linesConflict(l, l))
        return false;
      for (const RaceLine &w : s.writeLines)
        if (linesConflict(l, w))
          return false;
      if (writes)
        for (const RaceLine &r : s.readLines)
          if (linesConflict(l, r))
            return false;
      (writes ? s.writeLines : s.readLines).push_back(l);
      return true;
    };
    if (!trips)
      return add(0, count, 0) ? 1 : refuse();
    if (trips == kNoTrips)
      return refuse();
    // The k-th accesses: a line for each run of work-items that make k + 1 or more.
    if (count > FIBERCL_MAX_WORK_GROUP_SIZE)
      return refuse();
    for (uint64_t k = 0;; ++k) {
      bool any = false;
      for (uint32_t i = 0; i < count;) {
        uint32_t end = i;
        while (end < count && trips[end] > k)
          ++end;
        if (end > i) {
          any = true;
          if (!add(i, end - i, k))
            return refuse();
        }
        i = end == i ? i + 1 : end;
      }
      if (!any)
        return 1;
    }
  } catch (...) { // no memory for the line: the loop records per byte
    return 0;
  }
}

extern "C" fcl_u32 *__fibercl_host_check_race_trips(fcl_group_ctx *ctx) noexcept {
  using namespace fibercl::exec;
  try {
    RaceShadow &s = currentRound(*reinterpret_cast<GroupState *>(ctx->runtime), *ctx);
    s.trips.resize(FIBERCL_MAX_WORK_GROUP_SIZE);
    return s.trips.data();
  } catch (...) { // no memory: trips go nowhere, and CHECK_RACE_LINE refuses them
    return kNoTrips;
  }
}

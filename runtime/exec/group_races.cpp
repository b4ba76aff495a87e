// FIBERCL_CHECK=races between work-groups (group_races.hpp).
//
// Happens-before with vector clocks, a work-group being one thread: its work-items are
// ordered among themselves by barriers, which races.cpp checks, so here any release of
// the group orders everything the group did before it. A group's accesses carry its
// epoch (`clock`), which moves on at each of its releases. A release of device scope
// (an atomic store or read-modify-write with release or seq_cst order, or a relaxed one
// after a release fence) joins the group's clock into the atomic object's; an acquire
// (a load or read-modify-write with acquire order, or a relaxed one before an acquire
// fence) joins the object's into the group's. An access of group h at epoch c is
// ordered before what group g does now iff g's clock holds h at c or later. OpenCL 1.x
// atomic functions count as seq_cst (atomics_legacy.cl makes them so); barriers'
// own fences are the group's business, not another group's.
//
// Atomics and fences of a narrower scope (work-group, sub-group, work-item) order
// nothing between groups. A second clock, `narrowKnown`, says what the group would know
// if they did: a race those would have ordered is reported as "insufficient scope",
// with the acquire and the release.
//
// The shadow of __global memory: per aligned 4-byte word, its last writer and a reader
// (group, epoch, source site, which bytes), in pages of shadow made when first
// touched. It keeps one reader: a second, concurrent reader of another group is not
// recorded, so a race with it can be missed, never invented.
#include "runtime/exec/group_races.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "fibercl/kernel_abi.h"
#include "runtime/exec/report.hpp"
#include "runtime/exec/runner.hpp"

namespace fibercl::exec {

namespace {

// (group, epoch) pairs sorted by group; a group not in it: nothing of it is known.
using VectorClock = std::vector<std::pair<uint32_t, uint32_t>>;

uint32_t clockOf(const VectorClock &v, uint32_t group) {
  auto at = std::lower_bound(v.begin(), v.end(), std::make_pair(group, uint32_t(0)));
  return at != v.end() && at->first == group ? at->second : 0;
}

// into = max(into, from); returns whether it grew, adds the entries visited to `work`.
bool join(VectorClock &into, const VectorClock &from, uint64_t &work) {
  work += into.size() + from.size();
  bool grew = false;
  VectorClock out;
  out.reserve(into.size() + from.size());
  auto a = into.cbegin();
  auto b = from.cbegin();
  while (a != into.cend() || b != from.cend()) {
    if (b == from.cend() || (a != into.cend() && a->first < b->first)) {
      out.push_back(*a++);
    } else if (a == into.cend() || b->first < a->first) {
      out.push_back(*b++);
      grew = true;
    } else {
      grew |= b->second > a->second;
      out.emplace_back(a->first, std::max(a->second, b->second));
      ++a, ++b;
    }
  }
  if (grew)
    into.swap(out);
  return grew;
}

constexpr uint8_t kAtomic = 1, kValueKnown = 2;

struct Touch {
  uint32_t group = 0; // linear id + 1; 0: nobody
  uint32_t clock = 0;
  uint32_t value = 0; // a plain write's bytes, if kValueKnown
  uint16_t site = 0;  // 0: a site beyond the table's 16 bits (the report has no line)
  uint8_t mask = 0;   // bytes of the word
  uint8_t flags = 0;
};
struct SharedWord {
  Touch write, read;
};

constexpr unsigned kPageShift = 12;
constexpr size_t kWordsPerPage = (size_t(1) << kPageShift) / 4;
// A page's lock: held for one word's check, contended only when two workers touch
// the same page at once.
class PageLock {
public:
  void lock() noexcept {
    while (held_.exchange(true, std::memory_order_acquire))
      while (held_.load(std::memory_order_relaxed))
        __builtin_ia32_pause();
  }
  void unlock() noexcept { held_.store(false, std::memory_order_release); }

private:
  std::atomic<bool> held_{false};
};

struct ShadowPage {
  PageLock m;
  SharedWord words[kWordsPerPage] = {};
};

// An atomic object's releases: what a device-scope acquire of it takes (`wide`), and
// what one would take if narrower scopes counted (`narrow`, which holds `wide`).
struct SyncClock {
  VectorClock wide, narrow;
  uint32_t releaseSite = 0; // its last release

  // A release of `v`: of device scope, or only of a narrower one.
  void publish(const VectorClock &v, bool narrowScope, uint64_t &work) {
    if (!narrowScope)
      join(wide, v, work);
    join(narrow, v, work);
  }
};

// Work on vector clocks after which the launch stops checking races between groups
// (every group acquiring what every other released, e.g. seq_cst counters in each of
// a huge number of groups, is quadratic).
constexpr uint64_t kWorkLimit = uint64_t(1) << 31;

} // namespace

// One run of a group: a cooperative kernel's fork may reuse the id of a group that
// left, even before that one has finished, so clocks are per run, not per id.
struct GroupClock {
  uint32_t id = 0;  // the run's index in the launch: its entry in vector clocks
  uint64_t gid = 0; // the group's linear id
  uint32_t clock = 1;
  VectorClock known;       // of the other groups (its own is `clock`)
  VectorClock narrowKnown; // known, and what narrow-scope atomics would have given
  VectorClock fenced;      // released by its last release fence, if `hasFence`
  bool hasFence = false;
  VectorClock pending; // what its relaxed atomic reads saw: an acquire fence takes it
  uint32_t acquireSite = 0, releaseSite = 0; // where narrowKnown last grew
  uint64_t cachedPage = ~uint64_t(0);
  ShadowPage *page = nullptr;

  VectorClock released() const {
    VectorClock v = known;
    auto at = std::lower_bound(v.begin(), v.end(), std::make_pair(id, uint32_t(0)));
    if (at != v.end() && at->first == id) // its own earlier epochs, come back through others
      at->second = clock;
    else
      v.insert(at, {id, clock});
    return v;
  }
  // An acquire of device scope of what `v` says.
  void learn(const VectorClock &v, uint64_t &work) {
    join(known, v, work);
    join(narrowKnown, v, work);
  }
  bool ordered(uint32_t group, uint32_t epoch) const {
    return group == id || clockOf(known, group) >= epoch;
  }
};

class GroupRaces {
public:
  explicit GroupRaces(uint64_t localBytes) : localBytes(localBytes) {}
  const uint64_t localBytes;

  std::mutex m; // all below
  std::vector<std::unique_ptr<GroupClock>> runs;
  std::unordered_map<uint64_t, std::unique_ptr<ShadowPage>> pages;
  std::unordered_map<uint64_t, SyncClock> syncs;
  VectorClock runtimeSync; // cooperative kernels: barriers, kills, forks
  uint64_t work = 0;
  std::atomic<bool> gaveUp{false};

  ShadowPage *page(GroupClock &g, uint64_t number) {
    if (g.cachedPage != number) {
      std::lock_guard<std::mutex> hold(m);
      auto &p = pages[number];
      if (!p)
        p = std::make_unique<ShadowPage>();
      g.cachedPage = number;
      g.page = p.get();
    }
    return g.page;
  }
  // Under m: stops the checks when the clocks cost too much, saying so once.
  void account() {
    if (work < kWorkLimit || gaveUp.exchange(true))
      return;
    Report msg;
    msg << "warning: FIBERCL_CHECK=races: this launch synchronises its work-groups so often "
           "that races between work-groups are no longer checked in it (races within a "
           "work-group still are)\n";
    msg.emit();
  }
};

std::shared_ptr<GroupRaces> makeGroupRaces(uint64_t localBytes) {
  return std::make_shared<GroupRaces>(localBytes);
}

void startGroupRaces(GroupState &g, GroupRaces *launch, uint64_t gid) noexcept {
  g.groupRaces = launch;
  g.groupClock = nullptr; // made when first needed (runClock)
  g.groupRacesGid = gid;
}

namespace {

// The group's clock, made at its first recorded access or synchronisation: a group
// whose accesses all went unrecorded (race-free arguments) costs nothing here. With
// L.m held; null when there is no memory or no id left for it.
GroupClock *runClock(GroupRaces &L, GroupState &g) {
  if (!g.groupClock && L.runs.size() < UINT32_MAX - 1) {
    auto run = std::make_unique<GroupClock>();
    run->id = uint32_t(L.runs.size());
    run->gid = g.groupRacesGid;
    g.groupClock = run.get();
    L.runs.push_back(std::move(run));
  }
  return g.groupClock;
}

} // namespace

void endGroupRaces(GroupState &g) noexcept {
  if (GroupClock *c = g.groupClock) { // its accesses' records name it: it stays
    VectorClock().swap(c->known);
    VectorClock().swap(c->narrowKnown);
    VectorClock().swap(c->fenced);
    VectorClock().swap(c->pending);
  }
  g.groupRaces = nullptr;
  g.groupClock = nullptr;
}

void releaseGroupRaces(GroupState &g) noexcept {
  GroupRaces *L = g.groupRaces;
  if (!L)
    return;
  try {
    std::lock_guard<std::mutex> hold(L->m);
    if (!runClock(*L, g))
      return;
    join(L->runtimeSync, g.groupClock->released(), L->work);
    ++g.groupClock->clock;
  } catch (...) {
  }
}

void acquireGroupRaces(GroupState &g) noexcept {
  GroupRaces *L = g.groupRaces;
  if (!L)
    return;
  try {
    std::lock_guard<std::mutex> hold(L->m);
    if (!runClock(*L, g))
      return;
    g.groupClock->learn(L->runtimeSync, L->work);
  } catch (...) {
  }
}

namespace {

void fence(GroupClock &me, uint32_t how) {
  if (how & FCL_RACE_NARROW)
    return;
  uint64_t work = 0;
  if (how & FCL_RACE_RELEASE) {
    me.fenced = me.released();
    me.hasFence = true;
    ++me.clock;
  }
  if (how & FCL_RACE_ACQUIRE) {
    me.learn(me.pending, work);
  }
}

// An atomic read's acquire half, after its access (before it, a release it then reads
// might not be recorded yet).
void acquire(GroupRaces &L, GroupClock &me, uint32_t site, uint64_t address, uint32_t how) {
  if (!(how & FCL_RACE_READ))
    return;
  std::lock_guard<std::mutex> hold(L.m);
  auto found = L.syncs.find(address);
  if (found == L.syncs.end())
    return;
  const SyncClock &s = found->second;
  if (!(how & FCL_RACE_ACQUIRE)) {
    join(me.pending, s.wide, L.work);
  } else {
    if (!(how & FCL_RACE_NARROW)) {
      me.learn(s.wide, L.work);
    }
    if (join(me.narrowKnown, s.narrow, L.work)) {
      me.acquireSite = site;
      me.releaseSite = s.releaseSite;
    }
  }
  L.account();
}

// An atomic write's release half, before its access can be seen (and after its check).
void release(GroupRaces &L, GroupClock &me, uint32_t site, uint64_t address, uint32_t how) {
  bool releases = how & FCL_RACE_RELEASE;
  if (!(how & FCL_RACE_WRITE) || (!releases && !me.hasFence))
    return;
  std::lock_guard<std::mutex> hold(L.m);
  SyncClock &s = L.syncs[address];
  if (releases) {
    VectorClock mine = me.released();
    s.publish(mine, how & FCL_RACE_NARROW, L.work);
    s.releaseSite = site;
    ++me.clock;
  } else if (!(how & FCL_RACE_NARROW)) { // relaxed, after a release fence
    s.publish(me.fenced, false, L.work);
  }
  L.account();
}

bool overlapping(const Touch &t, const GroupClock &me, uint8_t mask) {
  return t.group && t.group != me.id + 1 && (t.mask & mask);
}

// Checks and records one word's bytes `mask`; the conflict in `found` (if none yet).
bool touchWord(GroupClock &me, SharedWord &w, uint32_t site, uint32_t how, uint8_t mask,
               uint32_t value, bool valueKnown, uint64_t wordAddress, GroupRace &found) {
  const bool writes = how & FCL_RACE_WRITE, atomic = how & FCL_RACE_ATOMIC;
  Touch other; // the access in conflict (copied: the record is rewritten below)
  const char *what = nullptr;
  bool sameValue = false, staleRead = false;
  const Touch &W = w.write, &R = w.read;
  if (overlapping(W, me, mask) && !(atomic && (W.flags & kAtomic)) &&
      !me.ordered(W.group - 1, W.clock)) {
    other = W;
    what = (W.flags & kAtomic) ? "updated atomically" : "wrote";
    uint32_t bytes = 0;
    for (int b = 0; b < 4; ++b)
      if (mask & W.mask & (1 << b))
        bytes |= 0xFFu << (8 * b);
    sameValue = writes && !atomic && valueKnown && (W.flags & kValueKnown) &&
                (value & bytes) == (W.value & bytes);
    staleRead = !writes && (W.flags & kAtomic);
  } else if (writes && overlapping(R, me, mask) && !(atomic && (R.flags & kAtomic)) &&
             !me.ordered(R.group - 1, R.clock)) {
    other = R;
    what = "read";
  }
  const uint16_t site16 = site <= UINT16_MAX ? uint16_t(site) : 0;
  if (writes) {
    if (!R.group || (R.mask & ~mask) == 0)
      w.read = Touch(); // later writes are ordered after it through this one, or race with it
    w.write = {me.id + 1, me.clock,
               value,     site16,
               mask,      uint8_t((atomic ? kAtomic : 0) | (valueKnown ? kValueKnown : 0))};
  } else if (!R.group || R.group == me.id + 1 || me.ordered(R.group - 1, R.clock)) {
    uint8_t kept = R.group == me.id + 1 ? R.mask : 0;
    w.read = {me.id + 1, me.clock, 0, site16, uint8_t(mask | kept), uint8_t(atomic ? kAtomic : 0)};
  }
  if (!what || found.what)
    return what != nullptr;
  found.what = what;
  found.group = other.group - 1; // a run; checkGroupRace makes it the group's id
  found.site = other.site;
  for (int b = 0; b < 4; ++b)
    if (mask & other.mask & (1 << b)) {
      found.byte = wordAddress + b;
      break;
    }
  found.sameValue = sameValue;
  found.warning = sameValue || staleRead;
  found.narrowScope = clockOf(me.narrowKnown, other.group - 1) >= other.clock;
  found.acquireSite = me.acquireSite;
  found.releaseSite = me.releaseSite;
  return true;
}

} // namespace

bool checkGroupRace(GroupState &g, uint32_t site, uint64_t address, uint64_t bytes, uint32_t how,
                    uint64_t value, GroupRace &found) noexcept {
  GroupRaces *L = g.groupRaces;
  if (!L || (how & FCL_RACE_LOCAL) || L->gaveUp.load(std::memory_order_relaxed))
    return false;
  try {
    if (!g.groupClock) {
      std::lock_guard<std::mutex> hold(L->m);
      if (!runClock(*L, g))
        return false;
    }
    GroupClock *me = g.groupClock;
    if (bytes == 0) {
      fence(*me, how);
      return false;
    }
    if (g.ctx && address - g.ctx->local_mem < L->localBytes)
      return false;             // the group's own __local block, through a generic pointer
    if (how & FCL_RACE_AFTER) { // an atomic read has read: what it acquires
      acquire(*L, *me, site, address, how);
      return false;
    }
    const bool atomic = how & FCL_RACE_ATOMIC;
    bool raced = false;
    const uint64_t end = address + bytes;
    for (uint64_t word = address & ~uint64_t(3); word < end; word += 4) {
      uint8_t mask = 0;
      uint32_t v = 0;
      bool valueKnown = how & FCL_RACE_VALUE;
      for (uint64_t b = 0; b < 4; ++b) {
        uint64_t byte = word + b;
        if (byte < address || byte >= end)
          continue;
        mask |= uint8_t(1u << b);
        uint64_t k = byte - address;
        if (k < 8)
          v |= uint32_t((value >> (8 * k)) & 0xFF) << (8 * b);
        else
          valueKnown = false;
      }
      ShadowPage *p = L->page(*me, word >> kPageShift);
      std::lock_guard<PageLock> hold(p->m);
      SharedWord &w = p->words[(word >> 2) & (kWordsPerPage - 1)];
      raced |= touchWord(*me, w, site, how, mask, v, valueKnown, word, found);
    }
    if (atomic)
      release(*L, *me, site, address, how);
    if (raced) {
      std::lock_guard<std::mutex> hold(L->m);
      found.group = L->runs[found.group]->gid;
    }
    return raced;
  } catch (...) { // no memory for the record: the check is lost, the kernel goes on
    return false;
  }
}

} // namespace fibercl::exec

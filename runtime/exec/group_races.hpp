// FIBERCL_CHECK=races between work-groups (group_races.cpp): conflicting __global
// accesses of two groups that nothing orders -- no release of device scope in one
// group read by an acquire in the other, no cooperative barrier, no kernel boundary --
// whatever order this run's schedule happened to put them in.
#pragma once

#include <cstdint>
#include <memory>

namespace fibercl::exec {

struct GroupState;
class GroupRaces;  // one launch's record
struct GroupClock; // one group's

// For a launch whose kernel checks races; `localBytes`: each group's __local block
// (accesses there are the group's own).
std::shared_ptr<GroupRaces> makeGroupRaces(uint64_t localBytes);

// Group `gid` (linear id) of the launch starts, or ends, on `g`.
void startGroupRaces(GroupState &g, GroupRaces *launch, uint64_t gid) noexcept;
void endGroupRaces(GroupState &g) noexcept;

// Orders made by the runtime itself (cooperative kernels): what the group did so far
// is ordered before what any group does after a later acquire (arriving at a global
// barrier, being killed, forking), and the group takes everything released so far
// (leaving the barrier, a forked group's start).
void releaseGroupRaces(GroupState &g) noexcept;
void acquireGroupRaces(GroupState &g) noexcept;

// A conflict with an access of another group.
struct GroupRace {
  const char *what = nullptr; // "wrote", "read", "updated atomically"
  uint64_t group = 0;         // the other group's linear id
  uint32_t site = 0;          // its access
  uint64_t byte = 0;          // the first byte in conflict
  bool warning = false;       // a write of the same value, or a plain read of an atomic
  bool sameValue = false;
  // The groups did synchronise, with atomics of work-group scope ("insufficient scope"):
  // the acquire and the release that would have ordered them.
  bool narrowScope = false;
  uint32_t acquireSite = 0, releaseSite = 0;
};

// Records the group's access (`how`: FCL_RACE_* bits; `bytes` 0: a fence) and returns
// whether it conflicts with another group's (the first conflict in `found`).
bool checkGroupRace(GroupState &g, uint32_t site, uint64_t address, uint64_t bytes, uint32_t how,
                    uint64_t value, GroupRace &found) noexcept;

} // namespace fibercl::exec

// Which waiting work-items of a group with sub-group barriers run next (kernel_abi.h's
// FIBERCL_SITE_SUB_GROUP; builtins/lib/fcl_sub_group.h). Shared by the fibers
// (fibers_sub_groups.cpp) and the regions (regions.cpp).
//
// A sub-group barrier holds only the work-items of a sub-group that reach it: the
// others went another way and wait further on, or have finished. So: while any
// work-item waits at a sub-group barrier, the lowest such site (sites are numbered in
// program order, so code that branched around it has not yet come back to it) is
// released, for the work-items waiting there, and each sub-group's mask says which of
// its lanes they are. Only when none waits at one must all wait at the same
// work-group barrier, or all have finished; anything else is a barrier divergence.
#pragma once

#include <cstdint>
#include <vector>

namespace fibercl::exec {

struct SubGroupRelease {
  uint32_t site = 0;     // the site released (0: every work-item has finished)
  bool everyone = false; // every work-item waits there
  bool diverged = false; // else: work-item `item` waits at `itemSite` (0: finished)
  uint32_t item = 0;     //   but work-item 0 at `firstSite`
  uint32_t itemSite = 0;
  uint32_t firstSite = 0;
};

// Every work-item waits at one sub-group barrier: each sub-group's mask has all its
// lanes.
void fillAllLanes(uint32_t n, uint32_t width, std::vector<uint64_t> &masks);

// `sites[i]`: where work-item i waits (0: finished). `masks`: one per sub-group of
// `width` work-items, filled when a sub-group barrier is released.
SubGroupRelease chooseRelease(const uint32_t *sites, uint32_t n, uint32_t width,
                              std::vector<uint64_t> &masks);

// On fibers a work-item may also have yielded in a loop that may wait for another
// sub-group (the compiler's sub_group_yields.cpp): it is runnable, between barriers.
inline constexpr uint32_t kYielded = 0x3fffffff; // above every site the compiler numbers

// For fibers: each sub-group is released on its own -- its yielded work-items if it
// has any (the others cannot pass a barrier without them), else the ones at its lowest
// sub-group barrier -- so that a sub-group spinning on another one's write lets it
// run; only when no sub-group has any, the work-group rule of chooseRelease. `run`
// gets the work-items released, in linear order (empty: all finished, or divergence).
SubGroupRelease chooseFiberRelease(const uint32_t *sites, uint32_t n, uint32_t width,
                                   std::vector<uint64_t> &masks, std::vector<uint32_t> &run);

} // namespace fibercl::exec

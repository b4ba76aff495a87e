// chooseRelease (sub_group_release.hpp).
#include "runtime/exec/sub_group_release.hpp"

#include <algorithm>

#include "fibercl/kernel_abi.h"

namespace fibercl::exec {

void fillAllLanes(uint32_t n, uint32_t width, std::vector<uint64_t> &masks) {
  const uint64_t full = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  uint32_t whole = n / width;
  std::fill(masks.begin(), masks.begin() + whole, full);
  if (n % width)
    masks[whole] = (uint64_t(1) << (n % width)) - 1;
}

SubGroupRelease chooseRelease(const uint32_t *sites, uint32_t n, uint32_t width,
                              std::vector<uint64_t> &masks) {
  SubGroupRelease r;
  // The common case first: every work-item at the same place (a vectorised scan).
  uint32_t same = 0;
  for (uint32_t i = 0; i < n; ++i)
    same |= sites[i] ^ sites[0];
  if (same == 0) {
    if (sites[0] & FIBERCL_SITE_SUB_GROUP)
      fillAllLanes(n, width, masks);
    r.site = sites[0];
    r.everyone = true;
    return r;
  }
  const unsigned shift = unsigned(__builtin_ctz(width)); // a power of two
  uint32_t lowest = UINT32_MAX;
  for (uint32_t i = 0; i < n; ++i)
    if (sites[i] & FIBERCL_SITE_SUB_GROUP)
      lowest = std::min(lowest, sites[i]);
  if (lowest != UINT32_MAX) {
    std::fill(masks.begin(), masks.begin() + (n + width - 1) / width, 0);
    for (uint32_t i = 0; i < n; ++i)
      if (sites[i] == lowest)
        masks[i >> shift] |= uint64_t(1) << (i & (width - 1));
    r.site = lowest;
    return r;
  }
  for (uint32_t i = 1; i < n; ++i)
    if (sites[i] != sites[0]) {
      r.diverged = true;
      r.item = i;
      r.itemSite = sites[i];
      r.firstSite = sites[0];
      return r;
    }
  r.site = sites[0];
  return r;
}

SubGroupRelease chooseFiberRelease(const uint32_t *sites, uint32_t n, uint32_t width,
                                   std::vector<uint64_t> &masks, std::vector<uint32_t> &run) {
  run.clear();
  for (uint32_t first = 0; first < n; first += width) {
    uint32_t end = std::min(n, first + width);
    bool yielded = false;
    uint32_t lowest = UINT32_MAX;
    for (uint32_t i = first; i < end; ++i) {
      if (sites[i] == kYielded)
        yielded = true;
      else if (sites[i] & FIBERCL_SITE_SUB_GROUP)
        lowest = std::min(lowest, sites[i]);
    }
    uint32_t released = yielded ? kYielded : lowest;
    if (released == UINT32_MAX)
      continue;
    uint64_t mask = 0;
    for (uint32_t i = first; i < end; ++i)
      if (sites[i] == released) {
        run.push_back(i);
        mask |= uint64_t(1) << (i - first);
      }
    if (!yielded) // the yielded keep the mask of the barrier they last passed
      masks[first / width] = mask;
  }
  if (!run.empty()) {
    SubGroupRelease r;
    r.site = kYielded; // several sites: the caller runs `run`
    return r;
  }
  SubGroupRelease r = chooseRelease(sites, n, width, masks);
  if (!r.diverged && r.site != 0)
    for (uint32_t i = 0; i < n; ++i)
      run.push_back(i);
  return r;
}

} // namespace fibercl::exec

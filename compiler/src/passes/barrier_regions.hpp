// Compile-time barrier regions: a kernel body with barriers split at its barriers into
// steps that each run one work-item from a region's start to its next barrier
// (barrier_regions.cpp), and the work-group function that runs every work-item through
// each region in turn (region_driver.cpp). Fibers (work_group_function.cpp) remain the
// fallback for what cannot be split.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class DILocation;
class Function;
class Module;
} // namespace llvm

namespace fibercl::compiler {

// The runtime's frames are 64-byte aligned, and so is every part of them: sizes are
// rounded up to it (barrier_regions.cpp), and copies of them use it (region_driver.cpp,
// local_size_specialisation.cpp).
inline constexpr unsigned kFramesAlign = 64;

// A body split into regions. Region 0 starts at the kernel's start; region `s` right
// after the barrier whose site is `s`. A region's step function runs one work-item:
//   i32 step(kernel args..., ptr ctx, i32 x, i32 y, i32 z, ptr frames, i64 index, i64 n,
//            ptr uniform.in, ptr uniform.out)
// until it reaches a barrier (returns the barrier's site) or the end (returns 0).
// Per group, the runtime provides `frames`: framesBytes(n) bytes, 64-aligned:
//   [n * privateBytes: private arrays live across barriers, one block per work-item]
//   [n * slotBytes: values live across barriers, one array per value, indexed by item]
//   [2 * uniformBytes: values the same for every work-item, once; two copies that
//    swap roles every round (read the previous barrier's, write this one's)]
//   [n * 4: each work-item's returned site, if some region can return more than one]
struct RegionPlan {
  struct Region {
    uint32_t id = 0;
    llvm::Function *step = nullptr;
    std::vector<uint32_t> exits; // the sites it can return (0: the end), sorted
  };
  std::vector<Region> regions; // regions[0] is the kernel's start
  uint64_t privateBytes = 0;   // multiple of 64
  uint64_t slotBytes = 0;      // multiple of 64
  uint64_t uniformBytes = 0;   // multiple of 64
  unsigned spilledValues = 0, uniformValues = 0, rematerialisedValues = 0, movedArrays = 0;
  // The kernel has sub-group barriers (kernel_abi.h's FIBERCL_SITE_SUB_GROUP), of this
  // many work-items; 0: none. Its rounds may then run some work-items only: each round
  // ends with FIBERCL_HOST_SUB_GROUP_ROUND, which says which site runs next, and the
  // next round runs the work-items that wait there.
  uint32_t subGroupWidth = 0;
  bool needsExitArray() const;
  uint64_t bytesPerItem() const { return privateBytes + slotBytes + (needsExitArray() ? 4 : 0); }
};

// Splits `body` (a kernel body with barriers, unchanged) into regions, or returns
// nothing and says in `why` why the kernel stays on fibers.
std::optional<RegionPlan> planBarrierRegions(llvm::Function &body, std::string &why);

// Fills `wg` (the work-group function) with the loop over regions of `plan`.
// `decisions`: the yield site of the group's decision after each barrier that has one
// (barrier_decisions.hpp), by barrier site.
void buildRegionDriver(llvm::Module &m, llvm::Function &wg, llvm::Function &body,
                       const RegionPlan &plan, const std::map<uint32_t, uint32_t> &decisions,
                       llvm::DILocation *loc);

// Why barriers of this body must run on fibers before trying regions ("" if none):
// FIBERCL_BARRIERS=fibers, or a cooperative kernel (its fork points resume inside
// work-items).
std::string fibersRequiredFor(const llvm::Function &body);

} // namespace fibercl::compiler

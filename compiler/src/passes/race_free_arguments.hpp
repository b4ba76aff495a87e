// FIBERCL_CHECK=races: the kernel arguments whose accesses cannot race, so that their
// accesses need not be recorded (access_checks.cpp).
//
// Two accesses race only if they touch the same bytes and one writes. Through a
// __global or __constant pointer argument:
//  - an argument the kernel only reads (no store, atomic or memory intrinsic through
//    it) races with nothing reached through it;
//  - an argument every access of which is at the same offset `c * get_global_id(0) + k`
//    (k the same for the whole launch, |c| at least the access's size) is touched by each
//    work-item of a 1-D launch at bytes of its own; so is one at `c * get_global_id(0) +
//    r * get_global_id(1) + k` in a 2-D launch whose rows do not overlap (r >= c * the
//    global size in x: `out[y * width + x]`, the width an argument or the launch's
//    `get_global_size(0)`).
// Both hold only if nothing else reaches those bytes: no access of the kernel may have
// a pointer of unknown origin (loaded from memory, selected between objects), and at
// launch no other argument may overlap the argument's range (the runtime tests that,
// and the 1-D launch, before it sets FCL_CHECK_RACE_FREE).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace llvm {
class Function;
class Value;
} // namespace llvm

namespace fibercl::compiler {

struct RaceAccess {
  llvm::Value *pointer;
  uint64_t bytes; // 0: not a constant
  bool writes;
  bool plain;                       // a simple load or store (not atomic, volatile or intrinsic)
  bool global;                      // __global, __constant or generic (not __local, private)
  std::optional<unsigned> argument; // the pointer argument it comes from, if known
  bool knownObject;                 // it comes from one known object (argument or variable)
};

struct RaceFreeArguments {
  uint64_t readOnly = 0;  // bit i: argument i is only read
  uint64_t ownOffset = 0; // bit i: each work-item at its own offset, if:
  // its offset's step in get_global_id(0) (|stride| >= the access's bytes), and in 2-D
  // the step in get_global_id(1) (rowBytes; computed at the body's entry), which must be
  // at least stride times the launch's global size in x. Without rowBytes: 1-D only.
  std::map<unsigned, int64_t> stride;
  std::map<unsigned, llvm::Value *> rowBytes;
};

// `body`: a kernel body (kernel arguments, then ctx, x, y, z), after inlining.
RaceFreeArguments findRaceFreeArguments(llvm::Function &body,
                                        const std::vector<RaceAccess> &accesses);

} // namespace fibercl::compiler

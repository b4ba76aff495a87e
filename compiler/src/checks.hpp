// Checked mode: which checks FIBERCL_CHECK asks the compiler to build into kernels
// (read when a program is built; part of the build cache's key).
//
//   FIBERCL_CHECK=bounds     every access against the object its pointer came from
//                            (passes/access_checks.cpp)
//   FIBERCL_CHECK=uninit     reads of __local memory that no work-item of the group
//                            wrote in this launch (a shadow byte per __local byte)
//   FIBERCL_CHECK=races      two work-items of a group touching the same byte of
//                            __local or __global memory between two barriers, one
//                            writing, not both atomically (runtime/exec/races.cpp)
//   FIBERCL_CHECK=all        every check FiberCL has
// What FiberCL does not check yet (races between work-groups, weak) is said so on
// stderr, once; barrier divergence is always reported.
#pragma once

#include <string>

namespace fibercl::compiler {

struct Checks {
  bool bounds = false;
  bool uninit = false; // reads of __local memory no work-item of the group wrote
  bool races = false;  // data races within a group and between groups
  bool weak = false;   // a weak memory model: groups' stores visible late, out of order
  bool any() const { return bounds || uninit || races || weak; }
};

Checks checksFromEnvironment();

// The part of the build cache's key that FIBERCL_CHECK decides.
std::string checksKey();

} // namespace fibercl::compiler

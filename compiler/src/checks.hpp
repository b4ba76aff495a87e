// Checked mode: which checks FIBERCL_CHECK asks the compiler to build into kernels
// (read when a program is built; part of the build cache's key).
//
//   FIBERCL_CHECK=bounds     every access against the object its pointer came from
//                            (passes/access_checks.cpp)
//   FIBERCL_CHECK=uninit     reads of __local memory that no work-item of the group
//                            wrote in this launch (a shadow byte per __local byte)
//   FIBERCL_CHECK=all        every check FiberCL has
// The names the issue tracker lists and FiberCL does not check yet (races, weak) are
// said so on stderr, once; barrier divergence is always reported.
#pragma once

#include <string>

namespace fibercl::compiler {

struct Checks {
  bool bounds = false;
  bool uninit = false; // reads of __local memory no work-item of the group wrote
  bool any() const { return bounds || uninit; }
};

Checks checksFromEnvironment();

// The part of the build cache's key that FIBERCL_CHECK decides.
std::string checksKey();

} // namespace fibercl::compiler

// The one formatter of FiberCL's reports of a failing launch -- deadlock, fault,
// stop, time-out, barrier divergence, and the checked mode's -- so every report names
// the kernel, the work-group (and work-item), where in the source, why, and how to
// reproduce, in the same words: "FiberCL: kernel 'k' crashed in work-group (1,0,0):
// ...", "  reproduce with: FIBERCL_SCHEDULE=fair ...". tools/failure_place.cpp and
// the tests read these words.
//
// A Report builds its text in a fixed buffer without allocating, so the signal
// handlers report with it too (everything but format(), operator<<(double) and
// reproduce(), which say so), and writes it to stderr in one write() per
// buffer-full.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "fibercl/kernel_abi.h"

namespace fibercl::exec {

struct Scheduling;

class Report {
public:
  Report() noexcept { *this << "FiberCL: "; }
  Report(const Report &) = delete;
  Report &operator=(const Report &) = delete;

  Report &operator<<(const char *s) noexcept;
  Report &operator<<(const std::string &s) noexcept { return append(s.data(), s.size()); }
  template <typename Int, typename = std::enable_if_t<std::is_integral_v<Int>>>
  Report &operator<<(Int v) noexcept {
    if constexpr (std::is_signed_v<Int>)
      if (v < 0)
        return *this << "-" << uint64_t(-(v + 1)) + 1;
    return number(uint64_t(v));
  }
  Report &operator<<(double v) noexcept; // as %g (not in signal handlers)
  Report &hex(uintptr_t v) noexcept;     // 0x...
  // printf-style text (not in signal handlers).
  [[gnu::format(printf, 2, 3)]] Report &format(const char *fmt, ...) noexcept;

  // The parts every report names.
  Report &kernel(const char *name) noexcept; // kernel 'name'
  Report &kernel(const std::string &name) noexcept { return kernel(name.c_str()); }
  Report &group(const uint64_t id[3]) noexcept;              // work-group (x,y,z)
  Report &group(const fcl_group_ctx *c) noexcept;            // ... of c, (0,0,0) if null
  Report &group(uint64_t linear) noexcept;                   // work-group n
  Report &item(uint64_t x, uint64_t y, uint64_t z) noexcept; // work-item (x,y,z)
  Report &at(const char *where) noexcept;                    // " (where)", nothing if null or empty
  // "  reproduce with: <environment>\n" (not in signal handlers).
  Report &reproduce(const Scheduling &S) noexcept;

  // Writes what is left of the text to stderr.
  void emit() noexcept;

private:
  Report &append(const char *s, size_t n) noexcept;
  Report &number(uint64_t v) noexcept;
  void flush() noexcept;

  char buf_[1024];
  size_t len_ = 0;
};

// The environment that reproduces a launch's schedule ("FIBERCL_SCHEDULE=fair
// FIBERCL_OCCUPANCY=4 FIBERCL_SEED=7"); parallel runs have no seed to give.
std::string reproduceEnvironment(const Scheduling &S);

// `s` as the body of a JSON string (reports at FIBERCL_REPORT, traces).
std::string jsonEscape(const std::string &s);

} // namespace fibercl::exec

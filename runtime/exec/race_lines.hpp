// FIBERCL_CHECK=races in a round of barrier regions: a __local access that every
// work-item of a work-item loop makes at a line of addresses (CHECK_RACE_LINE,
// checked_loop_versions.cpp) is recorded as one line, not byte by byte (races.cpp).
#pragma once

#include <cstdint>

namespace fibercl::exec {

// Work-items first, first + 1, ..., first + count - 1 each touch `bytes` bytes, item
// first + i at address + i * step.
struct RaceLine {
  uint64_t address = 0;
  int64_t step = 0;
  uint32_t bytes = 0;
  uint32_t first = 0, count = 0;
  uint32_t how = 0;  // FCL_RACE_* (kernel_abi.h): plain reads or writes only
  uint32_t site = 0; // the access's
  uint32_t time = 0; // the round's clock when it was recorded
};

// Whether two different work-items, one access of each line (`a` and `b` may be the same
// line), touch a common byte while at least one of them writes. O(1) for lines of equal
// steps, O(a.count) otherwise.
bool linesConflict(const RaceLine &a, const RaceLine &b);

} // namespace fibercl::exec

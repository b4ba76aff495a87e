// linesConflict (race_lines.hpp): integer geometry on two lines of accesses.
#include "runtime/exec/race_lines.hpp"

#include <algorithm>
#include <utility>

#include "fibercl/kernel_abi.h"

namespace fibercl::exec {
namespace {

// Division rounding down and up, for b > 0.
int64_t floorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
int64_t ceilDiv(int64_t a, int64_t b) { return -floorDiv(-a, b); }

// The integers k with lo < s * k < hi (s != 0): [first, last], empty when first > last.
void between(int64_t lo, int64_t hi, int64_t s, int64_t &first, int64_t &last) {
  if (s < 0) {
    s = -s;
    std::swap(lo, hi);
    lo = -lo;
    hi = -hi;
  }
  first = floorDiv(lo, s) + 1;
  last = ceilDiv(hi, s) - 1;
}

// Item by item along `a`: the accesses of `b` that touch a's i-th access's bytes are a
// range of b's work-items; a conflict is one of them not a's own work-item.
bool conflictByItems(const RaceLine &a, const RaceLine &b) {
  const int64_t base = int64_t(a.address - b.address);
  const int64_t za = a.bytes, zb = b.bytes;
  for (int64_t i = 0; i < int64_t(a.count); ++i) {
    const int64_t off = base + a.step * i; // a's access, from b's first
    int64_t first = 0, last = int64_t(b.count) - 1;
    if (b.step == 0) {
      if (!(off - zb < 0 && 0 < off + za))
        continue;
    } else {
      int64_t lo, hi;
      between(off - zb, off + za, b.step, lo, hi);
      first = std::max(first, lo);
      last = std::min(last, hi);
    }
    if (first > last)
      continue;
    if (first < last || int64_t(b.first) + first != int64_t(a.first) + i)
      return true;
  }
  return false;
}

} // namespace

bool linesConflict(const RaceLine &a, const RaceLine &b) {
  if (!((a.how | b.how) & FCL_RACE_WRITE) || a.count == 0 || b.count == 0)
    return false;
  if (a.step == b.step && a.step != 0) {
    // b's access j and a's access i overlap when -zb < d + s * (j - i) < za: for each
    // such k = j - i, the pairs (i, i + k) are of different work-items everywhere or
    // nowhere.
    const int64_t d = int64_t(b.address - a.address);
    int64_t lo, hi;
    between(-int64_t(b.bytes) - d, int64_t(a.bytes) - d, a.step, lo, hi);
    if (hi - lo <= 64) {
      for (int64_t k = lo; k <= hi; ++k) {
        int64_t iFirst = std::max<int64_t>(0, -k);
        int64_t iEnd = std::min<int64_t>(a.count, int64_t(b.count) - k);
        if (iFirst < iEnd && int64_t(a.first) != int64_t(b.first) + k)
          return true;
      }
      return false;
    }
  }
  return a.count <= b.count ? conflictByItems(a, b) : conflictByItems(b, a);
}

} // namespace fibercl::exec

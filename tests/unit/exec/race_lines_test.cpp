// linesConflict (runtime/exec/race_lines.hpp) against the definition, byte by byte.
#include <gtest/gtest.h>

#include <random>

#include "fibercl/kernel_abi.h"
#include "runtime/exec/race_lines.hpp"

namespace fibercl::exec {
namespace {

// Two different work-items touch a common byte, one of them writing.
bool bruteForce(const RaceLine &a, const RaceLine &b) {
  if (!((a.how | b.how) & FCL_RACE_WRITE))
    return false;
  for (uint32_t i = 0; i < a.count; ++i)
    for (uint32_t j = 0; j < b.count; ++j) {
      if (a.first + i == b.first + j)
        continue;
      uint64_t x = a.address + uint64_t(a.step * int64_t(i));
      uint64_t y = b.address + uint64_t(b.step * int64_t(j));
      if (x < y + b.bytes && y < x + a.bytes)
        return true;
    }
  return false;
}

RaceLine line(uint64_t address, int64_t step, uint32_t bytes, uint32_t first, uint32_t count,
              bool writes) {
  RaceLine l;
  l.address = address;
  l.step = step;
  l.bytes = bytes;
  l.first = first;
  l.count = count;
  l.how = FCL_RACE_LOCAL | (writes ? FCL_RACE_WRITE : FCL_RACE_READ);
  return l;
}

TEST(RaceLines, TreeReductionStepIsClean) {
  // tmp[lid] += tmp[lid + s] over lid < s: the write never meets another item's read.
  const uint64_t tmp = 0x10000;
  for (uint32_t s : {128u, 64u, 1u}) {
    RaceLine write = line(tmp, 4, 4, 0, s, true);
    RaceLine readOwn = line(tmp, 4, 4, 0, s, false);
    RaceLine readOther = line(tmp + 4 * s, 4, 4, 0, s, false);
    EXPECT_FALSE(linesConflict(write, readOwn));
    EXPECT_FALSE(linesConflict(write, readOther));
    EXPECT_FALSE(linesConflict(write, write));
  }
}

TEST(RaceLines, MissingBarrierBetweenStepsConflicts) {
  // Step s = 64 writes tmp[lid], step 32 (same round: no barrier) reads tmp[lid + 32].
  RaceLine write = line(0x10000, 4, 4, 0, 64, true);
  RaceLine read = line(0x10000 + 4 * 32, 4, 4, 0, 32, false);
  EXPECT_TRUE(linesConflict(write, read));
  EXPECT_TRUE(linesConflict(read, write));
}

TEST(RaceLines, EveryItemWritingOneWordConflictsUnlessAlone) {
  EXPECT_TRUE(linesConflict(line(0x100, 0, 4, 0, 2, true), line(0x100, 0, 4, 0, 2, true)));
  EXPECT_FALSE(linesConflict(line(0x100, 0, 4, 7, 1, true), line(0x100, 0, 4, 7, 1, true)));
  // Everybody reading one word another item writes.
  EXPECT_TRUE(linesConflict(line(0x100, 0, 4, 0, 256, false), line(0x100, 4, 4, 0, 256, true)));
  EXPECT_FALSE(linesConflict(line(0x100, 0, 4, 0, 256, false), line(0x100, 4, 4, 1, 255, false)));
}

TEST(RaceLines, OverlappingItemsOfOneLineConflict) {
  EXPECT_TRUE(linesConflict(line(0x100, 2, 4, 0, 8, true), line(0x100, 2, 4, 0, 8, true)));
  EXPECT_FALSE(linesConflict(line(0x100, -4, 4, 0, 8, true), line(0x100, -4, 4, 0, 8, true)));
}

TEST(RaceLines, AgreesWithTheDefinitionOnRandomLines) {
  std::mt19937_64 random(42);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(random);
  };
  int conflicts = 0;
  for (int n = 0; n < 20000; ++n) {
    const int64_t steps[] = {0, 1, 2, 4, 8, -4, 12, 72, 3};
    RaceLine a = line(0x1000 + uint64_t(pick(0, 64)), steps[pick(0, 8)], uint32_t(pick(1, 8)),
                      uint32_t(pick(0, 20)), uint32_t(pick(0, 20)), pick(0, 1));
    RaceLine b =
        pick(0, 9) == 0
            ? a
            : line(0x1000 + uint64_t(pick(0, 64)), pick(0, 2) == 0 ? a.step : steps[pick(0, 8)],
                   uint32_t(pick(1, 8)), uint32_t(pick(0, 20)), uint32_t(pick(0, 20)), pick(0, 1));
    bool expected = bruteForce(a, b);
    conflicts += expected;
    ASSERT_EQ(linesConflict(a, b), expected)
        << "a: " << a.address << " step " << a.step << " bytes " << a.bytes << " items " << a.first
        << "+" << a.count << (a.how & FCL_RACE_WRITE ? " w" : " r") << "; b: " << b.address
        << " step " << b.step << " bytes " << b.bytes << " items " << b.first << "+" << b.count
        << (b.how & FCL_RACE_WRITE ? " w" : " r");
  }
  EXPECT_GT(conflicts, 2000); // both answers were exercised
  EXPECT_LT(conflicts, 18000);
}

} // namespace
} // namespace fibercl::exec

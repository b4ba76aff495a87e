// Unit tests of the cooperative scheduler's bookkeeping: the device's slot ledger
// (DeviceSlots) and a cooperative launch's decisions (CoopLaunch) -- who may be
// killed, how many groups a fork or a resizing barrier adds, the global barrier.
#include <atomic>
#include <chrono>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "runtime/exec/coop_launch.hpp"
#include "runtime/exec/device_slots.hpp"

using fibercl::exec::CoopLaunch;
using fibercl::exec::DeviceSlots;
using fibercl::exec::GroupStart;

namespace {

std::set<uint32_t> takeAll(CoopLaunch &c) {
  std::set<uint32_t> ids;
  GroupStart s;
  while (c.takeStart(s))
    ids.insert(s.gid);
  return ids;
}

TEST(DeviceSlots, KernelBesideGetsSlotsOnlyWhenTheCooperativeKernelShrinks) {
  DeviceSlots slots;
  ASSERT_TRUE(slots.coopStarted(8));
  EXPECT_FALSE(slots.coopStarted(8)) << "one cooperative launch takes part at a time";
  slots.setCoopActive(8);
  EXPECT_EQ(slots.freeForForks(), 0u);
  uint32_t held = 0;
  std::thread beside([&] { held = slots.acquire(2, "k", 30); });
  // The waiting kernel's demand is what cooperative_query reports.
  for (int i = 0; i < 1000 && slots.wantedBack() == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(slots.wantedBack(), 2u);
  slots.setCoopActive(7);
  EXPECT_EQ(slots.wantedBack(), 1u);
  slots.setCoopActive(6); // two kills: granted
  beside.join();
  EXPECT_EQ(held, 2u);
  EXPECT_EQ(slots.wantedBack(), 0u);
  EXPECT_EQ(slots.freeForForks(), 0u) << "held by the kernel beside";
  slots.release(held);
  EXPECT_EQ(slots.freeForForks(), 2u) << "given back for forks";
  slots.coopEnded();
  EXPECT_EQ(slots.acquire(3, "k", 1), 0u) << "no cooperative kernel: nothing to wait for";
}

TEST(DeviceSlots, AtMostHalfTheDeviceByDefaultAndNeverGroupZerosSlot) {
  DeviceSlots slots;
  ASSERT_TRUE(slots.coopStarted(8));
  slots.setCoopActive(1);
  EXPECT_EQ(slots.acquire(slots.request(~0u), "k", 1), 4u);
  slots.release(4);
  slots.coopEnded();
  ASSERT_TRUE(slots.coopStarted(2));
  slots.setCoopActive(1);
  EXPECT_EQ(slots.acquire(2, "k", 1), 1u);
}

TEST(DeviceSlots, GivesUpWaitingAfterTheTimeout) {
  DeviceSlots slots;
  ASSERT_TRUE(slots.coopStarted(4));
  slots.setCoopActive(4);
  testing::internal::CaptureStderr();
  EXPECT_EQ(slots.acquire(1, "setter", 0.05), 0u);
  std::string text = testing::internal::GetCapturedStderr();
  EXPECT_NE(text.find("kernel 'setter' waited"), std::string::npos) << text;
}

TEST(CoopLaunch, OnlyTheHighestGroupMayBeKilledAndNeverGroupZero) {
  std::atomic<uint64_t> remaining{0};
  DeviceSlots slots;
  CoopLaunch c("k", 4, 0, false, 0, remaining, &slots);
  EXPECT_EQ(takeAll(c), (std::set<uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(c.view.active, 4u);
  std::thread beside([&] { slots.acquire(3, "other", 30); });
  while (slots.wantedBack() == 0)
    std::this_thread::yield();
  EXPECT_EQ(c.offerKill(1), 0u) << "not the highest";
  EXPECT_EQ(c.offerKill(3), FCL_COOP_LEAVE);
  EXPECT_EQ(c.offerKill(3), 0u) << "no longer active";
  EXPECT_EQ(c.offerKill(2), FCL_COOP_LEAVE);
  EXPECT_EQ(c.offerKill(1), FCL_COOP_LEAVE);
  EXPECT_EQ(c.offerKill(0), 0u) << "group 0 is never killed";
  EXPECT_EQ(c.view.active, 1u);
  beside.join();
  c.end();
}

TEST(CoopLaunch, ForksTakeTheNextIdsWithTheTransmittedBytesAndCountAsRemaining) {
  std::atomic<uint64_t> remaining{0};
  CoopLaunch c("k", 6, 0, false, 0, remaining, nullptr);
  takeAll(c);
  // Nothing to fork at full size.
  uint8_t frame[4] = {1, 2, 3, 4};
  EXPECT_EQ(c.requestFork(0, 7, frame, 4), 0u);
  // A resizing barrier with nothing wanted back keeps every group.
  uint64_t gen = 0;
  for (uint32_t g = 0; g < 6; ++g)
    gen = c.arrive(g, true, 9, frame, 4);
  EXPECT_TRUE(c.released(gen));
  EXPECT_EQ(c.view.active, 6u);
  EXPECT_EQ(remaining.load(), 0u);
}

TEST(CoopLaunch, SeededResizesStayWithinTheBoundAndForkAfterTheBarrier) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    std::atomic<uint64_t> remaining{0};
    CoopLaunch c("k", 8, 4, true, seed, remaining, nullptr);
    std::set<uint32_t> first = takeAll(c);
    ASSERT_GE(first.size(), 1u);
    ASSERT_LE(first.size(), 4u) << "never more active groups than the bound";
    uint32_t m = uint32_t(first.size());
    uint8_t frame[2] = {7, 9};
    uint64_t gen = 0;
    for (uint32_t g = 0; g < m; ++g)
      gen = c.arrive(g, true, 5, frame, 2);
    ASSERT_TRUE(c.released(gen));
    uint32_t after = uint32_t(c.view.active);
    ASSERT_GE(after, 1u);
    ASSERT_LE(after, 4u);
    GroupStart s;
    uint32_t forked = 0;
    while (c.takeStart(s)) {
      EXPECT_EQ(s.gid, m + forked) << "ids M..M+k-1";
      EXPECT_EQ(s.site, 5u);
      EXPECT_EQ(s.frame, (std::vector<uint8_t>{7, 9})) << "group 0's transmitted bytes";
      ++forked;
    }
    EXPECT_EQ(forked, after > m ? after - m : 0);
    EXPECT_EQ(remaining.load(), forked);
    for (uint32_t g = 0; g < m; ++g)
      EXPECT_EQ(c.leavesAfterResize(gen, g), g >= after) << "seed " << seed << " group " << g;
  }
}

// A resize shrinks M; before the groups it shrank away have been resumed, the next
// resize forks groups with their ids, which reach a third resizing barrier: each group
// leaves by the decision of the barrier it waited at, not by its id (issue 27).
TEST(CoopLaunch, LeavingIsDecidedPerBarrierNotPerReusedGroupId) {
  int exercised = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    std::atomic<uint64_t> remaining{0};
    CoopLaunch c("k", 8, 4, true, seed, remaining, nullptr);
    uint32_t m = uint32_t(takeAll(c).size());
    uint8_t frame[1] = {0};
    uint64_t gen0 = 0;
    for (uint32_t g = 0; g < m; ++g)
      gen0 = c.arrive(g, true, 3, frame, 1);
    uint32_t m1 = uint32_t(c.view.active);
    if (m1 >= m)
      continue;
    // Groups m1..m-1 leave but have not asked yet; 0..m1-1 go on to the next barrier.
    uint64_t gen1 = 0;
    for (uint32_t g = 0; g < m1; ++g) {
      ASSERT_FALSE(c.leavesAfterResize(gen0, g));
      gen1 = c.arrive(g, true, 3, frame, 1);
    }
    uint32_t m2 = uint32_t(c.view.active);
    if (m2 <= m1)
      continue;
    takeAll(c); // forked: ids m1..m2-1, some of them the ids of groups still leaving
    for (uint32_t g = 0; g < m1; ++g)
      ASSERT_FALSE(c.leavesAfterResize(gen1, g));
    uint64_t gen2 = 0;
    for (uint32_t g = 0; g < m2; ++g)
      gen2 = c.arrive(g, true, 3, frame, 1);
    uint32_t m3 = uint32_t(c.view.active);
    // The groups of the third barrier ask first, then the old groups, which leave
    // whatever happened to their ids since.
    for (uint32_t g = 0; g < m2; ++g)
      EXPECT_EQ(c.leavesAfterResize(gen2, g), g >= m3)
          << "seed " << seed << ", group " << g << " after " << m << " -> " << m1 << " -> " << m2
          << " -> " << m3;
    for (uint32_t g = m1; g < m; ++g)
      EXPECT_TRUE(c.leavesAfterResize(gen0, g)) << "seed " << seed << ", old group " << g;
    ++exercised;
  }
  EXPECT_GT(exercised, 10) << "too few seeds shrank and then grew back";
}

} // namespace

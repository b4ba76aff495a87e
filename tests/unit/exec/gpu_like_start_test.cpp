// GpuLikeStart: the wave's groups are held at their first yield point until all have
// arrived, then take steps in lockstep -- until they have made kLockstepSteps steps of
// progress, or one step took long (a persistent kernel's sweep, not a protocol's poll).
#include <gtest/gtest.h>

#include "runtime/exec/gpu_like_start.hpp"
#include "runtime/exec/yield_launch.hpp"

namespace fibercl::exec {
namespace {

struct Wave : ::testing::Test {
  GpuLikeStart start{true, 2, 0};
  YieldGroup a, b;
  bool go = false;
  void SetUp() override {
    for (YieldGroup *y : {&a, &b}) {
      y->inWave = true;
      y->start = StartPhase::Gated;
    }
    ASSERT_TRUE(start.decide(a, true, false, go));
    EXPECT_FALSE(start.gateOpen());
    ASSERT_TRUE(start.decide(b, true, false, go));
    ASSERT_TRUE(start.gateOpen()); // the last to arrive opens it
  }
};

TEST_F(Wave, ShortStepsStayInLockstepForTheirCount) {
  for (uint32_t step = 1; step < kLockstepSteps; ++step) {
    EXPECT_TRUE(start.decide(a, true, false, go));
    ASSERT_EQ(a.start, StartPhase::Lockstep) << "after step " << step;
  }
  EXPECT_TRUE(start.decide(a, true, false, go));
  EXPECT_EQ(a.start, StartPhase::Free);
}

TEST_F(Wave, ALongStepLeavesLockstep) {
  EXPECT_TRUE(start.decide(b, true, /*longStep=*/true, go));
  EXPECT_EQ(b.start, StartPhase::Free);
  EXPECT_EQ(a.start, StartPhase::Lockstep);
}

} // namespace
} // namespace fibercl::exec

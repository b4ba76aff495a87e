// StackPool: a stack handed from one runner's pool to another's, as when a suspended
// work-group moves between workers (group_migration.hpp), belongs to the second pool
// only: it unmaps it once, and the first pool never touches it again.
#include <gtest/gtest.h>

#include "runtime/exec/exec_counters.hpp"
#include "runtime/exec/stack_pool.hpp"

namespace fibercl::exec {
namespace {

TEST(StackPool, AStackHandedOverBelongsToTheNewPoolOnly) {
  ExecCounters counters;
  const uint64_t before = processStacksMapped();
  {
    StackPool from(64 * 1024, counters), to(64 * 1024, counters);
    Stack *s = from.take();
    ASSERT_TRUE(s);
    EXPECT_EQ(processStacksMapped(), before + 1);
    s->top()[-1] = 1; // usable
    from.disown(s);
    to.own(s);
    EXPECT_FALSE(from.inAnyGuard(s->base));
    EXPECT_TRUE(to.inAnyGuard(s->base));
    to.give(s);
    to.trim(0); // unmapped here
    EXPECT_EQ(to.freeCount(), 0u);
    EXPECT_EQ(processStacksMapped(), before);
  } // the first pool's destructor must not unmap it a second time
  EXPECT_EQ(processStacksMapped(), before);
}

} // namespace
} // namespace fibercl::exec

// The core's command ordering and event statuses (runtime/queue.cpp, runtime/event.cpp)
// over a test device (manual_device.hpp): which command starts when, what a failed
// dependency does, the callbacks, clFinish's waiting and the profiling times. Through
// the device interface only, so the CPU device and its executor play no part.
#include "manual_device.hpp"

#include "runtime/context.hpp"
#include "runtime/event.hpp"
#include "runtime/queue.hpp"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace fibercl::coretest {
namespace {

using runtime::Event;
using runtime::Queue;
using runtime::Ref;

// Notes its id in `log` when it starts, marks itself running and completes with
// `result` when the device runs its host work.
class LoggedCommand : public runtime::Command {
public:
  LoggedCommand(ManualDevice &device, std::vector<int> &log, int id, cl_int result)
      : device_(device), log_(log), id_(id), result_(result) {}
  void start(Event &ev) override {
    log_.push_back(id_);
    ev.setRunning();
    Event *e = &ev;
    cl_int result = result_; // `this` dies with the event's completion
    device_.runHost([result] { return result; }, [e](int32_t status) { e->complete(status); });
  }

private:
  ManualDevice &device_;
  std::vector<int> &log_;
  int id_;
  cl_int result_;
};

class QueueTest : public testing::Test {
protected:
  Ref<Queue> queue(cl_command_queue_properties properties = 0) {
    return runtime::make<Queue>(*context_, device_, properties, std::vector<cl_queue_properties>{});
  }
  Ref<Event> enqueue(Queue &q, int id, std::vector<Ref<Event>> waitList = {},
                     cl_int result = CL_COMPLETE) {
    return q.enqueue(CL_COMMAND_NDRANGE_KERNEL,
                     std::make_unique<LoggedCommand>(device_, log_, id, result), waitList);
  }
  Ref<Event> userEvent() { return runtime::make<Event>(*context_, nullptr, CL_COMMAND_USER); }

  ManualDevice device_;
  Ref<runtime::Context> context_ =
      runtime::make<runtime::Context>(std::vector<runtime::Device *>{&device_},
                                      std::vector<cl_context_properties>{}, nullptr, nullptr);
  std::vector<int> log_;
};

TEST_F(QueueTest, InOrderEachCommandStartsWhenThePreviousOneCompleted) {
  Ref<Queue> q = queue();
  Ref<Event> a = enqueue(*q, 1), b = enqueue(*q, 2), c = enqueue(*q, 3);
  EXPECT_EQ(log_, (std::vector<int>{1}));
  EXPECT_EQ(a->status(), CL_RUNNING);
  EXPECT_EQ(b->status(), CL_QUEUED);
  ASSERT_TRUE(device_.runOne()); // 1 completes, 2 starts
  EXPECT_EQ(a->status(), CL_COMPLETE);
  EXPECT_EQ(log_, (std::vector<int>{1, 2}));
  ASSERT_TRUE(device_.runOne());
  ASSERT_TRUE(device_.runOne());
  EXPECT_EQ(log_, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(c->status(), CL_COMPLETE);
  EXPECT_FALSE(device_.runOne());
}

TEST_F(QueueTest, OutOfOrderCommandsStartAtOnceAndABarrierWaitsForEveryEarlierOne) {
  Ref<Queue> q = queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  Ref<Event> a = enqueue(*q, 1), b = enqueue(*q, 2);
  EXPECT_EQ(log_, (std::vector<int>{1, 2}));
  Ref<Event> barrier = q->enqueue(CL_COMMAND_BARRIER, std::make_unique<runtime::Command>(), {},
                                  Queue::Sync::Barrier);
  Ref<Event> c = enqueue(*q, 3);
  EXPECT_EQ(barrier->status(), CL_QUEUED);
  EXPECT_EQ(log_, (std::vector<int>{1, 2})) << "a command after the barrier started early";
  ASSERT_TRUE(device_.runOne());
  EXPECT_EQ(barrier->status(), CL_QUEUED) << "the barrier passed with a command unfinished";
  ASSERT_TRUE(device_.runOne());
  EXPECT_EQ(barrier->status(), CL_COMPLETE);
  EXPECT_EQ(log_, (std::vector<int>{1, 2, 3}));
  ASSERT_TRUE(device_.runOne());
  EXPECT_EQ(c->status(), CL_COMPLETE);
}

TEST_F(QueueTest, AUserEventHoldsItsDependentsUntilTheHostSetsIt) {
  Ref<Queue> q = queue();
  Ref<Event> user = userEvent();
  Ref<Event> a = enqueue(*q, 1, {user});
  EXPECT_TRUE(log_.empty());
  EXPECT_EQ(a->status(), CL_QUEUED);
  int wakes = device_.wakes;
  ASSERT_TRUE(user->setUserStatus(CL_COMPLETE));
  EXPECT_FALSE(user->setUserStatus(CL_COMPLETE)) << "a user event's status is set once";
  EXPECT_GT(device_.wakes, wakes) << "threads waiting on the device were not woken";
  EXPECT_EQ(log_, (std::vector<int>{1}));
  ASSERT_TRUE(device_.runOne());
  EXPECT_EQ(a->status(), CL_COMPLETE);
}

TEST_F(QueueTest, AFailedDependencyFailsItsDependentsWithoutRunningThem) {
  Ref<Queue> q = queue();
  Ref<Event> user = userEvent();
  Ref<Event> a = enqueue(*q, 1, {user});
  Ref<Event> b = enqueue(*q, 2); // in order: after a
  ASSERT_TRUE(user->setUserStatus(-5));
  EXPECT_EQ(a->status(), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_EQ(b->status(), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_TRUE(log_.empty()) << "a command whose dependency failed ran";
  // A command enqueued once the failure was seen runs.
  Ref<Event> c = enqueue(*q, 3);
  EXPECT_EQ(log_, (std::vector<int>{3}));
  ASSERT_TRUE(device_.runOne());
  EXPECT_EQ(c->status(), CL_COMPLETE);
}

TEST_F(QueueTest, ACommandThatFailsReportsItsErrorAsItsStatus) {
  Ref<Queue> q = queue();
  Ref<Event> a = enqueue(*q, 1, {}, CL_OUT_OF_RESOURCES);
  ASSERT_TRUE(device_.runOne());
  EXPECT_EQ(a->status(), CL_OUT_OF_RESOURCES);
}

struct Called {
  cl_int type, status;
  bool operator==(const Called &o) const { return type == o.type && status == o.status; }
};

TEST_F(QueueTest, CallbacksRunOnceEachWhenTheirStatusIsReached) {
  Ref<Queue> q = queue();
  Ref<Event> user = userEvent();
  Ref<Event> a = enqueue(*q, 1, {user});
  std::vector<Called> calls;
  struct Registration {
    std::vector<Called> *calls;
    cl_int type;
  } regs[] = {{&calls, CL_COMPLETE}, {&calls, CL_RUNNING}, {&calls, CL_SUBMITTED}};
  auto note = [](cl_event, cl_int status, void *data) {
    auto *r = static_cast<Registration *>(data);
    r->calls->push_back({r->type, status});
  };
  for (Registration &r : regs)
    a->addCallback(r.type, note, &r);
  EXPECT_TRUE(calls.empty());
  ASSERT_TRUE(user->setUserStatus(CL_COMPLETE));
  EXPECT_EQ(calls, (std::vector<Called>{{CL_SUBMITTED, CL_SUBMITTED}, {CL_RUNNING, CL_RUNNING}}));
  ASSERT_TRUE(device_.runOne());
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls[2], (Called{CL_COMPLETE, CL_COMPLETE}));
  // Registered after the event completed: called at once.
  Registration late{&calls, CL_COMPLETE};
  a->addCallback(CL_COMPLETE, note, &late);
  ASSERT_EQ(calls.size(), 4u);
  EXPECT_EQ(calls[3], (Called{CL_COMPLETE, CL_COMPLETE}));
}

TEST_F(QueueTest, FinishLendsTheWaitingThreadToTheDevice) {
  Ref<Queue> q = queue();
  Ref<Event> a = enqueue(*q, 1), b = enqueue(*q, 2);
  q->finish(); // nothing else runs the device's work here
  EXPECT_EQ(a->status(), CL_COMPLETE);
  EXPECT_EQ(b->status(), CL_COMPLETE);
  EXPECT_EQ(device_.pending(), 0u);
}

TEST_F(QueueTest, ProfilingTimesAreInOrder) {
  Ref<Queue> q = queue(CL_QUEUE_PROFILING_ENABLE);
  Ref<Event> a = enqueue(*q, 1);
  ASSERT_TRUE(a->profiled());
  ASSERT_TRUE(device_.runOne());
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_NE(a->profilingTime(i), 0u) << "time " << i;
    if (i > 0) {
      EXPECT_LE(a->profilingTime(i - 1), a->profilingTime(i)) << "time " << i;
    }
  }
}

} // namespace
} // namespace fibercl::coretest

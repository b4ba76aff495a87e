// Events and queues: out-of-order dependencies, user events, callbacks, markers and
// barriers, profiling, and trivial queue operations.
#include <atomic>
#include <chrono>
#include <thread>

#include "cl_test.hpp"

namespace fcltest {
namespace {

class Events : public CLTest {
protected:
  cl_command_queue makeQueue(cl_command_queue_properties props) {
    cl_queue_properties p[] = {CL_QUEUE_PROPERTIES, props, 0};
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueueWithProperties(context_, device_, p, &err);
    check(err, "clCreateCommandQueueWithProperties");
    atTearDown([q] {
      clFinish(q);
      clReleaseCommandQueue(q);
    });
    return q;
  }
  bool supportsOutOfOrder() {
    auto p = deviceInfo<cl_command_queue_properties>(device_, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
    return (p & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
  }
  cl_int status(cl_event e) {
    cl_int s = 99;
    check(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr),
          "clGetEventInfo");
    return s;
  }
  cl_event userEvent() {
    cl_int err = CL_SUCCESS;
    cl_event u = clCreateUserEvent(context_, &err);
    check(err, "clCreateUserEvent");
    return keep(u);
  }
  // Kernels over `int* a`: set (a[i] = i after a busy loop), dbl (a[i] *= 2), add3.
  cl_program chainProgram() {
    return build(R"CLC(
      __kernel void set(__global int* a, int spin) {
        size_t i = get_global_id(0);
        int v = (int)i;
        for (int k = 0; k < spin; ++k) v = (v * 7 + k) % 1000003;   // busy work
        a[i] = (int)i + (v == -1 ? 1 : 0);   // v is never -1; keeps the loop
      }
      __kernel void dbl(__global int* a) { a[get_global_id(0)] *= 2; }
      __kernel void add3(__global int* a) { a[get_global_id(0)] += 3; })CLC");
  }
};

TEST_F(Events, OutOfOrderQueueChainsThreeKernelsThroughWaitLists) {
  if (!supportsOutOfOrder())
    GTEST_SKIP() << "device has no out-of-order host queues";
  cl_command_queue q = makeQueue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_program p = chainProgram();
  cl_kernel set = kernel(p, "set"), dbl = kernel(p, "dbl"), add3 = kernel(p, "add3");
  const size_t n = 1 << 16;
  cl_mem a = buffer(n * sizeof(cl_int));
  cl_int spin = 2000;
  setArgs(set, a, spin);
  setArgs(dbl, a);
  setArgs(add3, a);
  for (int round = 0; round < 3; ++round) {
    cl_event e1, e2, e3;
    ASSERT_CL(clEnqueueNDRangeKernel(q, set, 1, nullptr, &n, nullptr, 0, nullptr, &e1));
    ASSERT_CL(clEnqueueNDRangeKernel(q, dbl, 1, nullptr, &n, nullptr, 1, &e1, &e2));
    ASSERT_CL(clEnqueueNDRangeKernel(q, add3, 1, nullptr, &n, nullptr, 1, &e2, &e3));
    keep(e1);
    keep(e2);
    keep(e3);
    ASSERT_CL(clWaitForEvents(1, &e3));
    EXPECT_EQ(status(e1), CL_COMPLETE);
    EXPECT_EQ(status(e2), CL_COMPLETE);
    std::vector<cl_int> r(n);
    ASSERT_CL(
        clEnqueueReadBuffer(q, a, CL_TRUE, 0, n * sizeof(cl_int), r.data(), 0, nullptr, nullptr));
    for (size_t i = 0; i < n; ++i)
      ASSERT_EQ(r[i], static_cast<cl_int>(2 * i + 3)) << "i=" << i;
  }
}

TEST_F(Events, UserEventGatesCommand) {
  cl_program p = chainProgram();
  cl_kernel add3 = kernel(p, "add3");
  cl_mem a = bufferFrom(std::vector<cl_int>(64, 10));
  setArgs(add3, a);
  cl_event u = userEvent();
  EXPECT_EQ(status(u), CL_SUBMITTED);
  const size_t n = 64;
  cl_event k = nullptr;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, add3, 1, nullptr, &n, nullptr, 1, &u, &k));
  keep(k);
  ASSERT_CL(clFlush(queue_));
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  EXPECT_GE(status(k), CL_SUBMITTED) << "command ran before its user event completed";
  ASSERT_CL(clSetUserEventStatus(u, CL_COMPLETE));
  ASSERT_CL(clWaitForEvents(1, &k));
  EXPECT_EQ(status(k), CL_COMPLETE);
  EXPECT_EQ(read<cl_int>(a, n), std::vector<cl_int>(n, 13));
}

TEST_F(Events, UserEventErrorFailsDependents) {
  cl_command_queue q = makeQueue(0);
  cl_program p = chainProgram();
  cl_kernel add3 = kernel(p, "add3");
  cl_mem a = bufferFrom(std::vector<cl_int>(64, 10));
  setArgs(add3, a);
  cl_event u = userEvent();
  const size_t n = 64;
  cl_event k = nullptr;
  ASSERT_CL(clEnqueueNDRangeKernel(q, add3, 1, nullptr, &n, nullptr, 1, &u, &k));
  keep(k);
  ASSERT_CL(clSetUserEventStatus(u, -1234));
  EXPECT_CL_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, &k));
  EXPECT_LT(status(k), 0) << "dependent command must terminate with a negative status";
  EXPECT_EQ(status(u), -1234);
  // The failed command did not run: read through the fixture's own queue.
  EXPECT_EQ(read<cl_int>(a, n), std::vector<cl_int>(n, 10));
}

std::atomic<int> g_cb_calls{0};
std::atomic<cl_int> g_cb_status{99};

void CL_CALLBACK onEvent(cl_event, cl_int st, void *user) {
  g_cb_status.store(st);
  static_cast<std::atomic<int> *>(user)->fetch_add(1);
  g_cb_calls.fetch_add(1);
}

bool waitFor(const std::atomic<int> &flag, int want) {
  for (int i = 0; i < 500; ++i) {
    if (flag.load() >= want)
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return flag.load() >= want;
}

TEST_F(Events, CallbacksOnComplete) {
  cl_program p = chainProgram();
  cl_kernel dbl = kernel(p, "dbl");
  cl_mem a = bufferFrom(std::vector<cl_int>(1024, 1));
  setArgs(dbl, a);
  const size_t n = 1024;
  cl_event u = userEvent();
  cl_event k = nullptr;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, dbl, 1, nullptr, &n, nullptr, 1, &u, &k));
  keep(k);
  std::atomic<int> on_kernel{0}, on_user{0};
  ASSERT_CL(clSetEventCallback(k, CL_COMPLETE, onEvent, &on_kernel));
  ASSERT_CL(clSetEventCallback(u, CL_COMPLETE, onEvent, &on_user));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(on_kernel.load(), 0) << "callback fired before the command completed";
  ASSERT_CL(clSetUserEventStatus(u, CL_COMPLETE));
  ASSERT_CL(clFinish(queue_));
  EXPECT_TRUE(waitFor(on_kernel, 1)) << "CL_COMPLETE callback on the kernel event never ran";
  EXPECT_TRUE(waitFor(on_user, 1)) << "CL_COMPLETE callback on the user event never ran";
  EXPECT_EQ(on_kernel.load(), 1);
  EXPECT_EQ(on_user.load(), 1);
  EXPECT_EQ(g_cb_status.load(), CL_COMPLETE);
  // Registering on an already complete event still calls back.
  std::atomic<int> late{0};
  ASSERT_CL(clSetEventCallback(k, CL_COMPLETE, onEvent, &late));
  EXPECT_TRUE(waitFor(late, 1)) << "callback registered after completion never ran";
}

TEST_F(Events, MarkersAndBarriersWithWaitLists) {
  cl_command_queue q =
      supportsOutOfOrder() ? makeQueue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) : makeQueue(0);
  cl_program p = chainProgram();
  cl_kernel s1 = kernel(p, "set"), s2 = kernel(p, "set"), d = kernel(p, "dbl");
  const size_t n = 1 << 14;
  cl_mem a = buffer(n * sizeof(cl_int)), b = buffer(n * sizeof(cl_int));
  cl_int spin = 500;
  setArgs(s1, a, spin);
  setArgs(s2, b, spin);
  setArgs(d, a);
  cl_event e1, e2, m, bar, e3;
  ASSERT_CL(clEnqueueNDRangeKernel(q, s1, 1, nullptr, &n, nullptr, 0, nullptr, &e1));
  ASSERT_CL(clEnqueueNDRangeKernel(q, s2, 1, nullptr, &n, nullptr, 0, nullptr, &e2));
  keep(e1);
  keep(e2);
  cl_event both[] = {e1, e2};
  ASSERT_CL(clEnqueueMarkerWithWaitList(q, 2, both, &m));
  keep(m);
  ASSERT_CL(clWaitForEvents(1, &m));
  EXPECT_EQ(status(e1), CL_COMPLETE);
  EXPECT_EQ(status(e2), CL_COMPLETE);
  cl_command_type type = 0;
  ASSERT_CL(clGetEventInfo(m, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(type, static_cast<cl_command_type>(CL_COMMAND_MARKER));

  // A barrier orders a later kernel after everything enqueued before it.
  ASSERT_CL(clEnqueueNDRangeKernel(q, s1, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
  ASSERT_CL(clEnqueueBarrierWithWaitList(q, 0, nullptr, &bar));
  keep(bar);
  ASSERT_CL(clEnqueueNDRangeKernel(q, d, 1, nullptr, &n, nullptr, 0, nullptr, &e3));
  keep(e3);
  ASSERT_CL(clWaitForEvents(1, &e3));
  EXPECT_EQ(status(bar), CL_COMPLETE);
  std::vector<cl_int> r(n);
  ASSERT_CL(
      clEnqueueReadBuffer(q, a, CL_TRUE, 0, n * sizeof(cl_int), r.data(), 0, nullptr, nullptr));
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(r[i], static_cast<cl_int>(2 * i)) << "i=" << i;
  ASSERT_CL(clGetEventInfo(bar, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(type, static_cast<cl_command_type>(CL_COMMAND_BARRIER));

  // A marker with an empty wait list on an in-order queue waits for prior commands.
  cl_event e4, m2;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, s2, 1, nullptr, &n, nullptr, 0, nullptr, &e4));
  keep(e4);
  ASSERT_CL(clEnqueueMarkerWithWaitList(queue_, 0, nullptr, &m2));
  keep(m2);
  ASSERT_CL(clWaitForEvents(1, &m2));
  EXPECT_EQ(status(e4), CL_COMPLETE);
}

TEST_F(Events, ProfilingTimestampsAreMonotone) {
  cl_program p = chainProgram();
  cl_kernel s = kernel(p, "set");
  const size_t n = 1 << 16;
  cl_mem a = buffer(n * sizeof(cl_int));
  cl_int spin = 200;
  setArgs(s, a, spin);
  cl_event e1, e2;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, s, 1, nullptr, &n, nullptr, 0, nullptr, &e1));
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, s, 1, nullptr, &n, nullptr, 0, nullptr, &e2));
  keep(e1);
  keep(e2);
  ASSERT_CL(clFinish(queue_));
  cl_ulong t[2][4];
  const cl_profiling_info what[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                     CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
  cl_event evs[2] = {e1, e2};
  for (int e = 0; e < 2; ++e)
    for (int i = 0; i < 4; ++i)
      ASSERT_CL(clGetEventProfilingInfo(evs[e], what[i], sizeof(cl_ulong), &t[e][i], nullptr));
  for (int e = 0; e < 2; ++e) {
    EXPECT_GT(t[e][0], 0u);
    EXPECT_LE(t[e][0], t[e][1]) << "queued <= submit";
    EXPECT_LE(t[e][1], t[e][2]) << "submit <= start";
    EXPECT_LE(t[e][2], t[e][3]) << "start <= end";
  }
  EXPECT_LT(t[0][2], t[0][3]) << "a 64K-item kernel took no time";
  EXPECT_LE(t[0][3], t[1][2]) << "in-order queue: second command started before first ended";
  cl_ulong complete = 0;
  ASSERT_CL(clGetEventProfilingInfo(e1, CL_PROFILING_COMMAND_COMPLETE, sizeof complete, &complete,
                                    nullptr));
  EXPECT_GE(complete, t[0][3]);
}

TEST_F(Events, EmptyQueueFinishAndEventInfo) {
  cl_command_queue q = makeQueue(0);
  EXPECT_CL(clFinish(q));
  EXPECT_CL(clFlush(q));
  EXPECT_CL(clFinish(q));
  cl_program p = chainProgram();
  cl_kernel d = kernel(p, "dbl");
  cl_mem a = bufferFrom(std::vector<cl_int>(16, 4));
  setArgs(d, a);
  const size_t n = 16;
  cl_event e = nullptr;
  ASSERT_CL(clEnqueueNDRangeKernel(q, d, 1, nullptr, &n, nullptr, 0, nullptr, &e));
  keep(e);
  ASSERT_CL(clFinish(q));
  EXPECT_EQ(status(e), CL_COMPLETE);
  cl_command_type type = 0;
  cl_command_queue eq = nullptr;
  cl_context ec = nullptr;
  ASSERT_CL(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr));
  ASSERT_CL(clGetEventInfo(e, CL_EVENT_COMMAND_QUEUE, sizeof eq, &eq, nullptr));
  ASSERT_CL(clGetEventInfo(e, CL_EVENT_CONTEXT, sizeof ec, &ec, nullptr));
  EXPECT_EQ(type, static_cast<cl_command_type>(CL_COMMAND_NDRANGE_KERNEL));
  EXPECT_EQ(eq, q);
  EXPECT_EQ(ec, context_);
  std::vector<cl_int> r(16);
  ASSERT_CL(
      clEnqueueReadBuffer(q, a, CL_TRUE, 0, sizeof(cl_int) * 16, r.data(), 0, nullptr, nullptr));
  EXPECT_EQ(r, std::vector<cl_int>(16, 8));
}

} // namespace
} // namespace fcltest

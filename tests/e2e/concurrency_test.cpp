// The API from several host threads at once, on shared objects, as multi-threaded
// applications use it. An OpenCL implementation runs inside other people's processes:
// a race in it is a crash or a wrong result in theirs.
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "cl_test.hpp"

namespace fcltest {
namespace {

class Concurrency : public CLTest {};

// clBuildProgram on a program while another thread creates kernels from it: a kernel
// must never outlive the build it was made from. clCreateKernel used to find the
// kernel's description and code without the program's lock and attach to the program
// only afterwards, so a rebuild that started in between (no kernel attached yet: the
// rebuild is allowed) replaced both under the new kernel -- which then ran freed code.
// Either call may fail as the specification says (CL_INVALID_OPERATION: kernels are
// attached; CL_INVALID_PROGRAM_EXECUTABLE: no executable while it is rebuilt); every
// kernel that is created must run correctly.
TEST_F(Concurrency, RebuildingAProgramWhileKernelsAreCreatedFromIt) {
  const std::string src = R"CLC(
    __kernel void plus(__global int* d, int k) { d[get_global_id(0)] += k; }
  )CLC";
  cl_program p = build(src);
  std::atomic<bool> stop{false};
  std::atomic<int> rebuilt{0}, refused{0}, otherBuildErrors{0};
  std::thread rebuilder([&] {
    while (!stop.load()) {
      cl_int err = clBuildProgram(p, 1, &device_, "", nullptr, nullptr);
      if (err == CL_SUCCESS) {
        ++rebuilt;
        // Kernels may be made from this build for a moment.
        std::this_thread::sleep_for(std::chrono::microseconds(300));
      } else if (err == CL_INVALID_OPERATION)
        ++refused;
      else
        ++otherBuildErrors;
    }
  });

  const size_t n = 64;
  cl_mem m = buffer(n * sizeof(cl_int));
  int created = 0, notBuilt = 0, failedRuns = 0;
  cl_int lastOther = CL_SUCCESS;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(6);
  for (int i = 0; (created < 300 || rebuilt < 20) && std::chrono::steady_clock::now() < deadline;
       ++i) {
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(p, "plus", &err);
    if (err == CL_INVALID_PROGRAM_EXECUTABLE) { // being rebuilt: try again soon
      ++notBuilt;
      std::this_thread::sleep_for(std::chrono::microseconds(20));
      continue;
    }
    if (err != CL_SUCCESS) {
      lastOther = err;
      continue;
    }
    ++created;
    // Hold it while the rebuild, if one slipped in, finishes; then use it.
    std::this_thread::sleep_for(std::chrono::microseconds(i % 4 == 0 ? 1500 : 50));
    cl_int k1 = i;
    write(m, std::vector<cl_int>(n, 1));
    bool ok = clSetKernelArg(k, 0, sizeof m, &m) == CL_SUCCESS &&
              clSetKernelArg(k, 1, sizeof k1, &k1) == CL_SUCCESS;
    cl_event e = nullptr;
    ok = ok &&
         clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &n, nullptr, 0, nullptr, &e) == CL_SUCCESS;
    cl_int status = 1;
    if (ok) {
      clWaitForEvents(1, &e);
      clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
      clReleaseEvent(e);
    }
    if (!ok || status != CL_COMPLETE || read<cl_int>(m, n) != std::vector<cl_int>(n, 1 + i))
      ++failedRuns;
    clReleaseKernel(k);
    // No kernel attached for a moment: a rebuild may start.
    std::this_thread::sleep_for(std::chrono::microseconds(30));
  }
  stop = true;
  rebuilder.join();
  std::cout << "[ INFO     ] " << created << " kernels created, " << notBuilt
            << " refused during a rebuild; " << rebuilt << " rebuilds, " << refused
            << " refused (kernels attached)\n";
  EXPECT_EQ(failedRuns, 0) << "kernels that did not run correctly";
  EXPECT_EQ(lastOther, CL_SUCCESS) << "clCreateKernel: " << errName(lastOther);
  EXPECT_EQ(otherBuildErrors, 0) << "clBuildProgram failed otherwise than CL_INVALID_OPERATION";
  EXPECT_GT(created, 50) << "too few kernels made beside the rebuilds to test the race";
  EXPECT_GT(rebuilt, 0) << "the program was never rebuilt: the test did not test the race";
}

// Threads sharing one context and program, each with its own queue, buffers and
// kernels (kernels are not to be shared for clSetKernelArg), and a queue shared by
// all of them (command queues are thread-safe): create, set, enqueue, read, release.
TEST_F(Concurrency, ThreadsShareAContextProgramAndQueue) {
  cl_program p = build(R"CLC(
    __kernel void affine(__global int* d, int a, int b) {
      size_t i = get_global_id(0);
      d[i] = d[i] * a + b;
    })CLC");
  constexpr int kThreads = 4, kRounds = 60;
  std::atomic<int> failures{0};
  std::vector<std::string> firstError(kThreads);
  auto work = [&](int t) {
    cl_int err = CL_SUCCESS;
    cl_command_queue own = clCreateCommandQueueWithProperties(context_, device_, nullptr, &err);
    if (err != CL_SUCCESS) {
      ++failures;
      firstError[t] = std::string("clCreateCommandQueueWithProperties: ") + errName(err);
      return;
    }
    for (int r = 0; r < kRounds; ++r) {
      cl_command_queue q = r % 2 ? own : queue_;
      const size_t n = 256 + 64 * t;
      std::vector<cl_int> host(n);
      for (size_t i = 0; i < n; ++i)
        host[i] = cl_int(i) + t;
      cl_mem m = clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                n * sizeof(cl_int), host.data(), &err);
      cl_kernel k = err == CL_SUCCESS ? clCreateKernel(p, "affine", &err) : nullptr;
      cl_int a = r + 2, b = t - r;
      std::vector<cl_int> got(n, -1);
      if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 0, sizeof m, &m);
      if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 1, sizeof a, &a);
      if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 2, sizeof b, &b);
      if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(q, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr);
      if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(q, m, CL_TRUE, 0, n * sizeof(cl_int), got.data(), 0, nullptr,
                                  nullptr);
      bool right = err == CL_SUCCESS;
      for (size_t i = 0; right && i < n; ++i)
        right = got[i] == host[i] * a + b;
      if (!right && failures++ == 0)
        firstError[t] = "round " + std::to_string(r) + ": " +
                        (err == CL_SUCCESS ? std::string("wrong result") : errName(err));
      if (k)
        clReleaseKernel(k);
      if (m)
        clReleaseMemObject(m);
    }
    clFinish(own);
    clReleaseCommandQueue(own);
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back(work, t);
  for (auto &th : threads)
    th.join();
  std::string why;
  for (const auto &e : firstError)
    why += e.empty() ? "" : e + "\n";
  EXPECT_EQ(failures.load(), 0) << why;
}

// A user event set from another thread releases the commands waiting for it, in
// order; set to an error, it fails them (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
// and the queue goes on. Completion callbacks release the objects the command used.
TEST_F(Concurrency, UserEventsSetFromAnotherThreadAndCallbacksThatRelease) {
  cl_program p = build("__kernel void inc(__global int* d) { d[get_global_id(0)] += 1; }");
  for (cl_int outcome : {CL_COMPLETE, CL_INVALID_VALUE /* any negative status */}) {
    SCOPED_TRACE(outcome == CL_COMPLETE ? "user event completed" : "user event failed");
    cl_int err = CL_SUCCESS;
    cl_event gate = clCreateUserEvent(context_, &err);
    ASSERT_CL(err);
    const size_t n = 1024;
    // Made here, released by the completion callback of the last command.
    cl_mem m = clCreateBuffer(context_, CL_MEM_READ_WRITE, n * sizeof(cl_int), nullptr, &err);
    ASSERT_CL(err);
    cl_kernel k = clCreateKernel(p, "inc", &err);
    ASSERT_CL(err);
    ASSERT_CL(clSetKernelArg(k, 0, sizeof m, &m));
    const cl_int zero = 0;
    cl_event filled = nullptr, ran[3] = {};
    ASSERT_CL(clEnqueueFillBuffer(queue_, m, &zero, sizeof zero, 0, n * sizeof(cl_int), 1, &gate,
                                  &filled));
    for (cl_event &e : ran)
      ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &n, nullptr, 0, nullptr, &e));
    std::vector<cl_int> got(n, -7);
    cl_event readBack = nullptr;
    ASSERT_CL(clEnqueueReadBuffer(queue_, m, CL_FALSE, 0, n * sizeof(cl_int), got.data(), 0,
                                  nullptr, &readBack));
    struct Released {
      cl_mem m;
      cl_kernel k;
      std::atomic<int> status{1};
    } released{m, k};
    ASSERT_CL(clSetEventCallback(
        readBack, CL_COMPLETE,
        [](cl_event, cl_int status, void *data) {
          auto *r = static_cast<Released *>(data);
          clReleaseKernel(r->k);
          clReleaseMemObject(r->m);
          r->status = status;
        },
        &released));
    cl_int statusBefore = 99;
    clGetEventInfo(filled, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof statusBefore, &statusBefore,
                   nullptr);
    EXPECT_GT(statusBefore, CL_RUNNING) << "the fill ran before its user event was set";
    std::thread setter([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      clSetUserEventStatus(gate, outcome);
    });
    cl_int waited = clWaitForEvents(1, &readBack);
    setter.join();
    if (outcome == CL_COMPLETE) {
      EXPECT_CL(waited);
      EXPECT_EQ(got, std::vector<cl_int>(n, 3));
    } else {
      EXPECT_CL_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, waited);
    }
    ASSERT_CL(clFinish(queue_));
    for (int i = 0; i < 200 && released.status.load() == 1; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_EQ(released.status.load() == CL_COMPLETE, outcome == CL_COMPLETE)
        << "callback status " << released.status.load();
    for (cl_event e : {gate, filled, ran[0], ran[1], ran[2], readBack})
      clReleaseEvent(e);
  }
  // The queue still works after the failed chain.
  cl_kernel k =
      kernelFrom("__kernel void inc(__global int* d) { d[get_global_id(0)] += 1; }", "inc");
  cl_mem m = bufferFrom(std::vector<cl_int>{1, 2, 3});
  setArgs(k, m);
  run(k, {3});
  EXPECT_EQ(read<cl_int>(m, 3), (std::vector<cl_int>{2, 3, 4}));
}

} // namespace
} // namespace fcltest

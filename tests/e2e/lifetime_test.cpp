// Object lifetimes under concurrency: reference counts changed from many threads,
// completion callbacks (on the runtime's threads) releasing the last references to
// objects other threads still enqueue with, queues and contexts released while their
// commands and objects live on. What a multi-threaded application does; a mistake in
// the implementation is a use after free or a lost destructor callback in its process.
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "cl_test.hpp"

namespace fcltest {
namespace {

class Lifetime : public CLTest {};

// Waits (bounded) until `flag` reaches `want`.
bool waitFor(const std::atomic<int> &flag, int want, int ms = 5000) {
  for (int i = 0; i < ms && flag.load() != want; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return flag.load() == want;
}

// Retain and release racing on the same objects from several threads: every count
// ends where it started, and a buffer's destructor callback runs exactly once, after
// its last release and not before.
TEST_F(Lifetime, RetainAndReleaseFromManyThreadsKeepCountsExact) {
  cl_program p = build("__kernel void k(__global int* d) { d[0] = 1; }");
  cl_kernel k = kernel(p, "k");
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(context_, CL_MEM_READ_WRITE, 64, nullptr, &err);
  ASSERT_CL(err);
  cl_event user = clCreateUserEvent(context_, &err);
  ASSERT_CL(err);
  std::atomic<int> destroyed{0};
  ASSERT_CL(clSetMemObjectDestructorCallback(
      m, [](cl_mem, void *d) { ++*static_cast<std::atomic<int> *>(d); }, &destroyed));

  auto counts = [&] {
    cl_uint c[6] = {};
    clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof(cl_uint), &c[0], nullptr);
    clGetKernelInfo(k, CL_KERNEL_REFERENCE_COUNT, sizeof(cl_uint), &c[1], nullptr);
    clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof(cl_uint), &c[2], nullptr);
    clGetCommandQueueInfo(queue_, CL_QUEUE_REFERENCE_COUNT, sizeof(cl_uint), &c[3], nullptr);
    clGetEventInfo(user, CL_EVENT_REFERENCE_COUNT, sizeof(cl_uint), &c[4], nullptr);
    clGetContextInfo(context_, CL_CONTEXT_REFERENCE_COUNT, sizeof(cl_uint), &c[5], nullptr);
    return std::vector<cl_uint>(c, c + 6);
  };
  const std::vector<cl_uint> before = counts();
  constexpr int kThreads = 4, kRounds = 3000;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRounds; ++r) {
        // Hold a few references at once, in a different order per thread.
        bool ok = clRetainMemObject(m) == CL_SUCCESS && clRetainKernel(k) == CL_SUCCESS &&
                  clRetainProgram(p) == CL_SUCCESS && clRetainCommandQueue(queue_) == CL_SUCCESS &&
                  clRetainEvent(user) == CL_SUCCESS && clRetainContext(context_) == CL_SUCCESS;
        if ((r + t) % 64 == 0) {
          std::vector<cl_uint> now = counts();
          for (size_t i = 0; i < now.size(); ++i)
            ok = ok && now[i] > before[i];
        }
        ok = ok && clReleaseContext(context_) == CL_SUCCESS && clReleaseEvent(user) == CL_SUCCESS &&
             clReleaseCommandQueue(queue_) == CL_SUCCESS && clReleaseProgram(p) == CL_SUCCESS &&
             clReleaseKernel(k) == CL_SUCCESS && clReleaseMemObject(m) == CL_SUCCESS;
        if (!ok)
          ++failures;
      }
    });
  for (auto &th : threads)
    th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(counts(), before) << "reference counts did not come back";
  EXPECT_EQ(destroyed.load(), 0) << "the buffer was destroyed while referenced";
  ASSERT_CL(clReleaseMemObject(m));
  EXPECT_TRUE(waitFor(destroyed, 1)) << "destructor callback ran " << destroyed.load() << " times";
  ASSERT_CL(clSetUserEventStatus(user, CL_COMPLETE));
  ASSERT_CL(clReleaseEvent(user));
}

// Each round: a program, a kernel and an input buffer are made, every worker thread
// gets its own reference to each, and the making thread drops its references at once.
// The workers enqueue the same kernel on their own queues (allowed: only setting its
// arguments is not thread-safe), and the completion callback of each worker's command
// releases that worker's references -- so whichever callback runs last, on whichever
// thread, frees the objects while the other workers may still be enqueueing. Every
// command must have run right, and each buffer be destroyed exactly once.
TEST_F(Lifetime, CallbacksReleaseObjectsWhileOtherThreadsUseThem) {
  constexpr int kThreads = 4, kRounds = 16;
  const size_t n = 256;
  cl_mem out = bufferFrom(std::vector<cl_int>(n, 0));
  std::vector<cl_command_queue> queues(kThreads);
  for (auto &q : queues) {
    cl_int err = CL_SUCCESS;
    q = clCreateCommandQueueWithProperties(context_, device_, nullptr, &err);
    ASSERT_CL(err);
  }
  struct Round {
    cl_program p = nullptr;
    cl_kernel k = nullptr;
    cl_mem in = nullptr;
  };
  struct Release {
    Round *round;
    std::atomic<int> *released;
  };
  std::atomic<int> destroyed{0}, released{0}, failures{0};
  std::vector<Round> rounds(kRounds);
  std::vector<Release> releases(kRounds);
  for (int r = 0; r < kRounds; ++r) {
    Round &R = rounds[r];
    releases[r] = {&R, &released};
    cl_int err = CL_SUCCESS;
    // A different source per round: a fresh program, not a cached one.
    std::string src = "__kernel void add(__global int* out, __global const int* in) {\n"
                      "  atomic_add(&out[get_global_id(0)], in[get_global_id(0)]); } // " +
                      std::to_string(r);
    const char *text = src.c_str();
    R.p = clCreateProgramWithSource(context_, 1, &text, nullptr, &err);
    ASSERT_CL(err);
    ASSERT_CL(clBuildProgram(R.p, 1, &device_, "", nullptr, nullptr));
    R.k = clCreateKernel(R.p, "add", &err);
    ASSERT_CL(err);
    std::vector<cl_int> ones(n, 1);
    R.in = clCreateBuffer(context_, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int),
                          ones.data(), &err);
    ASSERT_CL(err);
    ASSERT_CL(clSetMemObjectDestructorCallback(
        R.in, [](cl_mem, void *d) { ++*static_cast<std::atomic<int> *>(d); }, &destroyed));
    ASSERT_CL(clSetKernelArg(R.k, 0, sizeof out, &out));
    ASSERT_CL(clSetKernelArg(R.k, 1, sizeof R.in, &R.in));
    for (int t = 0; t < kThreads; ++t) {
      clRetainProgram(R.p);
      clRetainKernel(R.k);
      clRetainMemObject(R.in);
    }
    // The workers' references only, from here on.
    clReleaseMemObject(R.in);
    clReleaseKernel(R.k);
    clReleaseProgram(R.p);
  }
  auto releaseRound = [](cl_event, cl_int, void *data) {
    auto *rel = static_cast<Release *>(data);
    clReleaseMemObject(rel->round->in);
    clReleaseKernel(rel->round->k);
    clReleaseProgram(rel->round->p);
    ++*rel->released;
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRounds; ++r) {
        cl_event e = nullptr;
        cl_int err =
            clEnqueueNDRangeKernel(queues[t], rounds[r].k, 1, nullptr, &n, nullptr, 0, nullptr, &e);
        if (err == CL_SUCCESS)
          err = clSetEventCallback(e, CL_COMPLETE, releaseRound, &releases[r]);
        if (err != CL_SUCCESS)
          ++failures;
        if (e)
          clReleaseEvent(e);
        if (r % 7 == t)
          std::this_thread::sleep_for(std::chrono::microseconds(200 * t));
      }
      clFinish(queues[t]);
    });
  for (auto &th : threads)
    th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_TRUE(waitFor(released, kThreads * kRounds)) << released.load() << " callbacks ran";
  EXPECT_TRUE(waitFor(destroyed, kRounds))
      << destroyed.load() << " buffers destroyed of " << kRounds;
  EXPECT_EQ(read<cl_int>(out, n), std::vector<cl_int>(n, kThreads * kRounds));
  for (auto q : queues)
    clReleaseCommandQueue(q);
}

// A queue released while its commands are still waiting (on a user event): the
// commands still run, their events stay valid and still name the queue, and the queue
// goes only when the last of them does.
TEST_F(Lifetime, QueueReleasedWithCommandsInFlight) {
  cl_kernel k =
      kernelFrom("__kernel void inc(__global int* d) { d[get_global_id(0)] += 1; }", "inc");
  const size_t n = 128;
  cl_mem m = bufferFrom(std::vector<cl_int>(n, 0));
  setArgs(k, m);
  cl_int err = CL_SUCCESS;
  cl_command_queue q = clCreateCommandQueueWithProperties(context_, device_, nullptr, &err);
  ASSERT_CL(err);
  cl_event gate = clCreateUserEvent(context_, &err);
  ASSERT_CL(err);
  std::vector<cl_event> ran(10);
  for (size_t i = 0; i < ran.size(); ++i)
    ASSERT_CL(clEnqueueNDRangeKernel(q, k, 1, nullptr, &n, nullptr, i == 0 ? 1 : 0,
                                     i == 0 ? &gate : nullptr, &ran[i]));
  ASSERT_CL(clFlush(q));
  ASSERT_CL(clReleaseCommandQueue(q)); // the application's last reference
  std::thread setter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    clSetUserEventStatus(gate, CL_COMPLETE);
  });
  EXPECT_CL(clWaitForEvents(cl_uint(ran.size()), ran.data()));
  setter.join();
  for (cl_event e : ran) {
    cl_command_queue named = nullptr;
    EXPECT_CL(clGetEventInfo(e, CL_EVENT_COMMAND_QUEUE, sizeof named, &named, nullptr));
    EXPECT_EQ(named, q);
    clReleaseEvent(e);
  }
  clReleaseEvent(gate);
  EXPECT_EQ(read<cl_int>(m, n), std::vector<cl_int>(n, cl_int(ran.size())));
}

// A context released by the application while its buffer, program, kernel and queue
// live: they keep working, and the context's destructor callback runs only after the
// last of them is released.
TEST_F(Lifetime, ContextOutlivedByItsObjects) {
  cl_int err = CL_SUCCESS;
  cl_context ctx = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &err);
  ASSERT_CL(err);
  std::atomic<int> gone{0};
  ASSERT_CL(clSetContextDestructorCallback(
      ctx, [](cl_context, void *d) { ++*static_cast<std::atomic<int> *>(d); }, &gone));
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device_, nullptr, &err);
  ASSERT_CL(err);
  const char *src = "__kernel void twice(__global int* d) { d[get_global_id(0)] *= 2; }";
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, nullptr, &err);
  ASSERT_CL(err);
  ASSERT_CL(clBuildProgram(p, 1, &device_, "", nullptr, nullptr));
  cl_kernel k = clCreateKernel(p, "twice", &err);
  ASSERT_CL(err);
  std::vector<cl_int> v{1, 2, 3, 4};
  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                            v.size() * sizeof(cl_int), v.data(), &err);
  ASSERT_CL(err);
  ASSERT_CL(clReleaseContext(ctx));
  EXPECT_EQ(gone.load(), 0) << "context destroyed while its objects live";
  ASSERT_CL(clSetKernelArg(k, 0, sizeof m, &m));
  const size_t n = v.size();
  ASSERT_CL(clEnqueueNDRangeKernel(q, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
  std::vector<cl_int> got(n);
  ASSERT_CL(
      clEnqueueReadBuffer(q, m, CL_TRUE, 0, n * sizeof(cl_int), got.data(), 0, nullptr, nullptr));
  EXPECT_EQ(got, (std::vector<cl_int>{2, 4, 6, 8}));
  cl_context named = nullptr;
  EXPECT_CL(clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof named, &named, nullptr));
  EXPECT_EQ(named, ctx);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(p);
  EXPECT_EQ(gone.load(), 0) << "context destroyed while its queue lives";
  clReleaseCommandQueue(q);
  EXPECT_TRUE(waitFor(gone, 1)) << "context destructor callback ran " << gone.load() << " times";
}

} // namespace
} // namespace fcltest

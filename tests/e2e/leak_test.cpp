// Leaks: 10^5 cycles of creating, using and releasing the objects an application
// makes per frame or per request (buffer, kernel, user event, enqueued command with its
// event, sub-buffer, queue every 100th). Memory must come back. In a normal build the
// assertion is the process's resident size; under ASan (scripts/sanitize.sh asan) its
// leak checker, run at exit, is the assertion and the resident size is not measured
// (its quarantine keeps freed memory).
#include <chrono>
#include <fstream>
#include <iostream>
#include <vector>

#include "cl_test.hpp"

namespace fcltest {
namespace {

class Leaks : public CLTest {};

// Resident set size of this process, in bytes.
size_t residentBytes() {
  std::ifstream statm("/proc/self/statm");
  size_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * 4096;
}

TEST_F(Leaks, CreateUseReleaseCyclesGiveMemoryBack) {
  cl_program p = build(R"CLC(
    __kernel void fill(__global int* d, int v) { d[get_global_id(0)] = v; })CLC");
  const size_t n = 16;
  std::vector<cl_int> host(n, 7);
  auto cycle = [&](int i) {
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              n * sizeof(cl_int), host.data(), &err);
    check(err, "clCreateBuffer");
    cl_buffer_region half{0, n / 2 * sizeof(cl_int)};
    cl_mem sub = clCreateSubBuffer(m, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &half, &err);
    check(err, "clCreateSubBuffer");
    cl_kernel k = clCreateKernel(p, "fill", &err);
    check(err, "clCreateKernel");
    check(clSetKernelArg(k, 0, sizeof sub, &sub), "clSetKernelArg");
    check(clSetKernelArg(k, 1, sizeof i, &i), "clSetKernelArg");
    cl_event user = clCreateUserEvent(context_, &err);
    check(err, "clCreateUserEvent");
    cl_command_queue q = queue_;
    if (i % 100 == 0) {
      q = clCreateCommandQueueWithProperties(context_, device_, nullptr, &err);
      check(err, "clCreateCommandQueueWithProperties");
    }
    const size_t items = n / 2;
    cl_event ran = nullptr;
    check(clEnqueueNDRangeKernel(q, k, 1, nullptr, &items, nullptr, 1, &user, &ran),
          "clEnqueueNDRangeKernel");
    check(clSetUserEventStatus(user, CL_COMPLETE), "clSetUserEventStatus");
    check(clReleaseEvent(user), "clReleaseEvent");
    clReleaseKernel(k);
    clReleaseMemObject(sub);
    clReleaseMemObject(m); // still used by the command: freed when it is done
    if (i % 50 == 0 || q != queue_)
      check(clWaitForEvents(1, &ran), "clWaitForEvents");
    clReleaseEvent(ran);
    if (q != queue_)
      clReleaseCommandQueue(q);
  };
  constexpr int kWarmUp = 10000, kCycles = 100000;
  for (int i = 0; i < kWarmUp; ++i)
    cycle(i);
  ASSERT_CL(clFinish(queue_));
  const size_t before = residentBytes();
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kCycles; ++i)
    cycle(i);
  ASSERT_CL(clFinish(queue_));
  const size_t after = residentBytes();
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "[ INFO     ] " << kCycles << " cycles in " << s << " s; resident " << before / 1024
            << " KiB -> " << after / 1024 << " KiB\n";
  // 8 MiB over 10^5 cycles: a leak of 84 bytes or more per cycle fails.
  if (!kSanitizedBuild)
    EXPECT_LT(after, before + (8u << 20)) << "resident size grew by " << (after - before) / 1024
                                          << " KiB over " << kCycles << " cycles";
}

} // namespace
} // namespace fcltest

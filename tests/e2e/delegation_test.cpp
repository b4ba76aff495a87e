// Delegation (issue 11): PoCL's device through FiberCL's forwarding platform
// "FiberCL -> Portable Computing Language". CTest runs these with FIBERCL_DELEGATE=pocl,
// OCL_ICD_VENDORS naming FiberCL and PoCL and FIBERCL_TEST_PLATFORM naming the
// delegated platform (tests/CMakeLists.txt, delegation.*); skipped, saying so, otherwise.
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <CL/cl_fibercl.h>

#include "cl_test.hpp"

namespace fcltest {
namespace {

const char *const kDelegated = "FiberCL -> Portable Computing Language";
const char *const kPocl = "Portable Computing Language";

class Delegation : public CLTest {
protected:
  void SetUp() override {
    CLTest::SetUp();
    if (platform_name_ != kDelegated)
      GTEST_SKIP() << "runs on \"" << kDelegated << "\" (CTest delegation.* sets it up)";
  }
  cl_device_id firstDevice(cl_platform_id p) {
    cl_device_id d = nullptr;
    check(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, nullptr), "clGetDeviceIDs");
    return d;
  }
  template <class T, class F, class H, class P> T infoOf(F f, H h, P param) {
    T v{};
    check(f(h, param, sizeof v, &v, nullptr), "clGet*Info");
    return v;
  }
};

TEST_F(Delegation, PlatformsAreSeparateAndHandlesAreFiberCLs) {
  cl_platform_id pocl = findPlatform(kPocl), cpu = findPlatform("FiberCL");
  ASSERT_NE(pocl, nullptr);
  ASSERT_NE(cpu, nullptr);
  cl_device_id own = firstDevice(pocl);
  EXPECT_NE(device_, own) << "the application sees FiberCL's handle, not PoCL's";
  EXPECT_EQ(deviceInfoString(device_, CL_DEVICE_NAME), deviceInfoString(own, CL_DEVICE_NAME));
  EXPECT_EQ(deviceInfo<cl_platform_id>(device_, CL_DEVICE_PLATFORM), platform_);
  EXPECT_EQ(deviceInfo<cl_uint>(device_, CL_DEVICE_MAX_COMPUTE_UNITS),
            deviceInfo<cl_uint>(own, CL_DEVICE_MAX_COMPUTE_UNITS));
  EXPECT_EQ(deviceInfo<cl_bool>(device_, CL_DEVICE_AVAILABLE), CL_TRUE);
  cl_uint n = 0;
  ASSERT_CL(clGetDeviceIDs(cpu, CL_DEVICE_TYPE_ALL, 0, nullptr, &n));
  EXPECT_EQ(n, 1u) << "FiberCL's own platform keeps only its CPU device";
  EXPECT_NE(platformInfo(platform_, CL_PLATFORM_VENDOR).find("FiberCL"), std::string::npos);
}

TEST_F(Delegation, ExtensionsWithUnwrappedFunctionsAreHidden) {
  cl_device_id own = firstDevice(findPlatform(kPocl));
  std::string theirs = deviceInfoString(own, CL_DEVICE_EXTENSIONS);
  std::string ours = deviceInfoString(device_, CL_DEVICE_EXTENSIONS);
  EXPECT_NE(ours.find("cl_khr_fp64"), std::string::npos) << "function-free ones stay: " << ours;
  if (theirs.find("cl_khr_command_buffer") == std::string::npos)
    GTEST_SKIP() << "this PoCL has no cl_khr_command_buffer to hide";
  EXPECT_EQ(ours.find("cl_khr_command_buffer"), std::string::npos) << ours;
  EXPECT_EQ(clGetExtensionFunctionAddressForPlatform(platform_, "clCreateCommandBufferKHR"),
            nullptr);
}

TEST_F(Delegation, InfoAnswersNameFiberCLsHandles) {
  cl_int err = CL_SUCCESS;
  cl_mem buf = bufferFrom(std::vector<int>(256, 0));
  cl_buffer_region region{256, 256};
  cl_mem sub =
      clCreateSubBuffer(buf, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  ASSERT_CL(err);
  atTearDown([=] { clReleaseMemObject(sub); });
  cl_kernel k = kernelFrom("kernel void k(global int *p) { p[get_global_id(0)] = 1; }", "k");
  cl_program prog = infoOf<cl_program>(clGetKernelInfo, k, CL_KERNEL_PROGRAM);
  EXPECT_EQ(infoOf<cl_context>(clGetKernelInfo, k, CL_KERNEL_CONTEXT), context_);
  EXPECT_EQ(infoOf<cl_context>(clGetProgramInfo, prog, CL_PROGRAM_CONTEXT), context_);
  cl_device_id pdev = nullptr;
  ASSERT_CL(clGetProgramInfo(prog, CL_PROGRAM_DEVICES, sizeof pdev, &pdev, nullptr));
  EXPECT_EQ(pdev, device_);
  EXPECT_EQ(infoOf<cl_context>(clGetMemObjectInfo, sub, CL_MEM_CONTEXT), context_);
  EXPECT_EQ(infoOf<cl_mem>(clGetMemObjectInfo, sub, CL_MEM_ASSOCIATED_MEMOBJECT), buf);
  EXPECT_EQ(infoOf<cl_context>(clGetCommandQueueInfo, queue_, CL_QUEUE_CONTEXT), context_);
  EXPECT_EQ(infoOf<cl_device_id>(clGetCommandQueueInfo, queue_, CL_QUEUE_DEVICE), device_);
  cl_device_id cdev = nullptr;
  ASSERT_CL(clGetContextInfo(context_, CL_CONTEXT_DEVICES, sizeof cdev, &cdev, nullptr));
  EXPECT_EQ(cdev, device_);
  setArgs(k, sub);
  cl_event e = nullptr;
  size_t global = 64;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, &e));
  keep(e);
  EXPECT_EQ(infoOf<cl_command_queue>(clGetEventInfo, e, CL_EVENT_COMMAND_QUEUE), queue_);
  EXPECT_EQ(infoOf<cl_context>(clGetEventInfo, e, CL_EVENT_CONTEXT), context_);
  ASSERT_CL(clWaitForEvents(1, &e));
  std::vector<int> all = read<int>(buf, 256);
  for (int i = 0; i < 256; ++i)
    ASSERT_EQ(all[i], i >= 64 && i < 128 ? 1 : 0)
        << "the kernel wrote through the sub-buffer, at " << i;
  cl_sampler s = clCreateSampler(context_, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
  ASSERT_CL(err);
  EXPECT_EQ(infoOf<cl_context>(clGetSamplerInfo, s, CL_SAMPLER_CONTEXT), context_);
  clReleaseSampler(s);
}

TEST_F(Delegation, HandlesOfOtherPlatformsAreRejected) {
  // A FiberCL CPU buffer is not a delegated one, and a delegated one is not FiberCL's
  // CPU device's: each side gives the specification's error instead of crashing.
  cl_platform_id cpu = findPlatform("FiberCL");
  cl_device_id cpuDev = firstDevice(cpu);
  cl_int err = CL_SUCCESS;
  cl_context cpuCtx = clCreateContext(nullptr, 1, &cpuDev, nullptr, nullptr, &err);
  ASSERT_CL(err);
  cl_mem cpuBuf = clCreateBuffer(cpuCtx, CL_MEM_READ_WRITE, 64, nullptr, &err);
  ASSERT_CL(err);
  cl_mem ours = buffer(64);
  int host[16] = {};
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT,
                clEnqueueReadBuffer(queue_, cpuBuf, CL_TRUE, 0, 64, host, 0, nullptr, nullptr));
  cl_command_queue cpuQueue = clCreateCommandQueueWithProperties(cpuCtx, cpuDev, nullptr, &err);
  ASSERT_CL(err);
  EXPECT_NE(CL_SUCCESS,
            clEnqueueReadBuffer(cpuQueue, ours, CL_TRUE, 0, 64, host, 0, nullptr, nullptr));
  cl_device_id both[2] = {device_, cpuDev};
  EXPECT_EQ(clCreateContext(nullptr, 2, both, nullptr, nullptr, &err), nullptr);
  EXPECT_CL_ERR(CL_INVALID_DEVICE, err) << "a context cannot mix two implementations' devices";
  clReleaseCommandQueue(cpuQueue);
  clReleaseMemObject(cpuBuf);
  clReleaseContext(cpuCtx);
}

TEST_F(Delegation, ReferenceCountsAreTheApplications) {
  cl_int err = CL_SUCCESS;
  cl_context c = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &err);
  ASSERT_CL(err);
  cl_mem b = clCreateBuffer(c, CL_MEM_READ_WRITE, 64, nullptr, &err);
  ASSERT_CL(err);
  cl_command_queue q = clCreateCommandQueueWithProperties(c, device_, nullptr, &err);
  ASSERT_CL(err);
  // PoCL counts its own internal references too; FiberCL reports what the
  // application did.
  EXPECT_EQ(infoOf<cl_uint>(clGetContextInfo, c, CL_CONTEXT_REFERENCE_COUNT), 1u);
  ASSERT_CL(clRetainContext(c));
  EXPECT_EQ(infoOf<cl_uint>(clGetContextInfo, c, CL_CONTEXT_REFERENCE_COUNT), 2u);
  ASSERT_CL(clReleaseContext(c));
  ASSERT_CL(clRetainMemObject(b));
  ASSERT_CL(clRetainMemObject(b));
  EXPECT_EQ(infoOf<cl_uint>(clGetMemObjectInfo, b, CL_MEM_REFERENCE_COUNT), 3u);
  ASSERT_CL(clReleaseMemObject(b));
  ASSERT_CL(clReleaseMemObject(b));
  // The context released while its buffer lives: the buffer still works and still
  // names its context.
  std::atomic<int> destroyed{0};
  ASSERT_CL(clSetMemObjectDestructorCallback(
      b, [](cl_mem, void *d) { static_cast<std::atomic<int> *>(d)->fetch_add(1); }, &destroyed));
  ASSERT_CL(clReleaseContext(c));
  EXPECT_EQ(infoOf<cl_context>(clGetMemObjectInfo, b, CL_MEM_CONTEXT), c);
  int v[16] = {7};
  ASSERT_CL(clEnqueueWriteBuffer(q, b, CL_TRUE, 0, 64, v, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(q));
  EXPECT_EQ(destroyed.load(), 0);
  ASSERT_CL(clReleaseMemObject(b));
  EXPECT_EQ(destroyed.load(), 1) << "the destructor callback ran at the last release";
  ASSERT_CL(clReleaseCommandQueue(q));
}

struct Seen {
  std::atomic<void *> handle{nullptr};
  std::atomic<int> calls{0};
  std::atomic<cl_int> status{1};
};

TEST_F(Delegation, CallbacksReceiveFiberCLsHandles) {
  cl_int err = CL_SUCCESS;
  cl_event user = clCreateUserEvent(context_, &err);
  ASSERT_CL(err);
  Seen onEvent;
  ASSERT_CL(clSetEventCallback(
      user, CL_COMPLETE,
      [](cl_event e, cl_int status, void *s) {
        static_cast<Seen *>(s)->handle = e;
        static_cast<Seen *>(s)->status = status;
        static_cast<Seen *>(s)->calls++;
      },
      &onEvent));
  ASSERT_CL(clSetUserEventStatus(user, CL_COMPLETE));
  for (int i = 0; i < 1000 && onEvent.calls.load() == 0; ++i)
    usleep(1000);
  EXPECT_EQ(onEvent.calls.load(), 1);
  EXPECT_EQ(onEvent.handle.load(), static_cast<void *>(user));
  EXPECT_EQ(onEvent.status.load(), CL_COMPLETE);
  clReleaseEvent(user);

  Seen onBuild;
  cl_program p = createProgram("kernel void k(global int *p) { p[0] = 3; }");
  ASSERT_CL(clBuildProgram(
      p, 1, &device_, "",
      [](cl_program prog, void *s) {
        static_cast<Seen *>(s)->handle = prog;
        static_cast<Seen *>(s)->calls++;
      },
      &onBuild));
  for (int i = 0; i < 10000 && onBuild.calls.load() == 0; ++i)
    usleep(1000);
  EXPECT_EQ(onBuild.handle.load(), static_cast<void *>(p));

  // A native kernel reads a buffer through the pointer the implementation put where
  // the application's handle was.
  cl_uint caps = deviceInfo<cl_device_exec_capabilities>(device_, CL_DEVICE_EXECUTION_CAPABILITIES);
  if (caps & CL_EXEC_NATIVE_KERNEL) {
    std::vector<int> data{41, 1};
    cl_mem b = bufferFrom(data);
    struct Args {
      void *mem;
      int add;
    } args{b, 1};
    const void *loc = &args.mem;
    ASSERT_CL(clEnqueueNativeKernel(
        queue_,
        [](void *a) {
          static_cast<int *>(static_cast<Args *>(a)->mem)[0] += static_cast<Args *>(a)->add;
        },
        &args, sizeof args, 1, &b, &loc, 0, nullptr, nullptr));
    EXPECT_EQ(read<int>(b, 1)[0], 42);
  }
}

TEST_F(Delegation, PrimitivesHeaderIsInjectedWithLineNumbersKept) {
  if (!supportsCVersion(3, 0) && !supportsCVersion(2, 0))
    GTEST_SKIP() << "the device has no OpenCL C 2.0/3.0";
  const char *opt = supportsCVersion(2, 0) ? "-cl-std=CL2.0" : "-cl-std=CL3.0";
  const std::string good = "#include <fibercl/primitives.h>\n"
                           "kernel void k(global fibercl_ticket_mutex *m, global int *n) {\n"
                           "  fibercl_ticket_lock(m); *n += 1; fibercl_ticket_unlock(m);\n"
                           "}\n";
  BuildResult ok = tryBuild(good, opt);
  ASSERT_CL(ok.err) << ok.log;
  // An error on line 4 of the application's source is reported on line 4.
  BuildResult bad = tryBuild("#include <fibercl/primitives.h>\n"
                             "\n"
                             "kernel void k(global int *n) {\n"
                             "  *n = undeclared_name;\n"
                             "}\n",
                             opt);
  EXPECT_NE(bad.err, CL_SUCCESS);
  EXPECT_NE(bad.log.find(":4:"), std::string::npos) << bad.log;
  // CL_PROGRAM_SOURCE is what the application gave.
  size_t n = 0;
  ASSERT_CL(clGetProgramInfo(ok.program, CL_PROGRAM_SOURCE, 0, nullptr, &n));
  std::string src(n, '\0');
  ASSERT_CL(clGetProgramInfo(ok.program, CL_PROGRAM_SOURCE, n, &src[0], nullptr));
  EXPECT_EQ(src.c_str(), good);
  BuildResult coop = tryBuild("#include <fibercl/cooperative.h>\nkernel void k() {}\n", opt);
  EXPECT_NE(coop.err, CL_SUCCESS);
  EXPECT_NE(coop.log.find("only on FiberCL's CPU device"), std::string::npos) << coop.log;
}

// The discovery protocol on PoCL's pthread device: its occupancy bound is its worker
// thread count (CL_DEVICE_MAX_COMPUTE_UNITS follows POCL_MAX_PTHREAD_COUNT), each
// group running to completion on one thread.
const char *kDiscoverySource = R"(
#include <fibercl/primitives.h>
kernel void discover(global void *ctx, global uint *found, global uint *rounds_ok, uint rounds) {
  local uint scratch[FIBERCL_DISCOVER_SCRATCH];
  fibercl_participant p = fibercl_discover_local(ctx, scratch);
  if (!p_participates(p))
    return;
  if (get_local_id(0) == 0 && p_get_group_id(p) == 0)
    *found = p_get_num_groups(p);
  global atomic_uint *counter = (global atomic_uint *)(found + 1);
  for (uint r = 1; r <= rounds; ++r) {
    if (get_local_id(0) == 0)
      atomic_fetch_add_explicit(counter, 1u, memory_order_relaxed, memory_scope_device);
    fibercl_xf_barrier(ctx, &p);
    /* After round r's barrier every participant has counted r times. */
    if (get_local_id(0) == 0 &&
        atomic_load_explicit(counter, memory_order_relaxed, memory_scope_device) >= r * p_get_num_groups(p))
      atomic_fetch_add_explicit((global atomic_uint *)rounds_ok, 1u, memory_order_relaxed, memory_scope_device);
    fibercl_xf_barrier(ctx, &p);
  }
}
)";

TEST_F(Delegation, DiscoveryFindsPoclsBoundAndTheXfBarrierCompletes) {
  if (!supportsCVersion(3, 0) && !supportsCVersion(2, 0))
    GTEST_SKIP() << "the device has no OpenCL C 2.0/3.0";
  // PoCL's worker threads start their groups with skew: the poll stays open until
  // 30M polls see no new arrival (FIBERCL_DISCOVERY_SETTLE; about 0.1 s here).
  cl_kernel k = kernelFrom(kDiscoverySource, "discover",
                           std::string(supportsCVersion(2, 0) ? "-cl-std=CL2.0" : "-cl-std=CL3.0") +
                               " -DFIBERCL_DISCOVERY_SETTLE=30000000");
  const cl_uint units = deviceInfo<cl_uint>(device_, CL_DEVICE_MAX_COMPUTE_UNITS);
  const cl_uint rounds = 8, groups = 64;
  cl_mem ctx = buffer(FIBERCL_PRIMITIVES_CTX_BYTES);
  cl_mem found = buffer(2 * sizeof(cl_uint));
  cl_mem roundsOk = buffer(sizeof(cl_uint));
  cl_uint best = 0;
  for (int attempt = 0; attempt < 10 && best < units; ++attempt) {
    const cl_uint zero = 0;
    ASSERT_CL(clEnqueueFillBuffer(queue_, ctx, &zero, 4, 0, FIBERCL_PRIMITIVES_CTX_BYTES, 0,
                                  nullptr, nullptr));
    ASSERT_CL(clEnqueueFillBuffer(queue_, found, &zero, 4, 0, 8, 0, nullptr, nullptr));
    ASSERT_CL(clEnqueueFillBuffer(queue_, roundsOk, &zero, 4, 0, 4, 0, nullptr, nullptr));
    setArgs(k, ctx, found, roundsOk, rounds);
    run(k, {groups * 16}, {16});
    cl_uint n = read<cl_uint>(found, 1)[0];
    ASSERT_GE(n, 1u);
    ASSERT_LE(n, units) << "more groups found than PoCL runs at once: the XF barrier among "
                           "them would have deadlocked";
    EXPECT_EQ(read<cl_uint>(roundsOk, 1)[0], n * rounds) << "the XF barrier completed every round";
    best = std::max(best, n);
  }
  EXPECT_EQ(best, units) << "discovery found PoCL's bound (" << units << " worker threads)";
}

// A kernel whose groups wait for a group that never gets a thread: FiberCL's timed
// wait reports it (with the kernel and launch size) and clFinish returns an error.
// Then the test releases the waiting groups through host memory the buffer uses
// (PoCL runs on the host), and the queue completes: the process goes on. Run with
// FIBERCL_DEADLOCK_TIMEOUT=1 (CTest delegation.deadlock_reported).
TEST_F(Delegation, CommandThatNeverCompletesIsReported) {
  const char *timeout = std::getenv("FIBERCL_DEADLOCK_TIMEOUT");
  if (!timeout || std::string(timeout) != "1")
    GTEST_SKIP() << "needs FIBERCL_DEADLOCK_TIMEOUT=1 (CTest delegation.deadlock_reported)";
  cl_kernel k = kernelFrom(R"(
    kernel void stuck(global volatile int *flag) {
      if (get_group_id(0) == get_num_groups(0) - 1) { atomic_xchg(flag, 1); return; }
      for (long i = 0; i < 50000000L; ++i) /* bounded, should the host not get through */
        if (atomic_add(flag, 0)) return;
    })",
                           "stuck");
  alignas(64) static volatile int hostFlag[16];
  hostFlag[0] = 0;
  cl_mem flag =
      buffer(sizeof hostFlag, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, const_cast<int *>(hostFlag));
  setArgs(k, flag);
  size_t global = 64, local = 1;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
  testing::internal::CaptureStderr();
  cl_int err = clFinish(queue_);
  std::string report = testing::internal::GetCapturedStderr();
  EXPECT_CL_ERR(CL_OUT_OF_RESOURCES, err);
  EXPECT_NE(report.find("kernel 'stuck', global 64, local 1"), std::string::npos) << report;
  EXPECT_NE(report.find("FIBERCL_DEADLOCK_TIMEOUT"), std::string::npos) << report;
  hostFlag[0] = 1; // what group 63 would have done
  cl_int again = CL_OUT_OF_RESOURCES;
  for (int i = 0; i < 30 && again == CL_OUT_OF_RESOURCES; ++i)
    again = clFinish(queue_);
  EXPECT_CL(again) << "the queue completes once the groups are released";
}

} // namespace
} // namespace fcltest

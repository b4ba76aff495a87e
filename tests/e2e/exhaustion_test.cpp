// Resource exhaustion and faults (issue 14), met through the OpenCL API as an
// application meets them: allocations that fail, hundreds of objects created and
// released, a work-item that overflows its stack, accesses far outside a buffer, a
// kernel that never ends. Each gets an error status (and a report on stderr), the
// process and the context go on, and nothing accumulates. (Integer division by zero:
// robustness_test.cpp.)
#include <sys/mman.h>
#include <sys/resource.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "cl_test.hpp"

namespace fcltest {
namespace {

// What /proc/self/status and /proc/self/maps say about this process.
struct ProcessUse {
  long rssKiB = 0;
  long vmKiB = 0;
  long mappings = 0;
  static ProcessUse now() {
    ProcessUse u;
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);) {
      std::istringstream in(line);
      std::string key;
      in >> key;
      if (key == "VmRSS:")
        in >> u.rssKiB;
      if (key == "VmSize:")
        in >> u.vmKiB;
    }
    std::ifstream maps("/proc/self/maps");
    for (std::string line; std::getline(maps, line);)
      ++u.mappings;
    return u;
  }
};

// Resident growth from `from` to `to` below `limitKiB`, in a normal build; in a
// sanitized one not measured (kSanitizedBuild), and said so.
void expectResidentGrowthBelow(const ProcessUse &from, const ProcessUse &to, long limitKiB);

std::ostream &operator<<(std::ostream &os, const ProcessUse &u) {
  return os << "RSS " << u.rssKiB << " KiB, " << u.mappings << " mappings, VM " << u.vmKiB
            << " KiB";
}

void expectResidentGrowthBelow(const ProcessUse &from, const ProcessUse &to, long limitKiB) {
  if (kSanitizedBuild) {
    std::cout << "[ NOT RUN  ] resident-size bound: sanitized build (its leak checker is the "
                 "assertion there)\n";
    return;
  }
  EXPECT_LT(to.rssKiB - from.rssKiB, limitKiB) << from << " -> " << to;
}

// Limits the process's address space (RLIMIT_AS) for one scope.
class AddressSpaceLimit {
public:
  explicit AddressSpaceLimit(rlim_t bytes) {
    getrlimit(RLIMIT_AS, &old_);
    rlimit lim = old_;
    lim.rlim_cur = bytes;
    ok_ = setrlimit(RLIMIT_AS, &lim) == 0;
  }
  ~AddressSpaceLimit() { setrlimit(RLIMIT_AS, &old_); }
  bool ok() const { return ok_; }

private:
  rlimit old_{};
  bool ok_ = false;
};

double secondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

class Exhaustion : public CLTest {
protected:
  // Runs `k` on `global` work-items and expects the command to fail with a report on
  // stderr containing `said`: the event's status is an error, clFinish returns, and a
  // wait on the event reports the failure. Returns what was printed.
  std::string expectFailedCommand(cl_kernel k, size_t global, size_t local, const char *said) {
    auto t0 = std::chrono::steady_clock::now();
    Completion c = runReporting(k, {global}, {local});
    std::cout << "[ INFO     ] command status " << c.status << " after " << secondsSince(t0)
              << " s\n";
    EXPECT_LT(c.status, 0) << "the command must fail\n" << c.stderrText;
    EXPECT_NE(c.stderrText.find(said), std::string::npos)
        << "expected a report with \"" << said << "\"; stderr:\n"
        << c.stderrText;
    return c.stderrText;
  }
};

// --- Allocations -----------------------------------------------------------------

TEST_F(Exhaustion, BufferBeyondMaxAllocSizeIsInvalid) {
  const cl_ulong maxAlloc = deviceInfo<cl_ulong>(device_, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  for (size_t size : {size_t(maxAlloc) + 1, size_t(maxAlloc) * 2, SIZE_MAX}) {
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(context_, CL_MEM_READ_WRITE, size, nullptr, &err);
    EXPECT_CL_ERR(CL_INVALID_BUFFER_SIZE, err) << size << " bytes";
    EXPECT_EQ(m, nullptr);
    if (m)
      clReleaseMemObject(m);
  }
  expectVecAddStillWorks();
}

// An allocation within CL_DEVICE_MAX_MEM_ALLOC_SIZE that the host cannot provide (here
// because the address space is limited) fails with an error code, not a crash; the
// context keeps working once memory is back.
TEST_F(Exhaustion, AllocationTheHostCannotProvideFails) {
  const cl_ulong maxAlloc = deviceInfo<cl_ulong>(device_, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  const size_t big = size_t(1) << 30;
  if (maxAlloc < big)
    GTEST_SKIP() << "CL_DEVICE_MAX_MEM_ALLOC_SIZE is below 1 GiB";
  expectVecAddStillWorks(); // everything the context needs is in place before the limit
  cl_int err = CL_SUCCESS;
  cl_mem m = nullptr;
  void *svm = nullptr;
  {
    AddressSpaceLimit limit(rlim_t(ProcessUse::now().vmKiB) * 1024 + (big / 4));
    ASSERT_TRUE(limit.ok());
    m = clCreateBuffer(context_, CL_MEM_READ_WRITE, big, nullptr, &err);
    cl_device_svm_capabilities svmCaps = 0;
    clGetDeviceInfo(device_, CL_DEVICE_SVM_CAPABILITIES, sizeof svmCaps, &svmCaps, nullptr);
    if (svmCaps)
      svm = clSVMAlloc(context_, CL_MEM_READ_WRITE, big, 0);
  }
  std::cout << "[ INFO     ] clCreateBuffer(1 GiB) under a 256 MiB margin: " << errName(err)
            << "\n";
  if (isFiberCL()) {
    // FiberCL allocates at creation; an implementation that defers allocation to first
    // use may succeed here (and fail the first command using the buffer).
    EXPECT_TRUE(err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_HOST_MEMORY)
        << errName(err);
    EXPECT_EQ(m, nullptr);
    EXPECT_EQ(svm, nullptr);
  }
  if (m)
    clReleaseMemObject(m);
  if (svm)
    clSVMFree(context_, svm);
  expectVecAddStillWorks();
}

// The reported maximum itself: a buffer of CL_DEVICE_MAX_MEM_ALLOC_SIZE is created
// (FiberCL reports a quarter of the physical memory and commits pages lazily, so the
// creation costs no resident memory) or refused with an error code, never a crash.
TEST_F(Exhaustion, BufferOfTheMaxAllocSizeIsCreatedOrRefused) {
  const cl_ulong maxAlloc = deviceInfo<cl_ulong>(device_, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  ProcessUse before = ProcessUse::now();
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(context_, CL_MEM_READ_WRITE, size_t(maxAlloc), nullptr, &err);
  ProcessUse after = ProcessUse::now();
  std::cout << "[ INFO     ] clCreateBuffer(" << maxAlloc << ") -> " << errName(err) << "; "
            << before << " -> " << after << "\n";
  EXPECT_TRUE(err == CL_SUCCESS || err == CL_MEM_OBJECT_ALLOCATION_FAILURE ||
              err == CL_OUT_OF_HOST_MEMORY)
      << errName(err);
  EXPECT_EQ(err == CL_SUCCESS, m != nullptr);
  if (m) {
    // Its last bytes are usable.
    const cl_uint v = 0x5eed;
    ASSERT_CL(clEnqueueWriteBuffer(queue_, m, CL_TRUE, size_t(maxAlloc) - sizeof v, sizeof v, &v, 0,
                                   nullptr, nullptr));
    cl_uint back = 0;
    ASSERT_CL(clEnqueueReadBuffer(queue_, m, CL_TRUE, size_t(maxAlloc) - sizeof v, sizeof v, &back,
                                  0, nullptr, nullptr));
    EXPECT_EQ(back, v);
    if (isFiberCL()) {
      EXPECT_LT(after.rssKiB - before.rssKiB, 64 * 1024) << "the buffer is committed lazily";
    }
    clReleaseMemObject(m);
  }
  expectVecAddStillWorks();
}

// --- Objects created and released by the hundred ----------------------------------

// One round: a program built from `src`, its kernel "fill", a 256 KiB buffer the kernel
// writes, the event of the launch; checked, then all released.
void createUseAndRelease(cl_context context, cl_device_id device, cl_command_queue queue,
                         const std::string &src, cl_int v) {
  const size_t n = 64 * 1024;
  const char *text = src.c_str();
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(context, 1, &text, nullptr, &err);
  ASSERT_CL(err);
  ASSERT_CL(clBuildProgram(p, 1, &device, "", nullptr, nullptr));
  cl_kernel k = clCreateKernel(p, "fill", &err);
  ASSERT_CL(err);
  cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE, n * sizeof(cl_int), nullptr, &err);
  ASSERT_CL(err);
  ASSERT_CL(clSetKernelArg(k, 0, sizeof m, &m));
  ASSERT_CL(clSetKernelArg(k, 1, sizeof v, &v));
  cl_event e = nullptr;
  ASSERT_CL(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &n, nullptr, 0, nullptr, &e));
  cl_int last = 0;
  ASSERT_CL(clEnqueueReadBuffer(queue, m, CL_TRUE, (n - 1) * sizeof last, sizeof last, &last, 0,
                                nullptr, nullptr));
  ASSERT_EQ(last, v + int(n) - 1);
  ASSERT_CL(clReleaseEvent(e));
  ASSERT_CL(clReleaseMemObject(m));
  ASSERT_CL(clReleaseKernel(k));
  ASSERT_CL(clReleaseProgram(p));
}

const char *kFillSource = R"CLC(
  __kernel void fill(__global int* out, int v) { out[get_global_id(0)] = v + (int)get_global_id(0); }
)CLC";

// The same program five hundred times (FiberCL compiles it once, and loads its machine
// code into a JIT of its own for every program object).
TEST_F(Exhaustion, HundredsOfProgramsKernelsAndBuffersDoNotAccumulate) {
  SKIP_UNLESS_FIBERCL("FiberCL's resource use; PoCL takes about a second per build");
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 50; ++i) // caches and pools fill
    ASSERT_NO_FATAL_FAILURE(createUseAndRelease(context_, device_, queue_, kFillSource, i));
  ProcessUse warm = ProcessUse::now();
  const int rounds = 500;
  for (int i = 0; i < rounds; ++i)
    ASSERT_NO_FATAL_FAILURE(createUseAndRelease(context_, device_, queue_, kFillSource, i));
  ProcessUse end = ProcessUse::now();
  std::cout << "[ INFO     ] " << rounds << " programs, kernels, buffers and events in "
            << secondsSince(t0) << " s; " << warm << " -> " << end << "\n";
  // A program's machine code takes at least a page and a mapping, a buffer 256 KiB:
  // either kept per round would be 500 mappings, or 2 MiB / 125 MiB.
  EXPECT_LT(end.mappings - warm.mappings, 100) << warm << " -> " << end;
  expectResidentGrowthBelow(warm, end, 16 * 1024);
  expectVecAddStillWorks();
}

// Programs that differ, each compiled from source (no build cache): what Clang and LLVM
// allocate per build is given back.
TEST_F(Exhaustion, FreshlyCompiledProgramsDoNotAccumulate) {
  SKIP_UNLESS_FIBERCL("FiberCL's resource use; PoCL keeps a mapping per build");
  ScopedEnv noCache{{"FIBERCL_CACHE", "0"}};
  auto source = [](int i) {
    return std::string(kFillSource) + "__kernel void other" + std::to_string(i) +
           "(__global int* p) { p[0] = " + std::to_string(i) + "; }\n";
  };
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 5; ++i)
    ASSERT_NO_FATAL_FAILURE(createUseAndRelease(context_, device_, queue_, source(i), i));
  ProcessUse warm = ProcessUse::now();
  const int rounds = 20;
  for (int i = 5; i < 5 + rounds; ++i)
    ASSERT_NO_FATAL_FAILURE(createUseAndRelease(context_, device_, queue_, source(i), i));
  ProcessUse end = ProcessUse::now();
  std::cout << "[ INFO     ] " << rounds << " programs compiled in " << secondsSince(t0) << " s; "
            << warm << " -> " << end << "\n";
  // What a build allocates (Clang's compiler instance, LLVM modules), if any of it were
  // kept, would add up over twenty builds.
  // TSan maps metadata of its own for what each build allocates (27 over 20 builds).
  if (!kThreadSanitizerBuild)
    EXPECT_LT(end.mappings - warm.mappings, 20) << warm << " -> " << end;
  expectResidentGrowthBelow(warm, end, 16 * 1024);
}

// --- Work-item stack overflow ----------------------------------------------------

// 16 MiB of private memory: more than any host thread's stack (8 MiB by default), so
// whichever thread runs the group overflows. The indices come from memory: the array
// cannot be taken apart, every access is a real store or load.
const char *kDeepSource = R"CLC(
  __kernel void deep(__global const int* idx, __global int* out) {
    int a[1 << 22];
    size_t i = get_global_id(0);
    for (int k = 0; k < 4; ++k) a[idx[k]] = (int)i + k;
    out[i] = a[idx[4]] + a[idx[5]];
  })CLC";

// 4 MiB with a barrier: on fibers (FIBERCL_BARRIERS=fibers), every work-item but the
// first runs on a fiber stack of FIBERCL_STACK_SIZE (256 KiB by default).
const char *kDeepBarrierSource = R"CLC(
  __kernel void deepbar(__global const int* idx, __global int* out) {
    int a[1 << 20];
    size_t i = get_global_id(0);
    a[idx[0]] = (int)i;
    a[idx[1]] = 1;
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[i] = a[idx[2]] + a[idx[3]];
  })CLC";

TEST_F(Exhaustion, WorkItemStackOverflowFailsTheCommand) {
  SKIP_UNLESS_FIBERCL("fault isolation; other CPU implementations crash the process");
  cl_kernel k = kernelFrom(kDeepSource, "deep");
  // The middle first: 8 MiB below the frame's top, where another mapping may lie.
  cl_mem idx = bufferFrom(std::vector<cl_int>{1 << 21, (1 << 22) - 1, 0, 12345, 0, 12345});
  cl_mem out = buffer(64 * sizeof(cl_int));
  setArgs(k, idx, out);
  for (int attempt = 0; attempt < 3; ++attempt) // on the pool's threads and on this one
    expectFailedCommand(k, 64, 4, "stack overflow");
  expectVecAddStillWorks();
}

TEST_F(Exhaustion, FiberStackOverflowFailsTheCommand) {
  SKIP_UNLESS_FIBERCL("fault isolation; other CPU implementations crash the process");
  cl_kernel k;
  {
    ScopedEnv fibers{{"FIBERCL_BARRIERS", "fibers"}}; // read when the program is built
    k = kernelFrom(kDeepBarrierSource, "deepbar");
  }
  // 512 KiB below the frame's top first: another work-item's stack, without probes.
  cl_mem idx = bufferFrom(std::vector<cl_int>{(1 << 20) - (1 << 17), 0, 0, (1 << 20) - 1});
  cl_mem out = buffer(64 * sizeof(cl_int));
  setArgs(k, idx, out);
  for (int attempt = 0; attempt < 3; ++attempt)
    expectFailedCommand(k, 64, 8, "stack overflow");
  expectVecAddStillWorks();
}

// --- Accesses far outside a buffer ------------------------------------------------

TEST_F(Exhaustion, AccessFarOutsideABufferFailsTheCommand) {
  SKIP_UNLESS_FIBERCL("fault isolation; other CPU implementations crash the process");
  cl_kernel k = kernelFrom(R"CLC(
    __kernel void far(__global int* out, long offset, int load) {
      size_t i = get_global_id(0);
      if (i == 37) {
        if (load) out[i] = ((__global volatile int*)out)[offset];
        else ((__global volatile int*)out)[offset] = 2;
      } else {
        out[i] = 1;
      }
    })CLC",
                           "far");
  cl_mem out = buffer(256 * sizeof(cl_int));
  // Where the buffer is (FiberCL's kernels see host addresses).
  cl_kernel where =
      kernelFrom("__kernel void where(__global ulong* out) { out[0] = (ulong)out; }", "where");
  setArgs(where, out);
  run(where, {1}, {1});
  const uintptr_t base = uintptr_t(read<cl_ulong>(out, 1)[0]);
  // A tebibyte below the buffer (and above it): nothing is mapped there -- unless a
  // sanitizer put its own memory there (ASan's and TSan's shadow and heap regions).
  for (cl_long offset : {-(cl_long(1) << 38), cl_long(1) << 38})
    for (cl_int load : {0, 1}) {
      const uintptr_t page = (base + uintptr_t(offset) * sizeof(cl_int)) & ~uintptr_t(4095);
      const bool mapped = msync(reinterpret_cast<void *>(page), 4096, MS_ASYNC) == 0;
      if (mapped && kSanitizedBuild) {
        std::cout << "[ NOT RUN  ] offset " << offset << ": the sanitizer maps that address\n";
        continue;
      }
      ASSERT_FALSE(mapped) << "something is mapped a tebibyte from the buffer: no fault to check";
      setArgs(k, out, offset, load);
      std::string said = expectFailedCommand(k, 256, 64, "SIGSEGV");
      EXPECT_NE(said.find("FiberCL: kernel 'far' crashed in work-group (0,0,0)"), std::string::npos)
          << said;
    }
  expectVecAddStillWorks();
}

// --- Kernels that never end: spin loops, loops without an exit -------------------

// A wait on a flag nobody sets, read with a volatile load: a loop that may spin, run
// under the scheduler, reported as a deadlock once nothing has changed for
// FIBERCL_DEADLOCK_TIMEOUT seconds.
TEST_F(Exhaustion, SpinOnAFlagNobodySetsIsReported) {
  SKIP_UNLESS_FIBERCL("deadlock detection; other implementations hang");
  ScopedEnv env{{"FIBERCL_DEADLOCK_TIMEOUT", "0.2"}};
  cl_kernel k = kernelFrom(R"CLC(
    __kernel void wait_flag(__global volatile int* flag, __global int* out) {
      while (flag[0] == 0) {}
      out[get_global_id(0)] = 1;
    })CLC",
                           "wait_flag");
  cl_mem flag = bufferFrom(std::vector<cl_int>{0}), out = buffer(16 * sizeof(cl_int));
  setArgs(k, flag, out);
  expectFailedCommand(k, 16, 4, "deadlock");
  expectVecAddStillWorks();
}

// The same wait with a plain load: nothing in the loop writes memory, so LLVM reads the
// flag once, before it, and the loop left has no exit. Entering it is reported at once.
TEST_F(Exhaustion, WaitOnAPlainLoadIsReportedWhenEntered) {
  SKIP_UNLESS_FIBERCL("endless loop report; other implementations hang");
  cl_kernel k = kernelFrom(R"CLC(
    __kernel void wait_plain(__global int* flag, __global int* out) {
      while (flag[0] == 0) {}
      out[get_global_id(0)] = 1;
    })CLC",
                           "wait_plain");
  cl_mem flag = bufferFrom(std::vector<cl_int>{0}), out = buffer(16 * sizeof(cl_int));
  setArgs(k, flag, out);
  std::string said = expectFailedCommand(k, 16, 4, "entered a loop that can never exit");
  EXPECT_NE(said.find("FiberCL: kernel 'wait_plain' in work-group ("), std::string::npos) << said;
  EXPECT_NE(said.find("(<source>:3)"), std::string::npos) << said;
  // A flag that is set: the loop is never entered, the kernel runs.
  cl_mem set = bufferFrom(std::vector<cl_int>{1});
  setArgs(k, set, out);
  run(k, {16}, {4});
  EXPECT_EQ(read<cl_int>(out, 16), std::vector<cl_int>(16, 1));
  expectVecAddStillWorks();
}

// A loop without an exit from the start: the compiler takes it for a spin loop
// (whatever it does, it is stuck), so the groups run under the scheduler, which reports
// it as a deadlock.
TEST_F(Exhaustion, EndlessLoopWithoutMemoryAccessIsReported) {
  SKIP_UNLESS_FIBERCL("deadlock detection; other implementations hang");
  ScopedEnv env{{"FIBERCL_DEADLOCK_TIMEOUT", "0.2"}};
  cl_kernel k = kernelFrom(R"CLC(
    __kernel void forever(__global uint* out) {
      uint x = (uint)get_global_id(0);
      for (;;) x = x * 1664525u + 1013904223u;
      out[get_global_id(0)] = x;
    })CLC",
                           "forever");
  cl_mem out = buffer(16 * sizeof(cl_uint));
  setArgs(k, out);
  expectFailedCommand(k, 16, 4, "deadlock");
  expectVecAddStillWorks();
}

// --- Kernels that never end: the kernel time limit ---------------------------------

// A loop whose exit depends only on the work-item's own data, and never comes: the
// Collatz iteration from 0 stays at 0. Nothing tells it from a long computation but
// the clock: FIBERCL_KERNEL_TIMEOUT (read at each launch). Work-group 5 never ends;
// the command fails, the group is stopped wherever it runs (a pool thread or the thread
// in clFinish), and the kernel still runs on data that ends.
const char *kCollatzSource = R"CLC(
  __kernel void collatz(__global const uint* start, __global uint* steps, __global int* flag) {
    uint x = start[get_global_id(0)], n = 0;
    while (x != 1) { x = (x & 1) ? 3 * x + 1 : x / 2; ++n; }
    steps[get_global_id(0)] = n;
    VARIANT
  })CLC";

const char *kWaitForGroup7 = R"CLC(
    if (get_group_id(0) == 7) atomic_xchg((volatile __global int*)flag, 1);
    if (get_group_id(0) == 6) while (atomic_add((volatile __global int*)flag, 0) == 0) {})CLC";

struct EndlessVariant {
  const char *name;
  const char *code;    // replaces VARIANT
  const char *options; // build options
  const char *env;     // FIBERCL_* variable set for the build and the launch, or ""
  const char *envValue;
};

class EndlessComputation : public Exhaustion, public testing::WithParamInterface<EndlessVariant> {};

TEST_P(EndlessComputation, IsStoppedByTheKernelTimeout) {
  SKIP_UNLESS_FIBERCL("kernel timeout; other implementations hang");
  if (kThreadSanitizerBuild)
    GTEST_SKIP() << "NOT RUN under TSan: it defers the stop signal until the thread runs "
                    "instrumented code, which the endless JIT-compiled loop never does";
  const EndlessVariant &v = GetParam();
  ScopedEnv timeout{{"FIBERCL_KERNEL_TIMEOUT", "0.5"}};
  std::unique_ptr<ScopedEnv> env;
  if (*v.env)
    env.reset(new ScopedEnv{{v.env, v.envValue}});
  std::string src = kCollatzSource;
  src.replace(src.find("VARIANT"), 7, v.code);
  cl_kernel k = kernelFrom(src, "collatz", v.options);
  std::vector<cl_uint> start(64);
  for (size_t i = 0; i < start.size(); ++i)
    start[i] = cl_uint(i + 1);
  start[5 * 8 + 3] = 0; // group 5
  cl_mem s = bufferFrom(start), steps = buffer(start.size() * sizeof(cl_uint));
  cl_mem flag = bufferFrom(std::vector<cl_int>{0});
  setArgs(k, s, steps, flag);
  auto t0 = std::chrono::steady_clock::now();
  std::string said = expectFailedCommand(k, start.size(), 8, "FIBERCL_KERNEL_TIMEOUT=0.5");
  EXPECT_NE(said.find("FiberCL: kernel 'collatz': work-group (5,0,0) stopped"), std::string::npos)
      << said;
  EXPECT_LT(secondsSince(t0), 10.0) << "the limit is half a second";
  // The same kernel on data that ends: it runs, under the same limit.
  start[5 * 8 + 3] = 27;
  write(s, start);
  write(flag, std::vector<cl_int>{0});
  Completion ok = runReporting(k, {start.size()}, {8});
  EXPECT_EQ(ok.status, CL_COMPLETE) << ok.stderrText;
  EXPECT_EQ(read<cl_uint>(steps, 64)[5 * 8 + 3], 111u);
  expectVecAddStillWorks();
}

INSTANTIATE_TEST_SUITE_P(
    Exhaustion, EndlessComputation,
    testing::Values(
        EndlessVariant{"GroupsRunToCompletion", "", "", "", ""},
        EndlessVariant{"WithBarrierRegions", "barrier(CLK_GLOBAL_MEM_FENCE);", "", "", ""},
        EndlessVariant{"WithBarriersOnFibers", "barrier(CLK_GLOBAL_MEM_FENCE);", "",
                       "FIBERCL_BARRIERS", "fibers"},
        // Group 6 waits for group 7: the groups run under the scheduler.
        EndlessVariant{"Scheduled", kWaitForGroup7, "", "", ""},
        EndlessVariant{"ScheduledDeterministically", kWaitForGroup7, "", "FIBERCL_SEED", "7"}),
    [](const testing::TestParamInfo<EndlessVariant> &info) { return info.param.name; });

// --- Nothing accumulates over failures --------------------------------------------

// Every kind of failed command above, a dozen times over: the stacks, local memory and
// fibers of abandoned groups are reused, not leaked, and the context keeps working.
TEST_F(Exhaustion, RepeatedFailuresLeakNothing) {
  SKIP_UNLESS_FIBERCL("fault isolation; other implementations crash or hang");
  ScopedEnv env{{"FIBERCL_DEADLOCK_TIMEOUT", "0.05"}, {"FIBERCL_KERNEL_TIMEOUT", "0.05"}};
  cl_kernel overflow;
  {
    ScopedEnv fibers{{"FIBERCL_BARRIERS", "fibers"}};
    overflow = kernelFrom(kDeepBarrierSource, "deepbar");
  }
  cl_mem idx = bufferFrom(std::vector<cl_int>{(1 << 20) - (1 << 17), 0, 0, (1 << 20) - 1});
  cl_mem out = buffer(256 * sizeof(cl_int));
  setArgs(overflow, idx, out);
  cl_kernel plain = kernelFrom(R"CLC(
    __kernel void wait_plain(__global int* flag, __global int* out) {
      __local int l[1024];
      l[get_local_id(0)] = flag[1];
      barrier(CLK_LOCAL_MEM_FENCE);
      while (flag[0] == 0) {}
      out[get_global_id(0)] = l[0];
    })CLC",
                               "wait_plain");
  cl_kernel spin = kernelFrom(R"CLC(
    __kernel void wait_flag(__global volatile int* flag, __global int* out) {
      while (flag[0] == 0) {}
      out[get_global_id(0)] = 1;
    })CLC",
                              "wait_flag");
  cl_mem flag = bufferFrom(std::vector<cl_int>{0, 0});
  setArgs(plain, flag, out);
  setArgs(spin, flag, out);
  cl_kernel collatz = kernelFrom(R"CLC(
    __kernel void collatz(__global const uint* start, __global uint* steps) {
      uint x = start[get_global_id(0)], n = 0;
      while (x != 1) { x = (x & 1) ? 3 * x + 1 : x / 2; ++n; }
      steps[get_global_id(0)] = n;
    })CLC",
                                 "collatz");
  cl_mem zeros = bufferFrom(std::vector<cl_uint>(64, 0));
  setArgs(collatz, zeros, out);

  // Under TSan the endless computation cannot be stopped (kThreadSanitizerBuild).
  std::vector<cl_kernel> failing{overflow, plain, spin, collatz};
  if (kThreadSanitizerBuild) {
    std::cout << "[ NOT RUN  ] the endless computation: TSan defers the stop signal\n";
    failing.pop_back();
  }
  auto round = [&] {
    for (cl_kernel k : failing) {
      Completion c = runReporting(k, {64}, {8});
      ASSERT_LT(c.status, 0) << c.stderrText;
    }
  };
  auto stacks = [&] { return deviceInfo<cl_ulong>(device_, CL_DEVICE_STACKS_CREATED_FIBERCL); };
  for (int i = 0; i < 2; ++i)
    ASSERT_NO_FATAL_FAILURE(round());
  ProcessUse warm = ProcessUse::now();
  cl_ulong stacksWarm = stacks();
  auto t0 = std::chrono::steady_clock::now();
  const int rounds = 12;
  for (int i = 0; i < rounds; ++i)
    ASSERT_NO_FATAL_FAILURE(round());
  ProcessUse end = ProcessUse::now();
  std::cout << "[ INFO     ] " << rounds * failing.size() << " failed commands in "
            << secondsSince(t0) << " s; " << warm << " -> " << end << "; fiber stacks created "
            << stacks() - stacksWarm << "\n";
  // Each overflowing group holds 7 fiber stacks (two mappings each): leaked, they would
  // be 84 stacks and 168 mappings.
  EXPECT_LT(stacks() - stacksWarm, 40u);
  EXPECT_LT(end.mappings - warm.mappings, 40) << warm << " -> " << end;
  expectResidentGrowthBelow(warm, end, 32 * 1024);
  expectVecAddStillWorks();
}

} // namespace
} // namespace fcltest

// Checked mode (FIBERCL_CHECK; compiler/src/passes/access_checks.cpp,
// runtime/exec/checks.cpp): a corpus of kernels with one bug each -- an out-of-bounds or
// forbidden access per address space and kind of object (bounds), a read of __local
// memory nobody wrote (uninit) -- each reported once, with its line, object, offset and
// work-item; the command fails, or with FIBERCL_CHECK_CONTINUE=1 completes (without
// making an out-of-bounds access). And correct kernels of the same shapes report nothing.
#include <gtest/gtest.h>

#include <CL/cl.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "checked_fixture.hpp"

namespace {

using fcltest::Checked;
using fcltest::countOf;
using fcltest::Local;
using fcltest::ScopedEnv;

// A write one element past the end of a buffer argument, by the last work-item. The
// buffer is a sub-buffer of a larger one: what lies past it shows whether the write
// was made.
TEST_F(Checked, OffByOneWriteToAGlobalBuffer) {
  cl_kernel k = checkedKernel(R"CLC(__kernel void fill(__global int* out) {
  size_t i = get_global_id(0);
  out[i + 1] = (int)i;
})CLC",
                              "fill");
  const size_t n = 256;
  for (bool goOn : {false, true}) {
    SCOPED_TRACE(goOn ? "FIBERCL_CHECK_CONTINUE=1" : "the command fails");
    cl_mem whole = bufferFrom(std::vector<cl_int>(2 * n, -1));
    cl_mem sub = firstBytesOf(whole, n * sizeof(cl_int));
    ASSERT_NE(sub, nullptr);
    setArgs(k, sub);
    Outcome o = launch(k, n, 64, goOn);
    expectOneReport(o, 3, "write of argument 0 'out'",
                    {"out-of-bounds access: 4 bytes at byte offset 1024 (element 256) of an "
                     "object of 1024 bytes",
                     "work-item (63,0,0) in work-group (3,0,0)"});
    std::vector<cl_int> after = read<cl_int>(whole, 2 * n);
    EXPECT_EQ(after[n], -1) << "the out-of-bounds write was made";
    if (goOn) {
      EXPECT_EQ(o.status, CL_COMPLETE);
      for (size_t i = 1; i < n; ++i)
        ASSERT_EQ(after[i], cl_int(i - 1));
    } else {
      EXPECT_LT(o.status, 0);
    }
  }
}

// A negative index: work-item 0 reads in[-1].
TEST_F(Checked, NegativeIndexReadOfAGlobalBuffer) {
  cl_kernel k = checkedKernel(R"CLC(__kernel void prev(__global const int* in, __global int* out) {
  int i = (int)get_global_id(0);
  out[i] = in[i - 1];
})CLC",
                              "prev");
  const size_t n = 128;
  cl_mem in = bufferFrom(std::vector<cl_int>(n, 5)), out = buffer(n * sizeof(cl_int));
  setArgs(k, in, out);
  Outcome o = launch(k, n, 32, true);
  expectOneReport(o, 3, "read of argument 0 'in'",
                  {"byte offset -4 (element -1)", "work-item (0,0,0) in work-group (0,0,0)"});
  EXPECT_EQ(o.status, CL_COMPLETE);
  std::vector<cl_int> got = read<cl_int>(out, n);
  EXPECT_EQ(got[0], 0) << "a skipped read gives 0";
  EXPECT_EQ(got[1], 5);
}

// A __local array read one past its end.
TEST_F(Checked, ReadPastALocalArray) {
  cl_kernel k = checkedKernel(R"CLC(__kernel void shift(__global int* out) {
  __local int t[16];
  int l = (int)get_local_id(0);
  t[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[l + 1];
})CLC",
                              "shift");
  cl_mem out = buffer(64 * sizeof(cl_int));
  setArgs(k, out);
  Outcome o = launch(k, 64, 16, false);
  expectOneReport(o, 6, "read of __local variable", {"'t' (64 bytes)", "work-item (15,0,0)"});
  EXPECT_LT(o.status, 0);
}

// A __local argument of 16 ints written at index 16.
TEST_F(Checked, WritePastALocalArgument) {
  cl_kernel k = checkedKernel(R"CLC(__kernel void keep(__global int* out, __local int* t) {
  int l = (int)get_local_id(0);
  t[l + 1] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[0];
})CLC",
                              "keep");
  cl_mem out = buffer(32 * sizeof(cl_int));
  setArgs(k, out, Local{16 * sizeof(cl_int)});
  Outcome o = launch(k, 32, 16, true);
  expectOneReport(o, 3, "write of argument 1 't'",
                  {"byte offset 64 (element 16) of an object of 64 bytes", "work-item (15,0,0)"});
  EXPECT_EQ(o.status, CL_COMPLETE);
}

// A private array indexed one past its end.
TEST_F(Checked, ReadPastAPrivateArray) {
  cl_kernel k = checkedKernel(R"CLC(__kernel void table(__global int* out, int n) {
  int a[4];
  for (int j = 0; j < n; ++j)
    a[j] = j * 10;
  out[get_global_id(0)] = a[get_global_id(0) % 5];
})CLC",
                              "table");
  cl_mem out = buffer(8 * sizeof(cl_int));
  setArgs(k, out, cl_int(4));
  Outcome o = launch(k, 8, 8, true);
  expectOneReport(o, 5, "read of private variable",
                  {"'a' (16 bytes)", "byte offset 16 (element 4)", "work-item (4,0,0)"});
}

// A __constant table read past its end.
TEST_F(Checked, ReadPastAConstantTable) {
  cl_kernel k = checkedKernel(R"CLC(__constant int tbl[4] = {1, 2, 3, 4};
__kernel void look(__global int* out) {
  out[get_global_id(0)] = tbl[get_global_id(0)];
})CLC",
                              "look");
  cl_mem out = buffer(5 * sizeof(cl_int));
  setArgs(k, out);
  Outcome o = launch(k, 5, 5, false);
  expectOneReport(o, 3, "read of __constant variable 'tbl' (16 bytes)", {"work-item (4,0,0)"});
  EXPECT_LT(o.status, 0);
}

// Writing a READ_ONLY buffer and reading a WRITE_ONLY one.
TEST_F(Checked, AccessesTheBufferFlagsForbid) {
  cl_kernel k = checkedKernel(R"CLC(__kernel void swap(__global int* in, __global int* out) {
  size_t i = get_global_id(0);
  int v = in[i];
  in[i] = out[i];
  out[i] = v;
})CLC",
                              "swap");
  cl_int err = CL_SUCCESS;
  cl_mem in = clCreateBuffer(context_, CL_MEM_READ_ONLY, 16 * sizeof(cl_int), nullptr, &err);
  ASSERT_CL(err);
  cl_mem out = clCreateBuffer(context_, CL_MEM_WRITE_ONLY, 16 * sizeof(cl_int), nullptr, &err);
  ASSERT_CL(err);
  atTearDown([in, out] {
    clReleaseMemObject(in);
    clReleaseMemObject(out);
  });
  setArgs(k, in, out);
  Outcome o = launch(k, 16, 16, true);
  EXPECT_EQ(countOf(o.report, "access not allowed"), 2u) << o.report;
  EXPECT_NE(o.report.find("<source>:4 (read of argument 1 'out')"), std::string::npos) << o.report;
  EXPECT_NE(o.report.find("<source>:4 (write of argument 0 'in')"), std::string::npos) << o.report;
}

// An SVM pointer argument: bounds are its allocation's, wherever in it the pointer is.
TEST_F(Checked, SvmPointerIntoAnAllocation) {
  cl_device_svm_capabilities caps = 0;
  clGetDeviceInfo(device_, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, nullptr);
  if (!(caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER))
    GTEST_SKIP() << "no SVM";
  cl_kernel k = checkedKernel(R"CLC(__kernel void back(__global int* p) {
  int i = (int)get_global_id(0);
  p[i - 4] = i;
})CLC",
                              "back");
  auto *base =
      static_cast<cl_int *>(clSVMAlloc(context_, CL_MEM_READ_WRITE, 64 * sizeof(cl_int), 0));
  ASSERT_NE(base, nullptr);
  atTearDown([this, base] { clSVMFree(context_, base); });
  // The pointer is 2 elements in: work-items 0 and 1 write before the allocation.
  ASSERT_CL(clSetKernelArgSVMPointer(k, 0, base + 2));
  Outcome o = launch(k, 16, 16, true);
  expectOneReport(o, 3, "write of argument 0 'p'",
                  {"byte offset -8 (element -2) of an object of 256 bytes", "work-item (0,0,0)"});
  EXPECT_EQ(o.status, CL_COMPLETE);
}

// Correct kernels of the same shapes: not one report, the results right.
TEST_F(Checked, CorrectKernelsReportNothing) {
  cl_kernel k = checkedKernel(R"CLC(__constant int tbl[4] = {1, 2, 3, 4};
__kernel void fine(__global const int* in, __global int* out, __local int* t, int n) {
  __local int u[64];
  int a[4];
  int l = (int)get_local_id(0), i = (int)get_global_id(0);
  for (int j = 0; j < n; ++j)
    a[j] = j;
  t[l] = in[i];
  u[l] = tbl[l % 4] + a[l % 4];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = t[(l + 1) % 64] + u[63 - l];
})CLC",
                              "fine");
  const size_t n = 256;
  std::vector<cl_int> input(n);
  for (size_t i = 0; i < n; ++i)
    input[i] = cl_int(i * 3);
  cl_mem in = bufferFrom(input), out = buffer(n * sizeof(cl_int));
  setArgs(k, in, out, Local{64 * sizeof(cl_int)}, cl_int(4));
  Outcome o = launch(k, n, 64, false);
  EXPECT_EQ(o.report.find("FiberCL: kernel"), std::string::npos) << o.report;
  EXPECT_EQ(o.status, CL_COMPLETE);
  std::vector<cl_int> got = read<cl_int>(out, n);
  for (size_t i = 0; i < n; ++i) {
    size_t g = i / 64 * 64, l = i % 64, m = 63 - l;
    ASSERT_EQ(got[i], input[g + (l + 1) % 64] + cl_int(m % 4 + 1) + cl_int(m % 4)) << i;
  }
}

// uninit: half of a __local array written, the other half read.
TEST_F(Checked, ReadOfLocalMemoryNobodyWrote) {
  cl_kernel k =
      checkedKernel(R"CLC(__kernel void mirror(__global const int* in, __global int* out) {
  __local int t[64];
  int l = (int)get_local_id(0);
  if (l < 32) t[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[63 - l];
})CLC",
                    "mirror", "uninit");
  cl_mem in = bufferFrom(std::vector<cl_int>(128, 1)), out = buffer(128 * sizeof(cl_int));
  setArgs(k, in, out);
  for (bool goOn : {false, true}) {
    SCOPED_TRACE(goOn ? "FIBERCL_CHECK_CONTINUE=1" : "the command fails");
    Outcome o = launch(k, 128, 64, goOn);
    expectOneReport(o, 6, "read of __local variable 't' (256 bytes)",
                    {"no work-item of the group wrote in this launch: 4 bytes at byte offset 252 "
                     "(element 63)",
                     // Both groups read it; the first to get there is reported.
                     "work-item (0,0,0) in work-group ("});
    EXPECT_EQ(o.status, goOn ? CL_COMPLETE : -5 /* CL_OUT_OF_RESOURCES */);
  }
}

// uninit: __local memory is the group's; what another group wrote there does not count.
TEST_F(Checked, LocalMemoryWrittenByAnotherGroupOnly) {
  cl_kernel k = checkedKernel(R"CLC(__kernel void stale(__global int* out, __local int* t) {
  int l = (int)get_local_id(0);
  if (get_group_id(0) == 0) t[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[l];
})CLC",
                              "stale", "uninit");
  cl_mem out = buffer(64 * sizeof(cl_int));
  setArgs(k, out, Local{16 * sizeof(cl_int)});
  Outcome o = launch(k, 64, 16, true);
  // Groups 1-3 read what they never wrote (the first to get there is reported); group 0
  // wrote it.
  expectOneReport(o, 5, "read of argument 1 't'", {"in work-group ("});
  EXPECT_EQ(o.report.find("work-group (0,0,0)"), std::string::npos) << o.report;
  EXPECT_EQ(o.status, CL_COMPLETE);
}

// Correct uses of __local memory: written before read, an atomic counter set first,
// bounds and uninit together.
TEST_F(Checked, LocalMemoryWrittenFirstReportsNothing) {
  cl_kernel k = checkedKernel(R"CLC(__kernel void count(__global const int* in, __global int* out) {
  __local int t[64];
  __local int c;
  int l = (int)get_local_id(0);
  if (l == 0) c = 0;
  t[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (t[63 - l] > 0) atomic_inc(&c);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = c + t[l];
})CLC",
                              "count", "bounds,uninit");
  std::vector<cl_int> input(256);
  for (size_t i = 0; i < input.size(); ++i)
    input[i] = cl_int(i % 3);
  cl_mem in = bufferFrom(input), out = buffer(256 * sizeof(cl_int));
  setArgs(k, in, out);
  Outcome o = launch(k, 256, 64, false);
  EXPECT_EQ(o.report.find("FiberCL: kernel"), std::string::npos) << o.report;
  EXPECT_EQ(o.status, CL_COMPLETE);
  std::vector<cl_int> got = read<cl_int>(out, 256);
  for (size_t g = 0; g < 4; ++g) {
    cl_int positive = 0;
    for (size_t l = 0; l < 64; ++l)
      positive += input[g * 64 + l] > 0;
    for (size_t l = 0; l < 64; ++l)
      ASSERT_EQ(got[g * 64 + l], positive + input[g * 64 + l]) << g * 64 + l;
  }
}

// A wait on a plain load is still the endless loop it is unchecked (reported when
// entered), not a hang: the check of the flag's read touches only FiberCL's memory, so
// LLVM still reads the flag once, before the loop.
TEST_F(Checked, AWaitOnAPlainLoadIsStillReportedNotHung) {
  cl_kernel k =
      checkedKernel(R"CLC(__kernel void wait_plain(__global int* flag, __global int* out) {
  while (flag[0] == 0) {}
  out[get_global_id(0)] = 1;
})CLC",
                    "wait_plain", "all");
  cl_mem flag = bufferFrom(std::vector<cl_int>{0}), out = buffer(16 * sizeof(cl_int));
  setArgs(k, flag, out);
  Outcome o = launch(k, 16, 4, false);
  EXPECT_NE(o.report.find("entered a loop that can never exit"), std::string::npos) << o.report;
  EXPECT_NE(o.status, CL_COMPLETE);
  // The flag set: the kernel runs, and nothing is reported.
  cl_mem set = bufferFrom(std::vector<cl_int>{1});
  setArgs(k, set, out);
  o = launch(k, 16, 4, false);
  EXPECT_EQ(o.report.find("FiberCL: kernel"), std::string::npos) << o.report;
  EXPECT_EQ(o.status, CL_COMPLETE);
  EXPECT_EQ(read<cl_int>(out, 16), std::vector<cl_int>(16, 1));
}

// divergence: a barrier inside `if (lid < 5)` -- the report lists where every work-item
// of the group went, the same on both barrier paths.
TEST_F(Checked, BarrierInsideABranchSaysWhoWentWhere) {
  for (const char *path : {"regions", "fibers"}) {
    SCOPED_TRACE(path);
    ScopedEnv env({{"FIBERCL_BARRIERS", path}});
    cl_kernel k = checkedKernel(R"CLC(__kernel void some(__global int* out) {
  int l = (int)get_local_id(0);
  out[get_global_id(0)] = l;
  if (l < 5)
    barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] += 1;
})CLC",
                                "some", "divergence");
    cl_mem out = buffer(32 * sizeof(cl_int));
    setArgs(k, out);
    Outcome o = launch(k, 32, 16, false);
    EXPECT_NE(o.status, CL_COMPLETE);
    // A report per group that got there (the command fails at the first), each with
    // the whole group's places.
    size_t reports = countOf(o.report, "barrier divergence in work-group (");
    EXPECT_GE(reports, 1u) << o.report;
    EXPECT_EQ(countOf(o.report, "where the group's 16 work-items are:"), reports) << o.report;
    EXPECT_EQ(countOf(o.report, "(<source>:5 (barrier) in some): 5 work-items: (0,0,0)..(4,0,0)\n"),
              reports)
        << o.report;
    EXPECT_EQ(countOf(o.report, "finished: 11 work-items: (5,0,0)..(15,0,0)\n"), reports)
        << o.report;
    EXPECT_EQ(o.report.find("not there yet"), std::string::npos) << o.report;
  }
}

// FIBERCL_REPORT: each report also goes to the file as a line of JSON.
TEST_F(Checked, ReportsAreAlsoJsonLinesAtFiberclReport) {
  std::string path = ::testing::TempDir() + "fibercl_checked_report.jsonl";
  std::remove(path.c_str());
  ScopedEnv env({{"FIBERCL_REPORT", path}});
  cl_kernel past = checkedKernel(R"CLC(__kernel void past(__global int* out) {
  out[get_global_id(0) + 1] = 1;
})CLC",
                                 "past");
  cl_mem out = buffer(16 * sizeof(cl_int));
  setArgs(past, out);
  launch(past, 16, 16, false);
  cl_kernel some = checkedKernel(R"CLC(__kernel void some(__global int* out) {
  if (get_local_id(0) < 5)
    barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = 1;
})CLC",
                                 "some", "divergence");
  setArgs(some, out);
  launch(some, 16, 16, false);
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].rfind("{\"report\":\"check\",\"kernel\":\"past\",\"check\":\"bounds\"", 0), 0u)
      << lines[0];
  for (const char *part : {"\"at\":\"<source>:2 (write of argument 0 'out') in past\"",
                           "\"offset\":64,\"bytes\":4,\"size\":64,\"item\":[15,0,0]",
                           "\"group\":[0,0,0],\"continued\":false}"})
    EXPECT_NE(lines[0].find(part), std::string::npos) << part << " in " << lines[0];
  EXPECT_EQ(lines[1].rfind("{\"report\":\"divergence\",\"kernel\":\"some\"", 0), 0u) << lines[1];
  EXPECT_NE(lines[1].find("\"places\":[{\"site\":1,\"items\":5,\"runs\":[[0,4]]},{\"site\":0,"
                          "\"items\":11,\"runs\":[[5,15]]}]"),
            std::string::npos)
      << lines[1];
  std::remove(path.c_str());
}

// races: a tree reduction without the barrier between its steps -- one report, naming
// both accesses' line, on both barrier paths; the fixed kernel reports nothing and sums
// right.
TEST_F(Checked, MissingBarrierInATreeReductionIsARace) {
  const char *src = R"CLC(__kernel void sum(__global const int* in, __global int* out) {
  __local int t[64];
  int l = (int)get_local_id(0);
  t[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 32; s > 0; s >>= 1) {
    if (l < s)
      t[l] += t[l + s];
    BARRIER
  }
  if (l == 0)
    out[get_group_id(0)] = t[0];
})CLC";
  std::vector<cl_int> input(256);
  for (size_t i = 0; i < input.size(); ++i)
    input[i] = cl_int(i);
  for (const char *path : {"regions", "fibers"}) {
    SCOPED_TRACE(path);
    ScopedEnv env({{"FIBERCL_BARRIERS", path}});
    cl_mem in = bufferFrom(input), out = buffer(4 * sizeof(cl_int));
    std::string racy = std::string(src);
    racy.replace(racy.find("BARRIER"), 7, "");
    cl_kernel k = checkedKernel(racy, "sum", "races");
    setArgs(k, in, out);
    Outcome o = launch(k, 256, 64, false);
    EXPECT_EQ(countOf(o.report, "data race on __local memory"), 1u) << o.report;
    EXPECT_NE(o.report.find("at <source>:8 ("), std::string::npos) << o.report;
    EXPECT_NE(o.report.find("the other access: <source>:8 ("), std::string::npos) << o.report;
    EXPECT_NE(o.report.find("since the group's last barrier"), std::string::npos) << o.report;
    EXPECT_EQ(o.status, -5 /* CL_OUT_OF_RESOURCES */);

    std::string fixed = std::string(src);
    fixed.replace(fixed.find("BARRIER"), 7, "barrier(CLK_LOCAL_MEM_FENCE);");
    k = checkedKernel(fixed, "sum", "races");
    setArgs(k, in, out);
    o = launch(k, 256, 64, false);
    EXPECT_EQ(o.report.find("FiberCL: kernel"), std::string::npos) << o.report;
    EXPECT_EQ(o.status, CL_COMPLETE);
    std::vector<cl_int> got = read<cl_int>(out, 4);
    for (int g = 0; g < 4; ++g)
      EXPECT_EQ(got[g], 64 * 64 * g + 63 * 64 / 2) << g;
  }
}

// races on __global memory within a group: a read by one work-item and a write by
// another, whatever order they ran in.
TEST_F(Checked, RaceOnGlobalMemoryInEitherOrder) {
  cl_kernel k = checkedKernel(R"CLC(__kernel void pass(__global int* data, __global int* out) {
  int l = (int)get_local_id(0);
  if (l == 2) out[0] = data[0];
  if (l == 5) data[0] = 7;
})CLC",
                              "pass", "races");
  cl_mem data = bufferFrom(std::vector<cl_int>{1}), out = buffer(sizeof(cl_int));
  setArgs(k, data, out);
  Outcome o = launch(k, 16, 16, true);
  EXPECT_EQ(countOf(o.report, "data race on __global memory"), 1u) << o.report;
  // Which of the two is "the other access" depends on the order they ran in.
  for (const char *part :
       {"work-item (5,0,0)", "work-item (2,0,0)", "<source>:3 (read of argument 0 'data')",
        "<source>:4 (write of argument 0 'data')"})
    EXPECT_NE(o.report.find(part), std::string::npos) << part << " in\n" << o.report;
  EXPECT_EQ(o.status, CL_COMPLETE); // FIBERCL_CHECK_CONTINUE=1
}

// Not races: writes of the same value (a warning, the command completes); work-items
// ordered by a lock's acquire and release; atomics on the same counter; accesses of
// one work-item; accesses separated by a barrier.
TEST_F(Checked, OrderedOrAtomicAccessesAreNotRaces) {
  cl_kernel k =
      checkedKernel(R"CLC(__kernel void fine(__global int* flag, __global atomic_int* lock,
                   __global int* shared, __global atomic_int* count) {
  int l = (int)get_local_id(0);
  flag[0] = 1;
  while (atomic_exchange_explicit(lock, 1, memory_order_acquire, memory_scope_device)) {}
  shared[0] += l;
  atomic_store_explicit(lock, 0, memory_order_release, memory_scope_device);
  atomic_fetch_add_explicit(count, 1, memory_order_relaxed, memory_scope_device);
  shared[1 + l] = l;
  barrier(CLK_GLOBAL_MEM_FENCE);
  shared[1 + (l + 1) % 16] += 1;
})CLC",
                    "fine", "races");
  cl_mem flag = buffer(sizeof(cl_int)), lock = bufferFrom(std::vector<cl_int>{0}),
         shared = bufferFrom(std::vector<cl_int>(17, 0)),
         count = bufferFrom(std::vector<cl_int>{0});
  setArgs(k, flag, lock, shared, count);
  Outcome o = launch(k, 16, 16, false);
  EXPECT_EQ(o.status, CL_COMPLETE);
  EXPECT_EQ(countOf(o.report, "FiberCL: kernel"), 1u) << o.report;
  EXPECT_NE(o.report.find("warning: data race on __global memory"), std::string::npos) << o.report;
  EXPECT_NE(o.report.find("the same value"), std::string::npos) << o.report;
  EXPECT_NE(o.report.find("at <source>:4 (write of argument 0 'flag')"), std::string::npos)
      << o.report;
  std::vector<cl_int> got = read<cl_int>(shared, 17);
  EXPECT_EQ(got[0], 120);
  for (int l = 0; l < 16; ++l)
    EXPECT_EQ(got[1 + l], l + 1) << l;
  EXPECT_EQ(read<cl_int>(count, 1)[0], 16);
}

// divergence: one barrier, reached by every work-item, with fence flags that differ
// between them; fence flags the same for all (from an argument) are fine.
TEST_F(Checked, BarrierWithDifferentFenceFlags) {
  cl_kernel k = checkedKernel(R"CLC(__kernel void flags(__global int* out, __local int* t, uint f) {
  int l = (int)get_local_id(0);
  t[l] = l;
  barrier(f ? f : (l < 4 ? CLK_LOCAL_MEM_FENCE : CLK_GLOBAL_MEM_FENCE));
  out[get_global_id(0)] = t[(l + 1) % 8];
})CLC",
                              "flags", "divergence");
  cl_mem out = buffer(16 * sizeof(cl_int));
  setArgs(k, out, Local{8 * sizeof(cl_int)}, cl_uint(0));
  Outcome o = launch(k, 16, 8, false);
  EXPECT_NE(o.status, CL_COMPLETE);
  EXPECT_NE(o.report.find("work-item (4,0,0) reached barrier #1 with fence flags "
                          "CLK_GLOBAL_MEM_FENCE (2) but work-item (0,0,0) with "
                          "CLK_LOCAL_MEM_FENCE (1)"),
            std::string::npos)
      << o.report;
  EXPECT_NE(o.report.find("is at <source>:4 (barrier)"), std::string::npos) << o.report;
  setArgs(k, out, Local{8 * sizeof(cl_int)},
          cl_uint(3) /* CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE */);
  o = launch(k, 16, 8, false);
  EXPECT_EQ(o.status, CL_COMPLETE);
  EXPECT_EQ(o.report.find("FiberCL: kernel"), std::string::npos) << o.report;
  std::vector<cl_int> got = read<cl_int>(out, 16);
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(got[i], (i % 8 + 1) % 8) << i;
}

// uninit: a write through a pointer that may point into either of two __local arrays
// (or a generic one) marks what it wrote; reading it back is no report.
TEST_F(Checked, WritesThroughAnyPointerMarkLocalMemoryWritten) {
  cl_kernel k = checkedKernel(R"CLC(__kernel void pick(__global int* out, int which) {
  __local int a[16], b[16];
  int l = (int)get_local_id(0);
  __local int *p = which ? a : b;
  p[l] = l;
  int *q = (int *)(which ? b : a);
  q[l] = 2 * l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = a[15 - l] + b[l];
})CLC",
                              "pick", "uninit");
  cl_mem out = buffer(16 * sizeof(cl_int));
  setArgs(k, out, cl_int(1));
  Outcome o = launch(k, 16, 16, false);
  EXPECT_EQ(o.report.find("FiberCL: kernel"), std::string::npos) << o.report;
  EXPECT_EQ(o.status, CL_COMPLETE);
  std::vector<cl_int> got = read<cl_int>(out, 16);
  for (int l = 0; l < 16; ++l)
    EXPECT_EQ(got[l], (15 - l) + 2 * l) << l;
}

// uninit: `v[i].x = a` is a read of v[i], an insert and a store back in Clang's code;
// it is a write of the component, not a read of the vector (with the bounds checks
// too, which put the read behind a branch): a vector written a
// component at a time reports nothing. One component never written is still reported.
TEST_F(Checked, VectorComponentsWrittenOneByOne) {
  cl_kernel k = checkedKernel(R"CLC(__kernel void parts(__global float* out, int both) {
  __local float2 v[16];
  int l = (int)get_local_id(0);
  v[l].x = (float)l;
  if (both) v[l].y = 2.0f * l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = v[15 - l].x + v[15 - l].y;
})CLC",
                              "parts", "bounds,uninit");
  cl_mem out = buffer(16 * sizeof(cl_float));
  setArgs(k, out, cl_int(1));
  Outcome o = launch(k, 16, 16, false);
  EXPECT_EQ(o.report.find("FiberCL: kernel"), std::string::npos) << o.report;
  EXPECT_EQ(o.status, CL_COMPLETE);
  std::vector<cl_float> got = read<cl_float>(out, 16);
  for (int l = 0; l < 16; ++l)
    EXPECT_EQ(got[l], 3.0f * (15 - l)) << l;
  setArgs(k, out, cl_int(0));
  o = launch(k, 16, 16, true);
  expectOneReport(o, 7, "read of __local variable 'v' (128 bytes)",
                  {"no work-item of the group wrote"});
}

} // namespace

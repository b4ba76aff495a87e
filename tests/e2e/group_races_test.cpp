// FIBERCL_CHECK=races between work-groups (runtime/exec/group_races.cpp): conflicting
// __global accesses of two groups are a race unless a release of device scope in one
// is read by an acquire in the other (atomics or fences), whatever order the schedule
// ran them in. The corpus's three inter-group bugs -- a flag handshake with plain
// stores, the same with a relaxed store, release/acquire of work-group scope ("insufficient
// scope") -- and correct protocols of the same shapes.
#include <gtest/gtest.h>

#include <CL/cl.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "checked_fixture.hpp"

namespace {

using fcltest::countOf;
using fcltest::ScopedEnv;
// Environment variables a run is made with.
using Env = std::vector<std::pair<const char *, std::string>>;

class GroupRaces : public fcltest::Checked {
protected:
  // Builds `src` (kernel `k(data, out, flag)`) with races checked and runs it as two
  // groups of four work-items, under the scheduling in `env`.
  Outcome handshake(const std::string &src, const Env &env = {}) {
    cl_kernel k = checkedKernel(src, "k", "races");
    cl_mem data = bufferFrom(std::vector<cl_int>{0}), out = bufferFrom(std::vector<cl_int>{0, 0}),
           flag = bufferFrom(std::vector<cl_int>{0});
    setArgs(k, data, out, flag);
    std::vector<std::unique_ptr<ScopedEnv>> scheduling;
    for (const auto &[name, value] : env)
      scheduling.push_back(std::make_unique<ScopedEnv>(
          std::initializer_list<std::pair<const char *, std::string>>{{name, value}}));
    return launch(k, 8, 4, /*goOn=*/false);
  }
};

// Group 0 publishes data[0], group 1 waits for the flag and reads it (lines 4 and 10).
std::string handshakeSource(const char *store, const char *load) {
  return std::string(
             R"CLC(__kernel void k(__global int *data, __global int *out, __global atomic_int *flag) {
  if (get_local_id(0) != 0) return;
  if (get_group_id(0) == 0) {
    data[0] = 42;
    )CLC") +
         store + R"CLC(;
  } else {
    int n = 0;
    while ()CLC" +
         load + R"CLC( == 0 && n < 1000000)
      n++;
    out[0] = data[0];
  }
})CLC";
}

const char *kReleaseStore =
    "atomic_store_explicit(flag, 1, memory_order_release, memory_scope_device)";
const char *kAcquireLoad = "atomic_load_explicit(flag, memory_order_acquire, memory_scope_device)";

// Schedules the checks must not depend on: both groups at once, and one group at a time
// (a seeded run with one occupant group: group 0 ends before group 1 starts).
const std::vector<Env> kSchedules = {{}, {{"FIBERCL_SEED", "1"}, {"FIBERCL_OCCUPANCY", "1"}}};

TEST_F(GroupRaces, ReleaseAndAcquireOfDeviceScopeOrderTheGroups) {
  for (const auto &env : kSchedules) {
    Outcome o = handshake(handshakeSource(kReleaseStore, kAcquireLoad), env);
    EXPECT_EQ(o.status, CL_COMPLETE) << o.report;
    EXPECT_EQ(countOf(o.report, "FiberCL: kernel"), 0u) << o.report;
  }
}

// The same through fences: a release fence before a relaxed store, an acquire fence
// after a relaxed load.
TEST_F(GroupRaces, FencesAroundRelaxedAtomicsOrderTheGroups) {
  Outcome o = handshake(
      handshakeSource("atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, "
                      "memory_scope_device); atomic_store_explicit(flag, 1, memory_order_relaxed, "
                      "memory_scope_device)",
                      "(atomic_load_explicit(flag, memory_order_relaxed, memory_scope_device) && "
                      "(atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, "
                      "memory_scope_device), 1))"));
  EXPECT_EQ(o.status, CL_COMPLETE) << o.report;
  EXPECT_EQ(countOf(o.report, "FiberCL: kernel"), 0u) << o.report;
}

// A relaxed store orders nothing: the data's write and read race, reported in every
// schedule (also when group 0 ran to its end before group 1 started).
TEST_F(GroupRaces, ARelaxedFlagIsARaceWhateverTheSchedule) {
  for (const auto &env : kSchedules) {
    Outcome o = handshake(
        handshakeSource("atomic_store_explicit(flag, 1, memory_order_relaxed, memory_scope_device)",
                        "atomic_load_explicit(flag, memory_order_relaxed, memory_scope_device)"),
        env);
    EXPECT_EQ(o.status, CL_OUT_OF_RESOURCES) << o.report; // the command fails
    EXPECT_EQ(countOf(o.report, "data race between work-groups"), 1u) << o.report;
    for (const char *part : {"of work-group (1,0,0) reads 4 bytes", "that work-group (0,0,0) wrote",
                             "at <source>:10 (read of argument 0 'data')",
                             "the other access: <source>:4 (write of argument 0 'data')"})
      EXPECT_NE(o.report.find(part), std::string::npos) << part << " in\n" << o.report;
  }
}

// Plain stores and loads of the flag (volatile): the flag itself races, whichever group
// touched it first.
TEST_F(GroupRaces, APlainFlagIsARace) {
  Outcome o = handshake(
      handshakeSource("*(volatile __global int *)flag = 1", "*(volatile __global int *)flag"));
  EXPECT_EQ(o.status, CL_OUT_OF_RESOURCES) << o.report;
  // The flag's race stops the group that finds it. When that is the writer (the reader
  // read first), its store is skipped and the reader, spinning out, then reads the data:
  // a second pair of lines.
  EXPECT_GE(countOf(o.report, "data race between work-groups"), 1u) << o.report;
  EXPECT_LE(countOf(o.report, "data race between work-groups"), 2u) << o.report;
  for (const char *part :
       {"work-group (0,0,0)", "work-group (1,0,0)", "<source>:5 (write of argument 2 'flag')",
        "<source>:8 (read of argument 2 'flag')"})
    EXPECT_NE(o.report.find(part), std::string::npos) << part << " in\n" << o.report;
}

// Nothing but a write in one group and a read in the other (and a relaxed atomic, which
// orders nothing but lets a seed schedule the groups): the same race whichever group
// the scheduler ran first, to its end.
TEST_F(GroupRaces, ReportedWhicheverGroupRanFirst) {
  const std::string src =
      R"CLC(__kernel void k(__global int *data, __global int *out, __global atomic_int *count) {
  if (get_local_id(0) != 0) return;
  atomic_fetch_add_explicit(count, 1, memory_order_relaxed, memory_scope_device);
  if (get_group_id(0) == 0) data[0] = 42;
  else out[0] = data[0];
})CLC";
  for (const char *order : {"id", "reverse"}) {
    Outcome o = handshake(
        src, {{"FIBERCL_SEED", "3"}, {"FIBERCL_OCCUPANCY", "1"}, {"FIBERCL_ADMISSION", order}});
    EXPECT_EQ(o.status, CL_OUT_OF_RESOURCES) << order << "\n" << o.report;
    EXPECT_EQ(countOf(o.report, "data race between work-groups"), 1u) << order << "\n" << o.report;
    bool readFirst = std::string(order) == "reverse";
    EXPECT_NE(o.report.find(readFirst ? "of work-group (0,0,0) writes 4 bytes"
                                      : "of work-group (1,0,0) reads 4 bytes"),
              std::string::npos)
        << order << "\n"
        << o.report;
    EXPECT_NE(
        o.report.find(readFirst ? "that work-group (1,0,0) read" : "that work-group (0,0,0) wrote"),
        std::string::npos)
        << order << "\n"
        << o.report;
  }
}

// Release and acquire of work-group scope between two groups: reported as insufficient
// scope, naming the acquire and the release.
TEST_F(GroupRaces, WorkGroupScopeAcrossGroupsIsInsufficientScope) {
  Outcome o = handshake(handshakeSource(
      "atomic_store_explicit(flag, 1, memory_order_release, memory_scope_work_group)",
      "atomic_load_explicit(flag, memory_order_acquire, memory_scope_work_group)"));
  EXPECT_EQ(o.status, CL_OUT_OF_RESOURCES) << o.report;
  EXPECT_EQ(countOf(o.report, "data race between work-groups"), 1u) << o.report;
  for (const char *part :
       {"insufficient scope", "at <source>:10 (read of argument 0 'data')",
        "the work-group-scope acquire: <source>:8", "the release it read: <source>:5"})
    EXPECT_NE(o.report.find(part), std::string::npos) << part << " in\n" << o.report;
}

// Every group writes the same value to one word (a warning, the command completes),
// and a race between many groups on one pair of lines is one report.
TEST_F(GroupRaces, SameValueIsAWarningAndEachPairOfLinesIsReportedOnce) {
  cl_kernel k = checkedKernel(R"CLC(__kernel void k(__global int *found, __global int *sum) {
  if (get_local_id(0) == 0) {
    found[0] = 1;
    sum[0] += (int)get_group_id(0);
  }
})CLC",
                              "k", "races");
  cl_mem found = bufferFrom(std::vector<cl_int>{0}), sum = bufferFrom(std::vector<cl_int>{0});
  setArgs(k, found, sum);
  Outcome o = launch(k, 64, 4, /*goOn=*/true);
  EXPECT_EQ(o.status, CL_COMPLETE) << o.report;
  EXPECT_EQ(countOf(o.report, "warning: data race between work-groups"), 1u) << o.report;
  EXPECT_NE(o.report.find("the same value"), std::string::npos) << o.report;
  // sum[0] += g: its read and write race with other groups' (lines 4 and 4), once.
  EXPECT_EQ(countOf(o.report, "FiberCL: kernel 'k': data race between work-groups"), 1u)
      << o.report;
  EXPECT_EQ(read<cl_int>(found, 1)[0], 1);
}

// Groups whose accesses do not overlap, or only read the same data, report nothing;
// neither does a second launch reading what the first wrote (the kernel boundary).
TEST_F(GroupRaces, DisjointWritesSharedReadsAndKernelBoundariesAreNotRaces) {
  cl_kernel k = checkedKernel(R"CLC(__kernel void k(__global const int *in, __global int *out) {
  size_t i = get_global_id(0);
  out[i] = in[0] + in[i] + in[(i + 4) % get_global_size(0)];
})CLC",
                              "k", "races");
  const size_t n = 256;
  std::vector<cl_int> host(n);
  for (size_t i = 0; i < n; ++i)
    host[i] = cl_int(i);
  cl_mem a = bufferFrom(host), b = buffer(n * sizeof(cl_int));
  setArgs(k, a, b);
  Outcome first = launch(k, n, 4, false);
  setArgs(k, b, a);
  Outcome second = launch(k, n, 4, false);
  EXPECT_EQ(first.status, CL_COMPLETE) << first.report;
  EXPECT_EQ(second.status, CL_COMPLETE) << second.report;
  EXPECT_EQ(first.report.find("FiberCL: kernel"), std::string::npos) << first.report;
  EXPECT_EQ(second.report.find("FiberCL: kernel"), std::string::npos) << second.report;
}

} // namespace

// Pipes (OpenCL 2.0+, feature __opencl_c_pipes): pipe objects and their rules, and
// kernels moving packets through them -- one work-item at a time, in reservations, per
// work-group, between kernels and between work-groups of one kernel that run at once.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "cl_test.hpp"

namespace fcltest {
namespace {

class Pipes : public CLTest {
protected:
  void SetUp() override {
    CLTest::SetUp();
    if (!deviceInfo<cl_bool>(device_, CL_DEVICE_PIPE_SUPPORT))
      GTEST_SKIP() << "the device reports no pipe support";
  }

  cl_mem pipe(cl_uint packetSize, cl_uint maxPackets) {
    cl_int err = CL_SUCCESS;
    cl_mem p = clCreatePipe(context_, 0, packetSize, maxPackets, nullptr, &err);
    check(err, "clCreatePipe");
    atTearDown([p] { clReleaseMemObject(p); });
    return p;
  }
};

TEST_F(Pipes, DeviceReportsPipes) {
  EXPECT_TRUE(hasCFeature("__opencl_c_pipes"));
  EXPECT_GE(deviceInfo<cl_uint>(device_, CL_DEVICE_PIPE_MAX_PACKET_SIZE), 1024u);
  EXPECT_GE(deviceInfo<cl_uint>(device_, CL_DEVICE_MAX_PIPE_ARGS), 16u);
  EXPECT_GE(deviceInfo<cl_uint>(device_, CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS), 1u);
}

TEST_F(Pipes, CreationRulesAndQueries) {
  const cl_uint maxPacket = deviceInfo<cl_uint>(device_, CL_DEVICE_PIPE_MAX_PACKET_SIZE);
  cl_int err = CL_SUCCESS;
  auto expectFails = [&](cl_int expected, cl_mem_flags flags, cl_uint size, cl_uint packets,
                         const cl_pipe_properties *props) {
    cl_mem p = clCreatePipe(context_, flags, size, packets, props, &err);
    EXPECT_EQ(p, nullptr);
    EXPECT_CL_ERR(expected, err);
    if (p)
      clReleaseMemObject(p);
  };
  expectFails(CL_INVALID_PIPE_SIZE, 0, 0, 16, nullptr);
  expectFails(CL_INVALID_PIPE_SIZE, 0, maxPacket + 1, 16, nullptr);
  expectFails(CL_INVALID_PIPE_SIZE, 0, 4, 0, nullptr);
  expectFails(CL_INVALID_VALUE, CL_MEM_READ_ONLY, 4, 16, nullptr);
  expectFails(CL_INVALID_VALUE, CL_MEM_USE_HOST_PTR, 4, 16, nullptr);
  const cl_pipe_properties bogus[] = {0x1234, 1, 0};
  expectFails(CL_INVALID_VALUE, 0, 4, 16, bogus);
  EXPECT_EQ(clCreatePipe(nullptr, 0, 4, 16, nullptr, &err), nullptr);
  EXPECT_CL_ERR(CL_INVALID_CONTEXT, err);

  cl_mem p = pipe(12, 100);
  cl_uint v = 0;
  ASSERT_CL(clGetPipeInfo(p, CL_PIPE_PACKET_SIZE, sizeof v, &v, nullptr));
  EXPECT_EQ(v, 12u);
  ASSERT_CL(clGetPipeInfo(p, CL_PIPE_MAX_PACKETS, sizeof v, &v, nullptr));
  EXPECT_EQ(v, 100u);
  size_t bytes = 1;
  ASSERT_CL(clGetPipeInfo(p, CL_PIPE_PROPERTIES, 0, nullptr, &bytes));
  EXPECT_EQ(bytes, 0u); // created with NULL properties
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetPipeInfo(p, CL_MEM_SIZE, sizeof v, &v, nullptr));
  cl_mem_object_type type = 0;
  ASSERT_CL(clGetMemObjectInfo(p, CL_MEM_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(type, cl_mem_object_type(CL_MEM_OBJECT_PIPE));
  cl_mem_flags flags = 0;
  ASSERT_CL(clGetMemObjectInfo(p, CL_MEM_FLAGS, sizeof flags, &flags, nullptr));
  EXPECT_EQ(flags, cl_mem_flags(CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS));

  // A buffer is not a pipe, nor a pipe a buffer.
  cl_mem buf = buffer(64);
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT,
                clGetPipeInfo(buf, CL_PIPE_PACKET_SIZE, sizeof v, &v, nullptr));
  char host[64];
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT,
                clEnqueueReadBuffer(queue_, p, CL_TRUE, 0, 4, host, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT,
                clEnqueueCopyBuffer(queue_, buf, p, 0, 0, 4, 0, nullptr, nullptr));
  cl_kernel k = kernelFrom(R"CLC(
    __kernel void k(__read_only pipe int in, __global int *out) {
      int x;
      if (read_pipe(in, &x) == 0) out[0] = x;
    })CLC",
                           "k", "-cl-std=CL2.0");
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 0, sizeof(cl_mem), &buf));
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 1, sizeof(cl_mem), &p));
  EXPECT_CL_ERR(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 0, 4, &p));
  EXPECT_CL(clSetKernelArg(k, 0, sizeof(cl_mem), &p));
}

// A writer kernel puts a struct per work-item into the pipe, alternating the ways to
// write (one packet, a reservation of one, a work-group reservation); a reader kernel
// takes them out the same three ways. Every packet arrives exactly once, whole.
TEST_F(Pipes, EveryPacketWrittenIsReadExactlyOnce) {
  const char *src = R"CLC(
    typedef struct { char tag; int value; long twice; } Packet;
    __kernel void produce(__global const int *in, __write_only pipe Packet out,
                          __global int *written) {
      size_t i = get_global_id(0);
      Packet p = { (char)(i & 0x7f), in[i], 2 * (long)in[i] };
      int ok = -1;
      if (get_group_id(0) % 3 == 0) {
        ok = write_pipe(out, &p);
      } else if (get_group_id(0) % 3 == 1) {
        reserve_id_t r = reserve_write_pipe(out, 1);
        if (is_valid_reserve_id(r)) {
          ok = write_pipe(out, r, 0, &p);
          commit_write_pipe(out, r);
        }
      } else {
        reserve_id_t r = work_group_reserve_write_pipe(out, get_local_size(0));
        if (is_valid_reserve_id(r))
          ok = write_pipe(out, r, get_local_id(0), &p);
        work_group_commit_write_pipe(out, r);
      }
      written[i] = ok == 0;
    }
    __kernel void consume(__read_only pipe Packet in, __global Packet *got,
                          __global int *read) {
      size_t i = get_global_id(0);
      Packet p = { 0, 0, 0 };
      int ok = -1;
      if (get_group_id(0) % 3 == 2) {
        ok = read_pipe(in, &p);
      } else if (get_group_id(0) % 3 == 0) {
        reserve_id_t r = reserve_read_pipe(in, 1);
        if (is_valid_reserve_id(r)) {
          ok = read_pipe(in, r, 0, &p);
          commit_read_pipe(in, r);
        }
      } else {
        reserve_id_t r = sub_group_reserve_read_pipe(in, get_sub_group_size());
        if (is_valid_reserve_id(r))
          ok = read_pipe(in, r, get_sub_group_local_id(), &p);
        sub_group_commit_read_pipe(in, r);
      }
      got[i] = p;
      read[i] = ok == 0;
    })CLC";
  struct Packet {
    cl_char tag;
    cl_int value;
    cl_long twice;
  };
  cl_program prog = build(src, "-cl-std=CL2.0");
  cl_kernel produce = kernel(prog, "produce"), consume = kernel(prog, "consume");
  for (size_t local : {size_t(1), size_t(7), size_t(64)}) {
    SCOPED_TRACE("local size " + std::to_string(local));
    const size_t n = local * 30;
    std::vector<cl_int> in(n);
    for (size_t i = 0; i < n; ++i)
      in[i] = cl_int(i * 2654435761u);
    cl_mem inBuf = bufferFrom(in), written = buffer(n * 4), got = buffer(n * sizeof(Packet)),
           read = buffer(n * 4);
    cl_mem p = pipe(sizeof(Packet), cl_uint(n));
    setArgs(produce, inBuf, p, written);
    run(produce, {n}, {local});
    auto w = this->read<cl_int>(written, n);
    EXPECT_EQ(std::count(w.begin(), w.end(), 1), long(n)) << "writes into a pipe with room";
    setArgs(consume, p, got, read);
    run(consume, {n}, {local});
    auto r = this->read<cl_int>(read, n);
    EXPECT_EQ(std::count(r.begin(), r.end(), 1), long(n)) << "reads of a full pipe";
    auto packets = this->read<Packet>(got, n);
    std::map<cl_int, int> seen;
    for (const Packet &q : packets) {
      ++seen[q.value];
      auto it = std::find(in.begin(), in.end(), q.value);
      ASSERT_NE(it, in.end()) << "a packet nobody wrote: " << q.value;
      size_t i = size_t(it - in.begin());
      EXPECT_EQ(q.tag, cl_char(i & 0x7f)) << i;
      EXPECT_EQ(q.twice, 2 * cl_long(in[i])) << i;
    }
    for (cl_int v : in)
      EXPECT_EQ(seen[v], 1) << v;
    // Empty now: every read fails.
    run(consume, {n}, {local});
    r = this->read<cl_int>(read, n);
    EXPECT_EQ(std::count(r.begin(), r.end(), 1), 0L) << "reads of an empty pipe";
  }
}

// A pipe of 100 packets takes exactly 100 of 1000 writes; get_pipe_num_packets and
// get_pipe_max_packets say so; packets come out in the order they went in when one
// work-item writes them.
TEST_F(Pipes, FullPipesRefuseWritesAndQueriesCount) {
  cl_program prog = build(R"CLC(
    __kernel void fill(__write_only pipe uint out, __global int *accepted) {
      accepted[get_global_id(0)] = write_pipe(out, &(uint){get_global_id(0)}) == 0;
    }
    __kernel void count(__read_only pipe uint in, __global uint *n) {
      n[0] = get_pipe_num_packets(in);
      n[1] = get_pipe_max_packets(in);
    }
    __kernel void inOrder(__write_only pipe uint out) {
      for (uint i = 0; i < 50; ++i) write_pipe(out, &i);
    }
    __kernel void drain(__read_only pipe uint in, __global uint *got, __global uint *n) {
      uint x, k = 0;
      while (read_pipe(in, &x) == 0) got[k++] = x;
      *n = k;
    })CLC",
                          "-cl-std=CL2.0");
  cl_mem p = pipe(4, 100);
  cl_mem accepted = buffer(1000 * 4), counts = buffer(8), got = buffer(200 * 4), n = buffer(4);
  cl_kernel fill = kernel(prog, "fill"), count = kernel(prog, "count"),
            inOrder = kernel(prog, "inOrder"), drain = kernel(prog, "drain");
  setArgs(fill, p, accepted);
  run(fill, {1000}, {50});
  auto a = read<cl_int>(accepted, 1000);
  EXPECT_EQ(std::accumulate(a.begin(), a.end(), 0), 100);
  setArgs(count, p, counts);
  run(count, {1});
  auto c = read<cl_uint>(counts, 2);
  EXPECT_EQ(c[0], 100u);
  EXPECT_EQ(c[1], 100u);
  setArgs(drain, p, got, n);
  run(drain, {1});
  EXPECT_EQ(read<cl_uint>(n, 1)[0], 100u);
  run(count, {1});
  EXPECT_EQ(read<cl_uint>(counts, 1)[0], 0u);
  // The ring has wrapped: FIFO order still holds.
  setArgs(inOrder, p);
  run(inOrder, {1});
  run(drain, {1});
  ASSERT_EQ(read<cl_uint>(n, 1)[0], 50u);
  auto g = read<cl_uint>(got, 50);
  for (cl_uint i = 0; i < 50; ++i)
    EXPECT_EQ(g[i], i);
}

// Producers and consumers in one kernel, as GPU code writes them: consumers poll the
// pipe with a backoff until their packets arrive; producers hold their reservations a
// while before committing, out of order. Needs producers and consumers resident at
// once (an occupancy of 4 here); every value arrives once.
TEST_F(Pipes, GroupsOfOneKernelStreamThroughAPipe) {
  cl_kernel k = kernelFrom(R"CLC(
    __kernel void stream(__write_only pipe int out, __read_only pipe int in,
                         __global int *sums, int perItem) {
      size_t g = get_group_id(0), l = get_local_id(0);
      if (g % 2 == 0) {  // producer
        for (int j = 0; j < perItem; ++j) {
          reserve_id_t r;
          do { r = reserve_write_pipe(out, 1); } while (!is_valid_reserve_id(r));
          int v = (int)(get_global_id(0) * 1000 + j);
          write_pipe(out, r, 0, &v);
          for (volatile int hold = 0; hold < (int)((l * 7 + j) % 13) * 10; ++hold) {}
          commit_write_pipe(out, r);
        }
      } else {  // consumer
        int sum = 0;
        for (int j = 0; j < perItem; ++j) {
          int v, backoff = 1;
          while (read_pipe(in, &v) != 0) {
            for (volatile int d = 0; d < backoff; ++d) {}
            backoff = min(backoff * 2, 256);
          }
          sum += v;
        }
        sums[get_global_id(0)] = sum;
      }
    })CLC",
                           "stream", "-cl-std=CL2.0");
  const size_t groups = 8, local = 16, n = groups * local;
  const cl_int perItem = 40;
  cl_mem p = pipe(4, 64); // smaller than what flows through it
  cl_mem sums = buffer(n * 4);
  write(sums, std::vector<cl_int>(n, 0));
  setArgs(k, p, p, sums, perItem);
  if (isFiberCL()) {
    cl_uint occupancy = 4;
    ASSERT_CL(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_OCCUPANCY_FIBERCL, sizeof occupancy,
                                  &occupancy));
  }
  run(k, {n}, {local});
  auto s = read<cl_int>(sums, n);
  long long total = 0, expected = 0;
  for (size_t i = 0; i < n; ++i) {
    if ((i / local) % 2)
      total += s[i];
    else
      for (cl_int j = 0; j < perItem; ++j)
        expected += cl_long(i) * 1000 + j;
  }
  EXPECT_EQ(total, expected);
}

// Only consumers resident (admitted in id order, occupancy 2, consumers first): nobody
// will ever write. FiberCL reports the deadlock and fails the command instead of
// hanging, and the pipe and the process go on.
TEST_F(Pipes, ConsumersWithoutProducersAreReportedNotHung) {
  SKIP_UNLESS_FIBERCL("occupancy bound and deadlock reports");
  cl_kernel k = kernelFrom(R"CLC(
    __kernel void stream(__write_only pipe int out, __read_only pipe int in,
                         __global int *got) {
      if (get_group_id(0) < 2) {  // consumers: groups 0 and 1
        int v;
        while (read_pipe(in, &v) != 0) {}
        got[get_global_id(0)] = v;
      } else {
        int v = (int)get_global_id(0);
        write_pipe(out, &v);
      }
    })CLC",
                           "stream", "-cl-std=CL2.0");
  cl_mem p = pipe(4, 64);
  cl_mem got = buffer(64 * 4);
  setArgs(k, p, p, got);
  cl_uint occupancy = 2;
  ASSERT_CL(
      clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_OCCUPANCY_FIBERCL, sizeof occupancy, &occupancy));
  ScopedEnv env{{"FIBERCL_DEADLOCK_TIMEOUT", "1"}};
  Completion c = runReporting(k, {64}, {16});
  EXPECT_LT(c.status, 0) << "the command did not fail";
  EXPECT_NE(c.stderrText.find("deadlock"), std::string::npos) << c.stderrText;
  // With room for everyone, the same kernel completes.
  occupancy = 0;
  ASSERT_CL(
      clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_OCCUPANCY_FIBERCL, sizeof occupancy, &occupancy));
  EXPECT_CL(tryRun(k, {64}, {16}));
}

} // namespace
} // namespace fcltest

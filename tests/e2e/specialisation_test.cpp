// Work-group functions specialised for the launch's work-group size (compiler/src/
// local_size_specialisation.hpp): for kernels with barrier regions launched with small
// uniform groups. The copy must compute what the generic function computes, bit for
// bit, in 1, 2 and 3 dimensions, scheduled or not; launches it does not apply to
// (non-uniform groups, groups above the limit, FIBERCL_SPECIALISE=0) run the generic
// function, and FIBERCL_DEBUG=specialise says which copies were made.
#include <cstring>
#include <functional>
#include <string>
#include <unistd.h>

#include "cl_test.hpp"

namespace fcltest {
namespace {

class Specialisation : public CLTest {
protected:
  // Runs `launch` (which sets k's arguments, runs it and returns its results) with the
  // generic function, then with the specialised one. Expects the same results and the
  // copy to have been made (or not) as `specialised` says.
  template <typename T>
  std::vector<T> sameAsGeneric(cl_kernel k, const std::function<std::vector<T>()> &launch,
                               bool specialised = true) {
    // Kernels on fibers (the suite's fibers.* run) have no regions to specialise.
    const char *barriers = getenv("FIBERCL_BARRIERS");
    if (barriers && std::strcmp(barriers, "fibers") == 0)
      specialised = false;
    std::vector<T> generic;
    {
      ScopedEnv off({{"FIBERCL_SPECIALISE", "0"}});
      generic = launch();
    }
    ScopedEnv debug({{"FIBERCL_DEBUG", "specialise"}, {"FIBERCL_SPECIALISE", ScopedEnv::kUnset}});
    testing::internal::CaptureStderr();
    std::vector<T> copy = launch();
    std::string said = testing::internal::GetCapturedStderr();
    EXPECT_EQ(said.find(" compiled in ") != std::string::npos, specialised) << said;
    EXPECT_EQ(said.find("keeps its generic"), std::string::npos) << said;
    EXPECT_EQ(copy, generic);
    (void)k;
    return copy;
  }

  // A fresh build: a copy made by an earlier test of this process is not said again.
  cl_kernel fresh(const std::string &src, const char *name, const std::string &options = "") {
    return kernelFrom(src + "\n// " + std::to_string(getpid()) + "." + std::to_string(std::rand()),
                      name, options);
  }
};

std::vector<cl_uint> pattern(size_t n) {
  std::vector<cl_uint> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = cl_uint((i * 2654435761u) % 100003u);
  return v;
}

const char *kRotate = R"CLC(
kernel void rotate(global uint *data, local uint *buf, int iters) {
  uint lid = get_local_id(0), l = get_local_size(0);
  uint v = data[get_global_id(0)];
  for (int t = 0; t < iters; ++t) {
    buf[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = buf[lid + 1 == l ? 0 : lid + 1] + lid;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  data[get_global_id(0)] = v;
})CLC";

// The host's answer for one group of `l` work-items.
std::vector<cl_uint> rotateOnHost(std::vector<cl_uint> v, size_t l, int iters) {
  for (size_t g = 0; g < v.size(); g += l)
    for (int t = 0; t < iters; ++t) {
      std::vector<cl_uint> buf(v.begin() + g, v.begin() + g + l);
      for (size_t i = 0; i < l; ++i)
        v[g + i] = buf[i + 1 == l ? 0 : i + 1] + cl_uint(i);
    }
  return v;
}

TEST_F(Specialisation, BarrierLoopsAgreeWithTheGenericFunctionAndTheHost) {
  SKIP_UNLESS_FIBERCL("FIBERCL_SPECIALISE and FIBERCL_DEBUG are FiberCL's");
  const int iters = 7;
  for (size_t l : {1, 3, 16, 24, 64, 256}) {
    cl_kernel k = fresh(kRotate, "rotate");
    const size_t n = l * 9;
    std::vector<cl_uint> in = pattern(n);
    std::vector<cl_uint> got = sameAsGeneric<cl_uint>(k, [&] {
      cl_mem d = bufferFrom(in);
      setArgs(k, d, Local{l * sizeof(cl_uint)}, iters);
      run(k, {n}, {l});
      return read<cl_uint>(d, n);
    });
    EXPECT_EQ(got, rotateOnHost(in, l, iters)) << "local size " << l;
  }
}

// get_local_size and get_enqueued_local_size in 2 and 3 dimensions, and the local id
// of each dimension, through a transpose in __local memory.
TEST_F(Specialisation, SizesAndIdsOfEveryDimensionAreTheLaunchs) {
  SKIP_UNLESS_FIBERCL("FIBERCL_SPECIALISE and FIBERCL_DEBUG are FiberCL's");
  const char *src = R"CLC(
    kernel void shape(global uint *out, local uint *tile) {
      size_t x = get_local_id(0), y = get_local_id(1), z = get_local_id(2);
      size_t lx = get_local_size(0), ly = get_local_size(1), lz = get_local_size(2);
      size_t item = (z * ly + y) * lx + x;
      tile[item] = (uint)(x | y << 8 | z << 16);
      barrier(CLK_LOCAL_MEM_FENCE);
      size_t mirror = lx * ly * lz - 1 - item;
      size_t g = get_global_linear_id();
      out[2 * g] = tile[mirror];
      out[2 * g + 1] = (uint)(lx | ly << 8 | lz << 16) ^
                       (uint)(get_enqueued_local_size(0) * get_enqueued_local_size(1) *
                              get_enqueued_local_size(2) << 24);
    })CLC";
  struct Shape {
    std::vector<size_t> global, local;
  };
  for (const Shape &s :
       {Shape{{32, 8}, {8, 4}}, Shape{{8, 8, 6}, {4, 2, 3}}, Shape{{64, 2}, {16, 2}}}) {
    cl_kernel k = fresh(src, "shape", "-cl-std=CL2.0");
    size_t n = 1, items = 1;
    for (size_t d = 0; d < s.global.size(); ++d) {
      n *= s.global[d];
      items *= s.local[d];
    }
    std::vector<cl_uint> got = sameAsGeneric<cl_uint>(k, [&] {
      cl_mem out = buffer(2 * n * sizeof(cl_uint));
      setArgs(k, out, Local{items * sizeof(cl_uint)});
      run(k, s.global, s.local);
      return read<cl_uint>(out, 2 * n);
    });
    size_t lx = s.local[0], ly = s.local[1], lz = s.local.size() > 2 ? s.local[2] : 1;
    cl_uint sizes = cl_uint(lx | ly << 8 | lz << 16) ^ cl_uint(items << 24);
    // The first group's first and last work-items read each other's ids.
    EXPECT_EQ(got[0], cl_uint((lx - 1) | (ly - 1) << 8 | (lz - 1) << 16));
    for (size_t g = 0; g < n; ++g)
      ASSERT_EQ(got[2 * g + 1], sizes) << "work-item " << g;
  }
}

// A non-uniform launch (an edge group is smaller) and a group above the limit keep the
// generic function; results are still right.
TEST_F(Specialisation, LaunchesItDoesNotApplyToRunTheGenericFunction) {
  SKIP_UNLESS_FIBERCL("FIBERCL_SPECIALISE and FIBERCL_DEBUG are FiberCL's");
  const int iters = 3;
  {
    cl_kernel k = fresh(kRotate, "rotate", "-cl-std=CL2.0");
    const size_t n = 16 * 5 + 7;
    std::vector<cl_uint> in = pattern(n);
    std::vector<cl_uint> got = sameAsGeneric<cl_uint>(
        k,
        [&] {
          cl_mem d = bufferFrom(in);
          setArgs(k, d, Local{16 * sizeof(cl_uint)}, iters);
          run(k, {n}, {16});
          return read<cl_uint>(d, n);
        },
        /*specialised=*/false);
    std::vector<cl_uint> want = rotateOnHost({in.begin(), in.begin() + 80}, 16, iters);
    std::vector<cl_uint> edge = rotateOnHost({in.begin() + 80, in.end()}, 7, iters);
    want.insert(want.end(), edge.begin(), edge.end());
    EXPECT_EQ(got, want);
  }
  {
    cl_kernel k = fresh(kRotate, "rotate");
    const size_t n = 1024 * 2;
    std::vector<cl_uint> in = pattern(n);
    std::vector<cl_uint> got = sameAsGeneric<cl_uint>(
        k,
        [&] {
          cl_mem d = bufferFrom(in);
          setArgs(k, d, Local{1024 * sizeof(cl_uint)}, iters);
          run(k, {n}, {1024});
          return read<cl_uint>(d, n);
        },
        /*specialised=*/false);
    EXPECT_EQ(got, rotateOnHost(in, 1024, iters));
  }
}

// A kernel with barriers and yield points, run by the scheduler (seeds, a bound): groups of 16
// each add their sum to a global counter after a tree reduction.
TEST_F(Specialisation, ScheduledGroupsRunTheCopy) {
  SKIP_UNLESS_FIBERCL("FIBERCL_SPECIALISE and FIBERCL_DEBUG are FiberCL's");
  const char *src = R"CLC(
    kernel void total(global const uint *in, volatile global uint *sum, local uint *tmp) {
      uint lid = get_local_id(0);
      tmp[lid] = in[get_global_id(0)];
      barrier(CLK_LOCAL_MEM_FENCE);
      for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
          tmp[lid] += tmp[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      if (lid == 0)
        atomic_add(sum, tmp[0]);
    })CLC";
  const size_t l = 16, n = l * 40;
  std::vector<cl_uint> in = pattern(n);
  cl_uint want = 0;
  for (cl_uint v : in)
    want += v;
  // Parallel and seeded, unbounded and with an occupancy bound.
  for (const char *seed : {"", "7", "13"})
    for (const char *bound : {"", "2"}) {
      ScopedEnv mode({{"FIBERCL_SEED", *seed ? std::string(seed) : ScopedEnv::kUnset},
                      {"FIBERCL_OCCUPANCY", *bound ? std::string(bound) : ScopedEnv::kUnset}});
      cl_kernel k = fresh(src, "total");
      std::vector<cl_uint> got = sameAsGeneric<cl_uint>(k, [&] {
        cl_mem din = bufferFrom(in), sum = bufferFrom(std::vector<cl_uint>{0});
        setArgs(k, din, sum, Local{l * sizeof(cl_uint)});
        run(k, {n}, {l});
        return read<cl_uint>(sum, 1);
      });
      EXPECT_EQ(got[0], want) << "seed '" << seed << "', bound '" << bound << "'";
    }
}

} // namespace
} // namespace fcltest

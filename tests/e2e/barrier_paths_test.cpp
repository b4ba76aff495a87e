// The two barrier paths -- compile-time regions (the default) and fibers
// (FIBERCL_BARRIERS=fibers) -- on the same kernels: FIBERCL_DEBUG=barriers says which
// path each build took, and results are bit-identical (work-items run in the same
// order on both, so even races on __local memory and float rounding agree), as are
// barrier divergence reports.
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <unistd.h>

#include "cl_test.hpp"

namespace fcltest {
namespace {

using Bytes = std::vector<unsigned char>;

class BarrierPaths : public CLTest {
protected:
  // Builds `src` with barriers on `path` ("regions" or "fibers") and returns kernel
  // `name`, checking that FIBERCL_DEBUG=barriers names the path.
  cl_kernel kernelOn(const std::string &path, const std::string &src, const char *name,
                     const std::string &options = "", std::string *report = nullptr) {
    if (path == "fibers")
      setenv("FIBERCL_BARRIERS", "fibers", 1);
    else
      unsetenv("FIBERCL_BARRIERS");
    setenv("FIBERCL_DEBUG", "barriers", 1);
    testing::internal::CaptureStderr();
    // A fresh source: a cached build would not say which path it took.
    std::string fresh =
        src + "\n// " + std::to_string(getpid()) + "." + std::to_string(std::rand());
    cl_kernel k = nullptr;
    try {
      k = kernelFrom(fresh, name, options);
    } catch (...) {
      testing::internal::GetCapturedStderr();
      unsetenv("FIBERCL_DEBUG");
      unsetenv("FIBERCL_BARRIERS");
      throw;
    }
    std::string said = testing::internal::GetCapturedStderr();
    unsetenv("FIBERCL_DEBUG");
    unsetenv("FIBERCL_BARRIERS");
    std::string want = std::string("kernel '") + name + "': barriers " +
                       (path == "fibers" ? "on fibers: FIBERCL_BARRIERS=fibers" : "as ");
    EXPECT_NE(said.find(want), std::string::npos) << "wanted \"" << want << "\" in:\n" << said;
    if (report)
      *report = said;
    return k;
  }

  // Runs kernel `name` of `src` on both paths: `launch(k)` sets its arguments, runs it
  // and returns the bytes of its results. Expects them equal and returns them.
  Bytes sameOnBothPaths(const std::string &src, const char *name,
                        const std::function<Bytes(cl_kernel)> &launch,
                        const std::string &options = "") {
    Bytes regions = launch(kernelOn("regions", src, name, options));
    Bytes fibers = launch(kernelOn("fibers", src, name, options));
    EXPECT_EQ(regions.size(), fibers.size());
    size_t differ = 0;
    for (size_t i = 0; i < regions.size() && i < fibers.size(); ++i)
      if (regions[i] != fibers[i] && differ++ == 0)
        ADD_FAILURE() << name << ": first differing byte " << i << ": regions " << int(regions[i])
                      << ", fibers " << int(fibers[i]);
    EXPECT_EQ(differ, 0u) << name << ": bytes differing between regions and fibers";
    return regions;
  }

  template <typename T> Bytes bytesOf(cl_mem m, size_t n) {
    std::vector<T> v = read<T>(m, n);
    Bytes b(n * sizeof(T));
    std::memcpy(b.data(), v.data(), b.size());
    return b;
  }
};

std::vector<cl_uint> pattern(size_t n, cl_uint mod) {
  std::vector<cl_uint> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = cl_uint((i * 2654435761u) % mod);
  return v;
}

TEST_F(BarrierPaths, TreeReductionMatchesTheHost) {
  SKIP_UNLESS_FIBERCL("FIBERCL_BARRIERS and FIBERCL_DEBUG are FiberCL's");
  const char *src = R"CLC(
    __kernel void reduce(__global const uint* in, __global uint* out, __local uint* tmp) {
      uint lid = get_local_id(0), l = get_local_size(0);
      tmp[lid] = in[get_global_id(0)];
      barrier(CLK_LOCAL_MEM_FENCE);
      for (uint s = l / 2; s > 0; s >>= 1) {
        if (lid < s) tmp[lid] += tmp[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      if (lid == 0) out[get_group_id(0)] = tmp[0];
    })CLC";
  for (size_t l : {1, 64, 256}) {
    const size_t groups = 13, n = l * groups;
    std::vector<cl_uint> in = pattern(n, 1u << 20);
    Bytes b = sameOnBothPaths(src, "reduce", [&](cl_kernel k) {
      cl_mem din = bufferFrom(in), dout = buffer(groups * sizeof(cl_uint));
      setArgs(k, din, dout, Local{l * sizeof(cl_uint)});
      run(k, {n}, {l});
      return bytesOf<cl_uint>(dout, groups);
    });
    for (size_t g = 0; g < groups; ++g) {
      cl_uint want = 0, got;
      for (size_t i = 0; i < l; ++i)
        want += in[g * l + i];
      std::memcpy(&got, &b[g * 4], 4);
      EXPECT_EQ(got, want) << "local size " << l << ", group " << g;
    }
  }
}

// Values carried around a loop with a barrier in it: `s` is the same for every
// work-item (the `if (lid < s)` inside the loop meets again inside it), so it lives once
// per group; `acc`, merged from the two sides of that `if`, differs and lives per
// work-item. Both paths and the host agree.
TEST_F(BarrierPaths, UniformValuesAcrossBarriersInLoopsLiveOncePerGroup) {
  SKIP_UNLESS_FIBERCL("FIBERCL_BARRIERS and FIBERCL_DEBUG are FiberCL's");
  const char *src = R"CLC(
    __kernel void mixed(__global const uint* in, __global uint* out, __local uint* tmp) {
      uint lid = get_local_id(0), l = get_local_size(0);
      uint acc = in[get_global_id(0)];
      tmp[lid] = acc;
      barrier(CLK_LOCAL_MEM_FENCE);
      for (uint s = l / 2; s > 0; s >>= 1) {
        if (lid < s) {
          acc += tmp[lid + s];
          tmp[lid] = acc;
        } else {
          acc ^= s;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      out[get_global_id(0)] = acc;
    })CLC";
  std::string report;
  kernelOn("regions", src, "mixed", "", &report);
  EXPECT_NE(report.find("(1 once per group)"), std::string::npos) << report;
  for (size_t l : {1, 64, 256}) {
    const size_t groups = 7, n = l * groups;
    std::vector<cl_uint> in = pattern(n, 1u << 20);
    Bytes b = sameOnBothPaths(src, "mixed", [&](cl_kernel k) {
      cl_mem din = bufferFrom(in), dout = buffer(n * sizeof(cl_uint));
      setArgs(k, din, dout, Local{l * sizeof(cl_uint)});
      run(k, {n}, {l});
      return bytesOf<cl_uint>(dout, n);
    });
    for (size_t g = 0; g < groups; ++g) {
      std::vector<cl_uint> tmp(in.begin() + g * l, in.begin() + (g + 1) * l), acc = tmp;
      for (size_t s = l / 2; s > 0; s >>= 1)
        for (size_t i = 0; i < l; ++i) // work-items in order, as both paths run them
          if (i < s) {
            acc[i] += tmp[i + s];
            tmp[i] = acc[i];
          } else {
            acc[i] ^= cl_uint(s);
          }
      for (size_t i = 0; i < l; ++i) {
        cl_uint got;
        std::memcpy(&got, &b[(g * l + i) * 4], 4);
        ASSERT_EQ(got, acc[i]) << "local size " << l << ", group " << g << ", item " << i;
      }
    }
  }
}

// The same test (`lid == 0`) before and after the barriers: LLVM's jump threading
// copied everything between them, barriers included, into both paths, and the copies
// of one barrier sent the kernel to fibers ("internal error splitting at barriers:
// Duplicate integer as switch case"). Barrier calls are never duplicated now.
TEST_F(BarrierPaths, BarriersBetweenTestsOfTheSameConditionStayRegions) {
  SKIP_UNLESS_FIBERCL("FIBERCL_BARRIERS and FIBERCL_DEBUG are FiberCL's");
  const char *src = R"CLC(
    __kernel void count(__global uint* perGroup, __global uint* total) {
      __local uint n;
      if (get_local_id(0) == 0) n = 0;
      barrier(CLK_LOCAL_MEM_FENCE);
      atomic_inc(&n);
      atomic_inc(total);
      barrier(CLK_LOCAL_MEM_FENCE);
      if (get_local_id(0) == 0) perGroup[get_group_id(0)] = n;
    })CLC";
  std::string report;
  kernelOn("regions", src, "count", "", &report);
  EXPECT_EQ(report.find("internal error"), std::string::npos) << report;
  for (size_t l : {1, 7, 256}) {
    const size_t groups = 5;
    Bytes b = sameOnBothPaths(src, "count", [&](cl_kernel k) {
      cl_mem perGroup = bufferFrom(std::vector<cl_uint>(groups, 0));
      cl_mem total = bufferFrom(std::vector<cl_uint>(1, 0));
      setArgs(k, perGroup, total);
      run(k, {l * groups}, {l});
      EXPECT_EQ(read<cl_uint>(total, 1)[0], l * groups);
      return bytesOf<cl_uint>(perGroup, groups);
    });
    for (size_t g = 0; g < groups; ++g) {
      cl_uint got;
      std::memcpy(&got, &b[g * 4], 4);
      EXPECT_EQ(got, l) << "local size " << l << ", group " << g;
    }
  }
}

// A 2-D tile with halo, non-uniform edge groups (OpenCL C 3.0), float arithmetic.
TEST_F(BarrierPaths, StencilWithHaloOnNonUniformGroups) {
  SKIP_UNLESS_FIBERCL("FIBERCL_BARRIERS and FIBERCL_DEBUG are FiberCL's");
  // OpenCL C 3.0 with non-uniform work-groups (FiberCL supports them).
  const char *src = R"CLC(
    #define T 8
    __kernel void stencil(__global const float* in, __global float* out, int w, int h) {
      __local float tile[T + 2][T + 2];
      int lx = get_local_id(0), ly = get_local_id(1);
      int gx = get_global_id(0), gy = get_global_id(1);
      for (int y = ly; y < T + 2; y += get_local_size(1))
        for (int x = lx; x < T + 2; x += get_local_size(0)) {
          int sx = (int)get_group_id(0) * T + x - 1, sy = (int)get_group_id(1) * T + y - 1;
          tile[y][x] = (sx >= 0 && sy >= 0 && sx < w && sy < h) ? in[sy * w + sx] : 0.0f;
        }
      barrier(CLK_LOCAL_MEM_FENCE);
      float c = tile[ly + 1][lx + 1];
      out[gy * w + gx] = 0.4f * c + 0.15f * (tile[ly][lx + 1] + tile[ly + 2][lx + 1] +
                                             tile[ly + 1][lx] + tile[ly + 1][lx + 2]);
    })CLC";
  const int w = 37, h = 29;
  std::vector<float> in(w * h);
  for (int i = 0; i < w * h; ++i)
    in[i] = float((i * 37) % 101) / 7.0f;
  sameOnBothPaths(
      src, "stencil",
      [&](cl_kernel k) {
        cl_mem din = bufferFrom(in), dout = buffer(in.size() * sizeof(float));
        setArgs(k, din, dout, w, h);
        run(k, {size_t(w), size_t(h)}, {8, 8});
        return bytesOf<float>(dout, in.size());
      },
      "-cl-std=CL3.0");
}

// Values and a dynamically indexed private array live across barriers in a loop
// whose trip count differs between groups; a whole group may leave early.
TEST_F(BarrierPaths, PrivateArrayAndValuesAcrossBarriersInLoops) {
  SKIP_UNLESS_FIBERCL("FIBERCL_BARRIERS and FIBERCL_DEBUG are FiberCL's");
  const char *src = R"CLC(
    void exchange(__local uint* ring, uint lid, uint l, uint r, uint* acc) {
      ring[lid] = *acc;
      barrier(CLK_LOCAL_MEM_FENCE);
      *acc += ring[(lid + r + 1) % l] * 3u;
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    __kernel void privates(__global uint* out, __local uint* ring, uint rounds) {
      uint lid = get_local_id(0), l = get_local_size(0);
      if (get_group_id(0) == 2) return;
      uint hist[8];
      for (int i = 0; i < 8; ++i) hist[i] = lid * (uint)i;
      uint acc = lid ^ (uint)get_group_id(0);
      for (uint r = 0; r < rounds + (get_group_id(0) & 3); ++r) {
        acc ^= hist[r & 7];
        exchange(ring, lid, l, r, &acc);
        hist[(acc >> 3) & 7] += acc;
      }
      uint s = 0;
      for (int i = 0; i < 8; ++i) s = s * 31u + hist[i];
      out[get_global_id(0)] = acc * 7u + s;
    })CLC";
  const size_t l = 48, n = l * 6;
  Bytes b = sameOnBothPaths(src, "privates", [&](cl_kernel k) {
    cl_mem out = bufferFrom(std::vector<cl_uint>(n, 0xdeadbeefu));
    setArgs(k, out, Local{l * sizeof(cl_uint)}, cl_uint(5));
    run(k, {n}, {l});
    return bytesOf<cl_uint>(out, n);
  });
  // Group 2 left before writing anything.
  cl_uint untouched;
  std::memcpy(&untouched, &b[2 * l * 4], 4);
  EXPECT_EQ(untouched, 0xdeadbeefu);
}

// Races on __local memory without a barrier between the writes, and __local atomics:
// the outcome depends only on the order work-items run in, the same on both paths.
TEST_F(BarrierPaths, LocalRacesAndAtomicsResolveTheSameWay) {
  SKIP_UNLESS_FIBERCL("FIBERCL_BARRIERS and FIBERCL_DEBUG are FiberCL's");
  const char *src = R"CLC(
    __kernel void races(__global uint* out) {
      __local uint last, counter;
      uint lid = get_local_id(0);
      if (lid == 0) counter = 0;
      barrier(CLK_LOCAL_MEM_FENCE);
      last = lid * 13u;                          // every work-item writes it
      uint ticket = atomic_inc(&counter);        // order of arrival
      barrier(CLK_LOCAL_MEM_FENCE);
      out[get_global_id(0)] = last * 1000u + ticket;
    })CLC";
  const size_t l = 3 * 4 * 5, n = l * 3;
  sameOnBothPaths(src, "races", [&](cl_kernel k) {
    cl_mem out = buffer(n * sizeof(cl_uint));
    setArgs(k, out);
    run(k, {n}, {l});
    return bytesOf<cl_uint>(out, n);
  });
}

// 3-D work-groups: every work-item reads what the mirrored work-item wrote.
TEST_F(BarrierPaths, ThreeDimensionalGroupsMirror) {
  SKIP_UNLESS_FIBERCL("FIBERCL_BARRIERS and FIBERCL_DEBUG are FiberCL's");
  const char *src = R"CLC(
    __kernel void mirror(__global uint* out) {
      __local uint cube[4][4][4];
      uint x = get_local_id(0), y = get_local_id(1), z = get_local_id(2);
      cube[z][y][x] = (uint)(get_global_id(0) * 10000 + get_global_id(1) * 100 + get_global_id(2));
      barrier(CLK_LOCAL_MEM_FENCE);
      uint v = cube[3 - z][3 - y][3 - x];
      barrier(CLK_LOCAL_MEM_FENCE);
      cube[x][z][y] = v + 1;
      barrier(CLK_LOCAL_MEM_FENCE);
      size_t i = (get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0) +
                 get_global_id(0);
      out[i] = cube[z][y][x];
    })CLC";
  const size_t n = 8 * 8 * 4;
  sameOnBothPaths(src, "mirror", [&](cl_kernel k) {
    cl_mem out = buffer(n * sizeof(cl_uint));
    setArgs(k, out);
    run(k, {8, 8, 4}, {4, 4, 4});
    return bytesOf<cl_uint>(out, n);
  });
}

// Work-group collectives are built on barriers in the OpenCL C library.
TEST_F(BarrierPaths, WorkGroupCollectives) {
  SKIP_UNLESS_FIBERCL("FIBERCL_BARRIERS and FIBERCL_DEBUG are FiberCL's");
  if (!hasCFeature("__opencl_c_work_group_collective_functions"))
    GTEST_SKIP() << "no work-group collective functions";
  const char *src = R"CLC(
    __kernel void collect(__global const int* in, __global int* out) {
      size_t g = get_global_id(0);
      int v = in[g];
      int sum = work_group_reduce_add(v);
      int scan = work_group_scan_inclusive_max(v);
      int first = work_group_broadcast(v, 0);
      out[g] = sum * 3 + scan * 7 + first;
    })CLC";
  const size_t l = 100, n = l * 4;
  std::vector<cl_int> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = int((i * 7919) % 211) - 100;
  sameOnBothPaths(
      src, "collect",
      [&](cl_kernel k) {
        cl_mem din = bufferFrom(in), out = buffer(n * sizeof(cl_int));
        setArgs(k, din, out);
        run(k, {n}, {l});
        return bytesOf<cl_int>(out, n);
      },
      "-cl-std=CL3.0");
}

// Tiled matrix product: a loop counter the same for every work-item (kept once per
// group across barriers, in two copies that swap every round) and per-item
// accumulators, checked against the host.
TEST_F(BarrierPaths, TiledMatrixProductMatchesTheHost) {
  SKIP_UNLESS_FIBERCL("FIBERCL_BARRIERS and FIBERCL_DEBUG are FiberCL's");
  const char *src = R"CLC(
    #define TS 8
    __kernel void matmul(uint n, __global const float* A, __global const float* B,
                         __global float* C) {
      __local float As[TS][TS], Bs[TS][TS];
      uint lx = get_local_id(0), ly = get_local_id(1);
      uint col = get_global_id(0), row = get_global_id(1);
      float acc = 0.0f;
      for (uint t = 0; t < n; t += TS) {
        As[ly][lx] = A[row * n + t + lx];
        Bs[ly][lx] = B[(t + ly) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; k < TS; ++k) acc += As[ly][k] * Bs[k][lx];
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      C[row * n + col] = acc;
    })CLC";
  const cl_uint n = 48;
  std::vector<float> a(n * n), b(n * n);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = float(int(i * 7 % 13) - 6); // small integers: every sum is exact
    b[i] = float(int(i * 5 % 11) - 5);
  }
  Bytes c = sameOnBothPaths(src, "matmul", [&](cl_kernel k) {
    cl_mem da = bufferFrom(a), db = bufferFrom(b), dc = buffer(n * n * sizeof(float));
    setArgs(k, n, da, db, dc);
    run(k, {n, n}, {8, 8});
    return bytesOf<float>(dc, n * n);
  });
  for (cl_uint r = 0; r < n; ++r)
    for (cl_uint col = 0; col < n; ++col) {
      float want = 0.0f, got;
      for (cl_uint k = 0; k < n; ++k)
        want += a[r * n + k] * b[k * n + col];
      std::memcpy(&got, &c[(r * n + col) * 4], 4);
      ASSERT_EQ(got, want) << "C[" << r << "][" << col << "]";
    }
}

// A barrier that work-item 0 skips: both paths fail the command with the same report.
TEST_F(BarrierPaths, DivergenceIsReportedTheSameWay) {
  SKIP_UNLESS_FIBERCL("FIBERCL_BARRIERS and FIBERCL_DEBUG are FiberCL's");
  const char *src = R"CLC(
    __kernel void skip(__global uint* out) {
      uint lid = get_local_id(0);
      out[lid] = lid;
      if (lid != 3) barrier(CLK_GLOBAL_MEM_FENCE);
      out[lid] += 1;
    })CLC";
  std::string reports[2];
  int i = 0;
  for (const char *path : {"regions", "fibers"}) {
    cl_kernel k = kernelOn(path, src, "skip");
    cl_mem out = buffer(8 * sizeof(cl_uint));
    setArgs(k, out);
    Completion c = runReporting(k, {8}, {8});
    reports[i] = c.stderrText;
    EXPECT_LT(c.status, 0) << path << ": the command did not fail";
    EXPECT_NE(reports[i].find("barrier divergence"), std::string::npos) << path << ":\n"
                                                                        << reports[i];
    ++i;
  }
  // Site numbers differ between the builds; the words must not.
  auto words = [](std::string s) {
    for (char &c : s)
      if (c >= '0' && c <= '9')
        c = '#';
    return s;
  };
  EXPECT_EQ(words(reports[0]), words(reports[1]));
}

} // namespace
} // namespace fcltest

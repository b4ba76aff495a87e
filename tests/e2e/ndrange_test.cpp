// NDRange shape and basic data-parallel kernels: vecadd, saxpy, work-item functions
// in 2D/3D with and without offsets, non-uniform work-groups, kernel arguments by
// value, constant memory and program-scope globals.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>

#include "cl_test.hpp"

namespace fcltest {
namespace {

using NDRange = CLTest;

TEST_F(NDRange, VecAddOneMillionFloats) {
  const size_t n = 1 << 20;
  std::vector<float> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i) * 0.5f;
    b[i] = 1000.0f - static_cast<float>(i % 977);
  }
  cl_kernel k = kernelFrom(R"CLC(
    __kernel void vecadd(__global const float* a, __global const float* b, __global float* c) {
      size_t i = get_global_id(0);
      c[i] = a[i] + b[i];
    })CLC",
                           "vecadd");
  cl_mem da = bufferFrom(a, CL_MEM_READ_ONLY), db = bufferFrom(b, CL_MEM_READ_ONLY);
  cl_mem dc = buffer(n * sizeof(float));
  setArgs(k, da, db, dc);
  run(k, {n});
  std::vector<float> c = read<float>(dc, n);
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i)
    if (c[i] != a[i] + b[i] && bad++ < 5)
      ADD_FAILURE() << "c[" << i << "] = " << c[i];
  EXPECT_EQ(bad, 0u);
}

// Applications choose their vector types from the preferred widths (hashcat): FiberCL
// reports as many elements as fill the host's widest SIMD register, at most 16, and a
// kernel on vectors of that width computes correctly.
TEST_F(NDRange, PreferredVectorWidthsFollowTheHostSimd) {
  cl_uint ints = deviceInfo<cl_uint>(device_, CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT);
  cl_uint longs = deviceInfo<cl_uint>(device_, CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG);
  EXPECT_EQ(deviceInfo<cl_uint>(device_, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT), ints);
  EXPECT_EQ(deviceInfo<cl_uint>(device_, CL_DEVICE_NATIVE_VECTOR_WIDTH_INT), ints);
  EXPECT_GE(deviceInfo<cl_uint>(device_, CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR), ints);
  if (isFiberCL()) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    cl_uint bytes = __builtin_cpu_supports("avx512f") ? 64
                    : __builtin_cpu_supports("avx")   ? 32
                                                      : 16;
    EXPECT_EQ(ints, bytes / 4) << "the host's SIMD register holds " << bytes / 4 << " ints";
    EXPECT_EQ(longs, bytes / 8);
    EXPECT_EQ(deviceInfo<cl_uint>(device_, CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR), 16u);
#endif
  }
  ASSERT_TRUE(ints == 1 || ints == 2 || ints == 4 || ints == 8 || ints == 16);
  const std::string type = ints == 1 ? "int" : "int" + std::to_string(ints);
  cl_kernel k = kernelFrom("kernel void k(global " + type + " *a, global const " + type +
                               " *b) { size_t i = get_global_id(0); a[i] = a[i] * 3 + b[i]; }",
                           "k");
  const size_t n = 64 * ints;
  std::vector<int> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = int(i);
    b[i] = int(7 * i + 1);
  }
  cl_mem ma = bufferFrom(a), mb = bufferFrom(b);
  setArgs(k, ma, mb);
  run(k, {64});
  std::vector<int> got = read<int>(ma, n);
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(got[i], int(i) * 3 + int(7 * i + 1)) << "at " << i;
}

TEST_F(NDRange, SaxpyOddSizeWithExplicitGroups) {
  const size_t n = 100003; // prime: only local size 1 divides it
  std::vector<float> x(n), y(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 1000) / 7.0f;
    y[i] = static_cast<float>(i % 13);
  }
  cl_kernel k = kernelFrom(R"CLC(
    __kernel void saxpy(float a, __global const float* x, __global float* y, uint n) {
      size_t i = get_global_id(0);
      if (i < n) y[i] = a * x[i] + y[i];
    })CLC",
                           "saxpy");
  cl_mem dx = bufferFrom(x), dy = bufferFrom(y);
  float a = 2.5f;
  cl_uint nn = static_cast<cl_uint>(n);
  setArgs(k, a, dx, dy, nn);
  run(k, {(n + 63) / 64 * 64}, {64});
  std::vector<float> r = read<float>(dy, n);
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) {
    float want = a * x[i] + y[i];
    if (std::fabs(r[i] - want) > 1e-5f * std::fabs(want) + 1e-6f && bad++ < 5)
      ADD_FAILURE() << "y[" << i << "] = " << r[i] << ", want " << want;
  }
  EXPECT_EQ(bad, 0u);
}

// With no local size, a prime global size has no divisor but 1: 1-item groups would
// keep the work-item loop from vectorising. Where non-uniform groups are allowed
// (OpenCL C 2.0+), FiberCL picks a larger size and a partial last group; OpenCL C 1.2
// requires uniform groups, so there the size still divides the global size.
TEST_F(NDRange, NullLocalSizeWithPrimeGlobalSize) {
  const size_t n = 100003;
  const char *src = R"CLC(
    #if __OPENCL_C_VERSION__ < 200
    #define get_enqueued_local_size get_local_size
    #endif
    __kernel void sizes(__global uint* out) {
      size_t i = get_global_id(0);
      out[3 * i] = (uint)get_local_size(0);
      out[3 * i + 1] = (uint)get_enqueued_local_size(0);
      out[3 * i + 2] = (uint)(get_group_id(0) * get_enqueued_local_size(0) + get_local_id(0));
    })CLC";
  for (const char *std : {"-cl-std=CL3.0", "-cl-std=CL1.2"}) {
    SCOPED_TRACE(std);
    cl_kernel k = kernelFrom(src, "sizes", std);
    cl_mem out = buffer(3 * n * sizeof(cl_uint));
    setArgs(k, out);
    run(k, {n});
    std::vector<cl_uint> r = read<cl_uint>(out, 3 * n);
    cl_uint enqueued = r[1];
    if (std == std::string("-cl-std=CL1.2")) {
      EXPECT_EQ(n % enqueued, 0u) << "uniform groups required";
    } else {
      EXPECT_GE(enqueued, 64u) << "a prime global size should not give tiny groups";
      EXPECT_NE(n % enqueued, 0u);
    }
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) {
      size_t groupStart = i / enqueued * enqueued;
      cl_uint wantLocal = cl_uint(std::min<size_t>(enqueued, n - groupStart));
      if ((r[3 * i] != wantLocal || r[3 * i + 1] != enqueued || r[3 * i + 2] != i) && bad++ < 5)
        ADD_FAILURE() << "item " << i << ": local " << r[3 * i] << " enqueued " << r[3 * i + 1]
                      << " global " << r[3 * i + 2];
    }
    EXPECT_EQ(bad, 0u);
  }
}

// ---- work-item functions --------------------------------------------------------

const char *kIdsSource = R"CLC(
  __kernel void ids(__global uint* out) {
    uint dims = get_work_dim();
    size_t lin = 0, stride = 1;
    for (uint d = 0; d < dims; ++d) {
      lin += (get_global_id(d) - get_global_offset(d)) * stride;
      stride *= get_global_size(d);
    }
    __global uint* o = out + lin * 24;
    for (uint d = 0; d < 3; ++d) {
      o[d * 8 + 0] = (uint)get_global_id(d);
      o[d * 8 + 1] = (uint)get_local_id(d);
      o[d * 8 + 2] = (uint)get_group_id(d);
      o[d * 8 + 3] = (uint)get_local_size(d);
      o[d * 8 + 4] = (uint)get_num_groups(d);
      o[d * 8 + 5] = (uint)get_global_size(d);
      o[d * 8 + 6] = (uint)get_global_offset(d);
      o[d * 8 + 7] = dims;
    }
  })CLC";

struct IdsCase {
  const char *name;
  std::vector<size_t> global, local, offset;
};

class WorkItemFunctions : public CLTest, public ::testing::WithParamInterface<IdsCase> {};

TEST_P(WorkItemFunctions, MatchHostComputation) {
  const IdsCase &c = GetParam();
  const size_t dims = c.global.size();
  size_t g[3] = {1, 1, 1}, l[3] = {1, 1, 1}, off[3] = {0, 0, 0};
  for (size_t d = 0; d < dims; ++d) {
    g[d] = c.global[d];
    l[d] = c.local[d];
    if (!c.offset.empty())
      off[d] = c.offset[d];
  }
  const size_t total = g[0] * g[1] * g[2];
  cl_kernel k = kernelFrom(kIdsSource, "ids");
  cl_mem out = buffer(total * 24 * sizeof(cl_uint));
  cl_uint pattern = 0xDEADBEEF;
  ASSERT_CL(clEnqueueFillBuffer(queue_, out, &pattern, sizeof pattern, 0,
                                total * 24 * sizeof(cl_uint), 0, nullptr, nullptr));
  setArgs(k, out);
  run(k, c.global, c.local, c.offset);
  std::vector<cl_uint> r = read<cl_uint>(out, total * 24);
  static const char *field[8] = {"global_id",  "local_id",    "group_id",      "local_size",
                                 "num_groups", "global_size", "global_offset", "work_dim"};
  size_t bad = 0;
  for (size_t z = 0; z < g[2]; ++z)
    for (size_t y = 0; y < g[1]; ++y)
      for (size_t x = 0; x < g[0]; ++x) {
        size_t pos[3] = {x, y, z};
        size_t lin = x + g[0] * (y + g[1] * z);
        for (size_t d = 0; d < 3; ++d) {
          bool in = d < dims;
          cl_uint want[8] = {static_cast<cl_uint>(in ? pos[d] + off[d] : 0),
                             static_cast<cl_uint>(in ? pos[d] % l[d] : 0),
                             static_cast<cl_uint>(in ? pos[d] / l[d] : 0),
                             static_cast<cl_uint>(in ? l[d] : 1),
                             static_cast<cl_uint>(in ? g[d] / l[d] : 1),
                             static_cast<cl_uint>(in ? g[d] : 1),
                             static_cast<cl_uint>(in ? off[d] : 0),
                             static_cast<cl_uint>(dims)};
          for (int f = 0; f < 8; ++f) {
            cl_uint got = r[lin * 24 + d * 8 + f];
            if (got != want[f] && bad++ < 8)
              ADD_FAILURE() << "item (" << x << "," << y << "," << z << ") get_" << field[f] << "("
                            << d << ") = " << got << ", want " << want[f];
          }
        }
      }
  EXPECT_EQ(bad, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, WorkItemFunctions,
    ::testing::Values(IdsCase{"1D", {96}, {32}, {}}, IdsCase{"1DOffset", {96}, {16}, {1000}},
                      IdsCase{"2D", {24, 10}, {8, 5}, {}},
                      IdsCase{"2DOffset", {24, 10}, {8, 5}, {3, 7}},
                      IdsCase{"3D", {8, 6, 4}, {4, 3, 2}, {}},
                      IdsCase{"3DOffset", {8, 6, 4}, {4, 3, 2}, {1, 2, 3}},
                      IdsCase{"3DSingleGroup", {4, 4, 4}, {4, 4, 4}, {5, 0, 9}}),
    [](const ::testing::TestParamInfo<IdsCase> &i) { return std::string(i.param.name); });

// Which programs may be launched with a partial last group is decided by their build
// options, as the compiler parses them (one parser for both): OpenCL C before 2.0 (the
// default) and -cl-uniform-work-group-size require uniform groups; 2.0 and 3.0
// without it do not, also when the option words are quoted or spaced oddly.
TEST_F(NDRange, BuildOptionsDecideWhetherGroupsMustBeUniform) {
  if (!deviceInfo<cl_bool>(device_, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT))
    GTEST_SKIP() << "device does not support non-uniform work-groups";
  const char *src = "__kernel void k(__global int* d) { d[get_global_id(0)] = 1; }";
  struct Case {
    const char *options;
    bool uniform;
  } cases[] = {{"", true},
               {"-cl-std=CL1.2", true},
               {"-cl-std=CL2.0", false},
               // The option inside a quoted macro value is no option (a split on
               // spaces took it for one).
               {"  -cl-std=CL3.0   -DY=\"a -cl-uniform-work-group-size b\" ", false},
               {"-cl-std=CL3.0 -cl-uniform-work-group-size", true},
               {"-cl-uniform-work-group-size -cl-std=CL2.0", true}};
  cl_mem m = buffer(16 * sizeof(cl_int));
  for (const Case &c : cases) {
    SCOPED_TRACE(std::string("options '") + c.options + "'");
    cl_kernel k = kernelFrom(src, "k", c.options);
    setArgs(k, m);
    const size_t g[1] = {10}, l[1] = {4};
    cl_int err = clEnqueueNDRangeKernel(queue_, k, 1, nullptr, g, l, 0, nullptr, nullptr);
    if (c.uniform)
      EXPECT_CL_ERR(CL_INVALID_WORK_GROUP_SIZE, err);
    else
      EXPECT_CL(err);
    ASSERT_CL(clFinish(queue_));
  }
}

TEST_F(NDRange, NonUniformWorkGroups) {
  if (!deviceInfo<cl_bool>(device_, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT))
    GTEST_SKIP() << "device does not support non-uniform work-groups";
  cl_kernel k = kernelFrom(R"CLC(
    __kernel void nu(__global uint* out) {
      size_t i = get_global_id(0);
      out[i * 4 + 0] = (uint)get_local_size(0);
      out[i * 4 + 1] = (uint)get_enqueued_local_size(0);
      out[i * 4 + 2] = (uint)get_group_id(0);
      out[i * 4 + 3] = (uint)get_local_id(0);
    })CLC",
                           "nu", "-cl-std=CL3.0");
  const size_t n = 1000, l = 64;
  cl_mem out = buffer(n * 4 * sizeof(cl_uint));
  setArgs(k, out);
  run(k, {n}, {l});
  std::vector<cl_uint> r = read<cl_uint>(out, n * 4);
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) {
    cl_uint want_ls = i >= 960 ? 40 : 64;
    if ((r[i * 4] != want_ls || r[i * 4 + 1] != 64 || r[i * 4 + 2] != i / 64 ||
         r[i * 4 + 3] != i % 64) &&
        bad++ < 5)
      ADD_FAILURE() << "item " << i << ": local_size " << r[i * 4] << " (want " << want_ls
                    << "), enqueued " << r[i * 4 + 1] << " (want 64), group " << r[i * 4 + 2]
                    << ", local id " << r[i * 4 + 3];
  }
  EXPECT_EQ(bad, 0u);
}

TEST_F(NDRange, NullOrZeroGlobalSizeIsANoOp) {
  // OpenCL >= 2.1: a NULL global_work_size or a zero in it makes the command trivially
  // succeed without running any work-item.
  cl_kernel k = kernelFrom(R"CLC(
    __kernel void touch(__global int* p) { p[0] = 1; })CLC",
                           "touch");
  cl_mem m = bufferFrom(std::vector<cl_int>{7});
  setArgs(k, m);
  cl_event ev = nullptr;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, nullptr, nullptr, 0, nullptr, &ev));
  keep(ev);
  size_t zero[2] = {4, 0};
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 2, nullptr, zero, nullptr, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
  cl_int st = 1;
  ASSERT_CL(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, nullptr));
  EXPECT_EQ(st, CL_COMPLETE);
  EXPECT_EQ(read<cl_int>(m, 1)[0], 7);
}

// ---- arguments by value, constant memory, program-scope variables ---------------

struct HostArgStruct {
  cl_int a;
  cl_float b;
  cl_long c;
  cl_char d;
  cl_char pad[3];
  cl_uint e;
};
static_assert(sizeof(HostArgStruct) == 24, "layout must match the kernel's struct");

TEST_F(NDRange, ArgumentsByValue) {
  cl_kernel k = kernelFrom(R"CLC(
    typedef struct { int a; float b; long c; char d; char pad[3]; uint e; } S;
    __kernel void args(S s, float4 v, char ch, long lg, uchar uc, short sh, double dd,
                       __global long* out, __global float* fout) {
      out[0] = s.a; out[1] = s.c; out[2] = s.d; out[3] = s.e;
      out[4] = ch; out[5] = lg; out[6] = uc; out[7] = sh;
      out[8] = (long)(dd * 1000.0);
      fout[0] = s.b; fout[1] = v.x; fout[2] = v.y; fout[3] = v.z; fout[4] = v.w;
      fout[5] = v.x + v.y + v.z + v.w;
    })CLC",
                           "args");
  HostArgStruct s{};
  s.a = -123456;
  s.b = 3.25f;
  s.c = -(1LL << 40) - 5;
  s.d = -7;
  s.e = 0xFEDCBA98u;
  cl_float4 v = {{1.5f, -2.0f, 8.25f, 100.0f}};
  cl_char ch = -100;
  cl_long lg = 0x123456789ABCDEFLL;
  cl_uchar uc = 250;
  cl_short sh = -30000;
  cl_double dd = 2.5;
  cl_mem out = buffer(9 * sizeof(cl_long)), fout = buffer(6 * sizeof(cl_float));
  setArgs(k, s, v, ch, lg, uc, sh, dd, out, fout);
  run(k, {1});
  std::vector<cl_long> r = read<cl_long>(out, 9);
  std::vector<cl_float> f = read<cl_float>(fout, 6);
  EXPECT_EQ(r[0], s.a);
  EXPECT_EQ(r[1], s.c);
  EXPECT_EQ(r[2], s.d);
  EXPECT_EQ(r[3], static_cast<cl_long>(s.e));
  EXPECT_EQ(r[4], ch);
  EXPECT_EQ(r[5], lg);
  EXPECT_EQ(r[6], uc);
  EXPECT_EQ(r[7], sh);
  EXPECT_EQ(r[8], 2500);
  EXPECT_EQ(f[0], s.b);
  EXPECT_EQ(f[1], 1.5f);
  EXPECT_EQ(f[2], -2.0f);
  EXPECT_EQ(f[3], 8.25f);
  EXPECT_EQ(f[4], 100.0f);
  EXPECT_EQ(f[5], 107.75f);
}

TEST_F(NDRange, ConstantBufferAndProgramScopeConstantArray) {
  cl_kernel k = kernelFrom(R"CLC(
    __constant int table[8] = {1, 1, 2, 3, 5, 8, 13, 21};
    __kernel void lut(__constant int* coeff, __global const int* idx, __global int* out) {
      size_t i = get_global_id(0);
      out[i] = table[idx[i] & 7] * coeff[i % 4];
    })CLC",
                           "lut");
  const size_t n = 256;
  std::vector<cl_int> coeff = {10, -1, 100, 7}, idx(n);
  for (size_t i = 0; i < n; ++i)
    idx[i] = static_cast<cl_int>(i * 5 + 3);
  cl_mem dc = bufferFrom(coeff, CL_MEM_READ_ONLY), di = bufferFrom(idx, CL_MEM_READ_ONLY);
  cl_mem out = buffer(n * sizeof(cl_int));
  setArgs(k, dc, di, out);
  run(k, {n});
  std::vector<cl_int> r = read<cl_int>(out, n);
  const int table[8] = {1, 1, 2, 3, 5, 8, 13, 21};
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(r[i], table[idx[i] & 7] * coeff[i % 4]) << "i=" << i;
}

class ProgramScopeGlobals : public CLTest, public ::testing::WithParamInterface<const char *> {};

TEST_P(ProgramScopeGlobals, PersistAcrossLaunches) {
  const std::string std = GetParam();
  // FiberCL accepts -cl-std=CL2.0 source (the GPU papers' kernels use it) without
  // listing 2.0 among its OpenCL C versions.
  if (std == "CL2.0" && !supportsCVersion(2, 0) && !isFiberCL())
    GTEST_SKIP() << "device does not support OpenCL C 2.0";
  if (std == "CL3.0" && !hasCFeature("__opencl_c_program_scope_global_variables"))
    GTEST_SKIP() << "device lacks __opencl_c_program_scope_global_variables";
  cl_program p = build(R"CLC(
    __global int counter = 5;
    __global float scale[4] = {1.0f, 2.0f, 4.0f, 8.0f};
    __kernel void bump(int by) { if (get_global_id(0) == 0) { counter += by; scale[1] *= 3.0f; } }
    __kernel void peek(__global int* out, __global float* fout) {
      out[0] = counter;
      for (int i = 0; i < 4; ++i) fout[i] = scale[i];
    })CLC",
                       "-cl-std=" + std);
  cl_kernel bump = kernel(p, "bump"), peek = kernel(p, "peek");
  cl_int by = 10;
  setArgs(bump, by);
  run(bump, {8});
  run(bump, {8});
  cl_mem out = buffer(sizeof(cl_int)), fout = buffer(4 * sizeof(cl_float));
  setArgs(peek, out, fout);
  run(peek, {1});
  EXPECT_EQ(read<cl_int>(out, 1)[0], 25);
  EXPECT_EQ(read<cl_float>(fout, 4), (std::vector<cl_float>{1.0f, 18.0f, 4.0f, 8.0f}));
}

INSTANTIATE_TEST_SUITE_P(Std, ProgramScopeGlobals, ::testing::Values("CL2.0", "CL3.0"),
                         [](const ::testing::TestParamInfo<const char *> &i) {
                           std::string s = i.param;
                           s.erase(std::remove(s.begin(), s.end(), '.'), s.end());
                           return s;
                         });

} // namespace
} // namespace fcltest

// Program objects: build logs, build options, separate compilation and linking,
// binaries, kernel/argument/work-group queries, clCloneKernel and
// clCreateKernelsInProgram.
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "cl_test.hpp"

namespace fcltest {
namespace {

class ProgramsBase : public CLTest {
protected:
  std::vector<cl_int> runInts(cl_kernel k, size_t count) {
    cl_mem out = buffer(count * sizeof(cl_int));
    std::vector<cl_int> zero(count, -1);
    write(out, zero);
    setArgs(k, out);
    run(k, {count});
    return read<cl_int>(out, count);
  }
  std::string programString(cl_program p, cl_program_info what) {
    size_t n = 0;
    check(clGetProgramInfo(p, what, 0, nullptr, &n), "clGetProgramInfo");
    std::string s(n, '\0');
    check(clGetProgramInfo(p, what, n, s.data(), nullptr), "clGetProgramInfo");
    while (!s.empty() && s.back() == '\0')
      s.pop_back();
    return s;
  }
};

using Build = ProgramsBase;

TEST_F(Build, SyntaxErrorLogNamesTheLine) {
  // Line numbers matter: the error is on line 3.
  BuildResult r = tryBuild("__kernel void f(__global int* p) {\n"
                           "  int x = 1;\n"
                           "  p[0] = x +* ;\n"
                           "}\n");
  EXPECT_CL_ERR(CL_BUILD_PROGRAM_FAILURE, r.err);
  EXPECT_NE(r.log.find(":3:"), std::string::npos) << "log does not name line 3:\n" << r.log;
  EXPECT_NE(r.log.find("error"), std::string::npos) << "log does not say error:\n" << r.log;
  cl_build_status st = CL_BUILD_NONE;
  ASSERT_CL(
      clGetProgramBuildInfo(r.program, device_, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, nullptr));
  EXPECT_EQ(st, CL_BUILD_ERROR);
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(r.program, "f", &err);
  EXPECT_EQ(k, nullptr);
  EXPECT_CL_ERR(CL_INVALID_PROGRAM_EXECUTABLE, err);
}

TEST_F(Build, DefinesAreVisible) {
  cl_kernel k = kernelFrom(R"CLC(
    __kernel void d(__global int* out) {
      out[0] = N;
    #ifdef FLAG
      out[1] = 1;
    #else
      out[1] = 0;
    #endif
      out[2] = TWICE(21);
    })CLC",
                           "d", "-D N=5 -DFLAG -D\"TWICE(x)=(2*(x))\"");
  EXPECT_EQ(runInts(k, 3), (std::vector<cl_int>{5, 1, 42}));
}

TEST_F(Build, IncludeDirectory) {
  char dir[] = "/tmp/fibercl_inc_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  std::string hdr = std::string(dir) + "/fibercl_test_inc.h";
  {
    std::ofstream f(hdr);
    f << "#define FROM_HEADER 1234\nint triple(int x) { return 3 * x; }\n";
  }
  atTearDown([hdr, d = std::string(dir)] {
    std::remove(hdr.c_str());
    rmdir(d.c_str());
  });
  cl_kernel k = kernelFrom(R"CLC(
    #include "fibercl_test_inc.h"
    __kernel void inc(__global int* out) { out[0] = FROM_HEADER; out[1] = triple(7); })CLC",
                           "inc", std::string("-I ") + dir);
  EXPECT_EQ(runInts(k, 2), (std::vector<cl_int>{1234, 21}));
  // And the -Idir spelling.
  cl_kernel k2 = kernelFrom(R"CLC(
    #include <fibercl_test_inc.h>
    __kernel void inc(__global int* out) { out[0] = triple(FROM_HEADER); })CLC",
                            "inc", std::string("-I") + dir);
  EXPECT_EQ(runInts(k2, 1), (std::vector<cl_int>{3702}));
}

// Each OpenCL C version the device lists builds with -cl-std and sets the macros; one it
// does not list (FiberCL, a 3.0 device, does not list 2.0) is a skipped case, not a pass.
struct LanguageVersion {
  const char *opt;
  int major, minor;
  cl_int want;
};
void PrintTo(const LanguageVersion &v, std::ostream *os) { *os << v.opt; }
class LanguageVersions : public Build, public testing::WithParamInterface<LanguageVersion> {};

TEST_P(LanguageVersions, SetTheVersionMacros) {
  const LanguageVersion &c = GetParam();
  if (!supportsCVersion(c.major, c.minor))
    GTEST_SKIP() << "the device does not list OpenCL C " << c.major << "." << c.minor;
  const char *src = R"CLC(
    __kernel void v(__global int* out) { out[0] = __OPENCL_C_VERSION__; out[1] = __OPENCL_VERSION__; })CLC";
  std::vector<cl_int> r = runInts(kernelFrom(src, "v", c.opt), 2);
  EXPECT_EQ(r[0], c.want);
  EXPECT_EQ(r[1], 300) << "__OPENCL_VERSION__ is the device's OpenCL version";
}

INSTANTIATE_TEST_SUITE_P(Build, LanguageVersions,
                         testing::Values(LanguageVersion{"-cl-std=CL1.2", 1, 2, 120},
                                         LanguageVersion{"-cl-std=CL2.0", 2, 0, 200},
                                         LanguageVersion{"-cl-std=CL3.0", 3, 0, 300}),
                         [](const testing::TestParamInfo<LanguageVersion> &p) {
                           return "CL" + std::to_string(p.param.major) +
                                  std::to_string(p.param.minor);
                         });

TEST_F(Build, FastRelaxedMathDefinesMacro) {
  const char *src = R"CLC(
    __kernel void f(__global int* out) {
    #ifdef __FAST_RELAXED_MATH__
      out[0] = 1;
    #else
      out[0] = 0;
    #endif
      out[1] = (int)(sqrt(16.0f) + 0.5f);
    })CLC";
  EXPECT_EQ(runInts(kernelFrom(src, "f", "-cl-fast-relaxed-math"), 2), (std::vector<cl_int>{1, 4}));
  EXPECT_EQ(runInts(kernelFrom(src, "f", "-cl-mad-enable -cl-no-signed-zeros"), 2),
            (std::vector<cl_int>{0, 4}));
}

const char *kWarningSource = R"CLC(
  __kernel void w(__global int* out) {
    if (out[1] = 3)      // assignment as a condition: a default-on warning (-Wparentheses)
      out[0] = 7;
  })CLC";

TEST_F(Build, WarningsSuppressedByW) {
  BuildResult plain = tryBuild(kWarningSource);
  ASSERT_CL(plain.err) << plain.log;
  // Whether warnings reach the build log is implementation-defined; FiberCL's log
  // carries Clang's diagnostics, so there it must.
  if (isFiberCL())
    EXPECT_NE(plain.log.find("warning"), std::string::npos) << "expected a warning in the log:\n"
                                                            << plain.log;
  else
    std::cout << "[ NOTE     ] warning-in-log check is FiberCL-only; skipped on " << platform_name_
              << "\n";
  BuildResult quiet = tryBuild(kWarningSource, "-w");
  ASSERT_CL(quiet.err) << quiet.log;
  EXPECT_EQ(quiet.log.find("warning"), std::string::npos) << "-w left a warning:\n" << quiet.log;
}

TEST_F(Build, WerrorTurnsWarningIntoFailure) {
  BuildResult r = tryBuild(kWarningSource, "-Werror");
  EXPECT_CL_ERR(CL_BUILD_PROGRAM_FAILURE, r.err) << r.log;
  EXPECT_NE(r.log.find("error"), std::string::npos) << r.log;
}

// Every compiler option of the OpenCL 3.0 specification (section 5.8.6) builds, alone
// and all together; hints a device may ignore (-cl-denorms-are-zero,
// -cl-no-subgroup-ifp) are among them.
TEST_F(Build, EverySpecificationOptionIsAccepted) {
  const char *src = R"CLC(
    __kernel void f(__global float* out) { out[get_global_id(0)] = 6.0f / 3.0f; })CLC";
  const char *options[] = {"-cl-single-precision-constant",
                           "-cl-denorms-are-zero",
                           "-cl-fp32-correctly-rounded-divide-sqrt",
                           "-cl-opt-disable",
                           "-cl-mad-enable",
                           "-cl-no-signed-zeros",
                           "-cl-unsafe-math-optimizations",
                           "-cl-finite-math-only",
                           "-cl-fast-relaxed-math",
                           "-cl-uniform-work-group-size",
                           "-cl-no-subgroup-ifp",
                           "-cl-kernel-arg-info",
                           "-w",
                           "-g",
                           "-DX=1",
                           "-cl-std=CL3.0"};
  std::string all;
  for (const char *o : options) {
    BuildResult r = tryBuild(src, o);
    EXPECT_CL(r.err) << o << "\n" << r.log;
    all += std::string(o) + " ";
  }
  BuildResult r = tryBuild(src, all);
  ASSERT_CL(r.err) << all << "\n" << r.log;
  cl_kernel k = kernel(r.program, "f");
  cl_mem out = buffer(4 * sizeof(float));
  setArgs(k, out);
  run(k, {4});
  EXPECT_EQ(read<float>(out, 4), std::vector<float>(4, 2.0f));
}

// Why a SPIR-V test cannot run here ("" if it can): no module was assembled at build
// time, or the device reports no SPIR-V.
std::string whyNoSpirv(cl_device_id device) {
#ifndef FIBERCL_TEST_SPIRV_DIR
  (void)device;
  return "spirv-as was not found at configure time: no SPIR-V module to test";
#else
  std::string il = deviceInfoString(device, CL_DEVICE_IL_VERSION);
  if (il.find("SPIR-V_1.0") == std::string::npos)
    return "the device reports no SPIR-V support (CL_DEVICE_IL_VERSION \"" + il + "\")";
  return "";
#endif
}

// The bytes of tests/e2e/spirv/<name>.spvasm as assembled at build time (empty if absent).
std::vector<unsigned char> spirvModule(const std::string &name) {
  std::vector<unsigned char> bytes;
#ifdef FIBERCL_TEST_SPIRV_DIR
  FILE *f = std::fopen((std::string(FIBERCL_TEST_SPIRV_DIR) + "/" + name + ".spv").c_str(), "rb");
  if (!f)
    return bytes;
  for (int c; (c = std::fgetc(f)) != EOF;)
    bytes.push_back(static_cast<unsigned char>(c));
  std::fclose(f);
#else
  (void)name;
#endif
  return bytes;
}

// clCreateProgramWithIL: a SPIR-V module (tests/e2e/spirv/scale.spvasm) builds and runs
// as its OpenCL C twin would; bad IL is refused; CL_PROGRAM_IL gives the bytes back.
TEST_F(Build, SpirvProgramsBuildAndRun) {
  if (std::string why = whyNoSpirv(device_); !why.empty())
    GTEST_SKIP() << why;
  std::vector<unsigned char> bytes = spirvModule("scale");
  ASSERT_FALSE(bytes.empty());
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithIL(context_, bytes.data(), bytes.size(), &err);
  ASSERT_CL(err);
  atTearDown([p] { clReleaseProgram(p); });
  ASSERT_CL(clBuildProgram(p, 1, &device_, "", nullptr, nullptr)) << buildLog(p);
  size_t size = 0;
  ASSERT_CL(clGetProgramInfo(p, CL_PROGRAM_IL, 0, nullptr, &size));
  EXPECT_EQ(size, bytes.size());
  cl_kernel k = kernel(p, "scale");
  const size_t n = 1000;
  std::vector<float> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = static_cast<float>(i % 17) - 3.0f;
  cl_mem a = bufferFrom(in), b = buffer(n * sizeof(float));
  setArgs(k, b, a, 2.5f);
  run(k, {n});
  auto out = read<float>(b, n);
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], in[i] * 2.5f + static_cast<float>(i)) << i;
  // Not SPIR-V: refused at creation.
  const char junk[32] = "definitely not a SPIR-V module";
  EXPECT_EQ(clCreateProgramWithIL(context_, junk, sizeof junk, &err), nullptr);
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  // A module the translator rejects (truncated): the build fails with a log.
  std::vector<unsigned char> cut(bytes.begin(), bytes.begin() + 40);
  cl_program bad = clCreateProgramWithIL(context_, cut.data(), cut.size(), &err);
  ASSERT_CL(err);
  atTearDown([bad] { clReleaseProgram(bad); });
  EXPECT_CL_ERR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(bad, 1, &device_, "", nullptr, nullptr));
  EXPECT_NE(buildLog(bad).find("SPIR-V"), std::string::npos) << buildLog(bad);
}

// Specialization constants (tests/e2e/spirv/specialize.spvasm): the module's defaults,
// then values set by clSetProgramSpecializationConstant (a 32-bit, a 64-bit beyond 2^32
// and a bool), checked against the spec's error codes; the kernel's global atomic
// (atomic_inc on a CrossWorkgroup pointer) finds its built-in.
TEST_F(Build, SpirvSpecializationConstants) {
  if (std::string why = whyNoSpirv(device_); !why.empty())
    GTEST_SKIP() << why;
  std::vector<unsigned char> bytes = spirvModule("specialize");
  ASSERT_FALSE(bytes.empty());
  const size_t n = 64;
  cl_mem counter = buffer(sizeof(cl_uint)), out = buffer(n * sizeof(cl_ulong));
  auto runWith = [&](auto &&set) -> std::vector<cl_ulong> {
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithIL(context_, bytes.data(), bytes.size(), &err);
    check(err, "clCreateProgramWithIL");
    atTearDown([p] { clReleaseProgram(p); });
    set(p);
    check(clBuildProgram(p, 1, &device_, "", nullptr, nullptr), "clBuildProgram");
    cl_kernel k = kernel(p, "count");
    write(counter, std::vector<cl_uint>{0});
    setArgs(k, counter, out);
    run(k, {n});
    EXPECT_EQ(read<cl_uint>(counter, 1)[0], n) << "atomic_inc";
    return read<cl_ulong>(out, n);
  };
  auto defaults = runWith([](cl_program) {});
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(defaults[i], 7 * i + 1) << i;
  const cl_ulong big = 0x8000000000000123ull;
  auto set = runWith([&](cl_program p) {
    cl_uint k = 3;
    cl_uchar flag = 1;
    EXPECT_CL(clSetProgramSpecializationConstant(p, 3, sizeof k, &k));
    EXPECT_CL(clSetProgramSpecializationConstant(p, 5, sizeof big, &big));
    EXPECT_CL(clSetProgramSpecializationConstant(p, 9, sizeof flag, &flag));
    EXPECT_CL_ERR(CL_INVALID_SPEC_ID, clSetProgramSpecializationConstant(p, 4, sizeof k, &k));
    EXPECT_CL_ERR(CL_INVALID_VALUE, clSetProgramSpecializationConstant(p, 3, sizeof big, &big));
    EXPECT_CL_ERR(CL_INVALID_VALUE, clSetProgramSpecializationConstant(p, 3, sizeof k, nullptr));
  });
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(set[i], 3 * i + big) << i;
  auto off = runWith([](cl_program p) {
    cl_uchar flag = 0;
    EXPECT_CL(clSetProgramSpecializationConstant(p, 9, sizeof flag, &flag));
  });
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(off[i], 0u) << i;
  // Only IL programs have specialization constants.
  cl_program source = createProgram("__kernel void k(void) {}");
  cl_uint v = 1;
  EXPECT_CL_ERR(CL_INVALID_PROGRAM, clSetProgramSpecializationConstant(source, 3, sizeof v, &v));
}

TEST_F(Build, InvalidOptionIsRejected) {
  BuildResult r = tryBuild("__kernel void k(void) {}", "-fibercl-no-such-option");
  EXPECT_CL_ERR(CL_INVALID_BUILD_OPTIONS, r.err) << r.log;
  BuildResult r2 = tryBuild("__kernel void k(void) {}", "-cl-std=CL9.9");
  EXPECT_CL_ERR(CL_INVALID_BUILD_OPTIONS, r2.err) << r2.log;
  // An empty include directory (found by fuzz/build_options.cpp: it became an empty
  // argument for Clang).
  BuildResult r3 = tryBuild("__kernel void k(void) {}", "-I \"\"");
  EXPECT_CL_ERR(CL_INVALID_BUILD_OPTIONS, r3.err) << r3.log;
  if (isFiberCL())
    EXPECT_NE(r3.log.find("empty directory after -I"), std::string::npos) << r3.log;
}

// Clang recurses once per prefix operator, about 5 KB of stack each: clang-19 itself
// overflows its 8 MB stack at about 1,500 `!` in a row, and FiberCL, which ran Clang on
// the application's thread, crashed the process there (found by fuzz/opencl_source.cpp)
// -- and at 200 on a thread with 1 MB. The compiler now runs on its own thread with a
// 256 MB stack, whatever thread calls clBuildProgram.
std::string notChain(int depth) { // an even number of `!`: !!x is (x != 0)
  return "__kernel void k(__global int* o) { o[0] = " + std::string(depth, '!') + "o[1]; }";
}

TEST_F(Build, DeeplyNestedExpressionsDoNotOverflowTheStack) {
  if (!isFiberCL())
    GTEST_SKIP() << "Clang-based compilers overflow their stack on this by design";
  ScopedEnv noCache{{"FIBERCL_CACHE", "0"}}; // Clang must see it, not the disk cache
  cl_kernel k = kernelFrom(notChain(6000), "k");
  cl_mem o = bufferFrom(std::vector<cl_int>{-1, 7});
  setArgs(k, o);
  run(k, {1});
  EXPECT_EQ(read<cl_int>(o, 1)[0], 1);
}

TEST_F(Build, BuildsOnAThreadWithASmallStack) {
  if (!isFiberCL())
    GTEST_SKIP() << "how much stack a build needs is the implementation's business";
  ScopedEnv noCache{{"FIBERCL_CACHE", "0"}};
  struct Job {
    cl_context context;
    cl_device_id device;
    std::string source;
    cl_int err = CL_SUCCESS;
    cl_program program = nullptr;
  } job{context_, device_, notChain(100)};
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, 256 * 1024), 0);
  pthread_t thread;
  ASSERT_EQ(pthread_create(
                &thread, &attr,
                [](void *arg) -> void * {
                  auto *j = static_cast<Job *>(arg);
                  const char *src = j->source.c_str();
                  j->program = clCreateProgramWithSource(j->context, 1, &src, nullptr, &j->err);
                  if (j->program)
                    j->err = clBuildProgram(j->program, 1, &j->device, "", nullptr, nullptr);
                  return nullptr;
                },
                &job),
            0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  if (cl_program p = job.program)
    atTearDown([p] { clReleaseProgram(p); });
  ASSERT_CL(job.err);
  cl_kernel k = kernel(job.program, "k");
  cl_mem o = bufferFrom(std::vector<cl_int>{-1, 0});
  setArgs(k, o);
  run(k, {1});
  EXPECT_EQ(read<cl_int>(o, 1)[0], 0);
}

TEST_F(Build, CompileAndLinkTwoProgramsWithEmbeddedHeaders) {
  cl_program hdr = createProgram("#define SCALE 3\nint helper(int x);\n");
  cl_program hdr2 = createProgram("#define OFFSET 100\n");
  cl_program main_p = createProgram(R"CLC(
    #include "shared.h"
    #include "sub/offset.h"
    __kernel void use(__global int* out) {
      int i = (int)get_global_id(0);
      out[i] = helper(i) * SCALE + OFFSET;
    })CLC");
  cl_program lib_p = createProgram(R"CLC(
    #include "shared.h"
    int helper(int x) { return x * x + SCALE; })CLC");
  cl_program headers[] = {hdr, hdr2};
  const char *names[] = {"shared.h", "sub/offset.h"};
  cl_int err = clCompileProgram(main_p, 1, &device_, "", 2, headers, names, nullptr, nullptr);
  ASSERT_CL(err) << buildLog(main_p);
  err = clCompileProgram(lib_p, 1, &device_, "", 1, headers, names, nullptr, nullptr);
  ASSERT_CL(err) << buildLog(lib_p);
  cl_program inputs[] = {main_p, lib_p};
  cl_program linked = clLinkProgram(context_, 1, &device_, "", 2, inputs, nullptr, nullptr, &err);
  ASSERT_CL(err);
  ASSERT_NE(linked, nullptr);
  atTearDown([linked] { clReleaseProgram(linked); });
  std::vector<cl_int> r = runInts(kernel(linked, "use"), 10);
  for (int i = 0; i < 10; ++i)
    EXPECT_EQ(r[i], (i * i + 3) * 3 + 100) << "i=" << i;

  // Linking without the library leaves helper undefined: a link failure.
  cl_program alone = clLinkProgram(context_, 1, &device_, "", 1, &main_p, nullptr, nullptr, &err);
  if (alone)
    atTearDown([alone] { clReleaseProgram(alone); });
  EXPECT_CL_ERR(CL_LINK_PROGRAM_FAILURE, err);
}

// clCompileProgram and clLinkProgram are cached on disk like clBuildProgram: the
// second compile + link of the same program adds no cache entry (all three came from
// the cache) and the kernel still runs; a compile that reads files (-I) is not cached.
TEST_F(Build, CompileAndLinkUseTheDiskCache) {
  SKIP_UNLESS_FIBERCL("FiberCL's kernel cache");
  char dirTemplate[] = "/tmp/fibercl-cache-test-XXXXXX";
  ASSERT_NE(mkdtemp(dirTemplate), nullptr);
  const std::string dir = dirTemplate;
  ScopedEnv env{{"FIBERCL_CACHE_DIR", dir}};
  auto entries = [&] {
    std::string cmd = "ls " + dir + " | grep -c '\\.bin$'";
    FILE *f = popen(cmd.c_str(), "r");
    int n = 0;
    if (f) {
      if (std::fscanf(f, "%d", &n) != 1)
        n = 0;
      pclose(f);
    }
    return n;
  };
  const std::string unique = "/* " + std::to_string(getpid()) + " */\n";
  auto compileAndLink = [&](const std::string &options) {
    cl_program lib = createProgram(unique + "int twice(int x) { return 2 * x; }\n");
    cl_program main_p = createProgram(
        unique +
        "int twice(int x);\n"
        "kernel void k(global int *o) { o[get_global_id(0)] = twice(get_global_id(0)); }\n");
    cl_int err =
        clCompileProgram(lib, 1, &device_, options.c_str(), 0, nullptr, nullptr, nullptr, nullptr);
    EXPECT_CL(err);
    err = clCompileProgram(main_p, 1, &device_, options.c_str(), 0, nullptr, nullptr, nullptr,
                           nullptr);
    EXPECT_CL(err);
    cl_program inputs[] = {main_p, lib};
    cl_program linked = clLinkProgram(context_, 1, &device_, "", 2, inputs, nullptr, nullptr, &err);
    EXPECT_CL(err);
    if (linked)
      atTearDown([linked] { clReleaseProgram(linked); });
    return linked;
  };
  ASSERT_NE(compileAndLink(""), nullptr);
  EXPECT_EQ(entries(), 3) << "two compiled objects and one linked executable stored";
  cl_program again = compileAndLink("");
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(entries(), 3) << "the second time, everything came from the cache";
  std::vector<cl_int> r = runInts(kernel(again, "k"), 8);
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(r[i], 2 * i);
  ASSERT_NE(compileAndLink("-I " + dir), nullptr);
  EXPECT_EQ(entries(), 3) << "compiles with -I are not cached (their headers are not in the key)";
  std::system(("rm -rf " + dir).c_str());
}

TEST_F(Build, BinaryRoundTrip) {
  const char *src = R"CLC(
    __kernel void sq(__global int* out) { int i = (int)get_global_id(0); out[i] = i * i - 5; })CLC";
  cl_program p = build(src);
  std::vector<cl_int> want = runInts(kernel(p, "sq"), 50);
  size_t size = 0;
  ASSERT_CL(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr));
  ASSERT_GT(size, 0u);
  std::vector<unsigned char> bin(size);
  unsigned char *ptr = bin.data();
  ASSERT_CL(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr));

  const unsigned char *bins[] = {bin.data()};
  cl_int status = 1, err = CL_SUCCESS;
  cl_program p2 = clCreateProgramWithBinary(context_, 1, &device_, &size, bins, &status, &err);
  ASSERT_CL(err);
  atTearDown([p2] { clReleaseProgram(p2); });
  EXPECT_CL(status);
  ASSERT_CL(clBuildProgram(p2, 1, &device_, "", nullptr, nullptr)) << buildLog(p2);
  std::vector<cl_int> got = runInts(kernel(p2, "sq"), 50);
  EXPECT_EQ(got, want);
  for (int i = 0; i < 50; ++i)
    ASSERT_EQ(want[i], i * i - 5);
}

// Applications key their binary caches on CL_DRIVER_VERSION (hashcat does), so a binary
// of an older format (refused with CL_INVALID_BINARY) must come with another driver
// version: the version ends with the format number the binary carries after its magic.
TEST_F(Build, DriverVersionNamesTheBinaryFormat) {
  cl_program p = build("__kernel void k(__global int* o) { o[0] = 1; }");
  size_t size = 0;
  ASSERT_CL(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr));
  std::vector<unsigned char> bin(size);
  unsigned char *ptr = bin.data();
  ASSERT_CL(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr));
  ASSERT_GE(size, 12u);
  uint32_t format = 0;
  std::memcpy(&format, bin.data() + 8, sizeof format); // after the 8-byte magic
  char version[64] = {};
  ASSERT_CL(clGetDeviceInfo(device_, CL_DRIVER_VERSION, sizeof version, version, nullptr));
  EXPECT_EQ(std::string(version), "0.1." + std::to_string(format));

  bin[8] ^= 0x40; // another format: refused
  const unsigned char *bins[] = {bin.data()};
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  cl_program stale = clCreateProgramWithBinary(context_, 1, &device_, &size, bins, &status, &err);
  EXPECT_EQ(stale, nullptr);
  EXPECT_EQ(err, CL_INVALID_BINARY);
}

// CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE counts program-scope and function-scope
// static variables in the global address space (OpenCL C 2.0+), also when the
// optimiser keeps them in registers.
TEST_F(Build, GlobalVariableTotalSize) {
  BuildResult r = tryBuild(R"CLC(
    global int table[100];
    global float4 scale = (float4)(1, 2, 3, 4);
    constant int notCounted[64] = {1};
    __kernel void k(__global int* out) {
      static global long calls;
      table[get_global_id(0)] = (int)scale.y + notCounted[0];
      out[0] = table[0] + (int)calls++;
    })CLC",
                           "-cl-std=CL2.0");
  ASSERT_CL(r.err) << r.log;
  size_t bytes = 0;
  ASSERT_CL(clGetProgramBuildInfo(r.program, device_, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                  sizeof bytes, &bytes, nullptr));
  EXPECT_EQ(bytes, 100 * sizeof(cl_int) + sizeof(cl_float4) + sizeof(cl_long));
}

TEST_F(Build, GarbageBinaryIsRejected) {
  std::vector<unsigned char> junk(256);
  for (size_t i = 0; i < junk.size(); ++i)
    junk[i] = static_cast<unsigned char>(i * 37 + 11);
  const unsigned char *bins[] = {junk.data()};
  size_t size = junk.size();
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  cl_program p = clCreateProgramWithBinary(context_, 1, &device_, &size, bins, &status, &err);
  if (p)
    clReleaseProgram(p);
  EXPECT_EQ(p, nullptr);
  EXPECT_CL_ERR(CL_INVALID_BINARY, err);
  EXPECT_CL_ERR(CL_INVALID_BINARY, status);
}

TEST_F(Build, KernelArgAndWorkGroupInfo) {
  cl_program p = build(R"CLC(
    typedef struct { int a; float b; } pair_t;
    __kernel __attribute__((reqd_work_group_size(8, 4, 1)))
    void info(__global const float* restrict src, __local int* scratch,
              __constant float4* table, uint count, pair_t pr, __global volatile int* flags) {
      __local float tile[64];
      tile[get_local_id(0)] = src[0] + table[0].x + pr.b;
      barrier(CLK_LOCAL_MEM_FENCE);
      scratch[0] = (int)tile[1] + (int)count + pr.a;
      flags[0] = 1;
    })CLC",
                       "-cl-kernel-arg-info");
  cl_kernel k = kernel(p, "info");
  char name[64] = {};
  ASSERT_CL(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, nullptr));
  EXPECT_STREQ(name, "info");
  cl_uint nargs = 0;
  ASSERT_CL(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, nullptr));
  EXPECT_EQ(nargs, 6u);
  cl_context ctx = nullptr;
  cl_program prog = nullptr;
  ASSERT_CL(clGetKernelInfo(k, CL_KERNEL_CONTEXT, sizeof ctx, &ctx, nullptr));
  ASSERT_CL(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof prog, &prog, nullptr));
  EXPECT_EQ(ctx, context_);
  EXPECT_EQ(prog, p);

  struct Want {
    const char *name;
    const char *type;
    cl_kernel_arg_address_qualifier aq;
    cl_kernel_arg_type_qualifier tq;
  } want[] = {
      {"src", "float*", CL_KERNEL_ARG_ADDRESS_GLOBAL,
       CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT},
      {"scratch", "int*", CL_KERNEL_ARG_ADDRESS_LOCAL, CL_KERNEL_ARG_TYPE_NONE},
      {"table", "float4*", CL_KERNEL_ARG_ADDRESS_CONSTANT, CL_KERNEL_ARG_TYPE_CONST},
      {"count", "uint", CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_TYPE_NONE},
      {"pr", "pair_t", CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_TYPE_NONE},
      {"flags", "int*", CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_TYPE_VOLATILE},
  };
  for (cl_uint i = 0; i < 6; ++i) {
    SCOPED_TRACE("arg " + std::to_string(i));
    char buf[128] = {};
    ASSERT_CL(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_NAME, sizeof buf, buf, nullptr));
    EXPECT_STREQ(buf, want[i].name);
    ASSERT_CL(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof buf, buf, nullptr));
    EXPECT_STREQ(buf, want[i].type);
    cl_kernel_arg_address_qualifier aq = 0;
    ASSERT_CL(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, nullptr));
    EXPECT_EQ(aq, want[i].aq);
    cl_kernel_arg_access_qualifier acc = 0;
    ASSERT_CL(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc, &acc, nullptr));
    EXPECT_EQ(acc, static_cast<cl_kernel_arg_access_qualifier>(CL_KERNEL_ARG_ACCESS_NONE));
    cl_kernel_arg_type_qualifier tq = 0;
    ASSERT_CL(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, nullptr));
    EXPECT_EQ(tq, want[i].tq);
  }

  size_t wg = 0, compile[3] = {}, multiple = 0;
  cl_ulong local = 0, priv = 0;
  ASSERT_CL(
      clGetKernelWorkGroupInfo(k, device_, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, nullptr));
  EXPECT_GE(wg, 1u);
  EXPECT_LE(wg, deviceInfo<size_t>(device_, CL_DEVICE_MAX_WORK_GROUP_SIZE));
  ASSERT_CL(clGetKernelWorkGroupInfo(k, device_, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compile,
                                     compile, nullptr));
  EXPECT_EQ(compile[0], 8u);
  EXPECT_EQ(compile[1], 4u);
  EXPECT_EQ(compile[2], 1u);
  ASSERT_CL(clGetKernelWorkGroupInfo(k, device_, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local,
                                     nullptr));
  EXPECT_GE(local, 64u * sizeof(float)) << "static __local tile[64] not counted";
  ASSERT_CL(clGetKernelWorkGroupInfo(k, device_, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                     sizeof multiple, &multiple, nullptr));
  EXPECT_GE(multiple, 1u);
  ASSERT_CL(clGetKernelWorkGroupInfo(k, device_, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof priv, &priv,
                                     nullptr));

  // Without reqd_work_group_size, COMPILE_WORK_GROUP_SIZE is (0, 0, 0).
  cl_kernel plain = kernelFrom("__kernel void z(__global int* o) { o[0] = 0; }", "z");
  ASSERT_CL(clGetKernelWorkGroupInfo(plain, device_, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                     sizeof compile, compile, nullptr));
  EXPECT_EQ(compile[0] + compile[1] + compile[2], 0u);
  // Without -cl-kernel-arg-info the names are not kept; the rest still answers.
  if (isFiberCL()) {
    cl_kernel plain =
        kernelFrom("__kernel void plain(__global int* dst, uint n) { dst[0] = n; }", "plain");
    char buf[64] = {};
    EXPECT_CL_ERR(CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
                  clGetKernelArgInfo(plain, 0, CL_KERNEL_ARG_NAME, sizeof buf, buf, nullptr));
    ASSERT_CL(clGetKernelArgInfo(plain, 1, CL_KERNEL_ARG_TYPE_NAME, sizeof buf, buf, nullptr));
    EXPECT_STREQ(buf, "uint");
  }
}

TEST_F(Build, ProgramInfoAndCreateKernelsInProgram) {
  cl_program p = build(R"CLC(
    __kernel void alpha(__global int* o) { o[get_global_id(0)] = 1; }
    __kernel void beta(__global int* o) { o[get_global_id(0)] = 2; }
    void not_a_kernel(void) {}
    __kernel void gamma(__global int* o) { o[get_global_id(0)] = 3; })CLC");
  size_t nk = 0;
  ASSERT_CL(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, nullptr));
  EXPECT_EQ(nk, 3u);
  std::string names = programString(p, CL_PROGRAM_KERNEL_NAMES);
  std::set<std::string> got;
  std::stringstream ss(names);
  for (std::string n; std::getline(ss, n, ';');)
    got.insert(n);
  EXPECT_EQ(got, (std::set<std::string>{"alpha", "beta", "gamma"})) << names;

  cl_uint count = 0;
  ASSERT_CL(clCreateKernelsInProgram(p, 0, nullptr, &count));
  EXPECT_EQ(count, 3u);
  std::vector<cl_kernel> ks(count);
  ASSERT_CL(clCreateKernelsInProgram(p, count, ks.data(), nullptr));
  std::set<std::string> kn;
  for (cl_kernel k : ks) {
    atTearDown([k] { clReleaseKernel(k); });
    char buf[32] = {};
    ASSERT_CL(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof buf, buf, nullptr));
    kn.insert(buf);
    std::vector<cl_int> r = runInts(k, 4);
    cl_int want = buf[0] == 'a' ? 1 : buf[0] == 'b' ? 2 : 3;
    EXPECT_EQ(r, std::vector<cl_int>(4, want)) << buf;
  }
  EXPECT_EQ(kn, (std::set<std::string>{"alpha", "beta", "gamma"}));
  std::string src = programString(p, CL_PROGRAM_SOURCE);
  EXPECT_NE(src.find("not_a_kernel"), std::string::npos);
}

TEST_F(Build, CloneKernelKeepsArguments) {
  cl_kernel k = kernelFrom(R"CLC(
    __kernel void fill(__global int* o, int v) { o[get_global_id(0)] = v; })CLC",
                           "fill");
  cl_mem a = buffer(8 * sizeof(cl_int)), b = buffer(8 * sizeof(cl_int));
  cl_int v1 = 11, v2 = 22;
  setArgs(k, a, v1);
  cl_int err = CL_SUCCESS;
  cl_kernel c = clCloneKernel(k, &err);
  ASSERT_CL(err);
  atTearDown([c] { clReleaseKernel(c); });
  setArgs(k, b, v2); // changing the original does not affect the clone
  run(c, {8});
  run(k, {8});
  EXPECT_EQ(read<cl_int>(a, 8), std::vector<cl_int>(8, 11));
  EXPECT_EQ(read<cl_int>(b, 8), std::vector<cl_int>(8, 22));
  char buf[16] = {};
  ASSERT_CL(clGetKernelInfo(c, CL_KERNEL_FUNCTION_NAME, sizeof buf, buf, nullptr));
  EXPECT_STREQ(buf, "fill");
}

} // namespace
} // namespace fcltest

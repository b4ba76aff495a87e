// A program's build over the device interface (runtime/program.cpp): the core compiles,
// the device loads the executable binary, and what the device says decides the build's
// status, log and kernels. The test device (manual_device.hpp) records every load, so
// the CPU device's JIT and executor play no part.
#include "manual_device.hpp"

#include "runtime/context.hpp"
#include "runtime/error.hpp"
#include "runtime/program.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fibercl::coretest {
namespace {

using runtime::Program;
using runtime::Ref;

// Code as a test device "loads" it: the kernels it was told about, no entry points.
class ListedExecutable : public compiler::Executable {
public:
  explicit ListedExecutable(std::vector<compiler::KernelInfo> kernels)
      : kernels_(std::move(kernels)) {}
  const std::vector<compiler::KernelInfo> &kernels() const override { return kernels_; }
  fcl_work_group_fn entry(const std::string &) const override { return nullptr; }

private:
  std::vector<compiler::KernelInfo> kernels_;
};

const char *kSource = "kernel void twice(global int *p) { p[get_global_id(0)] *= 2; }\n"
                      "kernel void zero(global int *p) { p[get_global_id(0)] = 0; }\n";

class ProgramTest : public testing::Test {
protected:
  Ref<Program> program(const std::string &source) {
    return runtime::make<Program>(*context_, source);
  }
  // Builds and returns the error code (CL_SUCCESS when the build succeeded).
  static cl_int build(Program &p, const std::string &options = "") {
    try {
      p.build(options);
      return CL_SUCCESS;
    } catch (const runtime::Error &e) {
      return e.code();
    }
  }

  ManualDevice device_;
  Ref<runtime::Context> context_ =
      runtime::make<runtime::Context>(std::vector<runtime::Device *>{&device_},
                                      std::vector<cl_context_properties>{}, nullptr, nullptr);
};

// The device receives the executable binary the compiler made, once per build, and the
// program's kernels are the compiler's (with their arguments), not the device's guess.
TEST_F(ProgramTest, BuildLoadsTheExecutableBinaryThroughTheDevice) {
  compiler::BinaryKind loadedKind = compiler::BinaryKind::None;
  std::vector<uint8_t> loaded;
  device_.loader = [&](const compiler::Binary &binary, std::string &) {
    loadedKind = binary.kind;
    loaded = binary.bytes;
    return std::make_unique<ListedExecutable>(std::vector<compiler::KernelInfo>{});
  };
  Ref<Program> p = program(kSource);
  ASSERT_EQ(build(*p), CL_SUCCESS) << p->buildLog();
  EXPECT_EQ(device_.loads, 1);
  EXPECT_EQ(loadedKind, compiler::BinaryKind::Executable);
  EXPECT_FALSE(loaded.empty());
  EXPECT_EQ(p->buildStatus(), CL_BUILD_SUCCESS);
  ASSERT_TRUE(p->hasExecutable());
  auto built = p->built();
  ASSERT_NE(built->find("twice"), nullptr);
  ASSERT_NE(built->find("zero"), nullptr);
  EXPECT_EQ(built->find("twice")->args.size(), 1u);
  EXPECT_EQ(built->find("missing"), nullptr);

  // A rebuild loads again; the binary the program hands out is the one loaded.
  ASSERT_EQ(build(*p, "-cl-fast-relaxed-math"), CL_SUCCESS) << p->buildLog();
  EXPECT_EQ(device_.loads, 2);
  EXPECT_EQ(p->binary().bytes, loaded);
  EXPECT_EQ(p->buildOptions(), "-cl-fast-relaxed-math");
}

// A device that cannot load the code fails the build: CL_BUILD_PROGRAM_FAILURE, its
// reason in the build log after the compiler's, no executable left from before.
TEST_F(ProgramTest, DeviceThatCannotLoadFailsTheBuildWithItsReasonInTheLog) {
  device_.loader = [](const compiler::Binary &, std::string &) {
    return std::make_unique<ListedExecutable>(std::vector<compiler::KernelInfo>{});
  };
  Ref<Program> p = program(kSource);
  ASSERT_EQ(build(*p), CL_SUCCESS) << p->buildLog();
  ASSERT_TRUE(p->hasExecutable());

  device_.loader = nullptr; // "a test device loads no code"
  EXPECT_EQ(build(*p), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_EQ(p->buildStatus(), CL_BUILD_ERROR);
  EXPECT_NE(p->buildLog().find("a test device loads no code"), std::string::npos) << p->buildLog();
  EXPECT_FALSE(p->hasExecutable());
  EXPECT_EQ(device_.loads, 2);
}

// Source the compiler rejects never reaches the device, and the log carries Clang's
// diagnostic with its line.
TEST_F(ProgramTest, BadSourceNeverReachesTheDevice) {
  Ref<Program> p = program("kernel void k(global int *p) { p[0] = undeclared; }\n");
  EXPECT_EQ(build(*p), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_EQ(device_.loads, 0);
  EXPECT_NE(p->buildLog().find("undeclared"), std::string::npos) << p->buildLog();
  EXPECT_NE(p->buildLog().find(":1:"), std::string::npos) << p->buildLog();
  EXPECT_FALSE(p->hasExecutable());
}

// A program made from a binary loads it through the device when built, without
// compiling source again.
TEST_F(ProgramTest, ProgramFromBinaryLoadsTheSameBinary) {
  std::vector<uint8_t> loaded;
  device_.loader = [&](const compiler::Binary &binary, std::string &) {
    loaded = binary.bytes;
    return std::make_unique<ListedExecutable>(std::vector<compiler::KernelInfo>{});
  };
  Ref<Program> source = program(kSource);
  ASSERT_EQ(build(*source), CL_SUCCESS) << source->buildLog();
  compiler::Binary binary = source->binary();
  loaded.clear();

  Ref<Program> fromBinary = runtime::make<Program>(*context_, binary);
  ASSERT_EQ(build(*fromBinary), CL_SUCCESS) << fromBinary->buildLog();
  EXPECT_EQ(device_.loads, 2);
  EXPECT_EQ(loaded, binary.bytes);
  EXPECT_TRUE(fromBinary->hasExecutable());
}

} // namespace
} // namespace fibercl::coretest

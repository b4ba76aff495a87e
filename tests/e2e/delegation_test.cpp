// Delegation (issue 11, in progress): another vendor's devices under FiberCL's
// platform. Run by CTest with OCL_ICD_VENDORS naming FiberCL and PoCL and
// FIBERCL_DELEGATE=pocl (tests/CMakeLists.txt); skipped, saying so, otherwise.
#include <cstdlib>
#include <string>
#include <vector>

#include "cl_test.hpp"

namespace fcltest {
namespace {

class Delegation : public CLTest {
protected:
  void SetUp() override {
    CLTest::SetUp();
    const char *d = std::getenv("FIBERCL_DELEGATE");
    if (!isFiberCL() || !d || std::string(d) != "pocl")
      GTEST_SKIP() << "needs FIBERCL_DELEGATE=pocl and PoCL beside FiberCL (CTest "
                      "delegation.* runs it so)";
  }
  std::vector<cl_device_id> fiberclDevices() {
    cl_uint n = 0;
    check(clGetDeviceIDs(platform_, CL_DEVICE_TYPE_ALL, 0, nullptr, &n), "clGetDeviceIDs");
    std::vector<cl_device_id> ids(n);
    check(clGetDeviceIDs(platform_, CL_DEVICE_TYPE_ALL, n, ids.data(), nullptr),
          "clGetDeviceIDs");
    return ids;
  }
};

TEST_F(Delegation, PoclDeviceIsListedAndQueriedThroughFiberCL) {
  std::vector<cl_device_id> ids = fiberclDevices();
  ASSERT_EQ(ids.size(), 2u) << "the CPU device, then PoCL's";
  cl_platform_id pocl = findPlatform("Portable Computing Language");
  ASSERT_NE(pocl, nullptr);
  cl_device_id own = nullptr;
  ASSERT_CL(clGetDeviceIDs(pocl, CL_DEVICE_TYPE_ALL, 1, &own, nullptr));
  EXPECT_NE(ids[1], own) << "the application sees FiberCL's handle, not PoCL's";
  EXPECT_EQ(deviceInfoString(ids[1], CL_DEVICE_NAME), deviceInfoString(own, CL_DEVICE_NAME));
  EXPECT_EQ(deviceInfo<cl_platform_id>(ids[1], CL_DEVICE_PLATFORM), platform_)
      << "handles in answers are FiberCL's";
  EXPECT_EQ(deviceInfo<cl_uint>(ids[1], CL_DEVICE_MAX_COMPUTE_UNITS),
            deviceInfo<cl_uint>(own, CL_DEVICE_MAX_COMPUTE_UNITS));
  EXPECT_EQ(deviceInfo<cl_bool>(ids[1], CL_DEVICE_AVAILABLE), CL_FALSE)
      << "not usable through FiberCL yet";
}

TEST_F(Delegation, ContextOnDelegatedDeviceIsRefusedForNow) {
  std::vector<cl_device_id> ids = fiberclDevices();
  ASSERT_EQ(ids.size(), 2u);
  cl_int err = CL_SUCCESS;
  cl_context c = clCreateContext(nullptr, 1, &ids[1], nullptr, nullptr, &err);
  EXPECT_EQ(c, nullptr);
  EXPECT_CL_ERR(CL_DEVICE_NOT_AVAILABLE, err);
}

} // namespace
} // namespace fcltest

// Shared by the sub-group tests (sub_groups_test.cpp, sub_groups_khr_test.cpp): kernels
// built with a chosen sub-group size S -- by intel_reqd_sub_group_size(S) or by
// FIBERCL_SUBGROUP_SIZE=S at build time -- and the host's picture of a launch's
// sub-groups: S consecutive work-items in local linear id order (x + y*lx + z*lx*ly),
// the last sub-group of a work-group partial when the group's size is not a multiple.
#pragma once

#include <CL/cl_ext.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <type_traits>
#include <unistd.h>
#include <utility>
#include <vector>

#include "cl_test.hpp"

namespace fcltest::subgroups {

enum class SizeFrom { Attribute, Environment };

inline const char *nameOf(SizeFrom how) {
  return how == SizeFrom::Attribute ? "attribute" : "environment";
}

// A work-item of a launch as the host expects the kernel to see it.
struct Item {
  size_t global = 0; // global linear id
  cl_uint localLinear = 0;
  cl_uint lane = 0;          // get_sub_group_local_id()
  cl_uint subGroup = 0;      // get_sub_group_id()
  cl_uint size = 0;          // get_sub_group_size()
  cl_uint count = 0;         // get_num_sub_groups()
  cl_uint maxSize = 0;       // get_max_sub_group_size(): min(S, enqueued work-group size)
  cl_uint enqueuedCount = 0; // get_enqueued_num_sub_groups()
  size_t sg = 0;             // index of its sub-group in Layout::subGroups
};

struct Layout {
  std::vector<Item> items;                    // by global linear id
  std::vector<std::vector<size_t>> subGroups; // each: global linear ids by lane
  const std::vector<size_t> &subGroupOf(size_t g) const { return subGroups[items[g].sg]; }
};

inline size_t ceilDiv(size_t a, size_t b) { return (a + b - 1) / b; }

// The sub-groups of an NDRange of 1 to 3 dimensions, no offset; `global` need not be a
// multiple of `local` (the edge groups are smaller, as OpenCL 2.0+ runs them).
inline Layout layoutOf(std::vector<size_t> global, std::vector<size_t> local, cl_uint S) {
  global.resize(3, 1);
  local.resize(3, 1);
  Layout L;
  L.items.resize(global[0] * global[1] * global[2]);
  const size_t enqueued = local[0] * local[1] * local[2];
  size_t groups[3];
  for (int d = 0; d < 3; ++d)
    groups[d] = ceilDiv(global[d], local[d]);
  std::map<std::pair<size_t, cl_uint>, size_t> index; // (group, sub-group id) -> subGroups
  for (size_t z = 0; z < global[2]; ++z)
    for (size_t y = 0; y < global[1]; ++y)
      for (size_t x = 0; x < global[0]; ++x) {
        const size_t at[3] = {x, y, z};
        size_t grp[3], actual[3], lid[3];
        for (int d = 0; d < 3; ++d) {
          grp[d] = at[d] / local[d];
          actual[d] = std::min(local[d], global[d] - grp[d] * local[d]);
          lid[d] = at[d] % local[d];
        }
        const size_t items = actual[0] * actual[1] * actual[2];
        const size_t lin = lid[0] + actual[0] * (lid[1] + actual[1] * lid[2]);
        const size_t groupKey = grp[0] + groups[0] * (grp[1] + groups[1] * grp[2]);
        const size_t g = x + global[0] * (y + global[1] * z);
        Item &it = L.items[g];
        it.global = g;
        it.localLinear = cl_uint(lin);
        it.lane = cl_uint(lin % S);
        it.subGroup = cl_uint(lin / S);
        it.size = cl_uint(std::min<size_t>(S, items - size_t(it.subGroup) * S));
        it.count = cl_uint(ceilDiv(items, S));
        it.maxSize = cl_uint(std::min<size_t>(S, enqueued));
        it.enqueuedCount = cl_uint(ceilDiv(enqueued, S));
        auto [pos, added] =
            index.emplace(std::make_pair(groupKey, it.subGroup), L.subGroups.size());
        if (added)
          L.subGroups.emplace_back();
        std::vector<size_t> &sg = L.subGroups[pos->second];
        if (sg.size() <= it.lane)
          sg.resize(it.lane + 1, SIZE_MAX);
        sg[it.lane] = g;
        it.sg = pos->second;
      }
  return L;
}

// Compares results with the host's, one value at a time, and reports the first few
// differences (then only how many more there were), so that a wrong function does not
// bury the log under thousands of lines.
class Mismatches {
public:
  explicit Mismatches(size_t shown = 12) : shown_(shown) {}
  ~Mismatches() {
    if (count_ > shown_)
      ADD_FAILURE() << (count_ - shown_) << " more mismatches not shown";
  }
  Mismatches(const Mismatches &) = delete;
  Mismatches &operator=(const Mismatches &) = delete;

  // Same types on purpose: the caller says what the kernel's result type is.
  template <typename T> bool eq(const T &got, const T &want, const char *what, size_t item) {
    if (got == want)
      return true;
    if (count_++ < shown_)
      ADD_FAILURE() << what << ", work-item " << item << ": got " << show(got) << ", want "
                    << show(want);
    return false;
  }
  // A boolean result: any non-zero value is true.
  template <typename T> bool truth(const T &got, bool want, const char *what, size_t item) {
    return eq<bool>(got != 0, want, what, item);
  }
  size_t count() const { return count_; }

private:
  template <typename T> static std::string show(const T &v) {
    std::ostringstream os;
    if constexpr (std::is_same_v<T, bool>)
      os << (v ? "true" : "false");
    else if constexpr (std::is_integral_v<T>)
      os << +v << " (0x" << std::hex << +v << ")";
    else
      os << v;
    return os.str();
  }
  size_t shown_, count_ = 0;
};

// A 64-bit mask from a cl_uint4 ballot (bits 0-63: words x and y).
inline uint64_t bits64(const cl_uint4 &v) { return uint64_t(v.s[0]) | uint64_t(v.s[1]) << 32; }

class SubGroupTest : public CLTest {
protected:
  void SetUp() override {
    CLTest::SetUp();
    if (IsSkipped() || HasFatalFailure())
      return;
    if (!hasExtension("cl_khr_subgroups") && !hasCFeature("__opencl_c_subgroups"))
      GTEST_SKIP() << "the device reports no sub-groups";
  }

  // CL_DEVICE_SUB_GROUP_SIZES_INTEL (empty without cl_intel_required_subgroup_size).
  std::vector<size_t> requirableSizes() const {
    if (!hasExtension("cl_intel_required_subgroup_size"))
      return {};
    size_t bytes = 0;
    if (clGetDeviceInfo(device_, CL_DEVICE_SUB_GROUP_SIZES_INTEL, 0, nullptr, &bytes) != CL_SUCCESS)
      return {};
    std::vector<size_t> sizes(bytes / sizeof(size_t));
    if (clGetDeviceInfo(device_, CL_DEVICE_SUB_GROUP_SIZES_INTEL, bytes, sizes.data(), nullptr) !=
        CL_SUCCESS)
      return {};
    return sizes;
  }

  // Why kernels cannot be given sub-group size S by `how` here; empty if they can.
  std::string whyNotSize(cl_uint S, SizeFrom how) const {
    if (how == SizeFrom::Environment)
      return isFiberCL() ? "" : "FIBERCL_SUBGROUP_SIZE is FiberCL's";
    // FiberCL takes every size it reports: a missing report fails
    // SubGroupSize.DeviceReportsTheSizesAndExtensions instead of skipping everything.
    if (isFiberCL())
      return "";
    std::vector<size_t> sizes = requirableSizes();
    if (std::find(sizes.begin(), sizes.end(), size_t(S)) == sizes.end())
      return "intel_reqd_sub_group_size(" + std::to_string(S) +
             "): cl_intel_required_subgroup_size is not reported or S is not among "
             "CL_DEVICE_SUB_GROUP_SIZES_INTEL";
    return "";
  }

  // `src` with SGS defined as S and SG_ATTR as intel_reqd_sub_group_size(S) (Attribute)
  // or as nothing (Environment: FIBERCL_SUBGROUP_SIZE=S while the program is built,
  // restored after). Kernels write `SG_ATTR __kernel void name(...)`.
  static std::string sourceAt(cl_uint S, SizeFrom how, const std::string &src) {
    std::string s = "#define SGS " + std::to_string(S) + "u\n";
    if (how == SizeFrom::Attribute)
      s +=
          "#define SG_ATTR __attribute__((intel_reqd_sub_group_size(" + std::to_string(S) + ")))\n";
    else
      s += "#define SG_ATTR\n// sub-group size from FIBERCL_SUBGROUP_SIZE\n";
    return s + src;
  }
  cl_program programAt(cl_uint S, SizeFrom how, const std::string &src,
                       const std::string &options = "-cl-std=CL3.0") {
    if (how == SizeFrom::Attribute)
      return build(sourceAt(S, how, src), options);
    ScopedEnv env({{"FIBERCL_SUBGROUP_SIZE", std::to_string(S)}});
    return build(sourceAt(S, how, src), options);
  }
  cl_kernel kernelAt(cl_uint S, SizeFrom how, const std::string &src, const char *name,
                     const std::string &options = "-cl-std=CL3.0") {
    return kernel(programAt(S, how, src, options), name);
  }

  // clGetKernelSubGroupInfo of a size_t result; `in` is its input (a local size, or a
  // sub-group count), empty for none.
  size_t subGroupInfo(cl_kernel k, cl_kernel_sub_group_info what,
                      const std::vector<size_t> &in = {}) {
    size_t v = SIZE_MAX;
    cl_int err = clGetKernelSubGroupInfo(k, device_, what, in.size() * sizeof(size_t),
                                         in.empty() ? nullptr : in.data(), sizeof v, &v, nullptr);
    EXPECT_CL(err);
    return v;
  }

  // A comment that makes a source no earlier build has cached.
  static std::string freshTag() {
    return "\n// " + std::to_string(getpid()) + "." + std::to_string(std::rand()) + "\n";
  }
};

// The sub-group size a kernel gets without intel_reqd_sub_group_size or
// FIBERCL_SUBGROUP_SIZE: one vector of 32-bit lanes on this host.
inline cl_uint hostVectorWidth() {
#if defined(__x86_64__) || defined(__i386__)
  if (__builtin_cpu_supports("avx512f"))
    return 16;
  return __builtin_cpu_supports("avx") ? 8 : 4;
#else
  return 0; // FiberCL targets x86-64
#endif
}

} // namespace fcltest::subgroups

#define SKIP_UNLESS_EXTENSION(ext)                                                                 \
  do {                                                                                             \
    if (!hasExtension(ext))                                                                        \
      GTEST_SKIP() << "the device does not report " << (ext);                                      \
  } while (0)

#define SKIP_UNLESS_SIZE(S, how)                                                                   \
  do {                                                                                             \
    std::string why_ = whyNotSize((S), (how));                                                     \
    if (!why_.empty())                                                                             \
      GTEST_SKIP() << why_;                                                                        \
  } while (0)

// `fibercl occupancy`: the occupancy bound of each device of FiberCL's platforms,
// measured the way a GPU program would -- the discovery protocol of
// <fibercl/primitives.h> (FiberCL injects it into programs for delegated devices)
// counts the work-groups resident together. On FiberCL's CPU device that is the
// configured bound; on a delegated device it is the real one.
#include <CL/cl_fibercl.h>
#include <fibercl/cl_host/errors.hpp>
#include <fibercl/cl_host/platforms.hpp>
#include <fibercl/cl_host/programs.hpp>
#include <fibercl/cl_host/session.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "icd/vendors.hpp"
#include "runtime/scheduling_names.hpp"

void pointLoaderAtFiberCL(); // fibercl.cpp

namespace {

const char *kSource = R"(
#include <fibercl/primitives.h>
kernel void discover(global void *ctx, global uint *found) {
  local uint scratch[FIBERCL_DISCOVER_SCRATCH];
  fibercl_participant p = fibercl_discover_local(ctx, scratch);
  if (get_local_id(0) == 0 && p_participates(p) && p_get_group_id(p) == 0)
    *found = p_get_num_groups(p);
}
)";

const size_t kGroups = 256; // launched; discovery admits at most FIBERCL_MAX_PARTICIPANTS

// One device: the counts of `runs` launches, or an empty list and `why`.
std::vector<cl_uint> measure(cl_device_id device, bool delegated, int runs, std::string &why) {
  std::vector<cl_uint> counts;
  fibercl::cl_host::Session cl;
  cl_program prog = nullptr;
  try {
    cl = fibercl::cl_host::Session(device);
    prog = fibercl::cl_host::createProgram(cl.context(), {kSource});
  } catch (const fibercl::cl_host::Error &e) {
    why = e.what();
    return counts;
  }
  cl_context ctx = cl.context();
  cl_command_queue q = cl.queue();
  // Groups of CPU drivers start with skew: the poll stays open until many polls see
  // no new arrival (FIBERCL_DISCOVERY_SETTLE). FiberCL's own start is GPU-like.
  std::string settle = delegated ? " -DFIBERCL_DISCOVERY_SETTLE=30000000" : "";
  cl_int err = CL_BUILD_PROGRAM_FAILURE;
  for (const char *std : {"-cl-std=CL3.0", "-cl-std=CL2.0"})
    if ((err = clBuildProgram(prog, 1, &device, (std + settle).c_str(), nullptr, nullptr)) ==
        CL_SUCCESS)
      break;
  cl_kernel k = err == CL_SUCCESS ? clCreateKernel(prog, "discover", &err) : nullptr;
  if (!k) {
    why = "the discovery kernel does not build (OpenCL C 2.0/3.0 needed): " +
          fibercl::cl_host::buildLog(prog, device);
  } else {
    size_t local = 64;
    clGetKernelWorkGroupInfo(k, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof local, &local, nullptr);
    local = std::min<size_t>(local, 64);
    size_t global = kGroups * local;
    std::vector<unsigned char> zeros(FIBERCL_PRIMITIVES_CTX_BYTES);
    for (int r = 0; r < runs; ++r) {
      cl_mem state = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                    FIBERCL_PRIMITIVES_CTX_BYTES, zeros.data(), &err);
      cl_uint found = 0;
      cl_mem out =
          clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof found, &found, &err);
      clSetKernelArg(k, 0, sizeof state, &state);
      clSetKernelArg(k, 1, sizeof out, &out);
      err = clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, &local, 0, nullptr, nullptr);
      if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof found, &found, 0, nullptr, nullptr);
      clReleaseMemObject(out);
      clReleaseMemObject(state);
      if (err != CL_SUCCESS) {
        why = "the discovery kernel failed (" + std::to_string(err) + ")";
        break;
      }
      counts.push_back(found);
    }
    clReleaseKernel(k);
  }
  clReleaseProgram(prog);
  return counts;
}

} // namespace

int measureOccupancy(int argc, char **argv) {
  int runs = 5;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if ((a == "--delegate" || a == "--runs" || a == "--occupancy" || a == "--schedule") &&
        i + 1 < argc) {
      std::string v = argv[++i];
      fibercl::SchedulePolicy policy;
      if (a == "--schedule" && !valueIn(fibercl::kSchedulePolicies, v, policy)) {
        std::fprintf(stderr, "fibercl occupancy: --schedule takes %s\n",
                     namesIn(fibercl::kSchedulePolicies).c_str());
        return 2;
      }
      if (a == "--runs")
        runs = std::max(1, std::atoi(v.c_str()));
      else
        setenv(a == "--delegate"    ? "FIBERCL_DELEGATE"
               : a == "--occupancy" ? "FIBERCL_OCCUPANCY"
                                    : "FIBERCL_SCHEDULE",
               v.c_str(), 1);
    } else {
      std::fprintf(stderr, "fibercl occupancy: unknown or incomplete option %s\n", a.c_str());
      return 2;
    }
  }
  pointLoaderAtFiberCL();
  const std::vector<cl_platform_id> platforms = fibercl::cl_host::platforms();
  if (platforms.empty()) {
    std::fprintf(stderr, "fibercl occupancy: no OpenCL platform (OCL_ICD_VENDORS=%s)\n",
                 std::getenv("OCL_ICD_VENDORS"));
    return 1;
  }
  int measured = 0;
  for (cl_platform_id p : platforms) {
    std::string name = fibercl::cl_host::platformString(p, CL_PLATFORM_NAME);
    bool delegated = name != fibercl::cl_host::kFiberCL;
    if (!fibercl::icd::isFiberCLPlatformName(name))
      continue; // another vendor seen directly: measure it through FiberCL instead
    for (cl_device_id d : fibercl::cl_host::devices(p)) {
      std::string why;
      std::vector<cl_uint> counts = measure(d, delegated, runs, why);
      std::printf("%s / %s: ", name.c_str(),
                  fibercl::cl_host::deviceString(d, CL_DEVICE_NAME).c_str());
      if (counts.empty()) {
        std::printf("not measured: %s\n", why.c_str());
        continue;
      }
      ++measured;
      cl_uint best = *std::max_element(counts.begin(), counts.end());
      std::string all;
      for (cl_uint c : counts)
        all += " " + std::to_string(c);
      std::printf("%u work-groups resident at once%s (discovery over %zu launched groups; "
                  "runs:%s)\n",
                  best, best >= kGroups ? " -- every group launched, no bound seen" : "", kGroups,
                  all.c_str());
    }
  }
  if (!measured)
    std::printf("no device measured\n");
  return measured ? 0 : 1;
}

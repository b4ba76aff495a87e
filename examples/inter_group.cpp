// inter_group: OpenCL kernels whose work-groups synchronise with each other, for
// trying FiberCL's scheduling controls on an unmodified application:
//
//   inter_group barrier G   G groups meet at an inter-work-group barrier (needs all G
//                           occupant at once: try `fibercl exec --occupancy G-1`)
//   inter_group race G      G groups increment a counter without atomicity: the
//                           printed values depend on the schedule (`fibercl explore`)
//
// Prints the per-group results; exits 1 if the kernel's command failed (e.g. FiberCL
// reported a deadlock), 2 on usage or setup errors.
//
// A plain OpenCL program on purpose: it stands for the unmodified application that
// `fibercl exec` / `fibercl explore` run, and is meant to be read as one, so it does its
// own host set-up rather than use cl_host/ (which the rest of the tree shares).
#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

const char *kSource = R"CLC(
__kernel void barrier_all(__global atomic_int *arrived, __global int *out) {
  atomic_fetch_add_explicit(arrived, 1, memory_order_acq_rel, memory_scope_device);
  while (atomic_load_explicit(arrived, memory_order_acquire, memory_scope_device) <
         (int)get_num_groups(0))
    ;
  out[get_group_id(0)] = atomic_load_explicit(arrived, memory_order_relaxed,
                                              memory_scope_device);
}
__kernel void race(__global atomic_int *cell, __global int *out) {
  int seen = 0;
  for (int i = 0; i < 24; ++i) { // lost updates: an increment made of a load and a store
    seen = atomic_load_explicit(cell, memory_order_relaxed, memory_scope_device);
    atomic_store_explicit(cell, seen + 1, memory_order_relaxed, memory_scope_device);
  }
  out[get_group_id(0)] = seen;
}
)CLC";

[[noreturn]] void fail(const char *what, cl_int err) {
  std::fprintf(stderr, "inter_group: %s failed (%d)\n", what, err);
  std::exit(2);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3 || (std::strcmp(argv[1], "barrier") && std::strcmp(argv[1], "race"))) {
    std::fprintf(stderr, "usage: inter_group barrier|race GROUPS\n");
    return 2;
  }
  const bool barrier = !std::strcmp(argv[1], "barrier");
  const size_t groups = std::strtoul(argv[2], nullptr, 10);
  if (groups == 0)
    return 2;

  cl_uint n = 0;
  cl_platform_id platforms[16];
  cl_int err = clGetPlatformIDs(16, platforms, &n);
  if (err != CL_SUCCESS || n == 0)
    fail("clGetPlatformIDs", err);
  cl_platform_id platform = platforms[0];
  for (cl_uint i = 0; i < n; ++i) {
    char name[128] = {};
    clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, nullptr);
    if (!std::strcmp(name, "FiberCL"))
      platform = platforms[i];
  }
  cl_device_id device;
  if ((err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr)))
    fail("clGetDeviceIDs", err);
  cl_context ctx = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  if (err)
    fail("clCreateContext", err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, nullptr, &err);
  if (err)
    fail("clCreateCommandQueue", err);
  cl_program p = clCreateProgramWithSource(ctx, 1, &kSource, nullptr, &err);
  if (err || (err = clBuildProgram(p, 1, &device, "-cl-std=CL2.0", nullptr, nullptr)))
    fail("clBuildProgram", err);
  cl_kernel k = clCreateKernel(p, barrier ? "barrier_all" : "race", &err);
  if (err)
    fail("clCreateKernel", err);
  int zero = 0;
  std::vector<int> out(groups, -1);
  cl_mem cell = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof zero, &zero, &err);
  cl_mem results =
      clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, groups * sizeof(int), out.data(), &err);
  clSetKernelArg(k, 0, sizeof cell, &cell);
  clSetKernelArg(k, 1, sizeof results, &results);
  size_t global = groups, local = 1;
  cl_event done;
  if ((err = clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, &local, 0, nullptr, &done)))
    fail("clEnqueueNDRangeKernel", err);
  clFinish(q);
  cl_int status = CL_COMPLETE;
  clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
  if (status == CL_COMPLETE)
    clEnqueueReadBuffer(q, results, CL_TRUE, 0, groups * sizeof(int), out.data(), 0, nullptr,
                        nullptr);
  clReleaseEvent(done);
  clReleaseMemObject(results);
  clReleaseMemObject(cell);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  if (status != CL_COMPLETE) {
    std::printf("kernel failed with execution status %d\n", status);
    return 1;
  }
  for (size_t g = 0; g < groups; ++g)
    std::printf("%s%d", g ? " " : "", out[g]);
  std::printf("\n");
  return 0;
}

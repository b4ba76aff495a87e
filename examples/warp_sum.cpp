// warp_sum: a sum written the way GPU code often is, for a sub-group ("warp") of 32
// work-items -- shuffles down by 16, 8, 4, 2, 1, then lane 0 adds its sub-group's sum.
// It is right only where sub-groups have 32 work-items:
//
//   fibercl explore --sub-group-sizes 32,16,64 -- warp_sum
//
// shows the sizes under which it prints another sum and fails. Prints the sum it got
// and the one expected; exits 1 if they differ, 2 on setup errors. A plain OpenCL
// program on purpose, like inter_group.
#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

const char *kSource = R"CLC(
__kernel void warp_sum(__global const int *in, __global int *sum) {
  int v = in[get_global_id(0)];
  for (uint offset = 16; offset > 0; offset /= 2) // 32 lanes
    v += sub_group_shuffle_down(v, offset);
  if (get_sub_group_local_id() == 0)
    atomic_add(sum, v);
}
)CLC";

void check(cl_int err, const char *what) {
  if (err != CL_SUCCESS) {
    std::fprintf(stderr, "warp_sum: %s failed (%d)\n", what, err);
    std::exit(2);
  }
}

} // namespace

int main() {
  cl_platform_id platform;
  cl_device_id device;
  check(clGetPlatformIDs(1, &platform, nullptr), "clGetPlatformIDs");
  check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr), "clGetDeviceIDs");
  cl_int err;
  cl_context ctx = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, nullptr, &err);
  check(err, "clCreateCommandQueueWithProperties");
  cl_program p = clCreateProgramWithSource(ctx, 1, &kSource, nullptr, &err);
  check(err, "clCreateProgramWithSource");
  if (clBuildProgram(p, 1, &device, "-cl-std=CL3.0", nullptr, nullptr) != CL_SUCCESS) {
    char log[4096] = {};
    clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, nullptr);
    std::fprintf(stderr, "warp_sum: build failed:\n%s\n", log);
    return 2;
  }
  cl_kernel k = clCreateKernel(p, "warp_sum", &err);
  check(err, "clCreateKernel");
  const size_t n = 1024, local = 128;
  std::vector<cl_int> in(n);
  long expected = 0;
  for (size_t i = 0; i < n; ++i)
    expected += in[i] = cl_int(i % 10);
  cl_int sum = 0;
  cl_mem din = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), in.data(), &err);
  check(err, "clCreateBuffer");
  cl_mem dsum = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof sum, &sum, &err);
  check(err, "clCreateBuffer");
  check(clSetKernelArg(k, 0, sizeof din, &din), "clSetKernelArg");
  check(clSetKernelArg(k, 1, sizeof dsum, &dsum), "clSetKernelArg");
  check(clEnqueueNDRangeKernel(q, k, 1, nullptr, &n, &local, 0, nullptr, nullptr),
        "clEnqueueNDRangeKernel");
  check(clEnqueueReadBuffer(q, dsum, CL_TRUE, 0, sizeof sum, &sum, 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
  std::printf("sum %d, expected %ld\n", sum, expected);
  return sum == expected ? 0 : 1;
}

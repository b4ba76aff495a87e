// message_passing: work-group 0 writes a value and raises a flag, work-group 1 waits for
// the flag and reads the value. With a relaxed flag (the default) nothing orders the two
// stores: GPUs with weak memory may show the flag first, x86 never does. Under
// FIBERCL_CHECK=weak FiberCL does too, for some seeds:
//
//   FIBERCL_CHECK=weak fibercl explore --seeds 1..64 --occupancy 2 -- message_passing
//
// lists them; with `--release` (a release store and an acquire load) no seed does.
// Prints what group 1 read; exits 1 if it saw the flag but not the value, 2 on setup
// errors. A plain OpenCL program on purpose, like inter_group.
#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

const char *kSource = R"CLC(
__kernel void message_passing(__global int *data, __global int *out, __global atomic_int *flag) {
  if (get_local_id(0) != 0)
    return;
  if (get_group_id(0) == 0) {
    data[0] = 42;
    atomic_store_explicit(flag, 1, PUBLISH, memory_scope_device);
  } else {
    int n = 0, seen = 0;
    while (!(seen = atomic_load_explicit(flag, OBSERVE, memory_scope_device)) && n < 1000000)
      n++;
    out[0] = data[0];
    out[1] = seen;
  }
}
)CLC";

void check(cl_int err, const char *what) {
  if (err != CL_SUCCESS) {
    std::fprintf(stderr, "message_passing: %s failed (%d)\n", what, err);
    std::exit(2);
  }
}

} // namespace

int main(int argc, char **argv) {
  const bool release = argc > 1 && std::strcmp(argv[1], "--release") == 0;
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
  const std::string options =
      release ? "-cl-std=CL3.0 -DPUBLISH=memory_order_release -DOBSERVE=memory_order_acquire"
              : "-cl-std=CL3.0 -DPUBLISH=memory_order_relaxed -DOBSERVE=memory_order_relaxed";
  if (clBuildProgram(p, 1, &device, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
    char log[4096] = {};
    clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, nullptr);
    std::fprintf(stderr, "message_passing: build failed:\n%s\n", log);
    return 2;
  }
  cl_kernel k = clCreateKernel(p, "message_passing", &err);
  check(err, "clCreateKernel");
  cl_int zero[2] = {0, 0};
  cl_mem bufs[3];
  for (cl_mem &b : bufs) {
    b = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof zero, zero, &err);
    check(err, "clCreateBuffer");
  }
  for (cl_uint i = 0; i < 3; ++i)
    check(clSetKernelArg(k, i, sizeof(cl_mem), &bufs[i]), "clSetKernelArg");
  const size_t global = 8, local = 4;
  check(clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, &local, 0, nullptr, nullptr),
        "clEnqueueNDRangeKernel");
  cl_int out[2];
  check(clEnqueueReadBuffer(q, bufs[1], CL_TRUE, 0, sizeof out, out, 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
  if (!out[1]) {
    std::printf("the flag was not seen\n");
    return 0;
  }
  std::printf("flag seen, value %d\n", out[0]);
  return out[0] == 42 ? 0 : 1;
}

// Beside (beside.hpp).
#include "beside.hpp"

#include <chrono>
#include <thread>

namespace fibercl_apps {
namespace {

const char *kBusySource = R"CLC(
  // About a millisecond of arithmetic per group.
  kernel void beside_busy(global uint *out) {
    uint x = get_global_id(0);
    for (int i = 0; i < 20000; ++i)
      x = x * 1103515245u + 12345u;
    out[get_global_id(0)] = x;
  })CLC";

constexpr size_t kGroups = 4, kLocal = 16;

} // namespace

Beside::Beside(Cl &cl) : cl_(cl) {
  cl_int err;
  cl_device_id device = cl.device();
  queue_ = clCreateCommandQueueWithProperties(cl.context(), device, nullptr, &err);
  check(err, "clCreateCommandQueueWithProperties (beside)");
  program_ = clCreateProgramWithSource(cl.context(), 1, &kBusySource, nullptr, &err);
  check(err, "clCreateProgramWithSource (beside)");
  check(clBuildProgram(program_, 1, &device, "", nullptr, nullptr), "clBuildProgram (beside)");
  kernel_ = clCreateKernel(program_, "beside_busy", &err);
  check(err, "clCreateKernel (beside)");
  out_ = cl.alloc(kGroups * kLocal * sizeof(cl_uint));
  check(clSetKernelArg(kernel_, 0, sizeof out_, &out_), "clSetKernelArg (beside)");
}

Beside::~Beside() {
  clReleaseMemObject(out_);
  clReleaseKernel(kernel_);
  clReleaseProgram(program_);
  clReleaseCommandQueue(queue_);
}

int Beside::runWhile(cl_event main, int period_ms) {
  int launches = 0;
  for (;;) {
    const auto start = std::chrono::steady_clock::now();
    cl_int status = CL_QUEUED;
    clGetEventInfo(main, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
    if (status == CL_COMPLETE || status < 0)
      return launches;
    size_t global = kGroups * kLocal, local = kLocal;
    check(clEnqueueNDRangeKernel(queue_, kernel_, 1, nullptr, &global, &local, 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel (beside)");
    check(clFinish(queue_), "clFinish (beside)");
    ++launches;
    std::this_thread::sleep_until(start + std::chrono::milliseconds(period_ms));
  }
}

} // namespace fibercl_apps

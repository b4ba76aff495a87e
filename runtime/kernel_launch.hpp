// Building the command of clEnqueueNDRangeKernel / clEnqueueTask, in the core: the
// API layer has checked the handles (queue, kernel, their context, the arguments set,
// work_dim 1..3); this applies the launch rules that depend on the kernel and on the
// queue's device (its limits), chooses a work-group size when none is given, and
// gives a kernel that may wait for other groups its scheduling. Throws Error with the
// specification's error codes.
#pragma once

#include <CL/cl.h>

#include <memory>

namespace fibercl::runtime {

class Command;
class Kernel;
class Queue;

struct LaunchRequest {
  cl_uint workDim;      // 1..3
  const size_t *offset; // global_work_offset, or NULL
  const size_t *global; // global_work_size, or NULL
  const size_t *local;  // local_work_size, or NULL
};

// The command, or nullptr when the range is empty (a global size of 0: the command
// does nothing and succeeds).
std::unique_ptr<Command> buildKernelLaunch(Queue &queue, Kernel &kernel, const LaunchRequest &r);

} // namespace fibercl::runtime

// Contexts, queues and the Session that owns one of each (see session.hpp).
#include "fibercl/cl_host/session.hpp"

#include <utility>

namespace fibercl::cl_host {

cl_context createContext(cl_device_id device) {
  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  return context;
}

cl_command_queue createQueue(cl_context context, cl_device_id device,
                             const cl_queue_properties *properties) {
  cl_int err = CL_SUCCESS;
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, properties, &err);
  check(err, "clCreateCommandQueueWithProperties");
  return queue;
}

Session::Session(cl_device_id device, const cl_queue_properties *queueProperties)
    : device_(device), context_(createContext(device)) {
  try {
    queue_ = createQueue(context_, device_, queueProperties);
  } catch (...) {
    release();
    throw;
  }
}

Session::Session(Session &&other) noexcept
    : device_(std::exchange(other.device_, nullptr)),
      context_(std::exchange(other.context_, nullptr)),
      queue_(std::exchange(other.queue_, nullptr)) {}

Session &Session::operator=(Session &&other) noexcept {
  if (this != &other) {
    release();
    device_ = std::exchange(other.device_, nullptr);
    context_ = std::exchange(other.context_, nullptr);
    queue_ = std::exchange(other.queue_, nullptr);
  }
  return *this;
}

Session::~Session() { release(); }

void Session::release() {
  if (queue_)
    clReleaseCommandQueue(queue_);
  if (context_)
    clReleaseContext(context_);
  device_ = nullptr;
  context_ = nullptr;
  queue_ = nullptr;
}

} // namespace fibercl::cl_host

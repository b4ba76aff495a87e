// A context and command queue on one device: created together, released together.
#pragma once

#include "fibercl/cl_host/errors.hpp"

namespace fibercl::cl_host {

// A context holding only `device`. Throws Error.
cl_context createContext(cl_device_id device);
// A command queue on `device` with `properties` (a 0-terminated list; nullptr: in order,
// no profiling). Throws Error.
cl_command_queue createQueue(cl_context context, cl_device_id device,
                             const cl_queue_properties *properties = nullptr);

// One device, a context of its own and a queue on it; the queue and then the context are
// released with the session. Empty (all nullptr) when default-constructed or moved from.
class Session {
public:
  Session() = default;
  // Throws Error when the context or the queue cannot be created.
  explicit Session(cl_device_id device, const cl_queue_properties *queueProperties = nullptr);
  Session(Session &&other) noexcept;
  Session &operator=(Session &&other) noexcept;
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;
  ~Session();

  cl_device_id device() const { return device_; }
  cl_context context() const { return context_; }
  cl_command_queue queue() const { return queue_; }

private:
  void release();

  cl_device_id device_ = nullptr;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
};

} // namespace fibercl::cl_host

// cl_context: its devices (as the application listed them), the creation properties
// and the application's error and destructor callbacks.
#pragma once

#include "runtime/object.hpp"
#include "runtime/svm.hpp"

#include <mutex>
#include <vector>

namespace fibercl::runtime {

class Device;

class Context : public Object<Context, cl_context> {
public:
  static constexpr Tag kTag = Tag::Context;
  static constexpr cl_int kInvalidError = CL_INVALID_CONTEXT;
  using Notify = void(CL_CALLBACK *)(const char *, const void *, size_t, void *);
  using DestructorCallback = void(CL_CALLBACK *)(cl_context, void *);

  // `devices`: at least one, without duplicates. `properties` as given (including the
  // terminating 0), or empty.
  Context(std::vector<Device *> devices, std::vector<cl_context_properties> properties,
          Notify notify, void *userData);
  ~Context();

  const std::vector<Device *> &devices() const { return devices_; }
  bool hasDevice(const Device &d) const;
  // The first device (FiberCL has one per platform today).
  Device &device() const { return *devices_.front(); }
  const std::vector<cl_context_properties> &properties() const { return properties_; }

  // The context's clSVMAlloc allocations.
  SvmAllocations &svm() { return svm_; }

  // Reports an error to the application's pfn_notify, if it gave one.
  void notify(const char *errinfo) const;
  void addDestructorCallback(DestructorCallback fn, void *userData);

private:
  std::vector<Device *> devices_;
  std::vector<cl_context_properties> properties_;
  Notify notify_;
  void *userData_;
  std::mutex mutex_;
  std::vector<std::pair<DestructorCallback, void *>> destructorCallbacks_;
  SvmAllocations svm_; // freed after the destructor callbacks ran
};

} // namespace fibercl::runtime

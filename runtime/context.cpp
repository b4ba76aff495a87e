// cl_context.
#include "runtime/context.hpp"
#include "runtime/platform.hpp"

namespace fibercl::runtime {

Context::Context(std::vector<Device *> devices, std::vector<cl_context_properties> properties,
                 Notify notify, void *userData)
    : devices_(std::move(devices)), properties_(std::move(properties)), notify_(notify),
      userData_(userData) {}

bool Context::hasDevice(const Device &d) const {
  for (const Device *mine : devices_)
    if (mine == &d)
      return true;
  return false;
}

Context::~Context() {
  // Called in reverse order of registration (clSetContextDestructorCallback).
  for (auto it = destructorCallbacks_.rbegin(); it != destructorCallbacks_.rend(); ++it)
    it->first(handle(), it->second);
}

void Context::notify(const char *errinfo) const {
  if (notify_)
    notify_(errinfo, nullptr, 0, userData_);
}

void Context::addDestructorCallback(DestructorCallback fn, void *userData) {
  std::lock_guard<std::mutex> lock(mutex_);
  destructorCallbacks_.emplace_back(fn, userData);
}

} // namespace fibercl::runtime

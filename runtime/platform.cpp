// The platform singleton, its devices, and the list of every platform.
#include "runtime/platform.hpp"
#include "runtime/cpu_device.hpp"

#include <atomic>

namespace fibercl::runtime {

Platform &Platform::get() {
  static Platform *platform = new Platform; // never destroyed: handles outlive exit
  return *platform;
}

namespace {
std::atomic<Platform::HandleSource> gDelegated{nullptr};
} // namespace

void Platform::addDelegated(HandleSource source) {
  gDelegated.store(source, std::memory_order_release);
}

std::vector<cl_platform_id> Platform::allHandles() {
  std::vector<cl_platform_id> all;
  if (HandleSource delegated = gDelegated.load(std::memory_order_acquire))
    all = delegated();
  all.push_back(get().handle());
  return all;
}

const std::vector<Device *> &Platform::devices() {
  static const std::vector<Device *> devices{&CpuDevice::get()};
  return devices;
}

std::vector<Device *> Platform::devicesOfType(cl_device_type type) {
  std::vector<Device *> found;
  const std::vector<Device *> &all = devices();
  for (size_t i = 0; i < all.size(); ++i)
    if (type == CL_DEVICE_TYPE_ALL || (type & all[i]->type()) ||
        ((type & CL_DEVICE_TYPE_DEFAULT) && i == 0))
      found.push_back(all[i]);
  return found;
}

Platform &Device::platform() { return Platform::get(); }

} // namespace fibercl::runtime

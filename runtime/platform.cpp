// The platform singleton and its devices.
#include "runtime/platform.hpp"

namespace fibercl::runtime {

Platform &Platform::get() {
  static Platform *platform = new Platform; // never destroyed: handles outlive exit
  return *platform;
}

const std::vector<Device *> &Platform::devices() {
  static const std::vector<Device *> devices{&CpuDevice::get()};
  return devices;
}

Platform &Device::platform() { return Platform::get(); }

} // namespace fibercl::runtime

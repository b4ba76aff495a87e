// The platform singleton and its devices.
#include "runtime/platform.hpp"

namespace fibercl::runtime {

Platform &Platform::get() {
  static Platform *platform = new Platform; // never destroyed: handles outlive exit
  return *platform;
}

namespace {
std::vector<Device *> (*moreDevices)() = nullptr;
}

void Platform::setMoreDevices(std::vector<Device *> (*provider)()) { moreDevices = provider; }

const std::vector<Device *> &Platform::devices() {
  static const std::vector<Device *> devices = [] {
    std::vector<Device *> list{&CpuDevice::get()};
    if (moreDevices)
      for (Device *d : moreDevices())
        list.push_back(d);
    return list;
  }();
  return devices;
}

Platform &Device::platform() { return Platform::get(); }

} // namespace fibercl::runtime

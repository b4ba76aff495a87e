// Delegation's start-up (delegate.hpp, initialise): the forwarding dispatch table and
// the vendor platforms icd/ hands in, and the delegated platforms' place in the
// runtime's one platform list.
#include "delegate/delegate.hpp"
#include "delegate/platforms.hpp"
#include "runtime/platform.hpp"

#include <atomic>

namespace fibercl::delegate {
namespace {

std::atomic<const cl_icd_dispatch *> gForwarding{nullptr};
std::atomic<VendorSource> gVendors{nullptr};

std::vector<cl_platform_id> platformHandles() {
  std::vector<cl_platform_id> out;
  for (Platform *p : delegatedPlatforms())
    out.push_back(reinterpret_cast<cl_platform_id>(p));
  return out;
}

} // namespace

void initialise(const cl_icd_dispatch &forwarding, VendorSource vendors) {
  gForwarding.store(&forwarding, std::memory_order_release);
  gVendors.store(vendors, std::memory_order_release);
  runtime::Platform::addDelegated(&platformHandles);
}

const cl_icd_dispatch &forwardingDispatch() { return *gForwarding.load(std::memory_order_acquire); }

std::vector<VendorPlatform> vendorPlatforms() {
  VendorSource source = gVendors.load(std::memory_order_acquire);
  return source ? source() : std::vector<VendorPlatform>{};
}

} // namespace fibercl::delegate

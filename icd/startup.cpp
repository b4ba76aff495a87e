// When libfibercl.so is loaded: the dispatch tables go to the layers whose handles
// start with them, and delegation learns where its vendor platforms come from (the
// vendor files and FIBERCL_DELEGATE, read when platforms are first listed).
#include "delegate/delegate.hpp"
#include "icd/icd.hpp"
#include "icd/vendors.hpp"
#include "runtime/object.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace fibercl::icd {
namespace {

// The vendor platforms FIBERCL_DELEGATE selects, loaded (vendors.hpp).
std::vector<delegate::VendorPlatform> selectedVendors() {
  std::vector<delegate::VendorPlatform> out;
  const char *env = std::getenv("FIBERCL_DELEGATE");
  std::string selection = env ? env : "none";
  if (!delegationRequested(selection))
    return out;
  // This library is FiberCL: skipped by address (fcl_clIcdGetPlatformIDsKHR is in it).
  VendorScan scan = scanVendors(reinterpret_cast<const void *>(&fcl_clIcdGetPlatformIDsKHR));
  for (const VendorPlatform &v : scan.platforms)
    if (delegateSelects(selection, v) && v.dispatch->clGetDeviceIDs)
      out.push_back(
          {v.platform, v.dispatch, v.name, v.vendor, v.library, delegatedPlatformName(v.name)});
  if (out.empty())
    std::fprintf(stderr,
                 "FiberCL: FIBERCL_DELEGATE=%s selects no platform (see `fibercl platforms`)\n",
                 selection.c_str());
  return out;
}

// Before any call: a loader reaches the library only after dlopen has run this.
const bool kStarted = [] {
  runtime::installDispatch(kDispatch);
  delegate::initialise(kForwardingDispatch, &selectedVendors);
  return true;
}();

} // namespace
} // namespace fibercl::icd

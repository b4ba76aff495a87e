// The delegated platforms: one FiberCL platform per vendor platform FIBERCL_DELEGATE
// selects (contexts cannot mix devices of two implementations, so each vendor's
// devices stay together, apart from FiberCL's CPU device).
#pragma once

#include <string>
#include <vector>

#include "delegate/delegate.hpp"
#include "delegate/objects.hpp"

namespace fibercl::delegate {

// Made once, when first asked, of the vendor platforms icd/ selects (empty unless
// FIBERCL_DELEGATE selects a vendor).
const std::vector<Platform *> &delegatedPlatforms();
// What icd/'s vendor source gives (setup.cpp); empty before initialise.
std::vector<VendorPlatform> vendorPlatforms();

} // namespace fibercl::delegate

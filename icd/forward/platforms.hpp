// The delegated platforms: one FiberCL platform per vendor platform FIBERCL_DELEGATE
// selects (contexts cannot mix devices of two implementations, so each vendor's
// devices stay together, apart from FiberCL's CPU device).
#pragma once

#include <string>
#include <vector>

#include "icd/forward/objects.hpp"
#include "icd/vendors.hpp"

namespace fibercl::fwd {

// Scanned once, when first asked; empty unless FIBERCL_DELEGATE selects a vendor.
const std::vector<Platform *> &delegatedPlatforms();

} // namespace fibercl::fwd

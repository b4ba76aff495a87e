// The other OpenCL implementations installed on the machine, found and loaded the way
// the Khronos and ocl-icd loaders do it -- vendor files (*.icd naming a library) in
// FIBERCL_VENDORS or OCL_ICD_VENDORS (a directory or one .icd file) or
// /etc/OpenCL/vendors, dlopen,
// clIcdGetPlatformIDsKHR -- but never through libOpenCL (which would load FiberCL
// again) and never FiberCL itself. The first step of delegation (DESIGN.md,
// "Delegation"): FIBERCL_DELEGATE chooses which of these platforms' devices FiberCL
// forwards to.
#pragma once

#include <CL/cl.h>
#include <CL/cl_icd.h>

#include <string>
#include <vector>

namespace fibercl::icd {

struct VendorPlatform {
  std::string icdFile;                       // the vendor file that named the library
  std::string library;                       // as the vendor file names it
  cl_platform_id platform = nullptr;         // the vendor's own handle
  const cl_icd_dispatch *dispatch = nullptr; // its dispatch table (first field of a handle)
  std::string name, vendor, version;
};

struct VendorScan {
  std::vector<VendorPlatform> platforms;
  std::vector<std::string> skipped; // "<vendor file>: <why>"
};

// Reads the vendor list and loads every library but FiberCL itself (the library that
// contains `self`, any address in it; nullptr: none) and ICD loaders. Libraries stay
// loaded for the life of the process.
VendorScan scanVendors(const void *self);

// What FiberCL calls the platform it makes of a vendor platform ("FiberCL -> <name>"),
// and whether a platform name is one of FiberCL's (its CPU platform or such a one).
std::string delegatedPlatformName(const std::string &vendorPlatformName);
bool isFiberCLPlatformName(const std::string &name);

// FIBERCL_DELEGATE's value: "none" or empty (the default), "all", or comma-separated
// case-insensitive substrings of a platform's name, vendor or library ("pocl",
// "rusticl", "nvidia"). Does it select `p`?
bool delegateSelects(const std::string &selection, const VendorPlatform &p);
// Does the selection ask for any delegation at all (not "none" or empty)?
bool delegationRequested(const std::string &selection);

} // namespace fibercl::icd

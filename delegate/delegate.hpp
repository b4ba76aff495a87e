// What the ICD layer (icd/) sees of delegation: the entry points of a delegated
// handle's calls, and the start-up that hands delegation its dispatch table and the
// vendor platforms to show. Delegation sits between the runtime and icd/: it includes
// runtime/ (object model support, the platform list), never icd/.
#pragma once

#include <CL/cl.h>
#include <CL/cl_icd.h>

#include <string>
#include <vector>

namespace fibercl::delegate {

// A vendor platform to show as a FiberCL platform of its own.
struct VendorPlatform {
  cl_platform_id platform = nullptr;         // the vendor's own handle
  const cl_icd_dispatch *dispatch = nullptr; // its dispatch table
  std::string name, vendor, library;         // as the vendor and its vendor file say
  std::string shownName;                     // CL_PLATFORM_NAME: "FiberCL -> <name>"
};
// The vendor platforms to delegate to, asked once, when platforms are first listed.
using VendorSource = std::vector<VendorPlatform> (*)();

// Once, when the library is loaded, before any call: `forwarding` is the dispatch
// table every delegated handle starts with (delegate::<name> for each OpenCL function,
// icd/'s loader entries); the delegated platforms join runtime::Platform's list.
void initialise(const cl_icd_dispatch &forwarding, VendorSource vendors);

// The entry points of delegated handles, one per OpenCL function, the same type as the
// specification's (delegate/*.cpp).
#define FCL_API(name) decltype(::name) name;
#define FCL_ICD(name)
#define FCL_NONE(name)
#define FCL_EXTENSION(name)
#define FCL_LOADER(name)
#include "runtime/api/entry_points.def"
#undef FCL_API
#undef FCL_ICD
#undef FCL_NONE
#undef FCL_EXTENSION
#undef FCL_LOADER

} // namespace fibercl::delegate

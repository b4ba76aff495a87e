// The two dispatch tables FiberCL's handles start with, generated from the one list of
// entry points (runtime/api/entry_points.def): the runtime's objects' (the spec names,
// runtime/api/) and delegated handles' (delegate::<name>). Both share the loader entries.
#include "icd/icd.hpp"

#include "delegate/delegate.hpp"

namespace fibercl::icd {

const cl_icd_dispatch kDispatch = {
#define FCL_API(name) &::name,
#define FCL_ICD(name) &fcl_##name,
#define FCL_NONE(name) nullptr,
#define FCL_EXTENSION(name)
#define FCL_LOADER(name)
#include "runtime/api/entry_points.def"
#undef FCL_API
#undef FCL_ICD
#undef FCL_NONE
#undef FCL_EXTENSION
#undef FCL_LOADER
};

// What FiberCL does not provide on its CPU device (GL/D3D sharing) is not forwarded
// either. Extension functions of the vendor are not reachable: its extension strings
// are filtered to match (delegate/platforms.cpp).
const cl_icd_dispatch kForwardingDispatch = {
#define FCL_API(name) &delegate::name,
#define FCL_ICD(name) &fcl_##name,
#define FCL_NONE(name) nullptr,
#define FCL_EXTENSION(name)
#define FCL_LOADER(name)
#include "runtime/api/entry_points.def"
#undef FCL_API
#undef FCL_ICD
#undef FCL_NONE
#undef FCL_EXTENSION
#undef FCL_LOADER
};

namespace {
constexpr size_t countEntries() {
  size_t n = 0;
#define FCL_API(name) ++n;
#define FCL_ICD(name) ++n;
#define FCL_NONE(name) ++n;
#define FCL_EXTENSION(name)
#define FCL_LOADER(name)
#include "runtime/api/entry_points.def"
#undef FCL_API
#undef FCL_ICD
#undef FCL_NONE
#undef FCL_EXTENSION
#undef FCL_LOADER
  return n;
}
} // namespace
static_assert(countEntries() * sizeof(void *) == sizeof(cl_icd_dispatch),
              "entry_points.def must list every field of cl_icd_dispatch");

} // namespace fibercl::icd

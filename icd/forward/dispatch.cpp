// The dispatch table of every delegated-platform handle, from entry_points.def: each
// OpenCL function is fwd::<name> (icd/forward/*.cpp); the loader entries are
// FiberCL's; what FiberCL does not provide on its CPU device (GL/D3D sharing) is not
// forwarded either. Extension functions of the vendor are not reachable: its
// extension strings are filtered to match (platforms.cpp).
#include "icd/forward/forward.hpp"
#include "icd/icd.hpp"

namespace fibercl::fwd {

const cl_icd_dispatch &forwardingDispatch() {
  static const cl_icd_dispatch table = {
#define FCL_API(name) &fwd::name,
#define FCL_ICD(name) &icd::fcl_##name,
#define FCL_NONE(name) nullptr,
#define FCL_EXTENSION(name)
#define FCL_LOADER(name)
#include "icd/entry_points.def"
#undef FCL_API
#undef FCL_ICD
#undef FCL_NONE
#undef FCL_EXTENSION
#undef FCL_LOADER
  };
  return table;
}

} // namespace fibercl::fwd

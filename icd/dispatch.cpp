// The dispatch table every FiberCL object points to, generated from entry_points.def.
#include "runtime/object.hpp"

#include "icd/icd.hpp"

namespace fibercl::icd {

const cl_icd_dispatch kDispatch = {
#define FCL_API(name) &::name,
#define FCL_ICD(name) &fcl_##name,
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

namespace {
constexpr size_t countEntries() {
  size_t n = 0;
#define FCL_API(name) ++n;
#define FCL_ICD(name) ++n;
#define FCL_NONE(name) ++n;
#define FCL_EXTENSION(name)
#define FCL_LOADER(name)
#include "icd/entry_points.def"
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

namespace fibercl::runtime {
// Constant-initialised: valid before any static constructor runs.
const cl_icd_dispatch *gDispatch = &icd::kDispatch;
} // namespace fibercl::runtime

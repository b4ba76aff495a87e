// The dispatch table objects start with, as the ICD layer hands it in (object.hpp).
#include "runtime/object.hpp"

namespace fibercl::runtime {
namespace {
std::atomic<const cl_icd_dispatch *> gInstalled{nullptr};
} // namespace

void installDispatch(const cl_icd_dispatch &table) {
  gInstalled.store(&table, std::memory_order_release);
}

const cl_icd_dispatch *objectDispatch() { return gInstalled.load(std::memory_order_acquire); }

} // namespace fibercl::runtime

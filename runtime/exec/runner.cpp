// Per-thread runner state: the local-memory block reused across work-groups.
#include <cstdlib>

#include "runtime/exec/runner.hpp"

namespace fibercl::exec {

Runner::~Runner() { std::free(local_); }

void *Runner::localMemory(uint64_t size) noexcept {
  if (size <= localCap_)
    return local_;
  std::free(local_);
  local_ = nullptr;
  localCap_ = 0;
  void *p = nullptr;
  if (posix_memalign(&p, 4096, size_t(size)) != 0)
    return nullptr;
  local_ = p;
  localCap_ = size;
  return p;
}

} // namespace fibercl::exec

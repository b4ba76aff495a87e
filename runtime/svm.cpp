// SvmAllocations (svm.hpp).
#include "runtime/svm.hpp"

#include <cstdlib>

namespace fibercl::runtime {

SvmAllocations::~SvmAllocations() {
  for (auto &[p, a] : allocations_)
    std::free(p);
}

void *SvmAllocations::allocate(size_t size, size_t alignment, cl_svm_mem_flags flags) {
  size_t rounded = (size + alignment - 1) / alignment * alignment;
  auto *p = static_cast<char *>(std::aligned_alloc(alignment, rounded));
  if (!p)
    return nullptr;
  std::lock_guard<std::mutex> lock(mutex_);
  allocations_[p] = {size, flags};
  return p;
}

bool SvmAllocations::free(void *p) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = allocations_.find(static_cast<char *>(p));
  if (it == allocations_.end())
    return false;
  std::free(it->first);
  allocations_.erase(it);
  return true;
}

void *SvmAllocations::find(const void *p, size_t size) const {
  const char *c = static_cast<const char *>(p);
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = allocations_.upper_bound(const_cast<char *>(c));
  if (it == allocations_.begin())
    return nullptr;
  --it;
  if (c + size > it->first + it->second.size)
    return nullptr;
  return it->first;
}

std::pair<const char *, size_t> SvmAllocations::extentOf(const void *p) const {
  const char *c = static_cast<const char *>(p);
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = allocations_.upper_bound(const_cast<char *>(c));
  if (it == allocations_.begin())
    return {nullptr, 0};
  --it;
  if (c >= it->first + it->second.size)
    return {nullptr, 0};
  return {it->first, it->second.size};
}

} // namespace fibercl::runtime

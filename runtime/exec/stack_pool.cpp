// Work-item fiber stacks: mmap reservation + guard page + recycling pool.
#include "runtime/exec/stack_pool.hpp"

#include <cstdlib>
#include <sys/mman.h>
#include <unistd.h>

namespace fibercl::exec {

static size_t pageSize() {
  long p = sysconf(_SC_PAGESIZE);
  return p > 0 ? size_t(p) : 4096;
}

size_t defaultStackSize() {
  size_t size = 256 * 1024;
  if (const char *env = std::getenv("FIBERCL_STACK_SIZE")) {
    char *end = nullptr;
    unsigned long long v = std::strtoull(env, &end, 0);
    if (end && (*end == 'k' || *end == 'K'))
      v *= 1024;
    else if (end && (*end == 'm' || *end == 'M'))
      v *= 1024 * 1024;
    if (v >= 16 * 1024 && v <= (1ull << 30))
      size = size_t(v);
  }
  size_t page = pageSize();
  return (size + page - 1) / page * page;
}

StackPool::StackPool(size_t stackSize, std::atomic<uint64_t> *created)
    : size_(stackSize), guard_(pageSize()), created_(created) {}

StackPool::~StackPool() {
  for (Stack *s : all_) {
    munmap(s->base, s->guard + s->size);
    delete s;
  }
}

Stack *StackPool::take() noexcept {
  if (!free_.empty()) {
    Stack *s = free_.back();
    free_.pop_back();
    return s;
  }
  // Reserve the whole region; pages are committed on first touch. MAP_NORESERVE so
  // hundreds of mostly untouched stacks do not count against overcommit limits.
  void *p = mmap(nullptr, guard_ + size_, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (p == MAP_FAILED)
    return nullptr;
  if (mprotect(p, guard_, PROT_NONE) != 0) {
    munmap(p, guard_ + size_);
    return nullptr;
  }
  Stack *s = new (std::nothrow) Stack;
  if (!s) {
    munmap(p, guard_ + size_);
    return nullptr;
  }
  s->base = static_cast<char *>(p);
  s->guard = guard_;
  s->size = size_;
  s->serial = uint32_t(all_.size());
  try {
    all_.push_back(s);
    free_.reserve(all_.size());
  } catch (...) {
    munmap(p, guard_ + size_);
    delete s;
    return nullptr;
  }
  created_->fetch_add(1, std::memory_order_relaxed);
  return s;
}

bool StackPool::inAnyGuard(const void *addr) const noexcept {
  for (const Stack *s : all_)
    if (s->inGuard(addr))
      return true;
  return false;
}

} // namespace fibercl::exec

// Work-item fiber stacks: mmap reservation + guard page + recycling pool.
#include "runtime/exec/stack_pool.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sys/mman.h>
#include <unistd.h>

namespace fibercl::exec {
namespace {

std::atomic<uint64_t> mappedStacks{0};

} // namespace

uint64_t processStackLimit() noexcept {
  static const uint64_t limit = [] {
    uint64_t maps = 65530; // the kernel's default
    if (FILE *f = std::fopen("/proc/sys/vm/max_map_count", "r")) {
      unsigned long long v = 0;
      if (std::fscanf(f, "%llu", &v) == 1 && v > 0)
        maps = v;
      std::fclose(f);
    }
    // Two mappings per stack; a quarter of the mappings (at least 4096) stay for
    // the heap, libraries, the JIT's code and the application.
    uint64_t reserve = std::max<uint64_t>(4096, maps / 4);
    return maps > reserve + 2048 ? (maps - reserve) / 2 : 1024;
  }();
  return limit;
}

uint64_t processStacksMapped() noexcept { return mappedStacks.load(std::memory_order_relaxed); }

void trimIdleStacks(StackPool &pool) noexcept {
  if (pool.freeCount() != 0 && processStacksMapped() > processStackLimit() / 2)
    pool.trim(0);
}

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

StackPool::StackPool(size_t stackSize, ExecCounters &counters)
    : size_(stackSize), guard_(pageSize()), counters_(counters) {}

StackPool::~StackPool() {
  for (Stack *s : all_) {
    munmap(s->base, s->guard + s->size);
    delete s;
  }
  mappedStacks.fetch_sub(all_.size(), std::memory_order_relaxed);
}

void StackPool::trim(size_t keep) noexcept {
  if (free_.size() <= keep)
    return;
  std::vector<Stack *> drop;
  try {
    drop.assign(free_.begin() + keep, free_.end());
  } catch (...) {
    return; // keeping the stacks is always safe
  }
  free_.resize(keep);
  std::sort(drop.begin(), drop.end());
  all_.erase(
      std::remove_if(all_.begin(), all_.end(),
                     [&](Stack *s) { return std::binary_search(drop.begin(), drop.end(), s); }),
      all_.end());
  for (Stack *s : drop) {
    munmap(s->base, s->guard + s->size);
    delete s;
  }
  mappedStacks.fetch_sub(drop.size(), std::memory_order_relaxed);
}

Stack *StackPool::take() noexcept {
  if (!free_.empty()) {
    Stack *s = free_.back();
    free_.pop_back();
    return s;
  }
  if (mappedStacks.fetch_add(1, std::memory_order_relaxed) >= processStackLimit()) {
    mappedStacks.fetch_sub(1, std::memory_order_relaxed);
    return nullptr;
  }
  // Reserve the whole region; pages are committed on first touch. MAP_NORESERVE so
  // hundreds of mostly untouched stacks do not count against overcommit limits.
  void *p = mmap(nullptr, guard_ + size_, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (p == MAP_FAILED) {
    mappedStacks.fetch_sub(1, std::memory_order_relaxed);
    return nullptr;
  }
  if (mprotect(p, guard_, PROT_NONE) != 0) {
    munmap(p, guard_ + size_);
    mappedStacks.fetch_sub(1, std::memory_order_relaxed);
    return nullptr;
  }
  Stack *s = new (std::nothrow) Stack;
  if (!s) {
    munmap(p, guard_ + size_);
    mappedStacks.fetch_sub(1, std::memory_order_relaxed);
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
    mappedStacks.fetch_sub(1, std::memory_order_relaxed);
    delete s;
    return nullptr;
  }
  counters_.stacksCreated.fetch_add(1, std::memory_order_relaxed);
  return s;
}

void StackPool::disown(Stack *s) noexcept {
  auto it = std::find(all_.begin(), all_.end(), s);
  if (it != all_.end())
    all_.erase(it);
}

void StackPool::own(Stack *s) noexcept {
  try {
    all_.push_back(s);
    free_.reserve(all_.size()); // give() never allocates
  } catch (...) {
    std::abort(); // a stack no pool owns would be unmapped by none
  }
}

bool StackPool::inAnyGuard(const void *addr) const noexcept {
  for (const Stack *s : all_)
    if (s->inGuard(addr))
      return true;
  return false;
}

} // namespace fibercl::exec

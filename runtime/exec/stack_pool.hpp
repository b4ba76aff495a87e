// Work-item fiber stacks: mmap'ed reservations with a PROT_NONE guard page below,
// committed lazily by the OS, recycled per host thread across work-groups.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace fibercl::exec {

// One fiber stack. `base` is the lowest mapped address (the guard page); the usable
// region is [base + guard, base + guard + size).
struct Stack {
  char *base = nullptr;
  size_t guard = 0;
  size_t size = 0;
  uint32_t serial = 0; // creation order in its pool, used to stagger stack tops

  char *limit() const { return base + guard; }
  char *top() const { return base + guard + size; }
  bool inGuard(const void *addr) const {
    auto a = reinterpret_cast<const char *>(addr);
    return a >= base && a < base + guard;
  }
};

// A pool of stacks owned by one runner thread (not thread-safe). Stacks are created
// on demand and kept until the pool is destroyed.
class StackPool {
public:
  // `created` counts stacks ever mapped (shared by all pools of an executor).
  StackPool(size_t stackSize, std::atomic<uint64_t> *created);
  ~StackPool();
  StackPool(const StackPool &) = delete;
  StackPool &operator=(const StackPool &) = delete;

  // Returns a stack, or nullptr if mmap failed.
  Stack *take() noexcept;
  void give(Stack *s) noexcept { free_.push_back(s); }
  // True if `addr` lies in the guard page of any stack of this pool.
  bool inAnyGuard(const void *addr) const noexcept;
  size_t stackSize() const { return size_; }

private:
  size_t size_;
  size_t guard_;
  std::atomic<uint64_t> *created_;
  std::vector<Stack *> all_;
  std::vector<Stack *> free_;
};

// FIBERCL_STACK_SIZE (bytes, accepts K/M suffixes) or 256 KiB, rounded to pages.
size_t defaultStackSize();

} // namespace fibercl::exec

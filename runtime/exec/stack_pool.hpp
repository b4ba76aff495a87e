// Work-item fiber stacks: mmap'ed reservations with a PROT_NONE guard page below,
// committed lazily by the OS, recycled per host thread across work-groups.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/exec/exec_counters.hpp"

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
// on demand and kept for reuse until trimmed or the pool is destroyed.
//
// Every stack is two memory mappings (guard + stack), and the kernel limits a
// process's mappings (vm.max_map_count, 65530 by default): once it is reached, every
// mmap fails -- malloc's included. So the stacks of all pools together are capped at
// processStackLimit(), below that, and the yielding scheduler bounds how many groups
// of a large work-group size are resident at once (YieldShared's constructor).
class StackPool {
public:
  // `counters.stacksCreated` counts stacks ever mapped (shared by all pools of an
  // executor).
  StackPool(size_t stackSize, ExecCounters &counters);
  ~StackPool();
  StackPool(const StackPool &) = delete;
  StackPool &operator=(const StackPool &) = delete;

  // Returns a stack, or nullptr if mmap failed or the process limit is reached.
  Stack *take() noexcept;
  // `s` must belong to this pool (a stack of a group that moved to another runner is
  // handed over first: disown on the old runner's thread, own on the new one's).
  void give(Stack *s) noexcept { free_.push_back(s); }
  // Ownership of a stack in use passes from one pool to another (group_migration.hpp).
  void disown(Stack *s) noexcept;
  void own(Stack *s) noexcept;
  // Unmaps free stacks until at most `keep` are left.
  void trim(size_t keep) noexcept;
  size_t freeCount() const { return free_.size(); }
  // True if `addr` lies in the guard page of any stack of this pool.
  bool inAnyGuard(const void *addr) const noexcept;
  size_t stackSize() const { return size_; }

private:
  size_t size_;
  size_t guard_;
  ExecCounters &counters_;
  std::vector<Stack *> all_;
  std::vector<Stack *> free_;
};

// FIBERCL_STACK_SIZE (bytes, accepts K/M suffixes) or 256 KiB, rounded to pages.
size_t defaultStackSize();

// How many fiber stacks the process may map in all (from vm.max_map_count, leaving
// room for everything else), and how many are mapped now.
uint64_t processStackLimit() noexcept;
uint64_t processStacksMapped() noexcept;

// Called by a runner between work-groups and jobs: gives back all of its pool's free
// stacks when more than half the limit is mapped, so that stacks idle in one
// runner's pool do not keep another runner's work-group from starting.
void trimIdleStacks(StackPool &pool) noexcept;

} // namespace fibercl::exec

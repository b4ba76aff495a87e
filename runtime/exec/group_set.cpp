// GroupSet (group_set.hpp).
#include "runtime/exec/group_set.hpp"

#include <utility>

#include "runtime/exec/coop_launch.hpp"
#include "runtime/exec/job.hpp"
#include "runtime/exec/sched_policy.hpp"

namespace fibercl::exec {

GroupSet::GroupSet(Job &job, uint64_t total, const Scheduling &S, CoopLaunch *coop)
    : job_(job), total_(total), admission_(S.admission), coop_(coop) {
  if (admission_ == Scheduling::Admission::Random) {
    order_.resize(total);
    for (uint64_t i = 0; i < total; ++i)
      order_[i] = i;
    SplitMix rng(S.seed ^ 0x5eedad31u);
    for (uint64_t i = total; i > 1; --i)
      std::swap(order_[i - 1], order_[rng.below(i)]);
  }
}

uint64_t GroupSet::groupAt(uint64_t k) const noexcept {
  switch (admission_) {
  case Scheduling::Admission::Reverse:
    return total_ - 1 - k;
  case Scheduling::Admission::Random:
    return order_[k];
  default:
    return k;
  }
}

bool GroupSet::startsLeft() const noexcept {
  return coop_ ? coop_->hasStart() : next_.load(std::memory_order_acquire) < total_;
}

bool GroupSet::takeStart(GroupStart &out, uint64_t &k) noexcept {
  if (coop_) {
    if (!coop_->takeStart(out))
      return false;
    k = next_.fetch_add(1, std::memory_order_acq_rel); // admission order only
    if (!coop_->hasStart()) // later forks are admitted by the workers running it
      job_.next.store(job_.total, std::memory_order_release);
    return true;
  }
  if (next_.load(std::memory_order_relaxed) >= total_)
    return false;
  k = next_.fetch_add(1, std::memory_order_acq_rel);
  if (k >= total_)
    return false;
  if (k + 1 == total_ && !stayQueued_)
    job_.next.store(job_.total, std::memory_order_release); // leave the queue
  out.gid = groupAt(k);
  return true;
}

uint64_t GroupSet::dropStarts() noexcept {
  if (coop_)
    return coop_->dropStarts();
  uint64_t k = next_.exchange(total_, std::memory_order_acq_rel);
  return k < total_ ? total_ - k : 0;
}

} // namespace fibercl::exec

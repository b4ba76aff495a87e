// KernelWatchdog (kernel_timeout.hpp).
#include "runtime/exec/kernel_timeout.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>

#include "runtime/exec/job.hpp"
#include "runtime/exec/report.hpp"
#include "runtime/exec/runner.hpp"
#include "runtime/exec/yield_launch.hpp"

namespace fibercl::exec {
namespace {

// How often the watchdog looks at its launches (and signals a group again that was in
// a library function when it was last signalled).
constexpr std::chrono::milliseconds kTick{20};

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

} // namespace

KernelWatchdog::KernelWatchdog(std::function<void(Job &, uint64_t)> complete)
    : complete_(std::move(complete)) {}

KernelWatchdog::~KernelWatchdog() {
  {
    std::lock_guard<std::mutex> lk(m_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable())
    thread_.join();
}

void KernelWatchdog::watch(const std::shared_ptr<Job> &job) {
  if (!(job->range.scheduling.kernelTimeoutSeconds > 0))
    return;
  std::lock_guard<std::mutex> lk(m_);
  jobs_.push_back(Watched{job});
  if (!thread_.joinable())
    thread_ = std::thread([this] { run(); });
  cv_.notify_all();
}

void KernelWatchdog::addRunner(Runner *r) {
  std::lock_guard<std::mutex> lk(runnersM_);
  runners_.push_back(r);
}

void KernelWatchdog::removeRunner(Runner *r) {
  std::lock_guard<std::mutex> lk(runnersM_);
  runners_.erase(std::remove(runners_.begin(), runners_.end(), r), runners_.end());
}

void KernelWatchdog::run() {
  std::unique_lock<std::mutex> lk(m_);
  std::vector<std::pair<std::shared_ptr<Job>, bool>> overdue; // job, first time
  while (!stop_) {
    if (jobs_.empty()) {
      cv_.wait(lk);
      continue;
    }
    cv_.wait_for(lk, kTick);
    if (stop_)
      break;
    const int64_t now = nowNs();
    size_t kept = 0; // finished launches are dropped in one pass (there may be thousands)
    for (size_t i = 0; i < jobs_.size(); ++i) {
      Watched &w = jobs_[i];
      std::shared_ptr<Job> job = w.job.lock();
      if (!job || job->completed.load(std::memory_order_acquire) >= job->total)
        continue;
      int64_t began = job->beganNs.load(std::memory_order_acquire);
      if (job->begun.load(std::memory_order_acquire) && began &&
          now - began > int64_t(job->range.scheduling.kernelTimeoutSeconds * 1e9)) {
        overdue.emplace_back(job, !w.expired);
        w.expired = true;
      }
      if (kept != i) // (a weak_ptr moved onto itself is left empty)
        jobs_[kept] = std::move(w);
      ++kept;
    }
    jobs_.resize(kept);
    if (overdue.empty())
      continue;
    // Completing a job runs its completion (the application's callbacks, which may
    // enqueue and so watch): not under m_.
    lk.unlock();
    for (auto &[job, first] : overdue) {
      if (first)
        expire(*job);
      stopGroupsOf(*job);
    }
    overdue.clear();
    lk.lock();
  }
}

void KernelWatchdog::expire(Job &job) {
  const NDRange &R = job.range;
  Report msg;
  msg.kernel(R.kernelName) << " has run for longer than FIBERCL_KERNEL_TIMEOUT="
                           << R.scheduling.kernelTimeoutSeconds
                           << " seconds: the command fails (CL_OUT_OF_RESOURCES), and its "
                              "work-groups still running are stopped\n";
  msg.emit();
  if (YieldShared *sh = job.yield.get()) {
    // As after a deadlock: its workers leave every group not running, and whoever
    // claims a group not started completes it.
    sh->declared.store(true, std::memory_order_release); // no deadlock report as well
    int32_t expected = kComplete;
    job.status.compare_exchange_strong(expected, kOutOfResources);
    sh->abandon.store(true, std::memory_order_release);
    return;
  }
  // The groups nobody took are withdrawn, and completed here.
  if (uint64_t withdrawn = job.fail(kOutOfResources))
    complete_(job, withdrawn);
}

void KernelWatchdog::stopGroupsOf(const Job &job) {
  installStopHandler();
  std::lock_guard<std::mutex> lk(runnersM_);
  for (Runner *r : runners_) {
    // Under launchM, the runner cannot leave the launch (and its thread end) between
    // the look and the signal.
    std::lock_guard<std::mutex> held(r->launchM);
    if (r->launch.load(std::memory_order_acquire) != job.serial)
      continue;
    r->stopLaunch.store(job.serial, std::memory_order_release);
    pthread_kill(r->thread, stopSignal());
  }
}

} // namespace fibercl::exec

// The kernel time limit (FIBERCL_KERNEL_TIMEOUT): a launch still running that many
// seconds after its first work-group started fails with CL_OUT_OF_RESOURCES and a
// report, and the work-groups it is still running are stopped.
//
// Nothing else can tell a loop that never ends from a long computation: spin loops
// are left to the scheduler's deadlock detection, loops without an exit to the
// compiler (EndlessLoopsPass); a loop whose exit depends on the work-item's own data
// and never comes (a Collatz iteration from 0) only the clock catches.
//
// Stopping a group that is running: the watchdog sends the runner's thread
// kStopSignal; the handler abandons the group through the runner's recovery point,
// as a fault does -- but only when the thread is in the kernel's own JIT-compiled code
// (in no loaded library: a host function the kernel called may hold a lock, or be in
// the C library's allocator). Elsewhere it returns, and the watchdog tries again at
// its next tick. Groups not running (not yet started, suspended at a yield point) are
// abandoned by the launch's own paths: the chunks nobody took are withdrawn, a
// yielding launch is abandoned as after a deadlock.
#pragma once

#include <pthread.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace fibercl::exec {

struct Job;
struct Runner;

// Sent to a runner's thread to stop the group it runs. SIGURG: its default action is
// to ignore it, so a stray one harms nothing; one that is not ours goes to the
// handler installed before.
int stopSignal() noexcept;

class KernelWatchdog {
public:
  // `complete(job, units)` completes units withdrawn from a job (Executor::Impl).
  explicit KernelWatchdog(std::function<void(Job &, uint64_t)> complete);
  ~KernelWatchdog(); // stops the watchdog thread
  KernelWatchdog(const KernelWatchdog &) = delete;
  KernelWatchdog &operator=(const KernelWatchdog &) = delete;

  // Watches `job` if its launch has a time limit (starts the thread the first time).
  void watch(const std::shared_ptr<Job> &job);
  // Runners that may run work-groups; a runner is removed before it is destroyed.
  void addRunner(Runner *r);
  void removeRunner(Runner *r);

private:
  struct Watched {
    std::weak_ptr<Job> job;
    bool expired = false;
  };
  void run();
  void expire(Job &job);
  void stopGroupsOf(const Job &job);

  std::function<void(Job &, uint64_t)> complete_;
  std::mutex m_;
  std::condition_variable cv_;
  std::vector<Watched> jobs_; // guarded by m_
  bool stop_ = false;         // guarded by m_
  std::thread thread_;        // started by the first watch()
  std::mutex runnersM_;
  std::vector<Runner *> runners_; // guarded by runnersM_
};

} // namespace fibercl::exec

// The executor: worker threads, the job queue, helping host threads and completion.
#include "runtime/exec/executor.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#include "runtime/exec/device_slots.hpp"
#include "runtime/exec/group_launch.hpp"
#include "runtime/exec/job.hpp"
#include "runtime/exec/kernel_timeout.hpp"
#include "runtime/exec/runner.hpp"
#include "runtime/exec/trace_log.hpp"
#include "runtime/exec/yield_launch.hpp"

namespace fibercl::exec {
namespace {

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Iterations of the idle spin before sleeping (a pause is ~10-140 cycles).
constexpr int kWorkerSpin = 2000;
constexpr int kHelperSpin = 4000;

unsigned threadsFromEnv() {
  if (const char *env = std::getenv("FIBERCL_THREADS")) {
    long v = std::strtol(env, nullptr, 10);
    if (v > 0 && v <= 1024)
      return unsigned(v);
  }
  unsigned hc = std::thread::hardware_concurrency();
  return hc ? hc : 1;
}

} // namespace

using JobRef = std::shared_ptr<Job>;

struct Executor::Impl {
  unsigned threads = 1;
  size_t stackSize = 0;
  ExecCounters counters;
  TraceLog traces; // FIBERCL_TRACE files of yielding launches

  std::mutex m;
  std::condition_variable workCv;   // idle workers
  std::condition_variable helperCv; // idle helping host threads
  std::deque<JobRef> queue;         // jobs with units not yet taken (guarded by m)
  std::atomic<size_t> queued{0};    // queue.size(), readable without m
  int sleepingWorkers = 0;          // guarded by m
  std::atomic<int> sleepingHelpers{0};
  bool stop = false;

  DeviceSlots slots; // while a cooperative kernel runs (device_slots.hpp)
  // Commands submitted while a cooperative kernel holds the workers run beside it on
  // threads of their own, detached: the device lives as long as the process, so
  // nothing would join a finished one (TSan: thread leak). Shutdown waits for them.
  std::mutex besideM;
  std::condition_variable besideCv;
  unsigned besideRunning = 0; // guarded by besideM

  std::vector<std::unique_ptr<Runner>> workerRunners;
  std::vector<std::unique_ptr<Runner>> idleHelperRunners; // guarded by m
  std::vector<std::thread> workers;
  std::atomic<uint64_t> launches{0}; // Job::serial
  // FIBERCL_KERNEL_TIMEOUT; knows every runner (they live as long as the executor,
  // but the ones of launches beside a cooperative kernel).
  KernelWatchdog watchdog{[this](Job &job, uint64_t units) { complete(job, units); }};

  std::unique_ptr<Runner> newRunner() {
    auto r = std::make_unique<Runner>(stackSize, counters);
    watchdog.addRunner(r.get());
    return r;
  }

  // Under m: the first queued job that still has units, dropping exhausted ones.
  JobRef frontWithWork() {
    while (!queue.empty()) {
      if (!queue.front()->exhausted())
        return queue.front();
      queue.pop_front();
      queued.store(queue.size(), std::memory_order_relaxed);
    }
    return nullptr;
  }

  // Under m: the first queued job with units that a host thread waiting in helpUntil
  // may run. Not a cooperative kernel's: a thread that joins one runs its groups until
  // the kernel ends, and the host thread may be waiting for something else -- a kernel
  // on another queue that gets its slots at the cooperative kernel's next offer_kill
  // and is done long before (issue 27: enqueued right after the cooperative kernel's
  // clFlush, it waited for the whole cooperative kernel whenever the waiting host
  // thread got to the cooperative launch before the second worker did). The workers
  // run cooperative launches.
  JobRef frontForHelper() {
    JobRef front = frontWithWork();
    if (!front || !front->range.cooperative)
      return front;
    for (const JobRef &j : queue)
      if (!j->range.cooperative && !j->exhausted())
        return j;
    return nullptr;
  }

  void removeJob(Job *job) {
    std::lock_guard<std::mutex> lk(m);
    for (auto it = queue.begin(); it != queue.end(); ++it)
      if (it->get() == job) {
        queue.erase(it);
        queued.store(queue.size(), std::memory_order_relaxed);
        break;
      }
  }

  void submit(JobRef job) {
    uint64_t chunks = (job->total + job->chunk - 1) / job->chunk;
    if (job->yield && !job->range.scheduling.deterministic)
      chunks = threads; // every worker may admit groups
    int wake;
    bool helpers;
    {
      std::lock_guard<std::mutex> lk(m);
      queue.push_back(std::move(job));
      queued.store(queue.size(), std::memory_order_relaxed);
      wake = chunks < uint64_t(sleepingWorkers) ? int(chunks) : sleepingWorkers;
      helpers = sleepingHelpers.load(std::memory_order_relaxed) > 0;
    }
    if (wake >= int(threads))
      workCv.notify_all();
    else
      for (int i = 0; i < wake; ++i)
        workCv.notify_one();
    if (helpers)
      helperCv.notify_all();
  }

  // Called by the runner that completed the last unit; no lock held.
  void finish(Job &job) noexcept {
    Done done = std::move(job.done);
    int32_t status = job.status.load(std::memory_order_acquire);
    if (done)
      done(status);
    // Pairs with the fence in helpUntil: either the helper sees finished() or we see
    // it sleeping and wake it.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (sleepingHelpers.load(std::memory_order_relaxed) > 0) {
      std::lock_guard<std::mutex> lk(m);
      helperCv.notify_all();
    }
  }

  void complete(Job &job, uint64_t units) noexcept {
    if (units == 0)
      return;
    if (job.completed.fetch_add(units, std::memory_order_acq_rel) + units == job.total)
      finish(job);
  }

  void runHostUnit(Job &job) noexcept {
    int32_t st;
    try {
      st = job.host();
    } catch (const std::bad_alloc &) {
      st = kOutOfHostMemory;
    } catch (...) {
      st = kOutOfResources;
    }
    if (st != kComplete) {
      int32_t expected = kComplete;
      job.status.compare_exchange_strong(expected, st);
    }
  }

  // Takes and runs chunks of `job` until none is left. `getRunner()` gives the
  // calling thread's runner (a helping host thread borrows one only when it first
  // runs a work-group).
  template <typename GetRunner> void runUnits(Job &job, GetRunner &&getRunner) {
    job.begin();
    if (job.yield) {
      runYieldJob(getRunner(), job, [&](uint64_t n) { complete(job, n); });
      removeJob(&job);
      return;
    }
    for (;;) {
      uint64_t begin = job.next.fetch_add(job.chunk, std::memory_order_acq_rel);
      if (begin >= job.total)
        break;
      uint64_t end = begin + job.chunk < job.total ? begin + job.chunk : job.total;
      uint64_t withdrawn = 0;
      if (job.status.load(std::memory_order_relaxed) == kComplete) {
        if (job.isHost)
          runHostUnit(job);
        else
          withdrawn = runGroups(getRunner(), job, begin, end);
      }
      complete(job, (end - begin) + withdrawn);
      if (end == job.total)
        break; // that was the last chunk: no need to look again
    }
    // Nobody may take units any more: drop it from the queue. (The job may already be
    // finished and released by others; the caller holds a reference.)
    removeJob(&job);
  }

  void runBeside(JobRef job) {
    {
      std::lock_guard<std::mutex> lk(besideM);
      ++besideRunning;
    }
    std::thread([this, job] {
      Runner runner(stackSize, counters);
      watchdog.addRunner(&runner);
      setCurrentRunner(&runner);
      runner.alt.install();
      uint32_t held = 0;
      if (!job->isHost)
        // Half the deadlock timeout: a cooperative kernel that
        // waits for this one is then not reported first.
        held =
            slots.acquire(slots.request(job->numGroups[0] * job->numGroups[1] * job->numGroups[2]),
                          job->range.kernelName, job->range.scheduling.deadlockTimeoutSeconds / 2);
      job->begin(); // after the gather time
      runUnits(*job, [&]() -> Runner & { return runner; });
      slots.release(held);
      runner.alt.uninstall();
      setCurrentRunner(nullptr);
      watchdog.removeRunner(&runner);
      std::lock_guard<std::mutex> lk(besideM);
      if (--besideRunning == 0)
        besideCv.notify_all();
    }).detach();
  }

  void workerMain(unsigned index) {
    Runner &r = *workerRunners[index];
    setCurrentRunner(&r);
    r.alt.install();
    auto get = [&]() -> Runner & { return r; };
    for (;;) {
      JobRef job;
      {
        std::unique_lock<std::mutex> lk(m);
        for (;;) {
          if (stop)
            break;
          job = frontWithWork();
          if (job)
            break;
          // Spin a little outside the lock: a new job often follows shortly.
          lk.unlock();
          for (int i = 0; i < kWorkerSpin; ++i) {
            if (queued.load(std::memory_order_relaxed) != 0)
              break;
            cpuRelax();
          }
          lk.lock();
          if (stop)
            break;
          job = frontWithWork();
          if (job)
            break;
          ++sleepingWorkers;
          workCv.wait(lk);
          --sleepingWorkers;
        }
      }
      if (!job)
        break;
      runUnits(*job, get);
    }
    r.alt.uninstall();
    setCurrentRunner(nullptr);
  }
};

Executor::Executor(unsigned threads) : impl_(std::make_unique<Impl>()) {
  Impl &I = *impl_;
  I.threads = threads ? threads : threadsFromEnv();
  I.stackSize = defaultStackSize();
  for (unsigned i = 0; i < I.threads; ++i)
    I.workerRunners.push_back(I.newRunner());
  I.workers.reserve(I.threads);
  for (unsigned i = 0; i < I.threads; ++i)
    I.workers.emplace_back([&I, i] { I.workerMain(i); });
}

Executor::~Executor() {
  {
    std::unique_lock<std::mutex> lk(impl_->besideM);
    impl_->besideCv.wait(lk, [&] { return impl_->besideRunning == 0; });
  }
  {
    std::lock_guard<std::mutex> lk(impl_->m);
    impl_->stop = true;
  }
  impl_->workCv.notify_all();
  for (auto &t : impl_->workers)
    t.join();
}

unsigned Executor::workerCount() const { return impl_->threads; }

void Executor::runNDRange(NDRange range, Done done) {
  installFaultHandlers();
  auto job = std::make_shared<Job>();
  job->range = std::move(range);
  job->done = std::move(done);
  job->serial = ++impl_->launches;
  prepareNDRange(*job, impl_->threads + 1);
  if (job->total == 0 || job->range.entry == nullptr) {
    // Nothing to run (a zero-sized NDRange is a no-op).
    job->begin();
    if (job->done)
      job->done(job->range.entry || job->total == 0 ? kComplete : kOutOfResources);
    return;
  }
  if (job->range.mayYield) {
    // Every group on its own fiber under job->range.scheduling (yield_launch.cpp).
    job->chunk = job->total;
    job->yield = std::make_shared<YieldShared>(*job, job->total, impl_->threads,
                                               job->range.cooperative ? &impl_->slots : nullptr);
    if (!job->range.scheduling.tracePath.empty()) {
      job->yield->trace.attach(impl_->traces,
                               impl_->traces.reserve(job->range.scheduling.tracePath));
    }
  }
  impl_->watchdog.watch(job);
  if (!job->range.cooperative && impl_->slots.coopRunning()) {
    impl_->runBeside(std::move(job)); // multitasking (device_slots.hpp)
    return;
  }
  impl_->submit(std::move(job));
}

void Executor::runHost(std::function<int32_t()> work, Done done) {
  auto job = std::make_shared<Job>();
  job->isHost = true;
  job->host = std::move(work);
  job->done = std::move(done);
  if (impl_->slots.coopRunning()) {
    impl_->runBeside(std::move(job));
    return;
  }
  impl_->submit(std::move(job));
}

void Executor::helpUntil(const std::function<bool()> &finished) {
  Impl &I = *impl_;
  // A runner is borrowed only if this thread actually runs work-groups.
  std::unique_ptr<Runner> runner;
  Runner *previous = currentRunner();
  auto get = [&]() -> Runner & {
    if (!runner) {
      {
        std::lock_guard<std::mutex> lk(I.m);
        if (!I.idleHelperRunners.empty()) {
          runner = std::move(I.idleHelperRunners.back());
          I.idleHelperRunners.pop_back();
        }
      }
      if (!runner)
        runner = I.newRunner();
      runner->alt.install();
      setCurrentRunner(runner.get());
    }
    return *runner;
  };

  // Jobs queued when the helper last found none it may run (cooperative ones): only a
  // change of the count is worth another look.
  size_t seen = 0;
  while (!finished()) {
    JobRef job;
    if (I.queued.load(std::memory_order_relaxed) != seen) {
      std::lock_guard<std::mutex> lk(I.m);
      job = I.frontForHelper();
      seen = job ? 0 : I.queued.load(std::memory_order_relaxed);
    }
    if (job) {
      I.runUnits(*job, get);
      continue;
    }
    bool ready = false;
    for (int i = 0; i < kHelperSpin && !ready; ++i) {
      if ((i & 15) == 0 && finished()) {
        ready = true;
        break;
      }
      if (I.queued.load(std::memory_order_relaxed) != seen)
        ready = true;
      cpuRelax();
    }
    if (ready)
      continue;
    std::unique_lock<std::mutex> lk(I.m);
    I.sleepingHelpers.fetch_add(1, std::memory_order_seq_cst);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    while (!finished() && !I.frontForHelper())
      I.helperCv.wait(lk);
    seen = 0;
    I.sleepingHelpers.fetch_sub(1, std::memory_order_relaxed);
  }

  if (runner) {
    runner->alt.uninstall();
    setCurrentRunner(previous);
    std::lock_guard<std::mutex> lk(I.m);
    I.idleHelperRunners.push_back(std::move(runner));
  }
}

uint64_t Executor::stacksCreated() const {
  return impl_->counters.stacksCreated.load(std::memory_order_relaxed);
}

uint64_t Executor::groupSwitches() const {
  return impl_->counters.groupSwitches.load(std::memory_order_relaxed);
}

uint64_t Executor::groupsMoved() const {
  return impl_->counters.groupsMoved.load(std::memory_order_relaxed);
}

uint64_t Executor::fiberGroupsRun() const {
  return impl_->counters.fiberGroups.load(std::memory_order_relaxed);
}

} // namespace fibercl::exec

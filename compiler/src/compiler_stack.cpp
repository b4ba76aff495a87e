// The compiler's own thread with a large stack (compiler_stack.hpp).
#include "compiler_stack.hpp"

#include <clang/Basic/Stack.h>

#include <pthread.h>

#include <exception>

#include "build_guard.hpp"
#include "build_timer.hpp"

namespace fibercl::compiler {
namespace {

struct Job {
  llvm::function_ref<void()> fn;
  BuildTimer *timer;
  std::exception_ptr error;
  std::string crash;
};

void runJobHere(Job &job) {
  try {
    runGuarded(job.fn, job.crash);
  } catch (...) {
    job.error = std::current_exception();
  }
}

void *runJob(void *arg) {
  auto *job = static_cast<Job *>(arg);
  // Clang's own stack guards (declarators, template instantiation) measure from here;
  // they move work to a fresh 8 MB thread before this one runs out.
  clang::noteBottomOfStack();
  BuildTimer::current() = job->timer;
  runJobHere(*job);
  BuildTimer::current() = nullptr;
  return nullptr;
}

} // namespace

std::string runOnCompilerStack(llvm::function_ref<void()> fn) {
  Job job{fn, BuildTimer::current(), nullptr, {}};
  pthread_attr_t attr;
  pthread_t thread;
  bool started = pthread_attr_init(&attr) == 0;
  if (started) {
    started = pthread_attr_setstacksize(&attr, kCompilerStackBytes) == 0 &&
              pthread_create(&thread, &attr, runJob, &job) == 0;
    pthread_attr_destroy(&attr);
  }
  if (!started) // no thread (address space or thread limits): the caller's stack it is
    runJobHere(job);
  else
    pthread_join(thread, nullptr);
  if (job.error)
    std::rethrow_exception(job.error);
  return job.crash;
}

} // namespace fibercl::compiler

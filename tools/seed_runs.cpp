// Runs of a program under seeds, several at once (seed_runs.hpp).
#include "tools/seed_runs.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

// A temporary file nobody else can open, closed in the children that do not own it.
int temporaryFile() {
  char path[] = "/tmp/fibercl_explore_XXXXXX";
  int fd = mkostemp(path, O_CLOEXEC);
  if (fd < 0) {
    std::fprintf(stderr, "fibercl: cannot create a temporary file: %s\n", std::strerror(errno));
    std::exit(2);
  }
  unlink(path);
  return fd;
}

std::string readAll(int fd) {
  std::string s;
  char buf[4096];
  lseek(fd, 0, SEEK_SET);
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;)
    s.append(buf, size_t(n));
  close(fd);
  return s;
}

} // namespace

void SeedRuns::start(long seed) {
  int outFd = temporaryFile(), errFd = temporaryFile();
  std::fflush(stdout); // nothing buffered is written twice
  pid_t pid = fork();
  if (pid < 0) {
    std::fprintf(stderr, "fibercl: cannot fork: %s\n", std::strerror(errno));
    std::exit(2);
  }
  if (pid == 0) {
    dup2(outFd, 1); // the duplicates are not closed on exec
    dup2(errFd, 2);
    setenv("FIBERCL_SEED", std::to_string(seed).c_str(), 1);
    execvp(program_[0], program_.data());
    std::fprintf(stderr, "fibercl: cannot run %s: %s\n", program_[0], std::strerror(errno));
    _exit(127);
  }
  children_[pid] = Child{seed, outFd, errFd};
}

SeedRun SeedRuns::next() {
  for (;;) {
    int status = 0;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR)
        continue;
      std::fprintf(stderr, "fibercl: waitpid: %s\n", std::strerror(errno));
      std::exit(2);
    }
    auto it = children_.find(pid);
    if (it == children_.end() || !(WIFEXITED(status) || WIFSIGNALED(status)))
      continue;
    SeedRun r;
    r.seed = it->second.seed;
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = readAll(it->second.outFd);
    r.err = readAll(it->second.errFd);
    children_.erase(it);
    return r;
  }
}

SeedRuns::~SeedRuns() {
  while (!children_.empty())
    next();
}

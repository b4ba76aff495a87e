// Runs of a program under seeds, several at once: each a child process with
// FIBERCL_SEED set, its output and error output captured in (unlinked) temporary files.
#pragma once

#include <sys/types.h>

#include <map>
#include <string>
#include <vector>

struct SeedRun {
  long seed = 0;
  int exitCode = 0; // 128 + the signal if it was killed
  std::string out, err;
};

class SeedRuns {
public:
  // `program`: PROGRAM ARGS..., null-terminated; it must outlive this.
  explicit SeedRuns(const std::vector<char *> &program) : program_(program) {}
  ~SeedRuns(); // waits for the runs still going

  void start(long seed);
  size_t running() const { return children_.size(); }
  // Waits for any run to end (one must be running) and returns it.
  SeedRun next();

private:
  struct Child {
    long seed;
    int outFd, errFd;
  };
  const std::vector<char *> &program_;
  std::map<pid_t, Child> children_;
};

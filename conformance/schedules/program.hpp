// One program of the schedule corpus: what it tests, how many groups it launches,
// and how one launch is built, run and checked. The programs themselves are in
// prog_*.cpp (host side) and kernels/*.cl (device side).
#pragma once

#include "cl_session.hpp"

#include <memory>
#include <string>
#include <vector>

namespace corpus {

// What a run of the program must give: every run completes with right results
// (Ok), every run is reported as a deadlock (Deadlock), or at least one run gives a
// wrong result (Race).
enum class Expect { Ok, Deadlock, Race };
const char *expectName(Expect e);
bool parseExpect(const std::string &s, Expect &e);

// How many work-groups a program launches by default at occupancy bound N
// (0 = unbounded).
enum class GroupRule {
  Fixed,     // ProgramInfo::fixedGroups whatever the bound
  AtBound,   // N: every group must be occupant at once; 8 when unbounded
  OverBound, // N + 1: one group too many, a bug by construction (needs N > 0)
};

struct ProgramInfo {
  const char *name;
  const char *what;  // one line
  const char *paper; // where the algorithm comes from
  Expect expect = Expect::Ok;
  GroupRule groupRule = GroupRule::Fixed;
  cl_uint fixedGroups = 8;
  size_t local = 64;
  int iters = 4;                // its R / K / ITER (see `what`)
  const char *defaultLock = ""; // non-empty: takes --lock ticket|spin
  bool reportsFound = false;    // discovery-based: participating groups
  bool reportsMet = false;      // litmus / handshake: iterations met
  bool unfair = false;          // runs under the unfair policy by default
};

struct Params {
  cl_uint bound = 0;  // occupancy bound in force (0 = unbounded)
  cl_uint groups = 0; // work-groups launched
  size_t local = 64;  // work-items per group
  std::string lock;   // discovery / bfs mutex
  int iters = 0;      // R / K / ITER
  cl_uint salt = 1;   // host-side randomness (delay lengths, graphs): seed or rep
};

struct Outcome {
  enum class Status { Ok, Wrong, Deadlock, Failed };
  Status status = Status::Ok;
  std::string detail; // why Wrong or Failed
  std::string report; // FiberCL's stderr during the launch
  int found = -1;     // participating groups (discovery-based programs)
  int met = 0;        // iterations in which both groups met (litmus, handshake)
  int iterations = 0; //   out of this many
  std::string result; // schedule-independent one-line result (`once` prints it)
};
const char *statusName(Outcome::Status s);
// Marks `out` wrong with `detail` unless already wrong (the first problem wins).
void markWrong(Outcome &out, const std::string &detail);

class Program {
public:
  explicit Program(ProgramInfo info) : info_(info) {}
  virtual ~Program() = default;
  const ProgramInfo &info() const { return info_; }
  cl_uint defaultGroups(cl_uint bound) const;

  // One launch with fresh buffers and a fresh kernel object under `schedule`,
  // results checked. Throws SetupError on API failures.
  virtual Outcome run(Session &s, const Params &p, const Schedule &schedule) const = 0;

protected:
  // Launches k; false (and `out` says why) if the command did not complete.
  static bool launched(Session &s, const Kernel &k, const Params &p, const Schedule &schedule,
                       Outcome &out);
  // The outcome's one-line result: "NAME: ok" or "NAME: wrong: DETAIL".
  void conclude(Outcome &out) const;

private:
  ProgramInfo info_;
};

using ProgramList = std::vector<std::unique_ptr<Program>>;
void addDiscoveryPrograms(ProgramList &list);  // prog_discovery.cpp
void addBarrierPrograms(ProgramList &list);    // prog_barrier.cpp
void addLockPrograms(ProgramList &list);       // prog_locks.cpp
void addLitmusPrograms(ProgramList &list);     // prog_litmus.cpp
void addBugPrograms(ProgramList &list);        // prog_bugs.cpp
void addReadMostlyPrograms(ProgramList &list); // prog_readmostly.cpp

const ProgramList &allPrograms();
const Program *findProgram(const std::string &name);

// Small host-side helpers shared by the programs.
unsigned hostHash(unsigned x); // same function as corpus_hash in kernels/common.cl
std::string upper(std::string s);

} // namespace corpus

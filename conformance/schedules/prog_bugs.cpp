// The buggy programs B2-B4 (B1, bug_over_bound, is in prog_barrier.cpp): each must
// be reported as a deadlock, or its wrong result seen. Kernels: kernels/bugs.cl.
#include "program.hpp"

namespace corpus {
namespace {

class NeverAdmitted : public Program {
public:
  NeverAdmitted()
      : Program({"bug_never_admitted",
                 "BUG B2: groups 0..G-2 spin on a flag only group G-1 sets; G = "
                 "bound + 1, admission in id order: G-1 is never admitted",
                 "seed 000 §2.3 (spinning on a non-occupant group)", Expect::Deadlock,
                 GroupRule::OverBound, 0, 64, 0}) {}

  Outcome run(Session &s, const Params &p, const Schedule &schedule) const override {
    cl_program prog = s.program({"bugs.cl"}, "-cl-std=CL2.0");
    Kernel k = s.kernel(prog, "never_admitted");
    Buffer flag = s.buffer(std::vector<int>{0});
    setArgs(k, flag);
    Outcome out;
    launched(s, k, p, schedule, out);
    conclude(out);
    return out;
  }
};

class UnfairStarvation : public Program {
public:
  UnfairStarvation()
      : Program({"bug_unfair_starvation",
                 "BUG B3: under the unfair policy group 0 spins on a flag group 1 "
                 "sets after iters atomic steps; group 1 starves (run at occupancy 2)",
                 "seed 000 §2.3 (no fairness outside the occupancy-bound model)", Expect::Deadlock,
                 GroupRule::Fixed, 2, 64, 100, "", false, false, true}) {}

  Outcome run(Session &s, const Params &p, const Schedule &schedule) const override {
    cl_program prog = s.program({"bugs.cl"}, "-cl-std=CL2.0");
    Kernel k = s.kernel(prog, "unfair_starvation");
    Buffer flag = s.buffer(std::vector<int>{0});
    Buffer work = s.buffer(std::vector<int>{0});
    setArgs(k, flag, work, (cl_int)p.iters);
    Outcome out;
    launched(s, k, p, schedule, out);
    conclude(out);
    return out;
  }
};

class LostUpdate : public Program {
public:
  LostUpdate()
      : Program({"bug_lost_update",
                 "BUG B4: G groups x K=iters increments made of an atomic load and "
                 "an atomic store; some schedule loses an update (total < G*K)",
                 "seed 004 §3 (atomicity assumptions)", Expect::Race, GroupRule::Fixed, 8, 64, 8}) {
  }

  Outcome run(Session &s, const Params &p, const Schedule &schedule) const override {
    cl_program prog = s.program({"bugs.cl"}, "-cl-std=CL2.0");
    Kernel k = s.kernel(prog, "lost_update");
    Buffer counter = s.buffer(std::vector<int>{0});
    setArgs(k, counter, (cl_int)p.iters);
    Outcome out;
    if (launched(s, k, p, schedule, out)) {
      const int got = s.read<int>(counter, 1)[0], want = (int)p.groups * p.iters;
      if (got != want)
        markWrong(out, "total " + std::to_string(got) + " of " + std::to_string(want));
    }
    conclude(out);
    return out;
  }
};

} // namespace

void addBugPrograms(ProgramList &list) {
  list.push_back(std::make_unique<NeverAdmitted>());
  list.push_back(std::make_unique<UnfairStarvation>());
  list.push_back(std::make_unique<LostUpdate>());
}

} // namespace corpus

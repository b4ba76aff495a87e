// Programs whose groups must all be occupant at once or wait out long delays:
// counter_barrier (and its over-bound bug, bug_over_bound), delay_rendezvous,
// lone_last. Kernels: kernels/counter_barrier.cl, kernels/delay.cl.
#include "program.hpp"

namespace corpus {
namespace {

// Every entry of errors[] must be 0: -1 means a work-item never got there.
void checkErrors(Outcome &out, const std::vector<int> &errors, size_t local, const char *what) {
  for (size_t i = 0; i < errors.size(); ++i)
    if (errors[i] != 0) {
      markWrong(out, "group " + std::to_string(i / local) +
                         (errors[i] < 0 ? " did not finish" : std::string(" ") + what));
      return;
    }
}

class CounterBarrier : public Program {
public:
  using Program::Program;

  Outcome run(Session &s, const Params &p, const Schedule &schedule) const override {
    const size_t G = p.groups, ls = p.local;
    cl_program prog = s.program({"common.cl", "counter_barrier.cl"}, "-cl-std=CL1.2");
    Kernel k = s.kernel(prog, "counter_barrier_rounds");
    Buffer bar = s.buffer(std::vector<int>{0, 0});
    Buffer data = s.buffer(std::vector<int>(2 * G * ls, 0));
    Buffer errors = s.buffer(std::vector<int>(G * ls, -1));
    setArgs(k, bar, data, errors, (cl_int)p.iters);
    Outcome out;
    if (launched(s, k, p, schedule, out))
      checkErrors(out, s.read<int>(errors, G * ls), ls,
                  "read stale neighbour data after a barrier");
    conclude(out);
    return out;
  }
};

class DelayRendezvous : public Program {
public:
  DelayRendezvous()
      : Program({"delay_rendezvous",
                 "G = bound groups: random-length delay loops, then R=iters "
                 "rendezvous on a monotonic atomic counter; stamps checked",
                 "seed 000 §2.3 (N-group set at bound N); seed 003 backoff delays", Expect::Ok,
                 GroupRule::AtBound, 8, 64, 3}) {}

  Outcome run(Session &s, const Params &p, const Schedule &schedule) const override {
    const size_t G = p.groups, ls = p.local, R = p.iters;
    // Mostly short delays, now and then a long one.
    std::vector<int> lengths(G * R);
    for (size_t i = 0; i < lengths.size(); ++i) {
      unsigned h = hostHash(p.salt * 7919u + (unsigned)i);
      lengths[i] = (int)(h % 16 == 0 ? 20000 + h % 20000 : h % 1500);
    }
    cl_program prog = s.program({"common.cl", "delay.cl"}, "-cl-std=CL2.0");
    Kernel k = s.kernel(prog, "delay_rendezvous");
    Buffer arrived = s.buffer(std::vector<int>{0});
    Buffer stamp = s.buffer(std::vector<int>(G, 0));
    Buffer len = s.buffer(lengths);
    Buffer errors = s.buffer(std::vector<int>(G * ls, -1));
    setArgs(k, arrived, stamp, len, errors, (cl_int)R);
    Outcome out;
    if (launched(s, k, p, schedule, out)) {
      checkErrors(out, s.read<int>(errors, G * ls), ls,
                  "passed a rendezvous before every group stamped it");
      if (int a = s.read<int>(arrived, 1)[0]; a != (int)(G * R))
        markWrong(out,
                  "arrival counter " + std::to_string(a) + ", expected " + std::to_string(G * R));
    }
    conclude(out);
    return out;
  }
};

class LoneLast : public Program {
public:
  LoneLast()
      : Program({"lone_last",
                 "G-1 groups count themselves done and finish; the last waits for "
                 "them, then runs one long delay loop alone (iters iterations)",
                 "delay loops of seed 003 §5 (backoff) in a lone group", Expect::Ok,
                 GroupRule::Fixed, 8, 64, 200000}) {}

  Outcome run(Session &s, const Params &p, const Schedule &schedule) const override {
    cl_program prog = s.program({"common.cl", "delay.cl"}, "-cl-std=CL2.0");
    Kernel k = s.kernel(prog, "lone_last");
    Buffer done = s.buffer(std::vector<int>{0});
    Buffer result = s.buffer(std::vector<int>{-1});
    setArgs(k, done, result, (cl_int)p.iters);
    Outcome out;
    if (launched(s, k, p, schedule, out)) {
      int got = s.read<int>(result, 1)[0];
      if (got != (int)p.groups - 1)
        markWrong(out, "last group saw " + std::to_string(got) + " groups done, not " +
                           std::to_string(p.groups - 1));
    }
    conclude(out);
    return out;
  }
};

} // namespace

void addBarrierPrograms(ProgramList &list) {
  list.push_back(std::make_unique<CounterBarrier>(
      ProgramInfo{"counter_barrier",
                  "atomic-counter barrier with sense reversal (OpenCL 1.2 style) among G = "
                  "bound groups (8 unbounded), R=iters rounds, neighbour data checked",
                  "seed 003 §5 (atomic barrier); seed 000 §2.3 (occupancy bound)", Expect::Ok,
                  GroupRule::AtBound, 8, 64, 4}));
  list.push_back(std::make_unique<DelayRendezvous>());
  list.push_back(std::make_unique<LoneLast>());
  list.push_back(std::make_unique<CounterBarrier>(ProgramInfo{
      "bug_over_bound", "BUG B1: counter_barrier with G = bound + 1 groups: cannot all be occupant",
      "seed 000 §2.3 (N + 1 groups deadlock at bound N)", Expect::Deadlock, GroupRule::OverBound, 0,
      64, 4}));
}

} // namespace corpus

// Mutex and semaphore programs: mutex_spin, mutex_backoff, mutex_ticket,
// sem_spin, sem_ticket. Kernels: kernels/mutex_cs.cl, kernels/semaphore_*.cl.
#include "program.hpp"

namespace corpus {
namespace {

constexpr int kCapacity = 3; // semaphore capacity C

// Hold times for the semaphores, g * K + k: mostly 0..63 delay iterations, one in
// eight 2000..7999 (as kernels/mutex_cs.cl computes its own).
std::vector<int> holdTimes(size_t n, unsigned salt) {
  std::vector<int> hold(n);
  for (size_t i = 0; i < n; ++i) {
    unsigned h = hostHash(salt * 40503u + (unsigned)i);
    hold[i] = (h & 7) == 0 ? 2000 + (int)(h % 6000) : (int)((h >> 3) % 64);
  }
  return hold;
}

class MutexCs : public Program {
public:
  MutexCs(ProgramInfo info, const char *mutex) : Program(info), mutex_(mutex) {}

  Outcome run(Session &s, const Params &p, const Schedule &schedule) const override {
    const size_t ls = p.local;
    cl_program prog = s.program({"common.cl", "mutex.cl", "mutex_cs.cl"},
                                std::string("-cl-std=CL2.0 -DMUTEX_") + mutex_);
    Kernel k = s.kernel(prog, "mutex_cs");
    Buffer lock = s.buffer(std::vector<int>{0, 0});
    Buffer counter = s.buffer(std::vector<int>(ls, 0));
    setArgs(k, lock, counter, (cl_int)p.iters);
    Outcome out;
    if (launched(s, k, p, schedule, out)) {
      const int want = (int)p.groups * p.iters;
      auto got = s.read<int>(counter, ls);
      for (size_t l = 0; l < ls; ++l)
        if (got[l] != want) {
          markWrong(out, "lane " + std::to_string(l) + " counted " + std::to_string(got[l]) +
                             " critical sections, not " + std::to_string(want));
          break;
        }
    }
    conclude(out);
    return out;
  }

private:
  const char *mutex_;
};

class Semaphore : public Program {
public:
  Semaphore(ProgramInfo info, bool ticket) : Program(info), ticket_(ticket) {}

  Outcome run(Session &s, const Params &p, const Schedule &schedule) const override {
    const size_t G = p.groups;
    cl_program prog = ticket_ ? s.program({"common.cl", "semaphore_ticket.cl"}, "-cl-std=CL2.0")
                              : s.program({"common.cl", "semaphore_spin.cl"}, "-cl-std=CL1.2");
    Kernel k = s.kernel(prog, ticket_ ? "sem_ticket" : "sem_spin");
    Buffer sem = s.buffer(ticket_ ? std::vector<int>{0, 0, 0} : std::vector<int>{kCapacity + 1});
    Buffer stats = s.buffer(std::vector<int>{0, 0, 0});
    Buffer perGroup = s.buffer(std::vector<int>(G, 0));
    Buffer hold = s.buffer(holdTimes(G * p.iters, p.salt));
    if (ticket_)
      setArgs(k, sem, stats, perGroup, hold, (cl_int)kCapacity, (cl_int)p.iters);
    else
      setArgs(k, sem, stats, perGroup, hold, (cl_int)p.iters);
    Outcome out;
    if (launched(s, k, p, schedule, out)) {
      auto st = s.read<int>(stats, 3);
      auto per = s.read<int>(perGroup, G);
      const int want = (int)G * p.iters;
      if (st[1] > kCapacity)
        markWrong(out, std::to_string(st[1]) +
                           " groups held the semaphore at once "
                           "(capacity " +
                           std::to_string(kCapacity) + ")");
      if (st[2] != want)
        markWrong(out,
                  "total entries " + std::to_string(st[2]) + ", expected " + std::to_string(want));
      if (st[0] != 0 || (want > 0 && st[1] < 1))
        markWrong(out, "holder count inconsistent");
      for (size_t g = 0; g < G; ++g)
        if (per[g] != p.iters) {
          markWrong(out,
                    "group " + std::to_string(g) + " entered " + std::to_string(per[g]) + " times");
          break;
        }
      auto final = s.read<int>(sem, ticket_ ? 3 : 1);
      if (!ticket_ && final[0] != kCapacity + 1)
        markWrong(out, "semaphore word ends at " + std::to_string(final[0]));
      if (ticket_ && final[0] != 0)
        markWrong(out, "semaphore count ends at " + std::to_string(final[0]));
    }
    conclude(out);
    return out;
  }

private:
  bool ticket_;
};

ProgramInfo lockInfo(const char *name, const char *what, const char *paper) {
  return ProgramInfo{name, what, paper, Expect::Ok, GroupRule::Fixed, 8, 64, 4};
}

} // namespace

void addLockPrograms(ProgramList &list) {
  list.push_back(std::make_unique<MutexCs>(
      lockInfo("mutex_spin",
               "G groups x K=iters critical sections under a test-and-set spin "
               "lock, hold-time delay inside, non-atomic counters == G*K",
               "seed 003 Alg. 1/2; seed 000 §5.1 spin-lock"),
      "SPIN"));
  list.push_back(std::make_unique<MutexCs>(
      lockInfo("mutex_backoff",
               "as mutex_spin, with exponential backoff (delay doubling to a cap) "
               "after each failed attempt",
               "seed 003 Alg. 2 with backoff"),
      "BACKOFF"));
  list.push_back(std::make_unique<MutexCs>(
      lockInfo("mutex_ticket", "as mutex_spin, with the fetch-and-add ticket lock",
               "seed 003 Alg. 3 (FA mutex); seed 000 §5.1 ticket-lock"),
      "TICKET"));
  list.push_back(std::make_unique<Semaphore>(
      lockInfo("sem_spin",
               "spin-lock semaphore, capacity 3 (OpenCL 1.2 style): G groups x "
               "K=iters holds with a delay; max holders <= 3, totals checked",
               "seed 003 Alg. 4"),
      false));
  list.push_back(std::make_unique<Semaphore>(
      lockInfo("sem_ticket",
               "sleeping (ticket) semaphore, capacity 3: G groups x K=iters holds "
               "with a delay; max holders <= 3, totals checked",
               "seed 003 Alg. 5"),
      true));
}

} // namespace corpus

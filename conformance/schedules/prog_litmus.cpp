// Litmus tests between pairs of groups (litmus_mp, litmus_sb, litmus_lb,
// litmus_corr) and the bounded handshake. Kernels: kernels/litmus.cl,
// kernels/handshake.cl.
#include "program.hpp"

namespace corpus {
namespace {

constexpr int kPollLimit = 4000; // polls of the partner's flag before giving up
constexpr int kDelayMax = 64;    // random delays before each step: 0..63 iterations

struct Forbidden {
  const char *kernel;
  int r0, r1; // the outcome the memory orders forbid
};

class Litmus : public Program {
public:
  Litmus(ProgramInfo info, Forbidden f) : Program(info), f_(f) {}

  Outcome run(Session &s, const Params &p, const Schedule &schedule) const override {
    Outcome out;
    if (p.groups < 2 || p.groups % 2) {
      out.status = Outcome::Status::Failed;
      out.detail = "litmus tests need an even number of groups (pairs)";
      return out;
    }
    const size_t G = p.groups, pairs = G / 2, I = p.iters;
    cl_program prog = s.program({"common.cl", "litmus.cl"}, "-cl-std=CL2.0");
    Kernel k = s.kernel(prog, f_.kernel);
    Buffer x = s.buffer(std::vector<int>(pairs * I, 0));
    Buffer y = s.buffer(std::vector<int>(pairs * I, 0));
    Buffer arrive = s.buffer(std::vector<int>(G * I, 0));
    Buffer r = s.buffer(std::vector<int>(pairs * I * 2, -1));
    Buffer met = s.buffer(std::vector<int>(G * I, -1));
    Buffer scratch = s.buffer(std::vector<int>(G * p.local, 0));
    setArgs(k, x, y, arrive, r, met, scratch, (cl_int)I, (cl_int)kPollLimit, (cl_int)kDelayMax,
            (cl_uint)p.salt);
    if (launched(s, k, p, schedule, out)) {
      auto rs = s.read<int>(r, pairs * I * 2);
      auto ms = s.read<int>(met, G * I);
      out.iterations = (int)(pairs * I);
      for (size_t q = 0; q < pairs; ++q)
        for (size_t i = 0; i < I; ++i) {
          const size_t k2 = (q * I + i) * 2;
          const int r0 = rs[k2], r1 = rs[k2 + 1];
          if (r0 < 0 || r0 > 1 || r1 < 0 || r1 > 1) {
            markWrong(out, "iteration " + std::to_string(i) + " left results " +
                               std::to_string(r0) + "," + std::to_string(r1));
          } else if (r0 == f_.r0 && r1 == f_.r1) {
            markWrong(out, "forbidden outcome r0=" + std::to_string(r0) +
                               " r1=" + std::to_string(r1) + " in iteration " + std::to_string(i));
          }
          const int a = ms[(2 * q) * I + i], b = ms[(2 * q + 1) * I + i];
          if (a < 0 || b < 0)
            markWrong(out, "iteration " + std::to_string(i) + " did not run");
          out.met += a == 1 && b == 1;
        }
    }
    conclude(out);
    return out;
  }

private:
  Forbidden f_;
};

class Handshake : public Program {
public:
  Handshake()
      : Program({"handshake",
                 "bounded handshake: each group of a pair raises its flag, polls "
                 "the partner's <= 4000 times; reports whether both saw each other",
                 "message passing / rendezvous, seed 004 Table 3 (mp)", Expect::Ok,
                 GroupRule::Fixed, 2, 64, 1, "", false, true}) {}

  Outcome run(Session &s, const Params &p, const Schedule &schedule) const override {
    Outcome out;
    if (p.groups < 2 || p.groups % 2) {
      out.status = Outcome::Status::Failed;
      out.detail = "the handshake needs an even number of groups (pairs)";
      return out;
    }
    const size_t G = p.groups;
    cl_program prog = s.program({"handshake.cl"}, "-cl-std=CL2.0");
    Kernel k = s.kernel(prog, "handshake");
    Buffer flag = s.buffer(std::vector<int>(G, 0));
    Buffer saw = s.buffer(std::vector<int>(G, -1));
    setArgs(k, flag, saw, (cl_int)kPollLimit);
    if (launched(s, k, p, schedule, out)) {
      auto v = s.read<int>(saw, G);
      out.iterations = (int)(G / 2);
      for (size_t q = 0; q < G / 2; ++q) {
        if (v[2 * q] < 0 || v[2 * q + 1] < 0 || v[2 * q] > 1 || v[2 * q + 1] > 1)
          markWrong(out, "pair " + std::to_string(q) + " did not record its polls");
        out.met += v[2 * q] == 1 && v[2 * q + 1] == 1;
      }
    }
    conclude(out);
    return out;
  }
};

ProgramInfo litmusInfo(const char *name, const char *what) {
  return ProgramInfo{name,
                     what,
                     "seed 004 Table 3; OpenCL 2.0 orders forbid it",
                     Expect::Ok,
                     GroupRule::Fixed,
                     2,
                     64,
                     50,
                     "",
                     false,
                     true};
}

} // namespace

void addLitmusPrograms(ProgramList &list) {
  list.push_back(std::make_unique<Litmus>(
      litmusInfo("litmus_mp", "message passing x=1; y=1(rel) || y(acq); x: forbids "
                              "1,0; ITER=iters rendezvous'd iterations per pair"),
      Forbidden{"litmus_mp", 1, 0}));
  list.push_back(std::make_unique<Litmus>(
      litmusInfo("litmus_sb", "store buffering x=1; y || y=1; x, all seq_cst: forbids "
                              "0,0; ITER=iters iterations per pair"),
      Forbidden{"litmus_sb", 0, 0}));
  list.push_back(std::make_unique<Litmus>(
      litmusInfo("litmus_lb", "load buffering x(acq); y=1(rel) || y(acq); x=1(rel): "
                              "forbids 1,1; ITER=iters iterations per pair"),
      Forbidden{"litmus_lb", 1, 1}));
  list.push_back(std::make_unique<Litmus>(
      litmusInfo("litmus_corr", "coherence of read-read x=1 || x; x (relaxed): "
                                "forbids 1,0; ITER=iters iterations per pair"),
      Forbidden{"litmus_corr", 1, 0}));
  list.push_back(std::make_unique<Handshake>());
}

} // namespace corpus

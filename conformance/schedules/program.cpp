// The program registry and what every corpus program shares (see program.hpp).
#include "program.hpp"

#include <cctype>

namespace corpus {

const char *expectName(Expect e) {
  switch (e) {
  case Expect::Ok:
    return "ok";
  case Expect::Deadlock:
    return "deadlock";
  case Expect::Race:
    return "race";
  }
  return "?";
}

bool parseExpect(const std::string &s, Expect &e) {
  if (s == "ok")
    e = Expect::Ok;
  else if (s == "deadlock")
    e = Expect::Deadlock;
  else if (s == "race")
    e = Expect::Race;
  else
    return false;
  return true;
}

const char *statusName(Outcome::Status s) {
  switch (s) {
  case Outcome::Status::Ok:
    return "ok";
  case Outcome::Status::Wrong:
    return "wrong";
  case Outcome::Status::Deadlock:
    return "deadlock";
  case Outcome::Status::Failed:
    return "failed";
  }
  return "?";
}

cl_uint Program::defaultGroups(cl_uint bound) const {
  switch (info_.groupRule) {
  case GroupRule::Fixed:
    return info_.fixedGroups;
  case GroupRule::AtBound:
    return bound ? bound : 8;
  case GroupRule::OverBound:
    return bound ? bound + 1 : 0;
  }
  return info_.fixedGroups;
}

bool Program::launched(Session &s, const Kernel &k, const Params &p, const Schedule &schedule,
                       Outcome &out) {
  LaunchResult r = s.launch(k, p.groups, p.local, schedule);
  out.report = r.report;
  switch (r.kind) {
  case LaunchResult::Kind::Complete:
    return true;
  case LaunchResult::Kind::Deadlock:
    out.status = Outcome::Status::Deadlock;
    out.detail = "deadlock reported";
    return false;
  case LaunchResult::Kind::Failed:
    out.status = Outcome::Status::Failed;
    out.detail =
        "command failed with status " + std::to_string(r.status) + " and no deadlock report";
    return false;
  }
  return false;
}

void markWrong(Outcome &out, const std::string &detail) {
  if (out.status == Outcome::Status::Wrong)
    return;
  out.status = Outcome::Status::Wrong;
  out.detail = detail;
}

void Program::conclude(Outcome &out) const {
  out.result = std::string(info_.name) + ": " + statusName(out.status);
  if (out.status == Outcome::Status::Wrong || out.status == Outcome::Status::Failed)
    out.result += ": " + out.detail;
}

const ProgramList &allPrograms() {
  static const ProgramList list = [] {
    ProgramList l;
    addDiscoveryPrograms(l);
    addBarrierPrograms(l);
    addLockPrograms(l);
    addLitmusPrograms(l);
    addReadMostlyPrograms(l);
    addBugPrograms(l);
    return l;
  }();
  return list;
}

const Program *findProgram(const std::string &name) {
  for (auto &p : allPrograms())
    if (name == p->info().name)
      return p.get();
  return nullptr;
}

unsigned hostHash(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

std::string upper(std::string s) {
  for (auto &c : s)
    c = (char)std::toupper((unsigned char)c);
  return s;
}

} // namespace corpus

// Scheduling::fromEnvironment: the launch defaults from FIBERCL_* variables. An
// invalid value gives a one-line warning on stderr and the default.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "runtime/exec/executor.hpp"

namespace fibercl::exec {
namespace {

void warn(const char *var, const char *value, const char *expect) {
  std::fprintf(stderr, "FiberCL: ignoring %s=%s (expected %s)\n", var, value, expect);
}

bool parseU64(const char *s, uint64_t &out) {
  if (!*s || *s == '-')
    return false;
  errno = 0;
  char *end = nullptr;
  unsigned long long v = std::strtoull(s, &end, 0);
  if (errno || *end)
    return false;
  out = v;
  return true;
}

} // namespace

Scheduling Scheduling::fromEnvironment() {
  Scheduling s;
  if (const char *v = std::getenv("FIBERCL_OCCUPANCY")) {
    uint64_t n;
    if (parseU64(v, n) && n <= 0xffffffffu)
      s.occupancy = uint32_t(n);
    else
      warn("FIBERCL_OCCUPANCY", v, "a number of work-groups, 0 = unbounded");
  }
  if (const char *v = std::getenv("FIBERCL_SCHEDULE")) {
    if (!std::strcmp(v, "fair"))
      s.policy = Policy::Fair;
    else if (!std::strcmp(v, "unfair"))
      s.policy = Policy::Unfair;
    else
      warn("FIBERCL_SCHEDULE", v, "fair or unfair");
  }
  if (const char *v = std::getenv("FIBERCL_SEED")) {
    uint64_t n;
    if (parseU64(v, n)) {
      s.seed = n;
      s.deterministic = true;
    } else {
      warn("FIBERCL_SEED", v, "a non-negative integer");
    }
  }
  if (const char *v = std::getenv("FIBERCL_ADMISSION")) {
    if (!std::strcmp(v, "id"))
      s.admission = Admission::GroupId;
    else if (!std::strcmp(v, "reverse"))
      s.admission = Admission::Reverse;
    else if (!std::strcmp(v, "random"))
      s.admission = Admission::Random;
    else
      warn("FIBERCL_ADMISSION", v, "id, reverse or random");
  }
  if (const char *v = std::getenv("FIBERCL_DEADLOCK_TIMEOUT")) {
    char *end = nullptr;
    double d = std::strtod(v, &end);
    if (end != v && !*end && d > 0 && d < 1e9)
      s.deadlockTimeoutSeconds = d;
    else
      warn("FIBERCL_DEADLOCK_TIMEOUT", v, "a positive number of seconds");
  }
  if (const char *v = std::getenv("FIBERCL_TRACE"))
    s.tracePath = v;
  if (const char *v = std::getenv("FIBERCL_REPORT"))
    s.reportPath = v;
  return s;
}

} // namespace fibercl::exec

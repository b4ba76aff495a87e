// Scheduling::fromEnvironment: the launch defaults from FIBERCL_* variables. An
// invalid value gives a one-line warning on stderr and the default.
#include <cerrno>
#include <cstdlib>
#include <string>

#include "runtime/exec/executor.hpp"
#include "runtime/timeouts.hpp"

namespace fibercl::exec {
namespace {

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

// Sets `out` to the value named `v` in `table` (scheduling_names.hpp); else warns,
// listing the names.
template <typename E, size_t N>
void parseName(const char *var, const char *v, const NamedValue<E> (&table)[N], E &out) {
  if (!valueIn(table, v, out))
    warnIgnoredVariable(var, v, namesIn(table).c_str());
}

} // namespace

Scheduling Scheduling::fromEnvironment() {
  Scheduling s;
  if (const char *v = std::getenv("FIBERCL_OCCUPANCY")) {
    uint64_t n;
    if (parseU64(v, n) && n <= 0xffffffffu)
      s.occupancy = uint32_t(n);
    else
      warnIgnoredVariable("FIBERCL_OCCUPANCY", v, "a number of work-groups, 0 = unbounded");
  }
  if (const char *v = std::getenv("FIBERCL_SCHEDULE"))
    parseName("FIBERCL_SCHEDULE", v, kSchedulePolicies, s.policy);
  if (const char *v = std::getenv("FIBERCL_SEED")) {
    uint64_t n;
    if (parseU64(v, n)) {
      s.seed = n;
      s.deterministic = true;
    } else {
      warnIgnoredVariable("FIBERCL_SEED", v, "a non-negative integer");
    }
  }
  if (const char *v = std::getenv("FIBERCL_ADMISSION"))
    parseName("FIBERCL_ADMISSION", v, kAdmissionOrders, s.admission);
  s.deadlockTimeoutSeconds = deadlockTimeoutFromEnvironment(); // runtime/timeouts.hpp
  s.kernelTimeoutSeconds = kernelTimeoutFromEnvironment();
  if (const char *v = std::getenv("FIBERCL_TRACE"))
    s.tracePath = v;
  if (const char *v = std::getenv("FIBERCL_REPORT"))
    s.reportPath = v;
  return s;
}

} // namespace fibercl::exec

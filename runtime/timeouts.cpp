#include "runtime/timeouts.hpp"

#include <cstdio>
#include <cstdlib>

namespace fibercl {
namespace {

// The value of `var` in seconds if it is a number in [min, 1e9) (> 0 when `positive`),
// else the default with a one-line warning.
double secondsFromEnvironment(const char *var, bool positive, double fallback, const char *expect) {
  const char *v = std::getenv(var);
  if (!v)
    return fallback;
  char *end = nullptr;
  double d = std::strtod(v, &end);
  if (end != v && !*end && (positive ? d > 0 : d >= 0) && d < 1e9)
    return d;
  warnIgnoredVariable(var, v, expect);
  return fallback;
}

} // namespace

void warnIgnoredVariable(const char *var, const char *value, const char *expect) {
  std::fprintf(stderr, "FiberCL: ignoring %s=%s (expected %s)\n", var, value, expect);
}

double deadlockTimeoutFromEnvironment() {
  return secondsFromEnvironment("FIBERCL_DEADLOCK_TIMEOUT", true, kDefaultDeadlockTimeoutSeconds,
                                "a positive number of seconds");
}

double kernelTimeoutFromEnvironment() {
  return secondsFromEnvironment("FIBERCL_KERNEL_TIMEOUT", false, kDefaultKernelTimeoutSeconds,
                                "a number of seconds, 0 = no limit");
}

} // namespace fibercl

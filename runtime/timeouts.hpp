// The two time limits of a command, as FIBERCL_DEADLOCK_TIMEOUT and
// FIBERCL_KERNEL_TIMEOUT set them: read by the CPU device's executor and by delegation's
// waits on a vendor's device, so both parse (and default) them the same way.
#pragma once

namespace fibercl {

// No progress for this long in parallel mode is a deadlock (a delegated device's
// command still running after it is reported).
inline constexpr double kDefaultDeadlockTimeoutSeconds = 10;
// A launch fails this long after its first group started. Ten minutes: far beyond any
// single launch of the suites and applications we run (seconds at most), so a loop that
// never ends fails its command instead of hanging the application forever.
inline constexpr double kDefaultKernelTimeoutSeconds = 600;

// The one-line warning for a FIBERCL_* variable whose value is ignored:
// "FiberCL: ignoring VAR=value (expected ...)" on stderr.
void warnIgnoredVariable(const char *var, const char *value, const char *expect);

// FIBERCL_DEADLOCK_TIMEOUT (> 0 seconds), or the default; an invalid value warns once
// per call on stderr.
double deadlockTimeoutFromEnvironment();
// FIBERCL_KERNEL_TIMEOUT (seconds, 0 = no limit), or the default; likewise.
double kernelTimeoutFromEnvironment();

} // namespace fibercl

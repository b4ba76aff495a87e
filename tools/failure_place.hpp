// Where a run failed, from the report FiberCL wrote on its error output: the source
// sites of a deadlock, a barrier divergence or a loop that can never exit, the signal of
// a crash, the kernel of a time-out. Runs failing at the same place are one problem.
#pragma once

#include <string>

// The place named by the first of FiberCL's failure reports in `err`, without what
// varies from run to run (work-group ids, addresses); empty if there is no report.
std::string failurePlace(const std::string &err);

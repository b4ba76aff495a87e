// Launching work-groups to run to completion, chunk by chunk (group_entry.hpp builds
// their contexts and calls them).
#pragma once

#include <cstdint>

namespace fibercl::exec {

struct GroupState;
struct Job;
struct Runner;

// Prepares an NDRange job: sanitises sizes, computes the group counts, total and
// chunk size for `threads` runners.
void prepareNDRange(Job &job, unsigned threads);

// Runs work-groups [begin, end) of `job` on the calling thread. If a group fails
// (fault, barrier divergence), the job is failed and the rest of the chunk skipped.
// Returns the number of units withdrawn from the job by a failure here, which the
// caller must complete in addition to [begin, end).
uint64_t runGroups(Runner &r, Job &job, uint64_t begin, uint64_t end) noexcept;

} // namespace fibercl::exec

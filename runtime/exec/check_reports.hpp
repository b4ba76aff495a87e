// What checked mode's reports (checks.cpp, races.cpp) share.
#pragma once

#include <cstdint>
#include <string>

namespace fibercl::exec {

// Whether `site` of launch `launch` is reported now: each site once per launch (a loop
// of out-of-bounds accesses is one bug).
bool firstCheckReport(uint64_t launch, uint32_t site) noexcept;
// The same for a race between accesses at source lines `a` and `b` ("f.cl:12"): each
// pair of lines once (`t[i] += t[i + s]` is three accesses, one bug).
bool firstRaceReport(uint64_t launch, const std::string &a, const std::string &b) noexcept;

} // namespace fibercl::exec

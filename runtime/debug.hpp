// FIBERCL_DEBUG: the one switch for diagnostics, comma-separated channels (README lists
// them: api, coop, ir, time, barriers, vectorize, yields, verify, all).
#pragma once

#include <string_view>

namespace fibercl::runtime {

// True when FIBERCL_DEBUG names `channel` (or "all"): compiler::debugChannel.
bool debugEnabled(std::string_view channel);

// Writes "[fibercl <channel>] <message>" to stderr.
void debugLog(std::string_view channel, std::string_view message);

} // namespace fibercl::runtime

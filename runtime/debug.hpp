// FIBERCL_DEBUG: the one switch for diagnostics (comma-separated: api, jit, sched...).
#pragma once

#include <string_view>

namespace fibercl::runtime {

// True when FIBERCL_DEBUG names `channel` (or "all"): compiler::debugChannel.
bool debugEnabled(std::string_view channel);

// Writes "[fibercl <channel>] <message>" to stderr.
void debugLog(std::string_view channel, std::string_view message);

} // namespace fibercl::runtime

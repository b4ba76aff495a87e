// `schedule_corpus recall`: how many of the groups that could be occupant the
// discovery protocol finds (seed 000 §5.1, Table 3), per bound x lock x mode.
#pragma once

#include "cli.hpp"

namespace corpus {

// Prints a markdown table; exit status 0 iff no run deadlocked or went wrong.
int recallMain(const Options &o);

} // namespace corpus

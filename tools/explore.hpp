// `fibercl explore`: run a program under each seed of a range (or of one shard of it),
// several at once, and report the seeds that fail or differ, grouped by where they fail.
#pragma once

#include "tools/options.hpp"

// Exit status: 0 if no seed of this process's share stood out, else 1.
int explore(const Options &o);

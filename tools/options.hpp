// The options of `fibercl exec` and `fibercl explore`, as parsed from the command line
// (fibercl.cpp).
#pragma once

#include <map>
#include <string>
#include <vector>

struct Options {
  std::map<std::string, std::string> env; // FIBERCL_* to set
  long seedFirst = -1, seedLast = -1;     // explore: the seed range A..B
  std::vector<char *> program;            // PROGRAM ARGS..., null-terminated
  bool statusOnly = false;                // explore: ignore the output
  std::string ignorePattern;              // explore: output lines to drop before comparing
  int jobs = 1;                           // explore: runs at once
  long shardIndex = 1, shardCount = 1;    // explore: this process's share, i/n (1-based)
  std::string summaryJson;                // explore: where to write the summary as JSON
  std::vector<std::string> subGroupSizes; // explore: run each seed under each of these
};

// Sets the FIBERCL_* variables of `o` and points the loader at FiberCL.
void applyEnvironment(const Options &o);

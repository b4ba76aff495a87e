// Command-line options of schedule_corpus and how they turn into the parameters
// and schedule of one run.
#pragma once

#include "program.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace corpus {

struct Options {
  std::string command; // list | run | once | recall
  std::string program;
  bool occupancySet = false;
  cl_uint occupancy = 0;
  bool seedsSet = false;
  uint64_t seedFirst = 1, seedLast = 1;
  int parallel = 0; // repetitions in parallel mode
  cl_uint groups = 0;
  size_t local = 0;
  std::string lock;
  int iters = -1;
  bool unfair = false;
  bool expectSet = false;
  Expect expect = Expect::Ok;
  double minMet = -1; // percent; < 0: not checked
  bool quiet = false;
  bool verbose = false;
  std::string kernels;
  std::vector<cl_uint> bounds;    // recall
  std::vector<std::string> locks; // recall
};

// Throws std::invalid_argument with a message on bad usage.
Options parseOptions(int argc, char **argv);
void printUsage();

// The occupancy bound a launch gets when the command line does not set one:
// FIBERCL_OCCUPANCY, else 0 (unbounded).
cl_uint environmentBound();

// Parameters for `program` from the options, with its defaults filled in.
// Throws std::invalid_argument if the program cannot run so.
Params resolveParams(const Program &program, const Options &o, cl_uint bound);

// "occupancy=4" / "occupancy=unbounded"
std::string boundName(cl_uint bound);

} // namespace corpus

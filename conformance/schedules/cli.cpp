// Command-line parsing for schedule_corpus (see cli.hpp).
#include "cli.hpp"

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace corpus {

namespace {

unsigned long toNumber(const std::string &s, const char *what) {
  char *end = nullptr;
  unsigned long v = std::strtoul(s.c_str(), &end, 10);
  if (s.empty() || *end)
    throw std::invalid_argument(std::string(what) + ": not a number: " + s);
  return v;
}

std::vector<std::string> splitCommas(const std::string &s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty())
      out.push_back(item);
  return out;
}

cl_uint parseBound(const std::string &s) {
  if (s == "unbounded" || s == "inf")
    return 0;
  return (cl_uint)toNumber(s, "occupancy");
}

} // namespace

void printUsage() {
  std::fputs("usage:\n"
             "  schedule_corpus list\n"
             "  schedule_corpus run PROGRAM [--occupancy N|unbounded] [--seeds A..B]\n"
             "        [--parallel R] [--groups G] [--local L] [--lock ticket|spin]\n"
             "        [--iters K] [--unfair] [--expect ok|deadlock|race] [--min-met PCT]\n"
             "        [--quiet] [--kernels DIR]\n"
             "  schedule_corpus once PROGRAM [--groups G] [--local L] [--lock L] [--iters K]\n"
             "        [--verbose] [--kernels DIR]\n"
             "  schedule_corpus recall [--bounds 1,2,4,8] [--locks ticket,spin]\n"
             "        [--seeds A..B] [--parallel R] [--groups G] [--quiet]\n"
             "\n"
             "run     launches PROGRAM once per seed (deterministic mode, seed set on a\n"
             "        fresh kernel object) and/or R times in parallel mode, checks every\n"
             "        result and prints one RESULT line per mode. Exit 0 iff the expectation\n"
             "        (default: the program's own) holds for every run.\n"
             "once    one launch scheduled only by the environment (FIBERCL_SEED,\n"
             "        FIBERCL_OCCUPANCY, ...), printing one schedule-independent line: for\n"
             "        `fibercl exec` / `fibercl explore`. Exit 0 ok, 1 wrong, 3 deadlock,\n"
             "        4 other failure.\n"
             "recall  discovery recall (discovery_xf, 1 barrier round) per bound x lock x\n"
             "        mode as a markdown table, plus unbounded.\n"
             "--occupancy 0 means unbounded. Without --seeds/--parallel, run does one\n"
             "parallel launch. The kernels are found with --kernels, $SCHEDULE_CORPUS_KERNELS\n"
             "or the path compiled in.\n",
             stdout);
}

Options parseOptions(int argc, char **argv) {
  Options o;
  if (argc < 2)
    throw std::invalid_argument("missing command");
  o.command = argv[1];
  int i = 2;
  if (o.command == "run" || o.command == "once") {
    if (argc < 3 || argv[2][0] == '-')
      throw std::invalid_argument(o.command + ": missing PROGRAM");
    o.program = argv[2];
    i = 3;
  } else if (o.command != "list" && o.command != "recall" && o.command != "help" &&
             o.command != "--help") {
    throw std::invalid_argument("unknown command " + o.command);
  }
  auto value = [&](const std::string &opt) -> std::string {
    if (i + 1 >= argc)
      throw std::invalid_argument(opt + " needs a value");
    return argv[++i];
  };
  for (; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--occupancy") {
      o.occupancySet = true;
      o.occupancy = parseBound(value(a));
    } else if (a == "--seeds") {
      std::string v = value(a);
      auto dots = v.find("..");
      o.seedFirst = toNumber(v.substr(0, dots), "--seeds");
      o.seedLast =
          dots == std::string::npos ? o.seedFirst : toNumber(v.substr(dots + 2), "--seeds");
      if (o.seedLast < o.seedFirst)
        throw std::invalid_argument("--seeds: empty range " + v);
      o.seedsSet = true;
    } else if (a == "--parallel") {
      o.parallel = (int)toNumber(value(a), "--parallel");
    } else if (a == "--groups") {
      o.groups = (cl_uint)toNumber(value(a), "--groups");
    } else if (a == "--local") {
      o.local = toNumber(value(a), "--local");
    } else if (a == "--lock") {
      o.lock = value(a);
    } else if (a == "--iters") {
      o.iters = (int)toNumber(value(a), "--iters");
    } else if (a == "--unfair") {
      o.unfair = true;
    } else if (a == "--expect") {
      o.expectSet = true;
      if (!parseExpect(value(a), o.expect))
        throw std::invalid_argument("--expect: ok, deadlock or race");
    } else if (a == "--min-met") {
      o.minMet = (double)toNumber(value(a), "--min-met");
    } else if (a == "--quiet") {
      o.quiet = true;
    } else if (a == "--verbose") {
      o.verbose = true;
    } else if (a == "--kernels") {
      o.kernels = value(a);
    } else if (a == "--bounds") {
      for (auto &b : splitCommas(value(a)))
        o.bounds.push_back(parseBound(b));
    } else if (a == "--locks") {
      o.locks = splitCommas(value(a));
    } else {
      throw std::invalid_argument("unknown option " + a);
    }
  }
  return o;
}

cl_uint environmentBound() {
  const char *env = std::getenv("FIBERCL_OCCUPANCY");
  return env && *env ? (cl_uint)std::strtoul(env, nullptr, 10) : 0;
}

Params resolveParams(const Program &program, const Options &o, cl_uint bound) {
  const ProgramInfo &info = program.info();
  Params p;
  p.bound = bound;
  p.groups = o.groups ? o.groups : program.defaultGroups(bound);
  if (p.groups == 0)
    throw std::invalid_argument(std::string(info.name) +
                                " launches bound + 1 groups: give --occupancy N > 0 "
                                "(or --groups)");
  p.local = o.local ? o.local : info.local;
  p.iters = o.iters >= 0 ? o.iters : info.iters;
  if (*info.defaultLock) {
    p.lock = o.lock.empty() ? info.defaultLock : o.lock;
    if (p.lock != "ticket" && p.lock != "spin")
      throw std::invalid_argument("--lock: ticket or spin");
  } else if (!o.lock.empty()) {
    throw std::invalid_argument(std::string(info.name) + " takes no --lock");
  }
  return p;
}

std::string boundName(cl_uint bound) {
  return bound ? std::to_string(bound) : std::string("unbounded");
}

} // namespace corpus

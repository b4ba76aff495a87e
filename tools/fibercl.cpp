// fibercl: run unmodified OpenCL applications on FiberCL under a chosen work-group
// schedule, and explore seeds to find the schedules under which they fail.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/scheduling_names.hpp"
#include "tools/explore.hpp"

int listPlatforms();                         // platforms.cpp
int measureOccupancy(int argc, char **argv); // occupancy.cpp
int buildSource(int argc, char **argv);      // build_source.cpp
void pointLoaderAtFiberCL();

namespace {

using fibercl::kAdmissionOrders;
using fibercl::kSchedulePolicies;

const char *kUsageHead = R"(usage:
  fibercl exec    [options] -- PROGRAM [ARGS...]
  fibercl explore --seeds A..B [--jobs N] [--shard I/N] [options] -- PROGRAM [ARGS...]
  fibercl platforms
  fibercl occupancy [--delegate NAME] [--runs N]
  fibercl build   [--compile] FILE.cl [OPTIONS...]

exec     runs PROGRAM with FiberCL as its OpenCL platform and the schedule below
         (work-group scheduling applies to kernels with atomic or volatile accesses).
explore  runs PROGRAM once per seed in A..B (deterministic mode: one worker, every
         scheduling decision drawn from the seed) and reports each seed whose run
         fails, deadlocks, or prints something different from the first seed's run,
         with the command that reproduces it; then the seeds that stood out grouped
         by where they fail (the source line FiberCL's report names, else why they
         stood out), with the smallest seed of each group. Exit status: 0 if no seed
         stood out.
platforms
         lists the other OpenCL implementations installed (OCL_ICD_VENDORS or
         /etc/OpenCL/vendors) that FiberCL can delegate to, and which of them
         FIBERCL_DELEGATE selects ("none", "all" or name substrings).
build    builds an OpenCL C file on FiberCL's device as an application would and prints
         the build log (exit status 0 iff it built); with FIBERCL_DEBUG=verify, a FiberCL
         pass that leaves invalid IR is named. --compile: clCompileProgram instead
         (a program the application compiled and linked on its own).
occupancy
         measures, with the discovery protocol, how many work-groups each device of
         FiberCL's platforms runs at once (its occupancy bound): FiberCL's CPU device
         under the schedule options, and the devices --delegate selects.

options:
  --occupancy N       at most N work-groups occupant at once (0 = unbounded, default)
)";
// Then --schedule and --admission, from the runtime's tables (scheduling_names.hpp).
const char *kUsageTail = R"(  --seed S            deterministic mode with seed S (exec only)
  --deadlock-timeout SECONDS
                      parallel mode: no progress for this long is a deadlock (10)
  --kernel-timeout SECONDS
                      a kernel launch running longer fails, its groups stopped (0:
                      no limit, default)
  --trace FILE        write a Chrome trace (Perfetto opens it) of the schedule
  --report FILE       write deadlock reports as JSON
  --delegate NAME     also show the devices of the installed OpenCL platforms NAME
                      selects ("all", or name substrings such as pocl) as FiberCL
                      platforms "FiberCL -> <name>", listed first
  --ignore REGEX      explore: drop output lines matching REGEX before comparing
                      (timings, addresses)
  --status-only       explore: compare exit status and reports only, not output
  --jobs N            explore: run up to N seeds at once (1, default, to 256); the
                      output is the same, in seed order, whatever N
  --shard I/N         explore: run only share I of N of the seeds, those with
                      (seed - A) % N == I - 1 (I from 1 to N), for a job array
                      (sbatch --array=1-N: --shard $SLURM_ARRAY_TASK_ID/N); each share
                      compares with seed A's output, and runs seed A for it if needed
  --sub-group-sizes L explore: run PROGRAM under each sub-group size of the list L
                      (e.g. 4,8,16,32,64; FIBERCL_SUBGROUP_SIZE), seed 1 or each seed
                      of --seeds, and report the sizes whose run fails or prints
                      something else than under the first size
  --summary-json FILE explore: also write the groups of seeds that stood out, each with
                      all its seeds, as JSON (to merge the shards')
  --help              this text

Each option sets the FIBERCL_* environment variable of the same name
(FIBERCL_OCCUPANCY, FIBERCL_SCHEDULE, FIBERCL_SEED, FIBERCL_ADMISSION,
FIBERCL_DEADLOCK_TIMEOUT, FIBERCL_TRACE, FIBERCL_REPORT, FIBERCL_DELEGATE), which is
all an application needs; OCL_ICD_VENDORS is pointed at FiberCL's ICD file unless it
is already set (FiberCL then finds the vendors to delegate to in /etc/OpenCL/vendors,
or FIBERCL_VENDORS).
)";

// An option's help: one line per value of `table`, "name (default): meaning".
template <typename E, size_t N>
std::string valuesHelp(const char *option, const fibercl::NamedValue<E> (&table)[N]) {
  std::string s = std::string("  ") + option;
  for (size_t i = 0; i < N; ++i) {
    s.resize(i == 0 ? std::max<size_t>(s.size() + 1, 22) : s.size() + 22, ' ');
    s += std::string(table[i].name) + (i == 0 ? " (default): " : ": ") + table[i].help +
         (i + 1 < N ? ";\n" : "\n");
  }
  return s;
}

std::string usage() {
  return kUsageHead + valuesHelp("--schedule POLICY", kSchedulePolicies) +
         valuesHelp("--admission ORDER", kAdmissionOrders) + kUsageTail;
}

[[noreturn]] void usageError(const std::string &message) {
  std::fprintf(stderr, "fibercl: %s\n\n%s", message.c_str(), usage().c_str());
  std::exit(2);
}

bool fileExists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

// --schedule and --admission take the names the runtime accepts.
void checkValue(const std::string &option, const std::string &value) {
  fibercl::SchedulePolicy policy;
  fibercl::AdmissionOrder order;
  if (option == "--schedule" && !valueIn(kSchedulePolicies, value, policy))
    usageError("--schedule takes " + namesIn(kSchedulePolicies));
  if (option == "--admission" && !valueIn(kAdmissionOrders, value, order))
    usageError("--admission takes " + namesIn(kAdmissionOrders));
}

// A number in [low, high], digits only.
bool wholeNumber(const std::string &v, long low, long high, long &n) {
  if (v.empty() || v.size() > 18 || v.find_first_not_of("0123456789") != std::string::npos)
    return false;
  n = std::stol(v);
  return n >= low && n <= high;
}

// --jobs N: 0 (the default, 1) to 256.
int parseJobs(const std::string &v) {
  long n = 0;
  if (!wholeNumber(v, 0, 256, n))
    usageError("--jobs takes a number of runs at once from 1 to 256: " + v);
  return n ? int(n) : 1;
}

// --shard I/N: 1 <= I <= N.
void parseShard(const std::string &v, Options &o) {
  size_t slash = v.find('/');
  if (slash == std::string::npos ||
      !wholeNumber(v.substr(slash + 1), 1, 1000000000, o.shardCount) ||
      !wholeNumber(v.substr(0, slash), 1, o.shardCount, o.shardIndex))
    usageError("--shard takes I/N, share I of N (1 <= I <= N): " + v);
}

Options parse(int argc, char **argv, bool explore) {
  Options o;
  static const std::map<std::string, std::string> envOf = {
      {"--occupancy", "FIBERCL_OCCUPANCY"},
      {"--schedule", "FIBERCL_SCHEDULE"},
      {"--seed", "FIBERCL_SEED"},
      {"--admission", "FIBERCL_ADMISSION"},
      {"--deadlock-timeout", "FIBERCL_DEADLOCK_TIMEOUT"},
      {"--kernel-timeout", "FIBERCL_KERNEL_TIMEOUT"},
      {"--trace", "FIBERCL_TRACE"},
      {"--report", "FIBERCL_REPORT"},
      {"--delegate", "FIBERCL_DELEGATE"}};
  int i = 2;
  for (; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--") {
      ++i;
      break;
    }
    if (a == "--help" || a == "-h") {
      std::fputs(usage().c_str(), stdout);
      std::exit(0);
    }
    if (explore && a == "--status-only") {
      o.statusOnly = true;
      continue;
    }
    if (i + 1 >= argc)
      usageError("option " + a + " needs a value");
    std::string v = argv[++i];
    if (explore && a == "--seeds") {
      size_t dots = v.find("..");
      if (dots == std::string::npos)
        usageError("--seeds takes a range A..B");
      o.seedFirst = std::strtol(v.substr(0, dots).c_str(), nullptr, 10);
      o.seedLast = std::strtol(v.substr(dots + 2).c_str(), nullptr, 10);
      if (o.seedFirst < 0 || o.seedLast < o.seedFirst)
        usageError("bad seed range " + v);
    } else if (explore && a == "--ignore") {
      try {
        std::regex check(v);
      } catch (const std::regex_error &) {
        usageError("--ignore takes a regular expression: " + v);
      }
      o.ignorePattern = v;
    } else if (explore && a == "--jobs") {
      o.jobs = parseJobs(v);
    } else if (explore && a == "--shard") {
      parseShard(v, o);
    } else if (explore && a == "--summary-json") {
      o.summaryJson = v;
    } else if (explore && a == "--sub-group-sizes") {
      std::stringstream list(v);
      for (std::string size; std::getline(list, size, ',');) {
        if (size != "4" && size != "8" && size != "16" && size != "32" && size != "64")
          usageError("--sub-group-sizes takes sizes among 4, 8, 16, 32, 64: " + v);
        o.subGroupSizes.push_back(size);
      }
    } else if (explore && a == "--seed") {
      usageError("explore chooses the seeds: use --seeds A..B");
    } else if (envOf.count(a)) {
      checkValue(a, v);
      o.env[envOf.at(a)] = v;
    } else {
      usageError("unknown option " + a);
    }
  }
  for (; i < argc; ++i)
    o.program.push_back(argv[i]);
  if (o.program.empty())
    usageError("no program given (put it after --)");
  if (explore && o.seedFirst < 0 && !o.subGroupSizes.empty())
    o.seedFirst = o.seedLast = 1; // one seeded run per size
  if (explore && o.seedFirst < 0)
    usageError("explore needs --seeds A..B");
  o.program.push_back(nullptr);
  return o;
}

} // namespace

// The loader sees FiberCL alone (unless OCL_ICD_VENDORS is set); delegation then
// finds the other vendors where the loader would have (FIBERCL_VENDORS).
void pointLoaderAtFiberCL() {
  if (std::getenv("OCL_ICD_VENDORS"))
    return;
  const char *icd = fileExists(FIBERCL_BUILD_ICD) ? FIBERCL_BUILD_ICD : FIBERCL_INSTALLED_ICD;
  setenv("OCL_ICD_VENDORS", icd, 1);
  setenv("FIBERCL_VENDORS", "/etc/OpenCL/vendors", 0);
}

void applyEnvironment(const Options &o) {
  for (const auto &[name, value] : o.env)
    setenv(name.c_str(), value.c_str(), 1);
  pointLoaderAtFiberCL();
}

int main(int argc, char **argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    std::fputs(usage().c_str(), argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  std::string verb = argv[1];
  if (verb == "exec") {
    Options o = parse(argc, argv, false);
    applyEnvironment(o);
    execvp(o.program[0], o.program.data());
    std::fprintf(stderr, "fibercl: cannot run %s: %s\n", o.program[0], std::strerror(errno));
    return 127;
  }
  if (verb == "explore") {
    Options o = parse(argc, argv, true);
    applyEnvironment(o);
    return explore(o);
  }
  if (verb == "platforms")
    return listPlatforms();
  if (verb == "occupancy")
    return measureOccupancy(argc, argv);
  if (verb == "build")
    return buildSource(argc, argv);
  usageError("unknown command '" + verb + "'");
}

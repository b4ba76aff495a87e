// fibercl: run unmodified OpenCL applications on FiberCL under a chosen work-group
// schedule, and explore seeds to find the schedules under which they fail.
#include <sys/stat.h>
#include <sys/wait.h>
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

#include "runtime/exec/scheduling_names.hpp"

int listPlatforms();                     // platforms.cpp
int measureOccupancy(int argc, char **argv); // occupancy.cpp
void pointLoaderAtFiberCL();

namespace {

using fibercl::exec::kAdmissionOrders;
using fibercl::exec::kSchedulePolicies;

const char *kUsageHead = R"(usage:
  fibercl exec    [options] -- PROGRAM [ARGS...]
  fibercl explore --seeds A..B [options] -- PROGRAM [ARGS...]
  fibercl platforms
  fibercl occupancy [--delegate NAME] [--runs N]

exec     runs PROGRAM with FiberCL as its OpenCL platform and the schedule below
         (work-group scheduling applies to kernels with atomic or volatile accesses).
explore  runs PROGRAM once per seed in A..B (deterministic mode: one worker, every
         scheduling decision drawn from the seed) and reports each seed whose run
         fails, deadlocks, or prints something different from the first seed's run,
         with the command that reproduces it. Exit status: 0 if no seed stood out.
platforms
         lists the other OpenCL implementations installed (OCL_ICD_VENDORS or
         /etc/OpenCL/vendors) that FiberCL can delegate to, and which of them
         FIBERCL_DELEGATE selects ("none", "all" or name substrings).
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
  --help              this text

Each option sets the FIBERCL_* environment variable of the same name
(FIBERCL_OCCUPANCY, FIBERCL_SCHEDULE, FIBERCL_SEED, FIBERCL_ADMISSION,
FIBERCL_DEADLOCK_TIMEOUT, FIBERCL_TRACE, FIBERCL_REPORT, FIBERCL_DELEGATE), which is
all an application needs; OCL_ICD_VENDORS is pointed at FiberCL's ICD file unless it
is already set (FiberCL then finds the vendors to delegate to in /etc/OpenCL/vendors,
or FIBERCL_VENDORS).
)";

struct Options {
  std::map<std::string, std::string> env; // FIBERCL_* to set
  long seedFirst = -1, seedLast = -1;
  std::vector<char *> program;
  bool statusOnly = false;   // explore: ignore the output
  std::string ignorePattern; // explore: output lines to drop before comparing
};

// An option's help: one line per value of `table`, "name (default): meaning".
template <typename E, size_t N>
std::string valuesHelp(const char *option, const fibercl::exec::NamedValue<E> (&table)[N]) {
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
  fibercl::exec::SchedulePolicy policy;
  fibercl::exec::AdmissionOrder order;
  if (option == "--schedule" && !valueIn(kSchedulePolicies, value, policy))
    usageError("--schedule takes " + namesIn(kSchedulePolicies));
  if (option == "--admission" && !valueIn(kAdmissionOrders, value, order))
    usageError("--admission takes " + namesIn(kAdmissionOrders));
}

Options parse(int argc, char **argv, bool explore) {
  Options o;
  static const std::map<std::string, std::string> envOf = {
      {"--occupancy", "FIBERCL_OCCUPANCY"}, {"--schedule", "FIBERCL_SCHEDULE"},
      {"--seed", "FIBERCL_SEED"},           {"--admission", "FIBERCL_ADMISSION"},
      {"--deadlock-timeout", "FIBERCL_DEADLOCK_TIMEOUT"},
      {"--kernel-timeout", "FIBERCL_KERNEL_TIMEOUT"},
      {"--trace", "FIBERCL_TRACE"},         {"--report", "FIBERCL_REPORT"},
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

namespace {

void applyEnvironment(const Options &o) {
  for (const auto &[name, value] : o.env)
    setenv(name.c_str(), value.c_str(), 1);
  pointLoaderAtFiberCL();
}

std::string commandLine(const Options &o, long seed) {
  std::string s;
  for (const auto &[name, value] : o.env)
    s += name + "=" + value + " ";
  s += "FIBERCL_SEED=" + std::to_string(seed);
  for (char *const *p = o.program.data(); *p; ++p)
    s += std::string(" ") + *p;
  return s;
}

struct Run {
  int exitCode = 0;
  std::string out, err;
};

std::string slurp(int fd) {
  std::string s;
  char buf[4096];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;)
    s.append(buf, size_t(n));
  return s;
}

Run runOnce(const Options &o, long seed) {
  char outPath[] = "/tmp/fibercl_explore_out_XXXXXX";
  char errPath[] = "/tmp/fibercl_explore_err_XXXXXX";
  int outFd = mkstemp(outPath), errFd = mkstemp(errPath);
  unlink(outPath);
  unlink(errPath);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(outFd, 1);
    dup2(errFd, 2);
    setenv("FIBERCL_SEED", std::to_string(seed).c_str(), 1);
    execvp(o.program[0], o.program.data());
    std::fprintf(stderr, "fibercl: cannot run %s: %s\n", o.program[0], std::strerror(errno));
    _exit(127);
  }
  Run r;
  int status = 0;
  waitpid(pid, &status, 0);
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  lseek(outFd, 0, SEEK_SET);
  lseek(errFd, 0, SEEK_SET);
  r.out = slurp(outFd);
  r.err = slurp(errFd);
  close(outFd);
  close(errFd);
  return r;
}

// The output explore compares: without the lines --ignore matches.
std::string comparable(const Options &o, const std::string &out) {
  if (o.ignorePattern.empty())
    return out;
  std::regex ignore(o.ignorePattern);
  std::istringstream in(out);
  std::string kept, line;
  while (std::getline(in, line))
    if (!std::regex_search(line, ignore))
      kept += line + "\n";
  return kept;
}

int explore(const Options &o) {
  applyEnvironment(o);
  std::string reference;
  int flagged = 0;
  for (long seed = o.seedFirst; seed <= o.seedLast; ++seed) {
    Run r = runOnce(o, seed);
    std::vector<std::string> why;
    if (r.exitCode != 0)
      why.push_back("exit status " + std::to_string(r.exitCode));
    if (r.err.find("FiberCL: deadlock") != std::string::npos)
      why.push_back("deadlock");
    if (r.err.find("barrier divergence") != std::string::npos)
      why.push_back("barrier divergence");
    std::string out = o.statusOnly ? std::string() : comparable(o, r.out);
    if (seed == o.seedFirst)
      reference = out;
    else if (out != reference)
      why.push_back("output differs from seed " + std::to_string(o.seedFirst));
    if (why.empty()) {
      std::printf("seed %ld: ok\n", seed);
      continue;
    }
    ++flagged;
    std::string reasons;
    for (const auto &w : why)
      reasons += (reasons.empty() ? "" : ", ") + w;
    std::printf("seed %ld: %s\n  reproduce: %s\n", seed, reasons.c_str(),
                commandLine(o, seed).c_str());
  }
  std::printf("%d of %ld seeds stood out\n", flagged, o.seedLast - o.seedFirst + 1);
  return flagged ? 1 : 0;
}

} // namespace

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
  if (verb == "explore")
    return explore(parse(argc, argv, true));
  if (verb == "platforms")
    return listPlatforms();
  if (verb == "occupancy")
    return measureOccupancy(argc, argv);
  usageError("unknown command '" + verb + "'");
}

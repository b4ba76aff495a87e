// `fibercl explore` (explore.hpp): the seeds of this process's shard run at most
// --jobs at a time; each is judged against the reference (seed A, the range's first,
// which every shard runs) and printed in seed order, so that the output does not
// depend on --jobs; then the summary, by where the seeds fail.
#include "tools/explore.hpp"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

#include "tools/explore_summary.hpp"
#include "tools/failure_place.hpp"
#include "tools/seed_runs.hpp"

namespace {

std::string commandLine(const Options &o, long seed, const std::string &subGroupSize = "") {
  std::string s;
  // Checked mode (FIBERCL_CHECK=weak above all) changes what a seed does: said too.
  if (const char *checks = std::getenv("FIBERCL_CHECK"); checks && *checks)
    s += std::string("FIBERCL_CHECK=") + checks + " ";
  for (const auto &[name, value] : o.env)
    s += name + "=" + value + " ";
  if (!subGroupSize.empty())
    s += "FIBERCL_SUBGROUP_SIZE=" + subGroupSize + " ";
  s += "FIBERCL_SEED=" + std::to_string(seed);
  for (char *const *p = o.program.data(); *p; ++p)
    s += std::string(" ") + *p;
  return s;
}

std::string joined(const std::vector<std::string> &parts) {
  std::string s;
  for (const auto &p : parts)
    s += (s.empty() ? "" : ", ") + p;
  return s;
}

// Why a run failed, whatever its output.
std::vector<std::string> failuresOf(const SeedRun &r) {
  std::vector<std::string> why;
  if (r.exitCode != 0)
    why.push_back("exit status " + std::to_string(r.exitCode));
  if (r.err.find("FiberCL: deadlock") != std::string::npos)
    why.push_back("deadlock");
  if (r.err.find("barrier divergence") != std::string::npos)
    why.push_back("barrier divergence");
  return why;
}

// The output explore compares: none with --status-only, else without the lines
// --ignore matches.
std::string comparableOutput(const Options &o, const std::optional<std::regex> &ignore,
                             const std::string &out) {
  if (o.statusOnly)
    return {};
  if (!ignore)
    return out;
  std::istringstream in(out);
  std::string kept, line;
  while (std::getline(in, line))
    if (!std::regex_search(line, *ignore))
      kept += line + "\n";
  return kept;
}

class Explorer {
public:
  explicit Explorer(const Options &o)
      : o_(o), first_(o.seedFirst + o.shardIndex - 1),
        count_(first_ > o.seedLast ? 0 : (o.seedLast - first_) / o.shardCount + 1) {
    if (!o.ignorePattern.empty())
      ignore_.emplace(o.ignorePattern);
  }
  int run();

private:
  long seedAt(long k) const { return first_ + k * o_.shardCount; }
  std::string shardName() const {
    return std::to_string(o_.shardIndex) + "/" + std::to_string(o_.shardCount);
  }
  std::string comparable(const std::string &out) const;
  void arrived(SeedRun r);
  void judge(const SeedRun &r);
  void printReady();

  struct Verdict {
    std::vector<std::string> why; // empty: ok
    std::string place;            // failurePlace of its error output
  };
  const Options &o_;
  std::optional<std::regex> ignore_;
  const long first_, count_;             // this shard: first_, first_ + n, ...; how many
  std::optional<std::string> reference_; // seed A's comparable output, once it ran
  std::vector<SeedRun> waiting_;         // runs that ended before the reference
  std::map<long, Verdict> verdicts_;     // judged, not printed yet
  long printed_ = 0;
  ExploreSummary summary_;
};

std::string Explorer::comparable(const std::string &out) const {
  return comparableOutput(o_, ignore_, out);
}

void Explorer::judge(const SeedRun &r) {
  Verdict v;
  v.why = failuresOf(r);
  if (r.seed != o_.seedFirst && comparable(r.out) != *reference_)
    v.why.push_back("output differs from seed " + std::to_string(o_.seedFirst));
  if (!v.why.empty())
    v.place = failurePlace(r.err);
  verdicts_[r.seed] = std::move(v);
}

void Explorer::arrived(SeedRun r) {
  bool inShard = (r.seed - o_.seedFirst) % o_.shardCount == o_.shardIndex - 1;
  if (r.seed == o_.seedFirst) {
    reference_ = comparable(r.out);
    if (!inShard) { // judged by its own shard; said here, not counted
      std::vector<std::string> why = failuresOf(r);
      std::printf("reference: seed %ld, not in shard %s: run for its output only%s\n", r.seed,
                  shardName().c_str(),
                  why.empty() ? "" : (" (it stood out: " + joined(why) + ")").c_str());
    }
    for (const SeedRun &w : waiting_)
      judge(w);
    waiting_.clear();
    if (!inShard)
      return;
  }
  if (reference_)
    judge(r);
  else
    waiting_.push_back(std::move(r));
}

// The verdicts that follow the last printed, in seed order.
void Explorer::printReady() {
  for (auto it = verdicts_.find(seedAt(printed_)); it != verdicts_.end();
       it = verdicts_.find(seedAt(printed_))) {
    long seed = it->first;
    const Verdict &v = it->second;
    if (v.why.empty()) {
      std::printf("seed %ld: ok\n", seed);
    } else {
      std::string reproduce = commandLine(o_, seed);
      std::printf("seed %ld: %s\n  reproduce: %s\n", seed, joined(v.why).c_str(),
                  reproduce.c_str());
      summary_.add(seed, v.place, joined(v.why), reproduce);
    }
    verdicts_.erase(it);
    ++printed_;
  }
  std::fflush(stdout);
}

int Explorer::run() {
  SeedRuns runs(o_.program);
  // Seed A first: every seed is compared with its output.
  bool referenceStarted = count_ == 0 || first_ == o_.seedFirst;
  long started = 0;
  while (printed_ < count_) {
    while (runs.running() < size_t(o_.jobs) && (!referenceStarted || started < count_)) {
      if (!referenceStarted) {
        runs.start(o_.seedFirst);
        referenceStarted = true;
      } else {
        runs.start(seedAt(started++));
      }
    }
    arrived(runs.next());
    printReady();
  }
  summary_.print(stdout);
  std::printf("%ld of %ld seeds stood out", summary_.flagged(), count_);
  if (o_.shardCount > 1)
    std::printf(" (shard %s of seeds %ld..%ld)", shardName().c_str(), o_.seedFirst, o_.seedLast);
  std::printf("\n");
  std::fflush(stdout);
  if (!o_.summaryJson.empty() &&
      !summary_.writeJson(o_.summaryJson, o_.seedFirst, o_.seedLast, shardName(), count_)) {
    std::fprintf(stderr, "fibercl: cannot write %s\n", o_.summaryJson.c_str());
    return 2;
  }
  return summary_.flagged() ? 1 : 0;
}

// --sub-group-sizes: each seed of the range runs once per size, in the order given; a
// size stands out when its run fails or prints something else than the first size's
// run with the same seed. Kernels that assume a sub-group size (32 lanes, 64) show up
// as the sizes whose output differs.
int sweepSubGroupSizes(const Options &o) {
  std::optional<std::regex> ignore;
  if (!o.ignorePattern.empty())
    ignore.emplace(o.ignorePattern);
  SeedRuns runs(o.program);
  long flagged = 0, total = 0;
  for (long seed = o.seedFirst; seed <= o.seedLast; ++seed) {
    std::string reference;
    for (size_t k = 0; k < o.subGroupSizes.size(); ++k, ++total) {
      const std::string &size = o.subGroupSizes[k];
      setenv("FIBERCL_SUBGROUP_SIZE", size.c_str(), 1); // inherited by the run
      runs.start(seed);
      SeedRun r = runs.next();
      std::vector<std::string> why = failuresOf(r);
      std::string out = comparableOutput(o, ignore, r.out);
      if (k == 0)
        reference = out;
      else if (out != reference)
        why.push_back("output differs from sub-group size " + o.subGroupSizes[0]);
      if (why.empty()) {
        std::printf("sub-group size %s, seed %ld: ok\n", size.c_str(), seed);
      } else {
        ++flagged;
        std::printf("sub-group size %s, seed %ld: %s\n  reproduce: %s\n", size.c_str(), seed,
                    joined(why).c_str(), commandLine(o, seed, size).c_str());
      }
      std::fflush(stdout);
    }
  }
  unsetenv("FIBERCL_SUBGROUP_SIZE");
  std::printf("%ld of %ld runs stood out\n", flagged, total);
  return flagged ? 1 : 0;
}

} // namespace

int explore(const Options &o) {
  if (!o.subGroupSizes.empty())
    return sweepSubGroupSizes(o);
  return Explorer(o).run();
}

// explore's summary: the seeds that stood out, grouped by where they fail (the place
// FiberCL's report names, else the reasons they stood out), each group with its
// smallest seed and the command that reproduces it; printed, and as JSON.
#pragma once

#include <cstdio>
#include <map>
#include <string>
#include <vector>

class ExploreSummary {
public:
  // A seed that stood out: its place (failurePlace; empty if no report named one), the
  // reasons it stood out, and the command that reproduces it. Any order of seeds.
  void add(long seed, const std::string &place, const std::string &reasons,
           const std::string &reproduce);
  long flagged() const { return flagged_; }

  // "stood out, by where they fail:" and the groups, largest first.
  void print(std::FILE *out) const;
  // {"first":A,"last":B,"shard":"i/n","seeds":M,"flagged":K,"groups":[{"place":...,
  //  "count":...,"smallest":S,"reproduce":...,"seeds":[...]}...]}
  bool writeJson(const std::string &path, long first, long last, const std::string &shard,
                 long seeds) const;

private:
  struct Group {
    std::vector<long> seeds;
    long smallest = -1;
    std::string reproduce; // the smallest seed's
  };
  std::vector<std::pair<std::string, const Group *>> ordered() const;

  std::map<std::string, Group> groups_; // by place
  long flagged_ = 0;
};

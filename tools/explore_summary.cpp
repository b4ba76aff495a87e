// explore's summary (explore_summary.hpp).
#include "tools/explore_summary.hpp"

#include <algorithm>

namespace {

std::string jsonString(const std::string &s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      o += '\\';
      o += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", c);
      o += b;
    } else {
      o += c;
    }
  }
  return o + "\"";
}

} // namespace

void ExploreSummary::add(long seed, const std::string &place, const std::string &reasons,
                         const std::string &reproduce) {
  Group &g = groups_[place.empty() ? reasons : place];
  g.seeds.push_back(seed);
  if (g.smallest < 0 || seed < g.smallest) {
    g.smallest = seed;
    g.reproduce = reproduce;
  }
  ++flagged_;
}

// Largest group first; among equals, the one with the smallest seed.
std::vector<std::pair<std::string, const ExploreSummary::Group *>> ExploreSummary::ordered() const {
  std::vector<std::pair<std::string, const Group *>> v;
  for (const auto &[place, g] : groups_)
    v.emplace_back(place, &g);
  std::sort(v.begin(), v.end(), [](const auto &a, const auto &b) {
    if (a.second->seeds.size() != b.second->seeds.size())
      return a.second->seeds.size() > b.second->seeds.size();
    return a.second->smallest < b.second->smallest;
  });
  return v;
}

void ExploreSummary::print(std::FILE *out) const {
  if (groups_.empty())
    return;
  std::fprintf(out, "stood out, by where they fail:\n");
  for (const auto &[place, g] : ordered())
    std::fprintf(out, "  %zu seed%s: %s\n    smallest seed %ld, reproduce: %s\n", g->seeds.size(),
                 g->seeds.size() == 1 ? "" : "s", place.c_str(), g->smallest, g->reproduce.c_str());
}

bool ExploreSummary::writeJson(const std::string &path, long first, long last,
                               const std::string &shard, long seeds) const {
  std::FILE *f = std::fopen(path.c_str(), "w");
  if (!f)
    return false;
  std::fprintf(f,
               "{\"first\":%ld,\"last\":%ld,\"shard\":%s,\"seeds\":%ld,\"flagged\":%ld,"
               "\"groups\":[",
               first, last, jsonString(shard).c_str(), seeds, flagged_);
  bool firstGroup = true;
  for (const auto &[place, g] : ordered()) {
    std::vector<long> sorted = g->seeds;
    std::sort(sorted.begin(), sorted.end());
    std::fprintf(f,
                 "%s\n{\"place\":%s,\"count\":%zu,\"smallest\":%ld,\"reproduce\":%s,"
                 "\"seeds\":[",
                 firstGroup ? "" : ",", jsonString(place).c_str(), sorted.size(), g->smallest,
                 jsonString(g->reproduce).c_str());
    for (size_t i = 0; i < sorted.size(); ++i)
      std::fprintf(f, "%s%ld", i ? "," : "", sorted[i]);
    std::fputs("]}", f);
    firstGroup = false;
  }
  std::fputs("]}\n", f);
  return std::fclose(f) == 0;
}

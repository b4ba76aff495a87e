// Counting run outcomes (see tally.hpp).
#include "tally.hpp"

#include <algorithm>
#include <numeric>
#include <sstream>

namespace corpus {

namespace {

bool unexpected(Outcome::Status s, Expect e) {
  switch (e) {
  case Expect::Ok:
    return s != Outcome::Status::Ok;
  case Expect::Deadlock:
    return s != Outcome::Status::Deadlock;
  case Expect::Race:
    return s == Outcome::Status::Deadlock || s == Outcome::Status::Failed;
  }
  return true;
}

std::string firstLines(const std::string &text, int n) {
  std::istringstream in(text);
  std::string line, out;
  for (int i = 0; i < n && std::getline(in, line); ++i)
    out += "    " + line + "\n";
  return out;
}

} // namespace

void Tally::add(const Outcome &o, const std::string &label, Expect expect) {
  ++runs_;
  switch (o.status) {
  case Outcome::Status::Ok:
    ++ok_;
    break;
  case Outcome::Status::Wrong:
    ++wrong_;
    break;
  case Outcome::Status::Deadlock:
    ++deadlock_;
    break;
  case Outcome::Status::Failed:
    ++failed_;
    break;
  }
  if (o.found >= 0)
    found_.push_back(o.found);
  met_ += o.met;
  iterations_ += o.iterations;
  if (firstUnexpected_.empty() && unexpected(o.status, expect)) {
    firstUnexpected_ = label + ": " + statusName(o.status) +
                       (o.detail.empty() ? "" : " (" + o.detail + ")") + "\n" +
                       firstLines(o.report, 14);
  }
}

bool Tally::pass(Expect expect, double minMetPercent) const {
  bool ok = runs_ > 0;
  switch (expect) {
  case Expect::Ok:
    ok = ok && ok_ == runs_;
    break;
  case Expect::Deadlock:
    ok = ok && deadlock_ == runs_;
    break;
  case Expect::Race:
    ok = ok && wrong_ > 0 && deadlock_ == 0 && failed_ == 0;
    break;
  }
  if (minMetPercent >= 0 && iterations_ > 0 && metPercent() < minMetPercent)
    ok = false;
  return ok;
}

double Tally::meanFound() const {
  if (found_.empty())
    return 0;
  return std::accumulate(found_.begin(), found_.end(), 0.0) / found_.size();
}

int Tally::minFound() const {
  return found_.empty() ? -1 : *std::min_element(found_.begin(), found_.end());
}

int Tally::maxFound() const {
  return found_.empty() ? -1 : *std::max_element(found_.begin(), found_.end());
}

int Tally::medianFound() const {
  if (found_.empty())
    return -1;
  std::vector<int> v = found_;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

double Tally::metPercent() const { return iterations_ ? 100.0 * met_ / iterations_ : 0.0; }

} // namespace corpus

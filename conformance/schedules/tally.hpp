// Counting the outcomes of many runs of one program under one configuration, and
// judging them against an expectation.
#pragma once

#include "program.hpp"

#include <string>
#include <vector>

namespace corpus {

class Tally {
public:
  // `label` names the run for messages ("seed 17", "parallel run 3").
  void add(const Outcome &o, const std::string &label, Expect expect);

  // ok: every run completed with right results; deadlock: every run was
  // reported; race: at least one wrong result and no deadlock or failure. With
  // minMetPercent >= 0, also that share of iterations met (litmus, handshake).
  bool pass(Expect expect, double minMetPercent) const;

  int runs() const { return runs_; }
  int ok() const { return ok_; }
  int wrong() const { return wrong_; }
  int deadlocks() const { return deadlock_; }
  int failed() const { return failed_; }
  const std::vector<int> &found() const { return found_; }
  double meanFound() const;
  int minFound() const;
  int maxFound() const;
  int medianFound() const;
  long met() const { return met_; }
  long iterations() const { return iterations_; }
  double metPercent() const;

  // The first run whose outcome went against the expectation: what it was, and
  // the start of FiberCL's report if there was one. Empty if none.
  const std::string &firstUnexpected() const { return firstUnexpected_; }

private:
  int runs_ = 0, ok_ = 0, wrong_ = 0, deadlock_ = 0, failed_ = 0;
  std::vector<int> found_;
  long met_ = 0, iterations_ = 0;
  std::string firstUnexpected_;
};

} // namespace corpus

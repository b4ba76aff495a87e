// FIBERCL_CHECK (checks.hpp).
#include "checks.hpp"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <sstream>

namespace fibercl::compiler {
namespace {

// Each word of FIBERCL_CHECK that is not a check FiberCL builds is said once.
void sayOnce(const std::string &word, const char *why) {
  static std::mutex m;
  static std::set<std::string> said;
  std::lock_guard<std::mutex> hold(m);
  if (said.insert(word).second)
    std::fprintf(stderr, "FiberCL: FIBERCL_CHECK=%s: %s\n", word.c_str(), why);
}

} // namespace

Checks checksFromEnvironment() {
  Checks c;
  const char *env = std::getenv("FIBERCL_CHECK");
  if (!env)
    return c;
  std::stringstream words(env);
  for (std::string w; std::getline(words, w, ',');) {
    if (w.empty() || w == "none")
      continue;
    if (w == "bounds" || w == "all")
      c.bounds = true;
    if (w == "uninit" || w == "all")
      c.uninit = true;
    if (w == "races" || w == "all")
      c.races = true;
    if (w == "weak") // a memory model, not a check: `all` leaves it out
      c.weak = true;
    if (w == "divergence")
      continue; // barrier divergence is reported without being asked
    if (w != "bounds" && w != "uninit" && w != "races" && w != "weak" && w != "all")
      sayOnce(w, "unknown check (known: bounds, uninit, races, weak, divergence, all): ignored");
  }
  return c;
}

std::string checksKey() {
  Checks c = checksFromEnvironment();
  return std::string(c.bounds ? " checks=bounds" : "") + (c.uninit ? " checks=uninit" : "") +
         (c.races ? " checks=races" : "") + (c.weak ? " checks=weak" : "");
}

} // namespace fibercl::compiler

// Where a run failed, from FiberCL's report (failure_place.hpp). The report texts are
// the runtime's: runtime/exec/yield_report.cpp (deadlock), fault.cpp (crash, loop that
// can never exit), fibers.cpp (barrier divergence), kernel_timeout.cpp (time-out).
#include "tools/failure_place.hpp"

#include <regex>
#include <set>
#include <sstream>
#include <vector>

namespace {

std::vector<std::string> linesOf(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

// The report's detail lines: those after line `first`, indented.
std::vector<std::string> detailLines(const std::vector<std::string> &lines, size_t first) {
  std::vector<std::string> detail;
  for (size_t i = first + 1; i < lines.size() && lines[i].compare(0, 2, "  ") == 0; ++i)
    detail.push_back(lines[i]);
  return detail;
}

// The sites (source line, kind, function) that `pattern`'s first group captures in
// `detail`, sorted, once each: the same whichever work-group waits at which.
std::string sitesIn(const std::vector<std::string> &detail, const std::regex &pattern) {
  std::set<std::string> sites;
  std::smatch m;
  for (const std::string &line : detail)
    if (std::regex_search(line, m, pattern))
      sites.insert(m[1]);
  std::string s;
  for (const std::string &site : sites)
    s += (s.empty() ? " at " : "; ") + site;
  return s;
}

// A report of a kind this file does not know: its first line, numbers replaced.
std::string withoutNumbers(const std::string &line) {
  static const std::regex number("0x[0-9a-fA-F]+|[0-9]+");
  return std::regex_replace(line, number, "#");
}

} // namespace

std::string failurePlace(const std::string &err) {
  static const std::regex deadlock("^FiberCL: deadlock in kernel '(.*)'$");
  static const std::regex spinning("spinning at (.*)$");
  static const std::regex crash("^FiberCL: kernel '(.*)' crashed in work-group \\([0-9,]*\\): "
                                "(\\w+) \\((.*?)( at address 0x[0-9a-fA-F]+)?\\)$");
  static const std::regex endless("^FiberCL: kernel '(.*)' in work-group \\([0-9,]*\\) "
                                  "entered a loop that can never exit(?: \\((.*)\\))?, so");
  static const std::regex divergence("^FiberCL: kernel '(.*)': barrier divergence in ");
  static const std::regex barrierAt("barrier #[0-9]+ is at (.*)$");
  static const std::regex timeout("^FiberCL: kernel '(.*)' has run for longer than "
                                  "FIBERCL_KERNEL_TIMEOUT");
  std::vector<std::string> lines = linesOf(err);
  std::smatch m;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string &line = lines[i];
    if (line.rfind("FiberCL: ", 0) != 0)
      continue;
    if (std::regex_search(line, m, deadlock))
      return "deadlock in kernel '" + m[1].str() + "'" + sitesIn(detailLines(lines, i), spinning);
    if (line == "FiberCL: deadlock (report failed)")
      return "deadlock (report failed)";
    if (std::regex_search(line, m, crash))
      return "kernel '" + m[1].str() + "' crashed: " + m[2].str() + " (" + m[3].str() + ")";
    if (std::regex_search(line, m, endless))
      return "kernel '" + m[1].str() + "': loop that can never exit" +
             (m[2].matched ? " at " + m[2].str() : std::string());
    if (std::regex_search(line, m, divergence))
      return "kernel '" + m[1].str() + "': barrier divergence" +
             sitesIn(detailLines(lines, i), barrierAt);
    if (std::regex_search(line, m, timeout))
      return "kernel '" + m[1].str() + "': ran longer than FIBERCL_KERNEL_TIMEOUT";
  }
  // Another failure of a kernel (a cooperative kernel's work-items disagreeing, no
  // memory for a work-group...).
  for (const std::string &line : lines)
    if (line.rfind("FiberCL: kernel '", 0) == 0)
      return withoutNumbers(line.substr(9));
  return {};
}

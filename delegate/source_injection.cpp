// injectFiberclHeaders (source_injection.hpp).
#include "delegate/source_injection.hpp"

#include <regex>
#include <sstream>

#include "fibercl/builtins.hpp"

namespace fibercl::delegate {
namespace {

// `#include <fibercl/NAME>` or `#include "fibercl/NAME"`, nothing else on the line
// but a comment.
const std::regex &includeLine() {
  static const std::regex re(
      R"(^\s*#\s*include\s*[<"](fibercl/[A-Za-z_]+\.h)[>"]\s*(//.*|/\*.*\*/\s*)?$)");
  return re;
}

} // namespace

std::string injectFiberclHeaders(const std::string &source) {
  if (source.find("fibercl/") == std::string::npos)
    return source; // the common case: nothing to do
  std::istringstream in(source);
  std::string out, line;
  size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::smatch m;
    if (!std::regex_match(line, m, includeLine())) {
      out += line + "\n";
      continue;
    }
    const std::string name = m[1];
    if (name == "fibercl/cooperative.h") { // needs FiberCL's scheduler
      out += "#error \"<fibercl/cooperative.h>: cooperative kernels (offer_kill, "
             "request_fork, resizing barriers) run only on FiberCL's CPU device\"\n";
      continue;
    }
    bool found = false;
    for (const builtins::ServedHeader &h : builtins::servedHeaders())
      if (name == h.includeName) {
        out += std::string(h.text) + "\n#line " + std::to_string(number + 1) + "\n";
        found = true;
      }
    if (!found)
      out += line + "\n"; // not ours: the vendor's compiler says so
  }
  return out;
}

} // namespace fibercl::delegate

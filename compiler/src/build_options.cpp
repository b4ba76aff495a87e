// Parses OpenCL build options: the preprocessor, math, optimisation, warning, version,
// debugging and linker options of the OpenCL 3.0 API specification (5.8.6), and
// rejects anything else so that clBuildProgram can return CL_INVALID_BUILD_OPTIONS.
#include "build_options.hpp"

#include <cctype>

namespace fibercl::compiler {
namespace {

// Splits on whitespace, honouring double quotes (e.g. -D NAME="a b").
std::vector<std::string> tokenize(const std::string &s, std::string &error) {
  std::vector<std::string> out;
  std::string cur;
  bool inQuotes = false, have = false;
  for (char c : s) {
    if (c == '"') {
      inQuotes = !inQuotes;
      have = true;
    } else if (!inQuotes && std::isspace(static_cast<unsigned char>(c))) {
      if (have)
        out.push_back(cur);
      cur.clear();
      have = false;
    } else {
      cur += c;
      have = true;
    }
  }
  if (inQuotes)
    error = "unterminated quote in build options";
  if (have)
    out.push_back(cur);
  return out;
}

// Options that map one to one onto Clang's cc1 options (but the two hints below).
const char *const kMathAndOptFlags[] = {"-cl-single-precision-constant",
                                        "-cl-denorms-are-zero",
                                        "-cl-fp32-correctly-rounded-divide-sqrt",
                                        "-cl-mad-enable",
                                        "-cl-no-signed-zeros",
                                        "-cl-unsafe-math-optimizations",
                                        "-cl-finite-math-only",
                                        "-cl-fast-relaxed-math",
                                        "-cl-uniform-work-group-size",
                                        "-cl-no-subgroup-ifp",
                                        "-cl-strict-aliasing"};

bool isOneOf(const std::string &s, const char *const *list, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (s == list[i])
      return true;
  return false;
}

} // namespace

BuildOptions parseBuildOptions(const std::string &options, OptionsFor purpose) {
  BuildOptions o;
  bool uniformFlag = false;
  auto tokens = tokenize(options, o.error);
  const bool compiles = purpose != OptionsFor::Link;
  for (size_t i = 0; i < tokens.size() && o.error.empty(); ++i) {
    const std::string &t = tokens[i];
    auto takeValue = [&](const std::string &flag) -> std::string {
      if (t.size() > flag.size())
        return t.substr(flag.size());
      if (i + 1 < tokens.size())
        return tokens[++i];
      o.error = "missing value after " + flag;
      return {};
    };
    if (compiles && (t.rfind("-D", 0) == 0 || t.rfind("-U", 0) == 0)) {
      std::string flag = t.substr(0, 2);
      std::string v = takeValue(flag);
      if (o.error.empty()) {
        if (v.empty())
          o.error = "empty macro name after " + flag;
        o.clangArgs.push_back(flag + v);
      }
    } else if (compiles && t.rfind("-I", 0) == 0) {
      std::string v = takeValue("-I");
      if (o.error.empty() && v.empty()) // `-I ""` (found by fuzz/build_options.cpp)
        o.error = "empty directory after -I";
      if (o.error.empty()) {
        o.clangArgs.push_back("-I");
        o.clangArgs.push_back(v);
      }
    } else if (compiles && t.rfind("-cl-std=", 0) == 0) {
      std::string v = t.substr(8);
      if (v != "CL1.0" && v != "CL1.1" && v != "CL1.2" && v != "CL2.0" && v != "CL3.0")
        o.error = "unsupported OpenCL C version '" + v +
                  "' (FiberCL accepts CL1.0, "
                  "CL1.1, CL1.2, CL2.0 and CL3.0)";
      o.clStd = v;
    } else if (compiles && t == "-w") {
      o.clangArgs.push_back("-w");
    } else if (compiles && t == "-Werror") {
      o.clangArgs.push_back("-Werror");
    } else if (compiles && t == "-g") {
      o.debugInfo = true;
    } else if (compiles && t == "-cl-kernel-arg-info") {
      o.kernelArgInfo = true;
    } else if (compiles && t == "-cl-opt-disable") {
      o.optDisable = true;
    } else if (isOneOf(t, kMathAndOptFlags, std::size(kMathAndOptFlags))) {
      bool linkOption = t == "-cl-denorms-are-zero" || t == "-cl-no-signed-zeros" ||
                        t == "-cl-unsafe-math-optimizations" || t == "-cl-finite-math-only" ||
                        t == "-cl-fast-relaxed-math";
      uniformFlag |= t == "-cl-uniform-work-group-size";
      if (!compiles && !linkOption)
        o.error = "option " + t + " is not a link option";
      else if (t != "-cl-denorms-are-zero" && t != "-cl-no-subgroup-ifp")
        o.clangArgs.push_back(t);
      // Both are hints Clang's cc1 does not take for x86 (its driver drops them):
      // denormals stay supported (CL_FP_DENORM), and sub-groups make no independent
      // forward progress promise to give up.
    } else if (purpose == OptionsFor::Link && t == "-create-library") {
      o.createLibrary = true;
    } else if (purpose == OptionsFor::Link && t == "-enable-link-options") {
      o.enableLinkOptions = true;
    } else {
      o.error = "unknown build option '" + t + "'";
    }
  }
  o.uniformWorkGroups = uniformFlag || o.clStd.empty() || o.clStd < "CL2.0";
  return o;
}

} // namespace fibercl::compiler

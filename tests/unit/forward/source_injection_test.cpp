// injectFiberclHeaders: the primitives header's text replaces its #include, and a
// #line directive gives the rest of the program its own line numbers back.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "delegate/source_injection.hpp"

namespace {

using fibercl::delegate::injectFiberclHeaders;

// The text after the last "#line N" directive, and N.
std::pair<int, std::string> afterLastLine(const std::string &s) {
  size_t at = s.rfind("\n#line ");
  if (at == std::string::npos)
    return {0, s};
  size_t eol = s.find('\n', at + 1);
  return {std::stoi(s.substr(at + 7, eol - at - 7)), s.substr(eol + 1)};
}

TEST(SourceInjection, ProgramsWithoutFiberclIncludesAreUnchanged) {
  const std::string src = "#include <other.h>\nkernel void k() {}\n";
  EXPECT_EQ(injectFiberclHeaders(src), src);
}

TEST(SourceInjection, PrimitivesHeaderIsInlinedAndLinesKept) {
  const std::string src =
      "// line 1\n#include <fibercl/primitives.h>\nkernel void k() {} // line 3\n";
  std::string out = injectFiberclHeaders(src);
  EXPECT_EQ(out.find("#include <fibercl/primitives.h>"), std::string::npos);
  EXPECT_NE(out.find("fibercl_discover_local"), std::string::npos) << "the header's text";
  EXPECT_EQ(out.rfind("// line 1\n", 0), 0u) << "what comes before is untouched";
  auto [line, rest] = afterLastLine(out);
  EXPECT_EQ(line, 3);
  EXPECT_EQ(rest, "kernel void k() {} // line 3\n");
}

TEST(SourceInjection, QuotedFormAndTrailingCommentAndSpacing) {
  for (const char *inc :
       {"#include \"fibercl/primitives.h\"", "  #  include <fibercl/primitives.h> // mutexes",
        "#include <fibercl/primitives.h> /* barrier */"}) {
    std::string out = injectFiberclHeaders(std::string(inc) + "\nx\n");
    EXPECT_NE(out.find("fibercl_xf_barrier"), std::string::npos) << inc;
    EXPECT_EQ(afterLastLine(out).first, 2) << inc;
  }
}

TEST(SourceInjection, CooperativeHeaderIsAClearErrorOnItsLine) {
  std::string out = injectFiberclHeaders("a\n#include <fibercl/cooperative.h>\nb\n");
  std::istringstream in(out);
  std::string l1, l2, l3;
  std::getline(in, l1);
  std::getline(in, l2);
  std::getline(in, l3);
  EXPECT_EQ(l1, "a");
  EXPECT_EQ(l2.rfind("#error", 0), 0u) << l2;
  EXPECT_NE(l2.find("only on FiberCL's CPU device"), std::string::npos);
  EXPECT_EQ(l3, "b") << "one line for one line: no #line needed";
}

TEST(SourceInjection, UnknownFiberclHeaderIsLeftForTheVendorToReport) {
  const std::string src = "#include <fibercl/nothing.h>\n";
  EXPECT_EQ(injectFiberclHeaders(src), src);
}

} // namespace

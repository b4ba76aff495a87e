// A compiler crash costs one failed build, never the application (issue 28): a fault,
// an abort, an LLVM fatal error or a stack overflow inside the build returns
// CL_BUILD_PROGRAM_FAILURE with a log that says the compiler crashed, and the same
// process then builds and runs a vector addition.
#include <cstdlib>
#include <string>

#include "cl_test.hpp"

namespace {

using namespace fcltest;

class CompilerCrash : public CLTest {
protected:
  // A source no cache has seen (a crashed build must not be served from one).
  static std::string fresh(const std::string &body) {
    return "// " + std::to_string(getpid()) + "-" + std::to_string(std::rand()) + "\n" + body;
  }
  void expectCrashReported(const BuildResult &r, const std::string &what) {
    EXPECT_EQ(r.err, CL_BUILD_PROGRAM_FAILURE) << what << "\n" << r.log;
    EXPECT_NE(r.log.find("the compiler crashed"), std::string::npos) << what << "\n" << r.log;
    EXPECT_NE(r.log.find("please report it"), std::string::npos) << what << "\n" << r.log;
  }
};

const char *kKernel = "__kernel void k(__global int* p) { p[get_global_id(0)] = 1; }\n";

TEST_F(CompilerCrash, ACrashInsideThePipelineFailsOnlyThatBuild) {
  SKIP_UNLESS_FIBERCL("FIBERCL_TEST_CRASH is FiberCL's test hook");
  for (const char *how : {"segv", "abort", "fatal", "overflow"}) {
    setenv("FIBERCL_TEST_CRASH", how, 1);
    BuildResult r = tryBuild(fresh(kKernel));
    unsetenv("FIBERCL_TEST_CRASH");
    expectCrashReported(r, how);
    if (std::string(how) == "fatal") {
      EXPECT_NE(r.log.find("LLVM fatal error: FIBERCL_TEST_CRASH=fatal"), std::string::npos)
          << r.log;
    }
    expectVecAddStillWorks();
  }
  // And the same source builds once the hook is off: nothing of the crash was cached.
  BuildResult again = tryBuild(kKernel);
  EXPECT_CL(again.err) << again.log;
}

TEST_F(CompilerCrash, ClangOverflowingItsStackFailsTheBuild) {
  SKIP_UNLESS_FIBERCL("the compiler's stack is FiberCL's");
  // 100,000 nested '!': Clang recurses ~5 KB per operator, past the compiler thread's
  // 256 MB stack.
  std::string src =
      "__kernel void deep(__global int* p) { p[0] = " + std::string(100000, '!') + "p[1]; }\n";
  BuildResult r = tryBuild(fresh(src));
  expectCrashReported(r, "100,000 nested '!'");
  expectVecAddStillWorks();
}

} // namespace

// A crash inside Clang or LLVM during a build costs that build, not the application
// (issue 28): a fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL -- a stack overflow included),
// an abort (SIGABRT: an assertion) or an LLVM fatal error (report_fatal_error) on a
// thread running guarded work jumps back out of it, and the build fails with a log.
//
// DECIDED: in-process recovery on the compiler's own thread (compiler_stack.hpp), not a
// compiler subprocess. A subprocess would have to rebuild the builtins and the JIT's
// state on every build, and an ICD that forks inside a Python notebook or a game is a
// surprise of its own; what a jump out of LLVM leaves behind is leaked memory and, in
// the worst case, a lock LLVM held at the crash. FiberCL never reuses anything of a
// crashed build (its LLVMContext is abandoned, nothing is cached) and says so in the
// log. Signals on threads without guarded work go to the handlers installed before
// these (the runtime's kernel-fault handler, or the default action).
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>

#include <string>

namespace fibercl::compiler {

// Runs fn; true if it returned, false if it crashed, with `what` saying how
// ("SIGSEGV (stack overflow?)", "LLVM fatal error: ...").
bool runGuarded(llvm::function_ref<void()> fn, std::string &what);

// The tests' way to crash a build on purpose, in the middle of the pipeline:
// FIBERCL_TEST_CRASH=segv | abort | fatal | overflow (a fault, an abort, an LLVM fatal
// error, a stack overflow). Nothing when unset.
void crashForTesting();

} // namespace fibercl::compiler

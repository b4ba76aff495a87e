// The compiler's work (Clang, FiberCL's passes, O3, code generation) runs on a thread of
// its own with a large stack, not on the application's thread that called clBuildProgram.
//
// Clang and LLVM recurse on the shape of the program: Clang 19's parser takes one
// recursion of ParseCastExpression, about 5 KB of stack, per prefix operator or cast
// (`!!!...x`, `(int)(int)...x`), and after parsing one per operand of a long binary
// chain (`a+a+...`). Clang's own driver gives it an 8 MB stack and still overflows at about 1,500
// `!` in a row (found by fuzz/opencl_source.cpp: clang-19 -fsyntax-only crashes the
// same way). On an application's thread the limit was whatever that thread had: 200
// nested `!` were a crash on a 1 MB thread. With kCompilerStackBytes the limit is 32
// times Clang's own, whatever thread builds. Deeper recursion overflows it still, but
// the thread runs guarded (build_guard.hpp): the overflow fails the build, not the
// application.
//
// The stack is address space, touched only as deep as a build goes and unmapped when
// the build ends. If the thread cannot be created, the work runs on the calling thread.
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>

#include <optional>
#include <string>
#include <utility>

namespace fibercl::compiler {

inline constexpr size_t kCompilerStackBytes = size_t(256) << 20;

// Runs fn on a thread with a kCompilerStackBytes stack and waits for it, guarded
// (build_guard.hpp). Returns "" or, if fn crashed, how. An exception fn throws is
// rethrown here; the caller's BuildTimer keeps receiving the phases.
std::string runOnCompilerStack(llvm::function_ref<void()> fn);

// fn's result, or onCrash(how) if fn crashed.
template <class F, class C> auto onCompilerStack(F &&fn, C &&onCrash) -> decltype(fn()) {
  std::optional<decltype(fn())> result;
  std::string crash = runOnCompilerStack([&] { result.emplace(fn()); });
  if (!result)
    return onCrash(crash);
  return std::move(*result);
}

} // namespace fibercl::compiler
